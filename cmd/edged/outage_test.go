package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/app"
)

// outageWait bounds each wait of the outage test for the gateway to reach
// a state; reaching it is a failure.
const outageWait = 60 * time.Second

// TestStorageOutageUnderIngest runs a gateway on a throwaway PostgreSQL
// server while four senders post to an http_south service, stops the
// server, and starts it again. While it is down, API calls that need
// storage answer 503 with Retry-After and a message saying storage is
// unavailable, ping answers with a health other than green, and ingest
// answers 503 (nothing acknowledged). Once it is back, the gateway
// recovers on its own: ping is green again, ingest is acknowledged again,
// and every reading acknowledged before, during and after the outage is
// stored, and the statistics match what is stored (READINGS = BUFFERED +
// DISCARDED, BUFFERED and each asset's count the readings stored). The
// server is stopped cleanly (fast: sessions ended) and as if it crashed
// (immediate).
func TestStorageOutageUnderIngest(t *testing.T) {
	for _, mode := range []string{"fast", "immediate"} {
		t.Run(mode, func(t *testing.T) { outageUnderIngest(t, mode) })
	}
}

func outageUnderIngest(t *testing.T, mode string) {
	cluster := dbtest.NewCluster(t)
	apiPort, southPort := freePort(t), freePort(t)
	api := runGateway(t, app.Config{DataDir: t.TempDir(), DB: cluster.DSN(), Port: apiPort,
		AdminPassword: "Outage-Admin-1"}, slog.LevelDebug)

	status, body := call(t, http.MethodPost, api+"/edge/service", fmt.Sprintf(`{"name": "line", "type": "south",
		"plugin": "http_south", "enabled": true, "config": {"port": {"value": "%d"}}}`, southPort))
	if status != http.StatusOK {
		t.Fatalf("create the http_south service: %d %s", status, body)
	}

	const senders, batch = 4, 25
	var acked [senders]atomic.Int64
	var refused atomic.Int64 // 503 answers of ingest
	senderCtx, stopSenders := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			for i := 0; senderCtx.Err() == nil; i++ {
				code := postBatch(senderCtx, southPort, fmt.Sprintf("outage/s%d", s), batch, i)
				switch code {
				case http.StatusOK:
					acked[s].Add(batch)
				case http.StatusServiceUnavailable:
					refused.Add(1)
					time.Sleep(20 * time.Millisecond) // as Retry-After asks, only shorter
				case 0: // no answer (the gateway is stopping)
				default:
					t.Errorf("ingest answered %d", code)
					return
				}
			}
		})
	}
	t.Cleanup(func() { stopSenders(); wg.Wait() })
	total := func() int64 {
		var n int64
		for s := range senders {
			n += acked[s].Load()
		}
		return n
	}
	eventually(t, "readings acknowledged before the outage", func() bool { return total() >= 40*batch })
	metricsBefore := scrape(t, api)

	cluster.Stop(t, mode)
	before := total()
	eventually(t, "ingest refused while storage is down", func() bool { return refused.Load() > 0 })
	for _, c := range []struct{ method, path, body string }{
		{http.MethodGet, "/edge/asset", ""},
		{http.MethodGet, "/edge/audit", ""},
		{http.MethodGet, "/edge/service", ""},
		{http.MethodPut, "/edge/category/service/description", `{"value": "during the outage"}`},
	} {
		resp := do(t, c.method, api+c.path, c.body)
		var msg struct{ Message string }
		_ = json.Unmarshal(resp.body, &msg)
		if resp.status != http.StatusServiceUnavailable || resp.header.Get("Retry-After") == "" ||
			!strings.Contains(msg.Message, "storage is unavailable") {
			t.Errorf("%s %s during the outage = %d, Retry-After %q, %s; want 503, Retry-After and a message saying storage is unavailable",
				c.method, c.path, resp.status, resp.header.Get("Retry-After"), resp.body)
		}
	}
	if h := ping(t, api); h == "green" || h == "" {
		t.Errorf("ping health during the outage = %q, want other than green", h)
	}
	// The metrics still answer, from memory: storage down, the failed
	// calls counted as unavailable, the 503s among the requests.
	m := scrape(t, api)
	if v, ok := m["edged_storage_available"]; !ok || v != 0 {
		t.Errorf("edged_storage_available during the outage = %v (%v), want 0", v, ok)
	}
	unavailable := `edged_storage_errors_total{kind="unavailable"}`
	if m[unavailable] <= metricsBefore[unavailable] {
		t.Errorf("%s = %v during the outage, %v before: the failed calls were not counted", unavailable, m[unavailable], metricsBefore[unavailable])
	}
	if n := m[`edged_http_requests_total{operation="listAssets",status="503"}`]; n < 1 {
		t.Errorf("listAssets answered 503 %v times by the metrics, want at least 1", n)
	}
	during := total()

	cluster.Start(t)
	eventually(t, "ping green again after storage came back", func() bool { return ping(t, api) == "green" })
	if v := scrape(t, api)["edged_storage_available"]; v != 1 {
		t.Errorf("edged_storage_available after the outage = %v, want 1", v)
	}
	after := total()
	eventually(t, "ingest acknowledged again", func() bool { return total() >= after+40*batch })
	stopSenders()
	wg.Wait()
	t.Logf("acknowledged: %d before the outage, %d by its detection, %d in all; %d batches refused with 503",
		before, during, total(), refused.Load())

	stored := storedCounts(t, api)
	for s := range senders {
		asset := fmt.Sprintf("outage/s%d", s)
		if got, want := stored[asset], acked[s].Load(); got < want {
			t.Errorf("%s: %d readings stored, %d acknowledged: %d lost", asset, got, want, want-got)
		}
	}

	// The statistics match what is stored: a batch whose commit the
	// outage interrupted counts as buffered when it landed, as discarded
	// when it did not, never as discarded though stored. The counters
	// reach the statistics within a flush, a batch whose outcome was in
	// doubt is settled once storage answers again, and batches the
	// stopped senders left queued are still being written: both are read
	// again until they agree.
	var storedTotal int64
	var got map[string]int64
	deadline := time.Now().Add(outageWait)
	for {
		stored = storedCounts(t, api)
		storedTotal = 0
		for _, n := range stored {
			storedTotal += n
		}
		got = statistics(t, api)
		match := got["BUFFERED"] == storedTotal && got["READINGS"] == got["BUFFERED"]+got["DISCARDED"]
		for asset, n := range stored {
			match = match && got[asset] == n
		}
		if match || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got["BUFFERED"] != storedTotal {
		t.Errorf("BUFFERED = %d, but %d readings are stored (DISCARDED %d, READINGS %d)",
			got["BUFFERED"], storedTotal, got["DISCARDED"], got["READINGS"])
	}
	if got["READINGS"] != got["BUFFERED"]+got["DISCARDED"] {
		t.Errorf("READINGS %d != BUFFERED %d + DISCARDED %d", got["READINGS"], got["BUFFERED"], got["DISCARDED"])
	}
	for asset, n := range stored {
		if got[asset] != n {
			t.Errorf("statistic %s = %d, but %d of its readings are stored", asset, got[asset], n)
		}
	}
	t.Logf("statistics: READINGS %d, BUFFERED %d, DISCARDED %d; %d readings stored",
		got["READINGS"], got["BUFFERED"], got["DISCARDED"], storedTotal)
}

// storedCounts returns the readings stored per asset (listAssets).
func storedCounts(t *testing.T, api string) map[string]int64 {
	t.Helper()
	status, body := call(t, http.MethodGet, api+"/edge/asset", "")
	if status != http.StatusOK {
		t.Fatalf("listAssets after the outage: %d %s", status, body)
	}
	var assets []struct {
		AssetCode string `json:"assetCode"`
		Count     int64  `json:"count"`
	}
	if err := json.Unmarshal(body, &assets); err != nil {
		t.Fatal(err)
	}
	stored := map[string]int64{}
	for _, a := range assets {
		stored[a.AssetCode] = a.Count
	}
	return stored
}

// statistics reads GET /edge/statistics into its values by key.
func statistics(t *testing.T, api string) map[string]int64 {
	t.Helper()
	status, body := call(t, http.MethodGet, api+"/edge/statistics", "")
	if status != http.StatusOK {
		t.Fatalf("listStatistics = %d %s", status, body)
	}
	var list []struct {
		Key   string `json:"key"`
		Value int64  `json:"value"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatalf("listStatistics: %s: %v", body, err)
	}
	out := make(map[string]int64, len(list))
	for _, s := range list {
		out[s.Key] = s.Value
	}
	return out
}

// scrape reads the gateway's metrics (GET /edge/metrics) into their
// samples, keyed by series as written, failing unless the answer is 200.
func scrape(t *testing.T, api string) map[string]float64 {
	t.Helper()
	resp := do(t, http.MethodGet, api+"/edge/metrics", "")
	if resp.status != http.StatusOK {
		t.Fatalf("getMetrics = %d %s", resp.status, resp.body)
	}
	out := map[string]float64{}
	for line := range strings.Lines(string(resp.body)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			t.Fatalf("metrics line %q has no value", line)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// postBatch posts batch readings of asset, numbered from i·batch, and
// returns the status (0 when there was no answer).
func postBatch(ctx context.Context, port int, asset string, batch, i int) int {
	var b strings.Builder
	b.WriteByte('[')
	base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i*batch) * time.Millisecond)
	for k := range batch {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"timestamp":%q,"asset":%q,"readings":{"n":%d}}`,
			base.Add(time.Duration(k)*time.Millisecond).Format("2006-01-02 15:04:05.000000"), asset, i*batch+k)
	}
	b.WriteByte(']')
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1:"+strconv.Itoa(port)+"/sensor-reading",
		strings.NewReader(b.String()))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func do(t *testing.T, method, url, body string) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{}
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, header: resp.Header, body: b}
}

func call(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	a := do(t, method, url, body)
	return a.status, a.body
}

// ping returns ping's health, or "" when the gateway did not answer 200.
func ping(t *testing.T, api string) string {
	t.Helper()
	status, body := call(t, http.MethodGet, api+"/edge/ping", "")
	if status != http.StatusOK {
		return ""
	}
	var p struct{ Health string }
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("ping: %s: %v", body, err)
	}
	return p.Health
}

// eventually polls cond until it holds; the gateway is a separate system
// whose state can only be observed from outside.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(outageWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port
}

// syncBuffer is a bytes.Buffer safe for the gateway's concurrent logging.
// runGateway runs the gateway of cfg (its Version and Logger set here,
// logging at level) until the test ends, waits until it answers ping and
// returns its base URL. A failed test shows the gateway's log.
func runGateway(t *testing.T, cfg app.Config, level slog.Level) string {
	t.Helper()
	var logs syncBuffer
	cfg.Version = "test"
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: level}))
	ctx, stop := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- app.Run(ctx, cfg) }()
	t.Cleanup(func() {
		stop()
		select {
		case err := <-ended:
			if err != nil {
				t.Errorf("the gateway stopped with %v", err)
			}
		case <-time.After(2 * time.Minute):
			t.Error("the gateway did not stop")
		}
		if t.Failed() {
			t.Logf("gateway log:\n%s", logs.String())
		}
	})
	url := "http://127.0.0.1:" + strconv.Itoa(cfg.Port)
	eventually(t, "the gateway answers ping", func() bool { return ping(t, url) != "" })
	return url
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
