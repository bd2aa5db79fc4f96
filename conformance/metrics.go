package conformance

import (
	"bufio"
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// metricSamples parses a Prometheus text exposition into its samples,
// keyed by the series as written (name and labels), failing on a line
// that is neither a comment nor "series value".
func metricSamples(t *testing.T, body []byte) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			t.Fatalf("metrics line %q has no value", line)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: value: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// TestMetrics scrapes GET /edge/metrics as Prometheus would and checks the
// format, the gateway's own series and that requests are counted.
func testMetrics(t *testing.T) {
	c := api(t)
	first, err := c.GetMetricsWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "getMetrics", first.StatusCode(), first.Body, http.StatusOK)
	if ct := first.HTTPResponse.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") || !strings.Contains(ct, "version=0.0.4") {
		t.Errorf("Content-Type %q, want the Prometheus text format (text/plain; version=0.0.4)", ct)
	}
	samples := metricSamples(t, first.Body)
	for _, series := range []string{
		"edged_readings_received_total", "edged_readings_discarded_total", "edged_readings_purged_total",
		"edged_readings_buffered", `edged_storage_errors_total{kind="unavailable"}`, `edged_storage_errors_total{kind="other"}`,
		"edged_storage_available",
		`edged_service_status{service="Edge Core",status="running",type="Core"}`,
	} {
		if _, ok := samples[series]; !ok {
			t.Errorf("no series %s", series)
		}
	}
	if v := samples[`edged_service_status{service="Edge Core",status="running",type="Core"}`]; v != 1 {
		t.Errorf("the core's running status = %v, want 1", v)
	}
	if v := samples["edged_storage_available"]; v != 1 {
		t.Errorf("edged_storage_available = %v, want 1 on a gateway whose storage answers", v)
	}

	// The first scrape is counted once it is answered, so the second sees it.
	before := samples[`edged_http_requests_total{operation="getMetrics",status="200"}`]
	second, err := c.GetMetricsWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "getMetrics", second.StatusCode(), second.Body, http.StatusOK)
	after := metricSamples(t, second.Body)[`edged_http_requests_total{operation="getMetrics",status="200"}`]
	if after < before+1 {
		t.Errorf("getMetrics requests counted %v, then %v: the first scrape was not counted", before, after)
	}

	t.Run("every north stream has its lag", func(t *testing.T) {
		// A north service whose destination never answers: it has a
		// stream position from its creation, so its series are there
		// whether or not it sent anything.
		name := unique("metrics-north")
		createNorth(t, c, name, "http://127.0.0.1:1/ingest")
		resp, err := c.GetMetricsWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "getMetrics", resp.StatusCode(), resp.Body, http.StatusOK)
		got := metricSamples(t, resp.Body)
		for _, metric := range []string{"edged_north_lag_readings", "edged_north_sent_readings_total", "edged_north_set_aside_readings_total"} {
			series := metric + `{stream="` + name + `"}`
			if _, ok := got[series]; !ok {
				t.Errorf("no series %s", series)
			}
		}
		if v := got[`edged_north_sent_readings_total{stream="`+name+`"}`]; v != 0 {
			t.Errorf("readings sent to a destination that never answers = %v, want 0", v)
		}
	})
}
