package conformance

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// ---- north helpers ----

// northConfig builds the config member of a create body.
func northConfig(config map[string]string) *map[string]edgeclient.ServiceConfigValue {
	if len(config) == 0 {
		return nil
	}
	cfg := map[string]edgeclient.ServiceConfigValue{}
	for k, v := range config {
		cfg[k] = edgeclient.ServiceConfigValue{Value: v}
	}
	return &cfg
}

// createNorth creates an http_north service sending to url and deletes
// it when the test ends.
func createNorth(t testing.TB, c *edgeclient.ClientWithResponses, name, url string) *edgeclient.ServiceCreated {
	t.Helper()
	created := newNorth(t, c, name, url)
	t.Cleanup(func() {
		r, err := c.DeleteServiceWithResponse(context.Background(), name)
		if err == nil && r.StatusCode() != http.StatusOK && r.StatusCode() != http.StatusNotFound {
			t.Errorf("clean up north service %s: status %d", name, r.StatusCode())
		}
	})
	return created
}

// newNorth creates an http_north service sending to url (retrying at
// least every second, 10 readings per request).
func newNorth(t testing.TB, c *edgeclient.ClientWithResponses, name, url string) *edgeclient.ServiceCreated {
	t.Helper()
	req := edgeclient.ServiceCreateRequest{Name: name, Type: "north", Plugin: ptr("http_north"), Enabled: true,
		Config: northConfig(map[string]string{"url": url, "maxRetryInterval": "1", "blockSize": "10"})}
	var body edgeclient.ServiceRequest
	must(t, body.FromServiceCreateRequest(req))
	resp, err := c.CreateServiceWithResponse(t.Context(), nil, body)
	must(t, err)
	wantStatus(t, "createService (north) "+name, resp.StatusCode(), resp.Body, http.StatusOK)
	return resp.JSON200
}

// northRecord returns the north listing's record of name, or nil.
func northRecord(t testing.TB, c *edgeclient.ClientWithResponses, name string) *edgeclient.NorthService {
	t.Helper()
	resp, err := c.ListNorthServicesWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listNorthServices", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listNorthServices: no JSON body: %s", truncate(resp.Body))
	}
	for i, s := range resp.JSON200.Services {
		if s.Name == name {
			return &resp.JSON200.Services[i]
		}
	}
	return nil
}

// seqValues returns the "i" values of the stored readings of asset
// (at most 10000), duplicates included: none while the asset has none
// (404).
func seqValues(t testing.TB, c *edgeclient.ClientWithResponses, asset string) []int {
	t.Helper()
	// Page through: a fast gateway stores more than one page in a test.
	const page = 10000
	var out []int
	for skip := 0; ; skip += page {
		resp, err := c.GetAssetReadingsWithResponse(t.Context(), asset, &edgeclient.GetAssetReadingsParams{Limit: ptr(page), Skip: ptr(skip)})
		must(t, err)
		if resp.StatusCode() == http.StatusNotFound {
			return out
		}
		wantStatus(t, "getAssetReadings "+asset, resp.StatusCode(), resp.Body, http.StatusOK)
		for _, r := range *resp.JSON200 {
			v, ok := r.Reading["i"].(float64)
			if !ok {
				t.Fatalf("reading %v of %s has no i", r.Reading, asset)
			}
			out = append(out, int(v))
		}
		if len(*resp.JSON200) < page {
			return out
		}
	}
}

// seqBody is a batch of n readings of asset numbered from first.
func seqBody(asset string, first, n int) string {
	var b strings.Builder
	b.WriteByte('[')
	base := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		i := first + k
		fmt.Fprintf(&b, `{"timestamp":%q,"asset":%q,"readings":{"i":%d}}`,
			base.Add(time.Duration(i)*time.Millisecond).Format("2006-01-02 15:04:05.000000"), asset, i)
	}
	b.WriteByte(']')
	return b.String()
}

// httpSouth creates an http_south service on a free port of the gateway c
// talks to and returns the port.
func httpSouth(t testing.TB, c *edgeclient.ClientWithResponses) int {
	t.Helper()
	port, err := freePort()
	must(t, err)
	createSouth(t, c, southDef{name: unique("conf-in"), plugin: "http_south", enabled: true,
		config: map[string]string{"port": strconv.Itoa(port)}})
	return port
}

// destinationGateway starts a second gateway of the suite's own (SQLite in
// a temporary directory) with an http_south service, and returns its
// client and the URL its readings are posted to.
func destinationGateway(t *testing.T) (*edgeclient.ClientWithResponses, string) {
	t.Helper()
	if !ownGateway {
		t.Skip("needs a gateway binary the suite built itself and a gateway on this machine; testing an external gateway (-url / EDGE_URL)")
	}
	gw, err := startGateway(gatewayBinary, filepath.Join(t.TempDir(), "data"), "")
	if err != nil {
		t.Fatalf("start the destination gateway: %v", err)
	}
	t.Cleanup(func() {
		if err := gw.stop(); err != nil {
			t.Errorf("stop the destination gateway: %v", err)
		}
	})
	c := apiAt(t, gw.url)
	port := httpSouth(t, c)
	return c, "http://127.0.0.1:" + strconv.Itoa(port) + "/sensor-reading"
}

// northAudit counts the audit entries of source on the gateway c talks to.
func northAudit(t testing.TB, c *edgeclient.ClientWithResponses, source edgeclient.AuditSource) []edgeclient.AuditEntry {
	t.Helper()
	resp, err := c.ListAuditEntriesWithResponse(t.Context(), &edgeclient.ListAuditEntriesParams{Source: &source, Limit: ptr(10000)})
	must(t, err)
	wantStatus(t, "listAuditEntries", resp.StatusCode(), resp.Body, http.StatusOK)
	return resp.JSON200.Audit
}

// pingSent returns ping's dataSent.
func pingSent(t testing.TB, c *edgeclient.ClientWithResponses) int {
	t.Helper()
	resp, err := c.PingWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "ping", resp.StatusCode(), resp.Body, http.StatusOK)
	return resp.JSON200.DataSent
}

// ---- tests ----

// TestNorthServiceForwards runs an http_north service on the gateway under
// test (on its storage, SQLite or PostgreSQL) sending to a second gateway's
// http_south, and follows the readings, the counters, ping, asset tracking
// and the north listing.
func testNorthServiceForwards(t *testing.T) {
	dest, url := destinationGateway(t)
	c := api(t)
	feed := httpSouth(t, c)
	asset := unique("conf-north")
	name := unique("conf-up")
	sentBefore := pingSent(t, c)
	created := createNorth(t, c, name, url)

	status, body, err := postIngest(t.Context(), gatewayHost(t, baseURL), feed, "sensor-reading", seqBody(asset, 0, 50))
	if err != nil || status != http.StatusOK {
		t.Fatalf("post readings: %d %s %v", status, body, err)
	}
	eventually(t, 30*time.Second, "50 readings reaching the destination", func() bool {
		counts, _ := assetCounts(t, dest)
		return counts[asset] >= 50
	})
	got := seqValues(t, dest, asset)
	slices.Sort(got)
	want := make([]int, 50)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(got, want) {
		t.Errorf("destination holds %v, want 0..49 once each", got)
	}
	if ts := readingTimestamps(t, dest, asset); ts[len(ts)-1] != "2024-06-01 00:00:00.000000" {
		t.Errorf("oldest forwarded timestamp = %q, want the sensor's", ts[len(ts)-1])
	}

	var rec *edgeclient.NorthService
	eventually(t, 10*time.Second, "the north listing counting the readings sent", func() bool {
		rec = northRecord(t, c, name)
		return rec != nil && rec.Sent >= 50
	})
	if rec.Type != edgeclient.NorthServiceTypeService || rec.Plugin.Name != "http_north" || rec.Plugin.Version == "" ||
		rec.Status != edgeclient.ServiceStatusRunning || rec.Schedule.Repeat != nil || !rec.Schedule.Enabled ||
		rec.Schedule.Id != created.Id {
		t.Errorf("north record = %+v", *rec)
	}
	if n := statistics(t, c)[name]; n < 50 {
		t.Errorf("statistic %s = %d, want at least 50", name, n)
	}
	if sent := pingSent(t, c); sent < sentBefore+50 {
		t.Errorf("ping dataSent = %d, want at least %d", sent, sentBefore+50)
	}
	egress := trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Asset: &asset, Event: ptr(edgeclient.Egress)})
	if len(egress) != 1 || egress[0].Service != name || egress[0].Plugin != "http_north" {
		t.Errorf("Egress events of %s = %+v", asset, egress)
	}
	if !slices.ContainsFunc(serviceRecords(t, c, "Northbound"), func(r edgeclient.ServiceRecord) bool { return r.Name == name }) {
		t.Errorf("listServices?type=Northbound lacks %s", name)
	}
	cat := getCategory(t, name)
	for _, item := range []string{"plugin", "url", "blockSize", "timeout", "maxRetryInterval"} {
		if _, ok := cat[item]; !ok {
			t.Errorf("category %s lacks item %s", name, item)
		}
	}

	// Disabled, it stops; enabled, it sends what arrived meanwhile.
	setSchedule(t, c, name, false)
	if rec := northRecord(t, c, name); rec.Status != edgeclient.ServiceStatusShutdown || rec.Schedule.Enabled {
		t.Errorf("disabled north record = %+v", *rec)
	}
	status, body, err = postIngest(t.Context(), gatewayHost(t, baseURL), feed, "sensor-reading", seqBody(asset, 50, 10))
	if err != nil || status != http.StatusOK {
		t.Fatalf("post readings: %d %s %v", status, body, err)
	}
	setSchedule(t, c, name, true)
	eventually(t, 30*time.Second, "the readings sent after re-enabling", func() bool {
		counts, _ := assetCounts(t, dest)
		return counts[asset] >= 60
	})

	// Deleted, it is gone with its statistic; deleting again is 404.
	r, err := c.DeleteServiceWithResponse(t.Context(), name)
	must(t, err)
	wantStatus(t, "deleteService "+name, r.StatusCode(), r.Body, http.StatusOK)
	if northRecord(t, c, name) != nil {
		t.Errorf("deleted north service %s is still listed", name)
	}
	if _, ok := statistics(t, c)[name]; ok {
		t.Errorf("statistic %s survives its service", name)
	}
	r, err = c.DeleteServiceWithResponse(t.Context(), name)
	must(t, err)
	checkError(t, r.StatusCode(), r.Body, http.StatusNotFound)
}

// readingTimestamps returns the timestamps of asset's readings, newest
// first: none while the asset has none (404).
func readingTimestamps(t testing.TB, c *edgeclient.ClientWithResponses, asset string) []string {
	t.Helper()
	resp, err := c.GetAssetReadingsWithResponse(t.Context(), asset, &edgeclient.GetAssetReadingsParams{Limit: ptr(10000)})
	must(t, err)
	if resp.StatusCode() == http.StatusNotFound {
		return nil
	}
	wantStatus(t, "getAssetReadings", resp.StatusCode(), resp.Body, http.StatusOK)
	return rawTimestamps(t, resp.Body)
}

// taskBody builds a createNorthTask body.
func taskBody(t testing.TB, name, plugin string, repeat int64, config map[string]string) edgeclient.NorthTaskCreateRequest {
	t.Helper()
	return edgeclient.NorthTaskCreateRequest{Name: name, Plugin: plugin, Enabled: true, Repeat: repeat, Config: northConfig(config)}
}

// TestNorthTask creates a north task sending to a second gateway: each run
// sends what is pending and ends as a Complete task with NHCOM audited.
func testNorthTask(t *testing.T) {
	dest, url := destinationGateway(t)
	c := api(t)
	feed := httpSouth(t, c)
	asset := unique("conf-task")
	name := unique("conf-task")
	status, body, err := postIngest(t.Context(), gatewayHost(t, baseURL), feed, "sensor-reading", seqBody(asset, 0, 20))
	if err != nil || status != http.StatusOK {
		t.Fatalf("post readings: %d %s %v", status, body, err)
	}
	resp, err := c.CreateNorthTaskWithResponse(t.Context(), taskBody(t, name, "http_north", 1, map[string]string{"url": url}))
	must(t, err)
	wantStatus(t, "createNorthTask", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200.Name != name || !strings.Contains(resp.JSON200.Message, name) {
		t.Errorf("createNorthTask = %+v", *resp.JSON200)
	}
	t.Cleanup(func() {
		_, _ = c.DeleteServiceWithResponse(context.Background(), name)
	})

	eventually(t, 30*time.Second, "the task's readings reaching the destination", func() bool {
		counts, _ := assetCounts(t, dest)
		return counts[asset] >= 20
	})
	eventually(t, 10*time.Second, "a completed run of the task", func() bool {
		return slices.ContainsFunc(listTasks(t, c, edgeclient.ListTasksParams{Name: &name}), func(k edgeclient.Task) bool {
			return k.State == edgeclient.TaskStateComplete && k.ExitCode != nil && *k.ExitCode == 0
		})
	})
	if !slices.ContainsFunc(northAudit(t, c, edgeclient.NHCOM), func(e edgeclient.AuditEntry) bool {
		return e.Details["name"] == name
	}) {
		t.Errorf("no NHCOM entry for task %s", name)
	}
	rec := northRecord(t, c, name)
	if rec == nil || rec.Type != edgeclient.NorthServiceTypeTask || rec.Schedule.Repeat == nil || *rec.Schedule.Repeat != 1 ||
		rec.Schedule.Id != resp.JSON200.Id || rec.Plugin.Name != "http_north" || rec.Sent < 20 {
		t.Errorf("north record of the task = %+v", rec)
	}
	if serviceRecord(t, c, name) != nil {
		t.Errorf("the task %s is listed as a service", name)
	}
	// The next run sends only what arrived since.
	status, body, err = postIngest(t.Context(), gatewayHost(t, baseURL), feed, "sensor-reading", seqBody(asset, 20, 5))
	if err != nil || status != http.StatusOK {
		t.Fatalf("post readings: %d %s %v", status, body, err)
	}
	eventually(t, 30*time.Second, "the next run's readings", func() bool {
		counts, _ := assetCounts(t, dest)
		return counts[asset] >= 25
	})
	if got := seqValues(t, dest, asset); len(got) != 25 {
		t.Errorf("destination holds %d readings of %s, want 25", len(got), asset)
	}
	setSchedule(t, c, name, false)

	// Deleted through deleteService; then 404.
	r, err := c.DeleteServiceWithResponse(t.Context(), name)
	must(t, err)
	wantStatus(t, "deleteService (task) "+name, r.StatusCode(), r.Body, http.StatusOK)
	if northRecord(t, c, name) != nil {
		t.Errorf("deleted task %s is still listed", name)
	}
	r, err = c.DeleteServiceWithResponse(t.Context(), name)
	must(t, err)
	checkError(t, r.StatusCode(), r.Body, http.StatusNotFound)
}

// TestCreateNorthTaskErrors checks every refusal of createNorthTask and
// that a refused create leaves nothing behind.
func testCreateNorthTaskErrors(t *testing.T) {
	c := api(t)
	existing := unique("conf-exists")
	createSouth(t, c, southDef{name: existing, plugin: "sinusoid", enabled: false})
	fresh := unique("conf-refused")
	cases := []struct {
		name     string
		body     string
		status   int
		contains string
	}{
		{name: "missing name", body: `{"plugin":"http_north","enabled":true,"repeat":5}`, status: 400, contains: "name"},
		{name: "missing plugin", body: `{"name":"` + fresh + `","enabled":true,"repeat":5}`, status: 400, contains: "plugin"},
		{name: "missing enabled", body: `{"name":"` + fresh + `","plugin":"http_north","repeat":5}`, status: 400, contains: "enabled"},
		{name: "missing repeat", body: `{"name":"` + fresh + `","plugin":"http_north","enabled":true}`, status: 400, contains: "repeat"},
		{name: "zero repeat", body: `{"name":"` + fresh + `","plugin":"http_north","enabled":true,"repeat":0}`, status: 400, contains: "repeat"},
		{name: "repeat over a year", body: `{"name":"` + fresh + `","plugin":"http_north","enabled":true,"repeat":31536001}`, status: 400, contains: "repeat"},
		{name: "repeat not a number", body: `{"name":"` + fresh + `","plugin":"http_north","enabled":true,"repeat":"often"}`, status: 400, contains: "repeat"},
		{name: "enabled not a boolean", body: `{"name":"` + fresh + `","plugin":"http_north","enabled":"yes","repeat":5}`, status: 400, contains: "enabled"},
		{name: "leading space", body: `{"name":" ` + fresh + `","plugin":"http_north","enabled":true,"repeat":5}`, status: 400, contains: "name"},
		{name: "unknown plugin", body: `{"name":"` + fresh + `","plugin":"teapot","enabled":true,"repeat":5}`, status: 404, contains: "teapot"},
		{name: "south plugin", body: `{"name":"` + fresh + `","plugin":"sinusoid","enabled":true,"repeat":5}`, status: 400, contains: "sinusoid"},
		{name: "config value invalid", body: `{"name":"` + fresh + `","plugin":"http_north","enabled":true,"repeat":5,"config":{"blockSize":{"value":"0"}}}`, status: 400, contains: "blockSize"},
		{name: "config item unknown", body: `{"name":"` + fresh + `","plugin":"http_north","enabled":true,"repeat":5,"config":{"colour":{"value":"red"}}}`, status: 400, contains: "colour"},
		{name: "name of a service", body: `{"name":"` + existing + `","plugin":"http_north","enabled":false,"repeat":5}`, status: 409, contains: existing},
		{name: "name of a category", body: `{"name":"rest_api","plugin":"http_north","enabled":false,"repeat":5}`, status: 409, contains: "rest_api"},
		{name: "reserved name", body: `{"name":"Edge Storage","plugin":"http_north","enabled":false,"repeat":5}`, status: 409, contains: "Edge Storage"},
		{name: "not JSON", body: `{"name":`, status: 400, contains: "JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/scheduled/task", body: strings.NewReader(tc.body), ctype: "application/json"})
			msg := checkError(t, r.status, r.body, tc.status)
			if !strings.Contains(msg, tc.contains) {
				t.Errorf("message %q does not name %q", msg, tc.contains)
			}
		})
	}
	if northRecord(t, c, fresh) != nil {
		t.Errorf("task %s exists after refused creates", fresh)
	}
	wantNoCategory(t, fresh)

	// A second task of one name is refused.
	name := unique("conf-task")
	resp, err := c.CreateNorthTaskWithResponse(t.Context(), taskBody(t, name, "http_north", 3600, nil))
	must(t, err)
	wantStatus(t, "createNorthTask", resp.StatusCode(), resp.Body, http.StatusOK)
	t.Cleanup(func() { _, _ = c.DeleteServiceWithResponse(context.Background(), name) })
	setSchedule(t, c, name, false)
	again, err := c.CreateNorthTaskWithResponse(t.Context(), taskBody(t, name, "http_north", 60, nil))
	must(t, err)
	checkError(t, again.StatusCode(), again.Body, http.StatusConflict)
}

// sender posts numbered readings of one asset to an http_south port,
// retrying each batch until it is acknowledged, so every number ends up
// stored at least once.
type sender struct {
	host  string
	port  int
	asset string
	batch int
	acks  chan struct{} // one per acknowledged batch
	next  atomic.Int64  // the first number not acknowledged yet
}

func (s *sender) run(ctx context.Context) {
	for ctx.Err() == nil {
		first := int(s.next.Load())
		status, _, err := postIngest(ctx, s.host, s.port, "sensor-reading", seqBody(s.asset, first, s.batch))
		if err != nil || status != http.StatusOK {
			time.Sleep(20 * time.Millisecond) // the gateway is down or busy: retry the same batch
			continue
		}
		s.next.Add(int64(s.batch))
		select {
		case s.acks <- struct{}{}:
		default:
		}
	}
}

// await waits for n more acknowledged batches.
func (s *sender) await(t *testing.T, n int, what string) {
	t.Helper()
	for range n {
		select {
		case <-s.acks:
		case <-time.After(60 * time.Second):
			t.Fatalf("%s: no acknowledgement within a minute", what)
		}
	}
}

// TestNorthLossAcrossKills forwards from gateway A (http_south fed by the
// test, http_north) to gateway B (http_south) while B is killed with
// SIGKILL and restarted, then A is killed mid-stream and restarted: every
// reading A stored reaches B. Duplicates are allowed (at least once) and
// counted; losses are not.
func testNorthLossAcrossKills(t *testing.T) {
	if !ownGateway {
		t.Skip("needs a gateway binary the suite built itself; testing an external gateway (-url / EDGE_URL)")
	}
	start := func(dir string) *gateway {
		t.Helper()
		gw, err := startGateway(gatewayBinary, dir, "")
		if err != nil {
			t.Fatalf("start a gateway on %s: %v", dir, err)
		}
		return gw
	}
	kill := func(gw *gateway) {
		t.Helper()
		if err := gw.cmd.Process.Kill(); err != nil {
			t.Fatalf("kill: %v", err)
		}
		if err := <-gw.done; err == nil {
			t.Error("a gateway killed with SIGKILL exited with status 0")
		}
	}
	dirA, dirB := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	gwB := start(dirB)
	gwA := start(dirA)
	running := []*gateway{gwA, gwB}
	t.Cleanup(func() {
		for _, gw := range running {
			if gw.cmd.ProcessState == nil {
				_ = gw.stop()
			}
		}
	})
	// The gateways go with the test's directories: no clean-up of their
	// services through the API, whose address changes at each restart.
	south := func(c *edgeclient.ClientWithResponses, name string) int {
		t.Helper()
		port, err := freePort()
		must(t, err)
		r, err := c.CreateServiceWithResponse(t.Context(), nil, createBody(t, southDef{name: name, plugin: "http_south",
			enabled: true, config: map[string]string{"port": strconv.Itoa(port)}}))
		must(t, err)
		wantStatus(t, "createService "+name, r.StatusCode(), r.Body, http.StatusOK)
		return port
	}
	portB := south(apiAt(t, gwB.url), "in")
	a := apiAt(t, gwA.url)
	portA := south(a, "feed")
	newNorth(t, a, "up", "http://127.0.0.1:"+strconv.Itoa(portB)+"/sensor-reading")

	asset := unique("conf-loss")
	s := &sender{host: "127.0.0.1", port: portA, asset: asset, batch: 20, acks: make(chan struct{}, 1000)}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()

	s.await(t, 20, "before killing B")
	kill(gwB)
	s.await(t, 20, "while B is down") // A buffers; its north retries
	gwB = start(dirB)
	running[1] = gwB
	s.await(t, 10, "after B's restart")
	// A's north service audits NHAVL at its first delivery to the restarted
	// B; wait for it, so that killing A below cannot come before it.
	eventually(t, 60*time.Second, "A auditing NHAVL after B's restart", func() bool {
		return len(northAudit(t, apiAt(t, gwA.url), edgeclient.NHAVL)) > 0
	})
	kill(gwA) // while the north service catches up with the backlog
	gwA = start(dirA)
	running[0] = gwA
	s.await(t, 20, "after A's restart")
	cancel()
	<-done

	a, b := apiAt(t, gwA.url), apiAt(t, gwB.url)
	stored := seqValues(t, a, asset)
	acked := make([]int, s.next.Load())
	for i := range acked {
		acked[i] = i
	}
	if lost := missingValues(acked, stored); len(lost) > 0 {
		t.Fatalf("A lost %d acknowledged readings, e.g. %v (A holds %d: %v)", len(lost), lost[:min(len(lost), 10)], len(stored), stored[:min(len(stored), 10)])
	}
	// A may still commit the batch in flight when the sender stopped, and
	// forward it: B is read before A, so whatever B holds A stored.
	var got []int
	eventually(t, 60*time.Second, "every reading A stored reaching B", func() bool {
		got = seqValues(t, b, asset)
		stored = seqValues(t, a, asset)
		return len(missingValues(stored, got)) == 0
	})
	dups := len(got) - len(uniqueValues(got))
	t.Logf("A stored %d readings (%d acknowledged); B received all of them, %d twice or more", len(stored), s.next.Load(), dups)
	if extra := missingValues(got, stored); len(extra) > 0 {
		t.Errorf("B holds readings A never stored: %v", extra[:min(len(extra), 10)])
	}
	if len(northAudit(t, a, edgeclient.NHDWN)) == 0 || len(northAudit(t, a, edgeclient.NHAVL)) == 0 {
		t.Errorf("A audited NHDWN %d and NHAVL %d times; want both after B's outage",
			len(northAudit(t, a, edgeclient.NHDWN)), len(northAudit(t, a, edgeclient.NHAVL)))
	}
	if rec := northRecord(t, a, "up"); rec == nil || rec.Status != edgeclient.ServiceStatusRunning {
		t.Errorf("A's north service after the restart = %+v", rec)
	}
}

// missingValues returns the values of want absent from got.
func missingValues(want, got []int) []int {
	have := make(map[int]bool, len(got))
	for _, v := range got {
		have[v] = true
	}
	var out []int
	for _, v := range want {
		if !have[v] {
			out = append(out, v)
		}
	}
	return out
}

// uniqueValues returns vs without duplicates.
func uniqueValues(vs []int) []int {
	out := slices.Clone(vs)
	slices.Sort(out)
	return slices.Compact(out)
}
