package sinusoid

import (
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
)

var start = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// run starts a sinusoid with cfg on a fake clock and returns it with its
// sink; the run ends with the test.
func run(t *testing.T, cfg plugin.Config, restore string) (*Sinusoid, *clock.Fake, *plugintest.Sink, func()) {
	t.Helper()
	clk := clock.NewFake(start)
	p, err := Definition().New(plugin.Env{Service: "sine", Clock: clk}, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	s := p.(*Sinusoid)
	if restore != "" {
		if err := s.Restore(json.RawMessage(restore)); err != nil {
			t.Fatalf("Restore: %v", err)
		}
	}
	sink := plugintest.NewSink(100)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, sink) }()
	stop := func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	}
	return s, clk, sink, stop
}

// tick advances the clock by d once the plugin waits, and returns the
// reading it put.
func tick(t *testing.T, clk *clock.Fake, sink *plugintest.Sink, d time.Duration) plugin.Reading {
	t.Helper()
	clk.BlockUntil(1)
	clk.Advance(d)
	rs := <-sink.Calls
	if len(rs) != 1 {
		t.Fatalf("Put of %d readings, want 1", len(rs))
	}
	return rs[0]
}

func value(t *testing.T, r plugin.Reading) float64 {
	t.Helper()
	var v map[string]float64
	if err := json.Unmarshal(r.Values, &v); err != nil || len(v) != 1 {
		t.Fatalf("reading values %s: %v", r.Values, err)
	}
	return v["sinusoid"]
}

func TestDefinitionIsValid(t *testing.T) {
	d := Definition()
	if _, err := configmgr.CheckValues("sine", d.Items, nil); err != nil {
		t.Fatalf("items are not valid configuration: %v", err)
	}
	if !d.Persists {
		t.Error("sinusoid does not declare that it persists")
	}
}

func TestWave(t *testing.T) {
	_, clk, sink, stop := run(t, plugintest.Defaults(Definition()), "")
	defer stop()
	for step := range 3 {
		r := tick(t, clk, sink, time.Second)
		if r.Asset != "sinusoid" {
			t.Errorf("asset = %q", r.Asset)
		}
		if want := start.Add(time.Duration(step+1) * time.Second); !r.Timestamp.Equal(want) {
			t.Errorf("timestamp = %v, want %v", r.Timestamp, want)
		}
		if got, want := value(t, r), math.Sin(2*math.Pi*float64(step)/360); math.Abs(got-want) > 1e-12 {
			t.Errorf("step %d value = %v, want %v", step, got, want)
		}
	}
}

func TestValue(t *testing.T) {
	cases := []struct {
		name string
		step int64
		want float64
	}{
		{name: "start", step: 0, want: 0},
		{name: "quarter", step: 90, want: 1},
		{name: "three quarters", step: 270, want: -1},
		{name: "next cycle", step: 450, want: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Value(c.step); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("Value(%d) = %v, want %v", c.step, got, c.want)
			}
		})
	}
}

func TestPersistAndResume(t *testing.T) {
	s, clk, sink, stop := run(t, plugintest.Defaults(Definition()), "")
	for range 5 {
		tick(t, clk, sink, time.Second)
	}
	stop()
	st, err := s.State()
	if err != nil {
		t.Fatal(err)
	}
	if string(st) != `{"step":5}` {
		t.Fatalf("State = %s, want {\"step\":5}", st)
	}

	_, clk2, sink2, stop2 := run(t, plugintest.Defaults(Definition()), string(st))
	defer stop2()
	if got, want := value(t, tick(t, clk2, sink2, time.Second)), Value(5); got != want {
		t.Errorf("first value after resuming = %v, want step 5's %v", got, want)
	}
}

func TestRestoreRejectsBadState(t *testing.T) {
	p, err := Definition().New(plugin.Env{Clock: clock.NewFake(start)}, plugintest.Defaults(Definition()))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`"x"`, `{"step": -1}`, `{"step": 1.5}`} {
		if err := p.(*Sinusoid).Restore(json.RawMessage(bad)); err == nil {
			t.Errorf("Restore(%s) = nil", bad)
		}
	}
}

func TestReconfigureLive(t *testing.T) {
	cfg := plugintest.Defaults(Definition())
	s, clk, sink, stop := run(t, cfg, "")
	defer stop()
	tick(t, clk, sink, time.Second)

	clk.BlockUntil(1)
	next := plugin.Config{ItemAssetName: "wave/a", ItemRate: "4"}
	if err := s.Reconfigure(next); err != nil {
		t.Fatalf("Reconfigure: %v", err)
	}
	// The plugin drops its 1 s timer and waits 250 ms instead.
	r := tick(t, clk, sink, 250*time.Millisecond)
	if r.Asset != "wave/a" {
		t.Errorf("asset after reconfigure = %q, want wave/a", r.Asset)
	}
	if err := s.Reconfigure(plugin.Config{ItemAssetName: "", ItemRate: "1"}); err == nil {
		t.Error("Reconfigure with an empty asset name = nil")
	}
}
