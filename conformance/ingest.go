package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// newHTTPSouth creates an enabled http_south service on a free port with
// config and returns its name and port; it is deleted when the test ends.
func newHTTPSouth(t *testing.T, c *edgeclient.ClientWithResponses, config map[string]string) (string, int) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	name := unique("conf-ingest")
	cfg := map[string]string{"port": strconv.Itoa(port)}
	for k, v := range config {
		cfg[k] = v
	}
	createSouth(t, c, southDef{name: name, plugin: "http_south", enabled: true, config: cfg})
	return name, port
}

// TestHTTPSouthRefusals checks that a bad request to http_south is refused
// whole with a JSON message, and that nothing of it is stored.
func testHTTPSouthRefusals(t *testing.T) {
	c := api(t)
	name, port := newHTTPSouth(t, c, nil)
	host := gatewayHost(t, baseURL)
	asset := unique("conf-refused")
	good := fmt.Sprintf(`{"timestamp":"2024-05-01 10:15:42","asset":%q,"readings":{"v":1}}`, asset)
	cases := []struct {
		name     string
		method   string
		uri      string
		body     string
		status   int
		contains string
	}{
		{name: "not JSON", body: `[` + good, status: 400, contains: "JSON"},
		{name: "not an array", body: good, status: 400, contains: "array"},
		{name: "element not an object", body: `[` + good + `, 7]`, status: 400, contains: "element 1"},
		{name: "missing asset", body: `[` + good + `, {"timestamp":"2024-05-01 10:15:42","readings":{}}]`, status: 400, contains: "asset"},
		{name: "missing timestamp", body: `[` + good + `, {"asset":"a","readings":{}}]`, status: 400, contains: "timestamp"},
		{name: "bad timestamp", body: `[` + good + `, {"timestamp":"01/05/2024","asset":"a","readings":{}}]`, status: 400, contains: "timestamp"},
		{name: "timestamp with one fraction digit", body: `[{"timestamp":"2024-05-01 10:15:42.1","asset":"a","readings":{}}]`, status: 400, contains: "fraction"},
		{name: "RFC 3339 without an offset", body: `[{"timestamp":"2024-05-01T10:15:42","asset":"a","readings":{}}]`, status: 400, contains: "timestamp"},
		{name: "missing readings", body: `[` + good + `, {"timestamp":"2024-05-01 10:15:42","asset":"a"}]`, status: 400, contains: "readings"},
		{name: "readings not an object", body: `[` + good + `, {"timestamp":"2024-05-01 10:15:42","asset":"a","readings":[1]}]`, status: 400, contains: "readings"},
		{name: "wrong path", uri: "other", body: `[` + good + `]`, status: 404, contains: "sensor-reading"},
		{name: "wrong method", method: http.MethodGet, body: "", status: 405, contains: "POST"},
		{name: "body too large", body: `[` + good + `,"` + strings.Repeat("x", 9<<20) + `"]`, status: 413, contains: "exceeds"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			method, uri := tc.method, tc.uri
			if method == "" {
				method = http.MethodPost
			}
			if uri == "" {
				uri = "sensor-reading"
			}
			req, err := http.NewRequestWithContext(t.Context(), method, fmt.Sprintf("http://%s:%d/%s", host, port, uri), strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := ingestClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			var body json.RawMessage
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("answer is not JSON: %v", err)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			msg := checkError(t, resp.StatusCode, body, tc.status)
			if !strings.Contains(msg, tc.contains) {
				t.Errorf("message %q does not mention %q", msg, tc.contains)
			}
			if tc.status == http.StatusMethodNotAllowed && resp.Header.Get("Allow") != http.MethodPost {
				t.Errorf("Allow = %q", resp.Header.Get("Allow"))
			}
		})
	}
	got := statistics(t, c)
	if got[name+"-Ingest"] != 0 || got[asset] != 0 {
		t.Errorf("refused requests stored readings: %s-Ingest = %d, %s = %d", name, got[name+"-Ingest"], asset, got[asset])
	}
	if events := trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Service: &name}); len(events) != 0 {
		t.Errorf("refused requests were tracked: %+v", events)
	}
}

// TestHTTPSouthTimestampForms checks that every accepted timestamp form is
// stored in UTC.
func testHTTPSouthTimestampForms(t *testing.T) {
	c := api(t)
	_, port := newHTTPSouth(t, c, nil)
	host := gatewayHost(t, baseURL)
	forms := []struct {
		in   string
		want string // wire form read back
	}{
		{in: "2024-05-01 10:15:40", want: "2024-05-01 10:15:40.000000"},
		{in: "2024-05-01 10:15:41.123", want: "2024-05-01 10:15:41.123000"},
		{in: "2024-05-01 10:15:42.123456", want: "2024-05-01 10:15:42.123456"},
		{in: "2024-05-01 12:15:43.5+02:00", want: ""}, // one fraction digit: refused below
		{in: "2024-05-01 12:15:44.250+02:00", want: "2024-05-01 10:15:44.250000"},
		{in: "2024-05-01 05:15:45-05:00", want: "2024-05-01 10:15:45.000000"},
		{in: "2024-05-01T10:15:46Z", want: "2024-05-01 10:15:46.000000"},
		{in: "2024-05-01T11:15:47.75+01:00", want: "2024-05-01 10:15:47.750000"},
	}
	asset := unique("conf-times")
	var elems []string
	var want []string
	for i, f := range forms {
		if f.want == "" {
			continue
		}
		elems = append(elems, fmt.Sprintf(`{"timestamp":%q,"asset":%q,"readings":{"i":%d}}`, f.in, asset, i))
		want = append([]string{f.want}, want...) // newest first
	}
	status, body, err := postIngest(t.Context(), host, port, "sensor-reading", "["+strings.Join(elems, ",")+"]")
	if err != nil || status != http.StatusOK {
		t.Fatalf("post: %d %s %v", status, body, err)
	}
	refused, body, err := postIngest(t.Context(), host, port, "sensor-reading",
		fmt.Sprintf(`[{"timestamp":%q,"asset":%q,"readings":{}}]`, forms[3].in, asset))
	if err != nil || refused != http.StatusBadRequest {
		t.Errorf("one fraction digit: %d %s %v, want 400", refused, body, err)
	}
	resp, err := c.GetAssetReadingsWithResponse(t.Context(), asset, &edgeclient.GetAssetReadingsParams{Limit: ptr(100)})
	must(t, err)
	if resp.StatusCode() == http.StatusNotImplemented {
		skipUnbuilt(t, "getAssetReadings")
	}
	wantStatus(t, "getAssetReadings", resp.StatusCode(), resp.Body, http.StatusOK)
	got := rawTimestamps(t, resp.Body)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("stored timestamps\n got %v\nwant %v", got, want)
	}
}

// TestHTTPSouthReconfigure checks that configuration changes reach the
// running service: a new prefix applies at once, a new port moves the
// listener (the write answers once it took effect).
func testHTTPSouthReconfigure(t *testing.T) {
	c := api(t)
	name, port := newHTTPSouth(t, c, nil)
	host := gatewayHost(t, baseURL)
	prefix := unique("conf-pfx") + "/"
	setItem(t, name, "assetNamePrefix", prefix)
	if status, body, err := postIngest(t.Context(), host, port, "sensor-reading", readingsBody("a", 2, time.Now())); err != nil || status != 200 {
		t.Fatalf("post: %d %s %v", status, body, err)
	}
	if got := statistics(t, c)[prefix+"a"]; got != 2 {
		t.Errorf("statistic %sa = %d, want 2 (the new prefix)", prefix, got)
	}

	newPort, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	setItem(t, name, "port", strconv.Itoa(newPort))
	if _, _, err := postIngest(t.Context(), host, port, "sensor-reading", readingsBody("a", 1, time.Now())); err == nil {
		t.Error("the old port still accepts readings after the port changed")
	}
	if status, body, err := postIngest(t.Context(), host, newPort, "sensor-reading", readingsBody("a", 1, time.Now())); err != nil || status != 200 {
		t.Fatalf("post to the new port: %d %s %v", status, body, err)
	}
	if got := statistics(t, c)[name+"-Ingest"]; got != 3 {
		t.Errorf("%s-Ingest = %d, want 3", name, got)
	}
	if r := southRecord(t, c, name); r == nil || southStatus(t, r) != string(edgeclient.ServiceStatusRunning) {
		t.Errorf("south record after the port change = %+v", r)
	}
}

// TestKillDuringIngest posts to http_south from four senders while the
// gateway is killed with SIGKILL, restarts it on the same data directory and
// checks that every reading acknowledged with 200 is stored.
func testKillDuringIngest(t *testing.T) {
	if !ownGateway {
		t.Skip("needs a gateway binary the suite built itself; testing an external gateway (-url / EDGE_URL)")
	}
	dataDir := filepath.Join(t.TempDir(), "data")
	gw, err := startGateway(gatewayBinary, dataDir, "")
	if err != nil {
		t.Fatalf("start the gateway: %v", err)
	}
	killed := false
	t.Cleanup(func() {
		if !killed {
			_ = gw.cmd.Process.Kill()
		}
	})
	c := apiAt(t, gw.url)
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	name := unique("conf-kill")
	r, err := c.CreateServiceWithResponse(t.Context(), nil, createBody(t, southDef{name: name, plugin: "http_south", enabled: true,
		config: map[string]string{"port": strconv.Itoa(port)}}))
	must(t, err)
	wantStatus(t, "createService", r.StatusCode(), r.Body, http.StatusOK)

	const senders, batch, killAfter = 4, 100, 150 // acknowledged batches before the kill
	host := gatewayHost(t, gw.url)
	prefix := unique("conf-kill")
	var acked [senders]atomic.Int64
	ackedBatches := make(chan struct{}, 10000)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			asset := fmt.Sprintf("%s/s%d", prefix, s)
			start := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
			for i := 0; ctx.Err() == nil; i++ {
				status, _, err := postIngest(ctx, host, port, "sensor-reading",
					readingsBody(asset, batch, start.Add(time.Duration(i)*time.Second)))
				if err != nil {
					return // the gateway is gone
				}
				if status == http.StatusOK {
					acked[s].Add(batch)
					ackedBatches <- struct{}{}
				}
			}
		})
	}
	for range killAfter {
		select {
		case <-ackedBatches:
		case <-t.Context().Done():
			t.Fatal("the senders did not get the batches acknowledged")
		}
	}
	if err := gw.cmd.Process.Kill(); err != nil { // SIGKILL, while the senders post
		t.Fatalf("kill: %v", err)
	}
	killed = true
	if err := <-gw.done; err == nil {
		t.Error("the killed gateway exited with status 0")
	}
	wg.Wait()

	gw2, err := startGateway(gatewayBinary, dataDir, "")
	if err != nil {
		t.Fatalf("restart on the same data directory: %v", err)
	}
	t.Cleanup(func() {
		if err := gw2.stop(); err != nil {
			t.Errorf("stop the restarted gateway: %v", err)
		}
	})
	c2 := apiAt(t, gw2.url)
	counts, _ := assetCounts(t, c2)
	total := int64(0)
	for s := range senders {
		asset := fmt.Sprintf("%s/s%d", prefix, s)
		got, want := int64(counts[asset]), acked[s].Load()
		total += want
		if got < want {
			t.Errorf("asset %s: %d readings stored, but %d were acknowledged", asset, got, want)
		}
		if got > want+batch {
			t.Errorf("asset %s: %d readings stored, more than the %d acknowledged plus the one batch in flight", asset, got, want)
		}
	}
	t.Logf("%d readings acknowledged before SIGKILL, all stored", total)

	// The service came back with the gateway and ingests again. The
	// gateway answers ping before the service's listener binds, so a
	// refused connection is tried again.
	var (
		status int
		body   []byte
	)
	eventually(t, 15*time.Second, "ingest accepted after the restart", func() bool {
		status, body, err = postIngest(t.Context(), host, port, "sensor-reading", readingsBody(prefix+"/after", 1, time.Now()))
		return !errors.Is(err, syscall.ECONNREFUSED)
	})
	if err != nil || status != 200 {
		t.Errorf("post after the restart: %d %s %v", status, body, err)
	}
}
