package main

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"
)

func TestBatchBody(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	body := batchBody(nil, "p-", 13, 3, 10, t0, 100*time.Millisecond)
	var got []struct {
		Timestamp string          `json:"timestamp"`
		Asset     string          `json:"asset"`
		Readings  json.RawMessage `json:"readings"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("body is not JSON: %v; %s", err, body)
	}
	if len(got) != 3 || got[0].Asset != "p-3" || got[2].Timestamp != "2024-01-01 00:00:04.100000" ||
		string(got[1].Readings) != `{"sinusoid":0.1111,"seq":40}` {
		t.Errorf("batch = %+v", got)
	}
}

func TestRecorderBetween(t *testing.T) {
	t0 := time.Now()
	r := &recorder{}
	for i, lat := range []time.Duration{10, 20, 30, 40} {
		ended := t0.Add(time.Duration(i) * time.Second)
		r.add(ended.Add(-lat*time.Millisecond), ended, 100)
	}
	res := r.between(t0.Add(time.Second), t0.Add(3*time.Second)) // requests 1 and 2
	if res.Ops != 200 || res.Requests != 2 || res.Rate != 100 || res.MaxMs != 30 || res.P50ms != 20 {
		t.Errorf("between = %+v", res)
	}
}

func TestWithDatabase(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "key=value", in: "host=/tmp/x port=5432 dbname=edged sslmode=disable", want: "host=/tmp/x port=5432 dbname=b sslmode=disable"},
		{name: "key=value without dbname", in: "host=/tmp/x", want: "host=/tmp/x dbname=b"},
		{name: "URL", in: "postgres://u@h:5432/edged?sslmode=disable", want: "postgres://u@h:5432/b?sslmode=disable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := withDatabase(tc.in, "b"); err != nil || got != tc.want {
				t.Errorf("withDatabase(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestProcFigures(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system")
	}
	// Spin until the process has used a clock tick of CPU: procCPU must
	// see it.
	x := 0
	for cpuSelf() < 2*clockTick {
		x++
	}
	cpu, err := procCPU(os.Getpid())
	if err != nil || cpu <= 0 {
		t.Errorf("procCPU = %v, %v after %d spins", cpu, err, x)
	}
	if rss, err := procRSS(os.Getpid()); err != nil || rss < 1<<20 {
		t.Errorf("procRSS = %d, %v", rss, err)
	}
}

func TestMedian(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median of 3 = %v", m)
	}
	if m := median([]float64{4, 1, 2, 3}); m != 2.5 {
		t.Errorf("median of 4 = %v", m)
	}
}

func TestMatchArrivals(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	at := func(ms ...int) []time.Time {
		var out []time.Time
		for _, m := range ms {
			out = append(out, t0.Add(time.Duration(m)*time.Millisecond))
		}
		return out
	}
	tests := []struct {
		name           string
		acks, arrivals []time.Time
		want           []time.Duration
	}{
		{name: "in order", acks: at(0, 100), arrivals: at(5, 130), want: []time.Duration{5 * time.Millisecond, 30 * time.Millisecond}},
		{name: "more acks than webhooks", acks: at(0, 100, 200), arrivals: at(7), want: []time.Duration{7 * time.Millisecond}},
		{name: "webhook before the answer", acks: at(10), arrivals: at(9), want: []time.Duration{0}},
		{name: "none", want: []time.Duration{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := matchArrivals(tt.acks, tt.arrivals); !slices.Equal(got, tt.want) {
				t.Errorf("matchArrivals = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSpreadBody(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	body := spreadBody(nil, "p-", 2, 3, 7, t0, time.Millisecond)
	var got []struct {
		Asset string `json:"asset"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	want := []string{"p-6", "p-0", "p-1"} // readings 6, 7, 8 of 7 assets
	for i, w := range want {
		if got[i].Asset != w {
			t.Errorf("reading %d asset %q, want %q", i, got[i].Asset, w)
		}
	}
}
