package httpsouth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
)

func newPlugin(t *testing.T, cfg plugin.Config) *HTTPSouth {
	t.Helper()
	p, err := Definition().New(plugin.Env{Service: "http", Clock: clock.Real{}}, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p.(*HTTPSouth)
}

func config(port int, uri, prefix string) plugin.Config {
	return plugin.Config{ItemPort: strconv.Itoa(port), ItemURI: uri, ItemPrefix: prefix}
}

func TestDefinitionIsValid(t *testing.T) {
	d := Definition()
	if _, err := configmgr.CheckValues("http", d.Items, nil); err != nil {
		t.Fatalf("items are not valid configuration: %v", err)
	}
	cfg := plugintest.Defaults(d)
	if cfg[ItemPort] != "6683" || cfg[ItemURI] != "sensor-reading" || cfg[ItemPrefix] != "" {
		t.Errorf("defaults = %v", cfg)
	}
}

func post(t *testing.T, h http.Handler, method, path, body string) (int, http.Header, map[string]any) {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), method, path, strings.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("body is not JSON: %v; %s", err, rec.Body)
	}
	return rec.Code, rec.Header(), out
}

func TestPost(t *testing.T) {
	good := `[{"timestamp": "2024-05-01 10:15:42.123456", "asset": "bar/one", "readings": {"x": 1, "y": [1, 2]}},
	          {"timestamp": "2024-05-01T12:15:42+02:00", "asset": "two", "readings": {}}]`
	cases := []struct {
		name       string
		method     string
		path       string
		body       string
		wantStatus int
		wantMsg    string // substring of message
		wantStored int    // readings submitted
	}{
		{name: "good batch", method: http.MethodPost, path: "/sensor-reading", body: good, wantStatus: 200, wantMsg: "2 readings stored", wantStored: 2},
		{name: "empty array", method: http.MethodPost, path: "/sensor-reading", body: `[]`, wantStatus: 200, wantMsg: "0 readings stored"},
		{name: "wrong path", method: http.MethodPost, path: "/other", body: good, wantStatus: 404, wantMsg: "no such path"},
		{name: "wrong method", method: http.MethodGet, path: "/sensor-reading", wantStatus: 405, wantMsg: "use POST"},
		{name: "not JSON", method: http.MethodPost, path: "/sensor-reading", body: `[{`, wantStatus: 400, wantMsg: "not valid JSON"},
		{name: "not an array", method: http.MethodPost, path: "/sensor-reading", body: `{"asset": "a"}`, wantStatus: 400, wantMsg: "must be a JSON array"},
		{name: "element not an object", method: http.MethodPost, path: "/sensor-reading", body: `[1]`, wantStatus: 400, wantMsg: "element 0: is not an object"},
		{name: "missing asset", method: http.MethodPost, path: "/sensor-reading",
			body: `[{"timestamp": "2024-05-01 10:15:42", "readings": {}}]`, wantStatus: 400, wantMsg: `field "asset" is missing`},
		{name: "empty asset", method: http.MethodPost, path: "/sensor-reading",
			body: `[{"timestamp": "2024-05-01 10:15:42", "asset": "", "readings": {}}]`, wantStatus: 400, wantMsg: `field "asset" is empty`},
		{name: "asset not a string", method: http.MethodPost, path: "/sensor-reading",
			body: `[{"timestamp": "2024-05-01 10:15:42", "asset": 5, "readings": {}}]`, wantStatus: 400, wantMsg: `field "asset" must be a string`},
		{name: "missing timestamp", method: http.MethodPost, path: "/sensor-reading",
			body: `[{"asset": "a", "readings": {}}]`, wantStatus: 400, wantMsg: `field "timestamp" is missing`},
		{name: "bad timestamp", method: http.MethodPost, path: "/sensor-reading",
			body: `[{"timestamp": "yesterday", "asset": "a", "readings": {}}]`, wantStatus: 400, wantMsg: `field "timestamp": timestamp "yesterday"`},
		{name: "missing readings", method: http.MethodPost, path: "/sensor-reading",
			body: `[{"timestamp": "2024-05-01 10:15:42", "asset": "a"}]`, wantStatus: 400, wantMsg: `field "readings" is missing`},
		{name: "readings not an object", method: http.MethodPost, path: "/sensor-reading",
			body: `[{"timestamp": "2024-05-01 10:15:42", "asset": "a", "readings": [1]}]`, wantStatus: 400, wantMsg: `must be a JSON object`},
		{name: "one bad element refuses the batch", method: http.MethodPost, path: "/sensor-reading",
			body:       `[{"timestamp": "2024-05-01 10:15:42", "asset": "a", "readings": {}}, {"timestamp": "2024-05-01 10:15:42", "asset": "a", "readings": "x"}]`,
			wantStatus: 400, wantMsg: "element 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sink := plugintest.NewSink(10)
			h := newPlugin(t, config(6683, "sensor-reading", "")).Handler(sink)
			status, hdr, body := post(t, h, c.method, c.path, c.body)
			if status != c.wantStatus {
				t.Fatalf("status %d, want %d; body %v", status, c.wantStatus, body)
			}
			if msg, _ := body["message"].(string); !strings.Contains(msg, c.wantMsg) {
				t.Errorf("message %q, want it to contain %q", msg, c.wantMsg)
			}
			if c.wantStatus == http.StatusMethodNotAllowed && hdr.Get("Allow") != http.MethodPost {
				t.Errorf("Allow = %q", hdr.Get("Allow"))
			}
			submitted := 0
			select {
			case rs := <-sink.Calls:
				submitted = len(rs)
				if c.wantStored == 2 {
					if rs[0].Asset != "bar/one" || string(rs[0].Values) != `{"x":1,"y":[1,2]}` ||
						!rs[0].Timestamp.Equal(time.Date(2024, 5, 1, 10, 15, 42, 123456000, time.UTC)) {
						t.Errorf("first reading = %+v", rs[0])
					}
					if !rs[1].Timestamp.Equal(time.Date(2024, 5, 1, 10, 15, 42, 0, time.UTC)) {
						t.Errorf("second reading's time = %v, want 10:15:42 UTC", rs[1].Timestamp)
					}
				}
			default:
			}
			if submitted != c.wantStored {
				t.Errorf("%d readings submitted, want %d", submitted, c.wantStored)
			}
			if c.wantStatus == 200 && body["readings"] != float64(c.wantStored) {
				t.Errorf("readings = %v, want %d", body["readings"], c.wantStored)
			}
		})
	}
}

func TestBodyLimit(t *testing.T) {
	sink := plugintest.NewSink(1)
	h := newPlugin(t, config(6683, "sensor-reading", "")).Handler(sink)
	big := `[{"timestamp": "2024-05-01 10:15:42", "asset": "a", "readings": {"s": "` + strings.Repeat("x", MaxBody) + `"}}]`
	status, _, body := post(t, h, http.MethodPost, "/sensor-reading", big)
	if status != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413; body %v", status, body)
	}
}

func TestRefusals(t *testing.T) {
	batch := `[{"timestamp": "2024-05-01 10:15:42", "asset": "a", "readings": {"v": 1}}]`
	cases := []struct {
		name       string
		reject     error
		commit     error
		wantStatus int
		retryAfter string
	}{
		{name: "buffer full", reject: plugin.ErrBufferFull, wantStatus: 503, retryAfter: "1"},
		{name: "stopping", reject: plugin.ErrStopped, wantStatus: 503, retryAfter: "5"},
		{name: "too many at once", reject: plugin.ErrTooLarge, wantStatus: 413},
		{name: "commit failed", commit: errors.New("disk full"), wantStatus: 503, retryAfter: "1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sink := plugintest.NewSink(10)
			sink.SetReject(c.reject)
			sink.SetCommit(func([]plugin.Reading) error { return c.commit })
			h := newPlugin(t, config(6683, "sensor-reading", "")).Handler(sink)
			status, hdr, body := post(t, h, http.MethodPost, "/sensor-reading", batch)
			if status != c.wantStatus {
				t.Fatalf("status %d, want %d; body %v", status, c.wantStatus, body)
			}
			if got := hdr.Get("Retry-After"); got != c.retryAfter {
				t.Errorf("Retry-After = %q, want %q", got, c.retryAfter)
			}
		})
	}
}

func TestPrefixAndReconfigure(t *testing.T) {
	p := newPlugin(t, config(6683, "/in", "site1/"))
	sink := plugintest.NewSink(10)
	h := p.Handler(sink)
	batch := `[{"timestamp": "2024-05-01 10:15:42", "asset": "a", "readings": {"v": 1}}]`
	if status, _, _ := post(t, h, http.MethodPost, "/in", batch); status != 200 {
		t.Fatalf("status %d", status)
	}
	if rs := <-sink.Calls; rs[0].Asset != "site1/a" {
		t.Errorf("asset = %q, want site1/a", rs[0].Asset)
	}
	if err := p.Reconfigure(config(6683, "in", "site2/")); err != nil {
		t.Fatalf("Reconfigure of the prefix: %v", err)
	}
	if status, _, _ := post(t, h, http.MethodPost, "/in", batch); status != 200 {
		t.Fatalf("status %d", status)
	}
	if rs := <-sink.Calls; rs[0].Asset != "site2/a" {
		t.Errorf("asset after reconfigure = %q, want site2/a", rs[0].Asset)
	}
	for _, cfg := range []plugin.Config{config(6684, "in", ""), config(6683, "other", "")} {
		if err := p.Reconfigure(cfg); !errors.Is(err, plugin.ErrRestart) {
			t.Errorf("Reconfigure(%v) = %v, want ErrRestart", cfg, err)
		}
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestOpenRunAndStop(t *testing.T) {
	port := freePort(t)
	p := newPlugin(t, config(port, "sensor-reading", ""))
	if err := p.Open(t.Context()); err != nil {
		t.Fatalf("Open: %v", err)
	}
	// A second instance on the same port fails to open.
	if err := newPlugin(t, config(port, "sensor-reading", "")).Open(t.Context()); err == nil {
		t.Error("Open on a port in use = nil")
	}
	sink := plugintest.NewSink(10)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, sink) }()

	url := fmt.Sprintf("http://127.0.0.1:%d/sensor-reading", port)
	body := `[{"timestamp": "2024-05-01 10:15:42", "asset": "a", "readings": {"v": 1}}]`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("POST status %d: %s", resp.StatusCode, b)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}
	// The port is free again.
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		t.Errorf("port still held after stop: %v", err)
	} else {
		_ = ln.Close()
	}
}
