package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	edgeclient "github.com/edged/edged/clients/go/v2/edgeclient"
)

// destination is an HTTP server in the suite's process taking readings in
// http_south's format. It refuses (400) every request holding a reading
// whose "bad" member is true unless acceptBad is set, and answers 503 to
// everything while down is set. The gateway reaches it on loopback. A new
// north service sends every buffered reading, other tests' included, so
// what it received is kept per asset.
type destination struct {
	srv *httptest.Server

	mu        sync.Mutex
	got       map[string][]int // asset → the "i" of every reading accepted
	acceptBad bool
	down      bool
}

func newDestination(t *testing.T) *destination {
	t.Helper()
	d := &destination{got: map[string][]int{}}
	d.srv = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *destination) url() string { return d.srv.URL + "/sensor-reading" }

func (d *destination) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var els []struct {
		Asset    string `json:"asset"`
		Readings struct {
			I   int  `json:"i"`
			Bad bool `json:"bad"`
		} `json:"readings"`
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case d.down:
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, `{"message": "down for maintenance"}`)
		return
	case json.Unmarshal(raw, &els) != nil:
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"message": "not an array of readings"}`)
		return
	}
	for k, e := range els {
		if e.Readings.Bad && !d.acceptBad {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprintf(w, `{"message": "element %d: reading %d is invalid here"}`, k, e.Readings.I)
			return
		}
	}
	for _, e := range els {
		d.got[e.Asset] = append(d.got[e.Asset], e.Readings.I)
	}
	_, _ = fmt.Fprintf(w, `{"message": "%d readings stored", "readings": %d}`, len(els), len(els))
}

func (d *destination) set(f func(d *destination)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f(d)
}

// received returns the "i" of every reading of asset accepted, in order.
func (d *destination) received(asset string) []int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.got[asset])
}

// needsLocalGateway skips a test whose destination runs in the suite's
// process when the gateway under test may not reach it.
func needsLocalGateway(t *testing.T) {
	t.Helper()
	if !ownGateway {
		t.Skip("the destination runs in the suite's process on loopback: needs a gateway the suite started")
	}
}

// createNorthWith creates an http_north service with config and deletes
// it when the test ends.
func createNorthWith(t *testing.T, c *edgeclient.ClientWithResponses, name string, config map[string]string) {
	t.Helper()
	var body edgeclient.ServiceRequest
	must(t, body.FromServiceCreateRequest(edgeclient.ServiceCreateRequest{Name: name, Type: "north",
		Plugin: ptr("http_north"), Enabled: true, Config: northConfig(config)}))
	resp, err := c.CreateServiceWithResponse(t.Context(), nil, body)
	must(t, err)
	wantStatus(t, "createService (north) "+name, resp.StatusCode(), resp.Body, http.StatusOK)
	t.Cleanup(func() {
		r, err := c.DeleteServiceWithResponse(context.Background(), name)
		if err == nil && r.StatusCode() != http.StatusOK && r.StatusCode() != http.StatusNotFound {
			t.Errorf("clean up north service %s: status %d", name, r.StatusCode())
		}
	})
}

// flaggedBody is a batch of readings of asset numbered first..first+n-1,
// with "bad": true on those bad says.
func flaggedBody(asset string, first, n int, bad func(i int) bool) string {
	var b strings.Builder
	b.WriteByte('[')
	base := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		i := first + k
		fmt.Fprintf(&b, `{"timestamp":%q,"asset":%q,"readings":{"i":%d,"bad":%t}}`,
			base.Add(time.Duration(i)*time.Millisecond).Format("2006-01-02 15:04:05.000000"), asset, i, bad(i))
	}
	b.WriteByte(']')
	return b.String()
}

// setAside lists the readings name set aside.
func setAside(t *testing.T, c *edgeclient.ClientWithResponses, name string) edgeclient.SetAsideList {
	t.Helper()
	resp, err := c.ListSetAsideReadingsWithResponse(t.Context(), name, &edgeclient.ListSetAsideReadingsParams{Limit: ptr(10000)})
	must(t, err)
	wantStatus(t, "listSetAsideReadings "+name, resp.StatusCode(), resp.Body, http.StatusOK)
	return *resp.JSON200
}

// TestNorthSetsAsideRefusedReadings: a reading the destination refuses
// for good (400) does not block the readings after it: it is set aside
// (listed, counted in <name>-SetAside, audited NHREJ with its id) and the
// service stays running; resent once the destination takes it, it is
// delivered and counted sent; deleted, it is gone.
func testNorthSetsAsideRefusedReadings(t *testing.T) {
	needsLocalGateway(t)
	dest := newDestination(t)
	c := api(t)
	feed := httpSouth(t, c)
	asset, name := unique("conf-aside"), unique("conf-aside")
	createNorthWith(t, c, name, map[string]string{"url": dest.url(), "maxRetryInterval": "1", "blockSize": "10", "rejectAfter": "2"})

	post := func(body string) {
		t.Helper()
		status, b, err := postIngest(t.Context(), gatewayHost(t, baseURL), feed, "sensor-reading", body)
		if err != nil || status != http.StatusOK {
			t.Fatalf("post readings: %d %s %v", status, b, err)
		}
	}
	post(flaggedBody(asset, 0, 20, func(i int) bool { return i == 7 }))
	eventually(t, 30*time.Second, "19 readings delivered and one set aside", func() bool {
		return len(dest.received(asset)) >= 19 && setAside(t, c, name).Total == 1
	})
	if got := dest.received(asset); slices.Contains(got, 7) || len(got) != 19 {
		t.Errorf("the destination received %v, want every reading but 7, once", got)
	}
	list := setAside(t, c, name)
	r := list.Readings[0]
	if r.Asset != asset || r.Reading["i"] != float64(7) || r.Reading["bad"] != true || !r.Timestamp.Equal(time.Date(2024, 7, 1, 0, 0, 0, 7_000_000, time.UTC)) ||
		!strings.Contains(r.Reason, "400") || r.Resend || r.ReadingId < 1 || r.Id < 1 || r.SetAside.IsZero() {
		t.Errorf("set-aside reading = %+v", r)
	}
	stats := statistics(t, c)
	if stats[name+"-SetAside"] != 1 || stats[name] < 19 {
		t.Errorf("statistics %s = %d, %s-SetAside = %d; want at least 19 (other tests' readings too) and 1",
			name, stats[name], name, stats[name+"-SetAside"])
	}
	audited := false
	for _, e := range listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(edgeclient.NHREJ), Limit: ptr(1000)}).Audit {
		ids, _ := e.Details["readings"].([]any)
		if e.Details["name"] == name && slices.Contains(ids, any(float64(r.ReadingId))) {
			audited = true
		}
	}
	if !audited {
		t.Errorf("no NHREJ entry names %s and reading %d", name, r.ReadingId)
	}
	if rec := northRecord(t, c, name); rec == nil || rec.Status != edgeclient.ServiceStatusRunning {
		t.Errorf("north record after a refusal = %+v, want running", rec)
	}

	// Resent once the destination takes it: delivered, counted sent.
	dest.set(func(d *destination) { d.acceptBad = true })
	resp, err := c.ResendSetAsideReadingsWithResponse(t.Context(), name, edgeclient.ResendSetAsideReadingsJSONRequestBody{})
	must(t, err)
	wantStatus(t, "resendSetAsideReadings", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200.Count != 1 {
		t.Errorf("resend count = %d, want 1", resp.JSON200.Count)
	}
	eventually(t, 30*time.Second, "the set-aside reading delivered", func() bool {
		return slices.Contains(dest.received(asset), 7) && setAside(t, c, name).Total == 0
	})
	eventually(t, 10*time.Second, "the resent reading counted sent", func() bool { return statistics(t, c)[name] > stats[name] })

	// Deleted by id: gone; deleting again finds none.
	dest.set(func(d *destination) { d.acceptBad = false })
	post(flaggedBody(asset, 20, 2, func(i int) bool { return i == 21 }))
	eventually(t, 30*time.Second, "the second refused reading set aside", func() bool { return setAside(t, c, name).Total == 1 })
	id := setAside(t, c, name).Readings[0].Id
	del, err := c.DeleteSetAsideReadingsWithResponse(t.Context(), name, &edgeclient.DeleteSetAsideReadingsParams{Id: &[]int64{id, id + 1000}})
	must(t, err)
	wantStatus(t, "deleteSetAsideReadings", del.StatusCode(), del.Body, http.StatusOK)
	if del.JSON200.Count != 1 || setAside(t, c, name).Total != 0 {
		t.Errorf("delete by id: count %d, %d left", del.JSON200.Count, setAside(t, c, name).Total)
	}
	del, err = c.DeleteSetAsideReadingsWithResponse(t.Context(), name, nil)
	must(t, err)
	wantStatus(t, "deleteSetAsideReadings (all)", del.StatusCode(), del.Body, http.StatusOK)
	if del.JSON200.Count != 0 {
		t.Errorf("delete of none: count %d", del.JSON200.Count)
	}
}

// TestSetAsideErrors: the set-aside operations of a name that is no north
// service or task are 404; bad paging, ids and bodies are 400.
func testSetAsideErrors(t *testing.T) {
	c := api(t)
	unknown := unique("conf-no-north")
	list, err := c.ListSetAsideReadingsWithResponse(t.Context(), unknown, nil)
	must(t, err)
	checkError(t, list.StatusCode(), list.Body, http.StatusNotFound)
	resend, err := c.ResendSetAsideReadingsWithResponse(t.Context(), unknown, edgeclient.ResendSetAsideReadingsJSONRequestBody{})
	must(t, err)
	checkError(t, resend.StatusCode(), resend.Body, http.StatusNotFound)
	del, err := c.DeleteSetAsideReadingsWithResponse(t.Context(), unknown, nil)
	must(t, err)
	checkError(t, del.StatusCode(), del.Body, http.StatusNotFound)

	// A south service is no north service.
	south := unique("conf-south")
	createSouth(t, c, southDef{name: south, plugin: "sinusoid", enabled: false})
	list, err = c.ListSetAsideReadingsWithResponse(t.Context(), south, nil)
	must(t, err)
	checkError(t, list.StatusCode(), list.Body, http.StatusNotFound)

	name := unique("conf-aside-err")
	createNorthWith(t, c, name, map[string]string{"url": "http://127.0.0.1:9/sensor-reading"})
	list, err = c.ListSetAsideReadingsWithResponse(t.Context(), name, &edgeclient.ListSetAsideReadingsParams{Limit: ptr(0)})
	must(t, err)
	checkError(t, list.StatusCode(), list.Body, http.StatusBadRequest)
	del, err = c.DeleteSetAsideReadingsWithResponse(t.Context(), name, &edgeclient.DeleteSetAsideReadingsParams{Id: &[]int64{0}})
	must(t, err)
	checkError(t, del.StatusCode(), del.Body, http.StatusBadRequest)
	resend, err = c.ResendSetAsideReadingsWithBodyWithResponse(t.Context(), name, "application/json", strings.NewReader(`{"ids": "all"}`))
	must(t, err)
	checkError(t, resend.StatusCode(), resend.Body, http.StatusBadRequest)
	resend, err = c.ResendSetAsideReadingsWithBodyWithResponse(t.Context(), name, "application/json", strings.NewReader(`{"ids": [1], "extra": 1}`))
	must(t, err)
	checkError(t, resend.StatusCode(), resend.Body, http.StatusBadRequest)

	// A north service without readings set aside: empty, not an error.
	l := setAside(t, c, name)
	if l.Total != 0 || l.Readings == nil || len(l.Readings) != 0 {
		t.Errorf("set aside of a new north service = %+v", l)
	}
	resend, err = c.ResendSetAsideReadingsWithResponse(t.Context(), name, edgeclient.ResendSetAsideReadingsJSONRequestBody{Ids: &[]int64{5}})
	must(t, err)
	wantStatus(t, "resendSetAsideReadings of none", resend.StatusCode(), resend.Body, http.StatusOK)
	if resend.JSON200.Count != 0 {
		t.Errorf("resend of none: count %d", resend.JSON200.Count)
	}
}

// TestNorthDestinationFailureShowsInStatus: while its destination answers
// 503 a north service is unresponsive and ping's health amber; once the
// destination takes readings again the service is running, ping green,
// and every reading arrived.
func testNorthDestinationFailureShowsInStatus(t *testing.T) {
	needsLocalGateway(t)
	dest := newDestination(t)
	dest.set(func(d *destination) { d.down = true })
	c := api(t)
	feed := httpSouth(t, c)
	asset, name := unique("conf-down"), unique("conf-down")
	createNorthWith(t, c, name, map[string]string{"url": dest.url(), "maxRetryInterval": "1"})
	status, b, err := postIngest(t.Context(), gatewayHost(t, baseURL), feed, "sensor-reading",
		flaggedBody(asset, 0, 5, func(int) bool { return false }))
	if err != nil || status != http.StatusOK {
		t.Fatalf("post readings: %d %s %v", status, b, err)
	}
	health := func() edgeclient.PingHealth {
		p, err := c.PingWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "ping", p.StatusCode(), p.Body, http.StatusOK)
		return p.JSON200.Health
	}
	eventually(t, 30*time.Second, "the north service unresponsive while its destination fails", func() bool {
		rec := northRecord(t, c, name)
		return rec != nil && rec.Status == edgeclient.ServiceStatusUnresponsive
	})
	if h := health(); h != edgeclient.Amber {
		t.Errorf("ping health while a north destination fails = %s, want amber", h)
	}

	dest.set(func(d *destination) { d.down = false })
	eventually(t, 30*time.Second, "the north service running again", func() bool {
		rec := northRecord(t, c, name)
		return rec != nil && rec.Status == edgeclient.ServiceStatusRunning
	})
	eventually(t, 10*time.Second, "ping green again", func() bool { return health() == edgeclient.Green })
	eventually(t, 10*time.Second, "the readings delivered", func() bool { return len(dest.received(asset)) >= 5 })
	for _, src := range []edgeclient.AuditSource{edgeclient.NHDWN, edgeclient.NHAVL} {
		found := false
		for _, e := range listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(src), Limit: ptr(1000)}).Audit {
			if e.Details["service"] == name {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s entry for %s", src, name)
		}
	}
}
