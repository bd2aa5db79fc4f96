package metrics_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/metrics"
)

type fakeStats struct {
	list []db.Statistic
	err  error
}

func (f fakeStats) Statistics(context.Context) ([]db.Statistic, error) { return f.list, f.err }

type fakeServices struct {
	list   []metrics.Service
	depths map[string]int
}

func (f fakeServices) Services(context.Context) ([]metrics.Service, error) { return f.list, nil }
func (f fakeServices) BufferDepths() map[string]int                        { return f.depths }

type fakeStorage struct{ available bool }

func (f fakeStorage) Health() db.Health { return db.Health{Available: f.available} }

type fakeStreams map[string]int64

func (f fakeStreams) StreamLags(context.Context) (map[string]int64, error) { return f, nil }

// scrape exposes m and parses the text back, failing on malformed output.
func scrape(t *testing.T, m *metrics.Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	body, err := m.Expose(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("exposition does not parse: %v\n%s", err, body)
	}
	return families
}

// value returns the value of the series of family name whose labels
// include labels; ok is false when there is none.
func value(families map[string]*dto.MetricFamily, name string, labels map[string]string) (v float64, ok bool) {
	f := families[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, want := range labels {
			if have[k] != want {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		case m.Untyped != nil:
			return m.GetUntyped().GetValue(), true
		}
	}
	return 0, false
}

func TestExposeReadsSourcesAndHooks(t *testing.T) {
	m := metrics.New(nil)
	m.ReadFrom(metrics.Sources{
		Statistics: fakeStats{list: []db.Statistic{
			{Key: "READINGS", Value: 120}, {Key: "DISCARDED", Value: 3}, {Key: "PURGED", Value: 40},
			{Key: "BUFFERED", Value: 77}, {Key: "sine-Ingest", Value: 117}, {Key: "up", Value: 50},
			{Key: "sine-Filtered", Value: 8}, {Key: "up-Filtered", Value: 2}, {Key: "up-SetAside", Value: 4},
		}},
		Services: fakeServices{
			list: []metrics.Service{
				{Name: "sine", Type: "Southbound", Status: "running"},
				{Name: "up", Type: "Northbound", Status: "failed"},
				{Name: "slow", Type: "Northbound", Status: "unresponsive"},
			},
			depths: map[string]int{"sine": 9},
		},
		Streams:       fakeStreams{"up": 27, "task": 0},
		Storage:       fakeStorage{available: false},
		StorageErrors: func() db.ErrorCounts { return db.ErrorCounts{Unavailable: 5, Other: 2} },
	})
	m.Request("listAssets", 200, 3*time.Millisecond)
	m.Request("listAssets", 200, time.Millisecond)
	m.Request("ping", 401, time.Millisecond)
	m.Request("", 404, time.Millisecond)
	m.Committed("sine", 2*time.Millisecond, true)
	m.Committed("sine", time.Second, false)
	m.SendFailed("up")

	got := scrape(t, m)
	tests := []struct {
		name   string
		metric string
		labels map[string]string
		want   float64
	}{
		{name: "received", metric: "edged_readings_received_total", want: 120},
		{name: "discarded", metric: "edged_readings_discarded_total", want: 3},
		{name: "purged", metric: "edged_readings_purged_total", want: 40},
		{name: "buffered", metric: "edged_readings_buffered", want: 77},
		{name: "stored per south service", metric: "edged_readings_stored_total", labels: map[string]string{"service": "sine"}, want: 117},
		{name: "buffer depth", metric: "edged_ingest_buffer_depth", labels: map[string]string{"service": "sine"}, want: 9},
		{name: "commits observed", metric: "edged_ingest_commit_duration_seconds", labels: map[string]string{"service": "sine"}, want: 2},
		{name: "commit failures", metric: "edged_ingest_commit_failures_total", labels: map[string]string{"service": "sine"}, want: 1},
		{name: "north lag", metric: "edged_north_lag_readings", labels: map[string]string{"stream": "up"}, want: 27},
		{name: "send errors", metric: "edged_north_send_errors_total", labels: map[string]string{"stream": "up"}, want: 1},
		{name: "current status", metric: "edged_service_status", labels: map[string]string{"service": "up", "status": "failed", "type": "Northbound"}, want: 1},
		{name: "other status", metric: "edged_service_status", labels: map[string]string{"service": "up", "status": "running"}, want: 0},
		{name: "requests by operation and status", metric: "edged_http_requests_total", labels: map[string]string{"operation": "listAssets", "status": "200"}, want: 2},
		{name: "refused requests", metric: "edged_http_requests_total", labels: map[string]string{"operation": "ping", "status": "401"}, want: 1},
		{name: "requests outside the contract", metric: "edged_http_requests_total", labels: map[string]string{"operation": "none", "status": "404"}, want: 1},
		{name: "request durations", metric: "edged_http_request_duration_seconds", labels: map[string]string{"operation": "listAssets"}, want: 2},
		{name: "north lag of a stream that caught up", metric: "edged_north_lag_readings", labels: map[string]string{"stream": "task"}, want: 0},
		{name: "sent per stream", metric: "edged_north_sent_readings_total", labels: map[string]string{"stream": "up"}, want: 50},
		{name: "set aside per stream", metric: "edged_north_set_aside_readings_total", labels: map[string]string{"stream": "up"}, want: 4},
		{name: "nothing set aside yet", metric: "edged_north_set_aside_readings_total", labels: map[string]string{"stream": "task"}, want: 0},
		{name: "filtered on the way in", metric: "edged_readings_filtered_total", labels: map[string]string{"service": "sine"}, want: 8},
		{name: "filtered on the way out", metric: "edged_readings_filtered_total", labels: map[string]string{"service": "up"}, want: 2},
		{name: "unresponsive status", metric: "edged_service_status", labels: map[string]string{"service": "slow", "status": "unresponsive"}, want: 1},
		{name: "storage unavailable errors", metric: "edged_storage_errors_total", labels: map[string]string{"kind": "unavailable"}, want: 5},
		{name: "other storage errors", metric: "edged_storage_errors_total", labels: map[string]string{"kind": "other"}, want: 2},
		{name: "storage down", metric: "edged_storage_available", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := value(got, tt.metric, tt.labels)
			if !ok {
				t.Fatalf("no series %s%v", tt.metric, tt.labels)
			}
			if v != tt.want {
				t.Errorf("%s%v = %v, want %v", tt.metric, tt.labels, v, tt.want)
			}
		})
	}
	if _, ok := value(got, "edged_readings_stored_total", map[string]string{"service": "up"}); ok {
		t.Error("a north service has a stored-readings series")
	}
	if _, ok := value(got, "go_goroutines", nil); !ok {
		t.Error("the Go runtime's metrics are missing")
	}
}

func TestExposeWithoutFailingSource(t *testing.T) {
	m := metrics.New(nil)
	m.ReadFrom(metrics.Sources{
		Statistics: fakeStats{err: errors.New("storage down")},
		Services:   fakeServices{list: []metrics.Service{{Name: "sine", Type: "Southbound", Status: "running"}}},
	})
	got := scrape(t, m)
	if _, ok := value(got, "edged_readings_received_total", nil); ok {
		t.Error("received readings shown although the statistics could not be read")
	}
	if v, ok := value(got, "edged_service_status", map[string]string{"service": "sine", "status": "running"}); !ok || v != 1 {
		t.Errorf("service status = %v, %v; want 1: a failing source hides the others", v, ok)
	}
}

func TestExposeBeforeSources(t *testing.T) {
	m := metrics.New(nil)
	m.Request("ping", 200, time.Millisecond)
	got := scrape(t, m)
	if v, ok := value(got, "edged_http_requests_total", map[string]string{"operation": "ping"}); !ok || v != 1 {
		t.Errorf("requests = %v, %v; want 1", v, ok)
	}
}
