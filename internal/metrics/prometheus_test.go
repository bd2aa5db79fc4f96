package metrics_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/edged/edged/internal/app"
	"github.com/edged/edged/internal/simtest"
)

// TestPrometheusScrapes runs a gateway in this process and the real
// Prometheus server (Debian's prometheus package) on loopback, creates a
// sinusoid south service, and checks through Prometheus's query API that
// the scraped ingest counter moves. Without a prometheus binary it skips,
// unless EDGE_REQUIRE_SIMULATORS is set (make test and CI set it), when it
// fails, as the tests of the other counterparts do (see simtest).
func TestPrometheusScrapes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a gateway and Prometheus")
	}
	bin := simtest.Program(t, "prometheus", "install Debian's prometheus package (apt-get install prometheus; .ci/run does)")
	gw := startGateway(t)

	// The gateway answers; its sinusoid service ingests one reading a second.
	post(t, gw+"/edge/service", `{"name":"scraped","type":"south","plugin":"sinusoid","enabled":true}`)

	dir := t.TempDir()
	promPort := simtest.FreePort(t)
	config := fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: edged
    metrics_path: /edge/metrics
    static_configs:
      - targets: ['%s']
`, gw[len("http://"):])
	cfgPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	// simtest.Start waits until it serves its API and kills it when the
	// test ends (before the gateway stops: cleanups run last first).
	srv := simtest.Start(t, "Server is ready to receive web requests", bin, "--config.file="+cfgPath,
		"--storage.tsdb.path="+filepath.Join(dir, "tsdb"), "--web.listen-address=127.0.0.1:"+strconv.Itoa(promPort))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("prometheus log:\n%s", srv.Output())
		}
	})
	prom := "http://127.0.0.1:" + strconv.Itoa(promPort)

	// Prometheus is a separate process that scrapes on its own clock, so
	// the test polls its query API until the counter has been seen at two
	// values, the second higher; the deadline only bounds a broken run.
	deadline := time.Now().Add(90 * time.Second)
	var first float64
	seen := false
	for {
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus never saw edged_readings_received_total move (first value %v, seen %v)", first, seen)
		}
		v, ok := query(t, prom, `edged_readings_received_total{job="edged"}`)
		switch {
		case ok && !seen:
			first, seen = v, true
		case ok && v > first:
			t.Logf("edged_readings_received_total went from %v to %v", first, v)
			up, _ := query(t, prom, `up{job="edged"}`)
			if up != 1 {
				t.Errorf("up = %v, want 1", up)
			}
			stored, ok := query(t, prom, `edged_readings_stored_total{service="scraped"}`)
			if !ok || stored <= 0 {
				t.Errorf("edged_readings_stored_total{service=\"scraped\"} = %v (%v), want > 0", stored, ok)
			}
			if avail, ok := query(t, prom, `edged_storage_available{job="edged"}`); !ok || avail != 1 {
				t.Errorf("edged_storage_available = %v (%v), want 1", avail, ok)
			}
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// query runs an instant PromQL query and returns the value of its first
// sample; ok is false while the result is empty or Prometheus is not up.
func query(t *testing.T, prom, q string) (float64, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, prom+"/api/v1/query?query="+url.QueryEscape(q), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, false // not listening yet
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("query %s: status %d: %s", q, resp.StatusCode, body)
	}
	var out struct {
		Status string `json:"status"`
		Data   struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &out); err != nil || out.Status != "success" {
		t.Fatalf("query %s: %s (%v)", q, body, err)
	}
	if len(out.Data.Result) == 0 {
		return 0, false
	}
	s, _ := out.Data.Result[0].Value[1].(string)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("query %s: value %q", q, s)
	}
	return v, true
}

// startGateway runs a gateway in this process on a free loopback port and
// a temporary data directory, and returns its URL once it answers ping.
func startGateway(t *testing.T) string {
	t.Helper()
	port := simtest.FreePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- app.Run(ctx, app.Config{DataDir: filepath.Join(t.TempDir(), "data"), Port: port,
			AdminPassword: "Metrics-Test-Passw0rd", Version: "test"})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("gateway: %v", err)
		}
	})
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-done:
			t.Fatalf("gateway stopped: %v", errors.Join(errors.New("before answering ping"), err))
		default:
		}
		resp, err := http.Get(url + "/edge/ping")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the gateway did not answer ping in 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// post sends a JSON body and fails unless the answer is 200.
func post(t *testing.T, url, body string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: status %d: %s", url, resp.StatusCode, b)
	}
}
