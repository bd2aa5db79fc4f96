package filter_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/filter/builtin"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
)

// counter records statistics.
type counter struct {
	mu sync.Mutex
	n  map[string]int64
}

func (c *counter) Add(key, _ string, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[key] += n
}

func (c *counter) get(key string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[key]
}

// tracker records tracking events.
type tracker struct {
	mu     sync.Mutex
	events []string
}

func (tr *tracker) Track(_ context.Context, event, service, plugin, asset string) error {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.events = append(tr.events, fmt.Sprintf("%s %s %s %s", event, service, plugin, asset))
	return nil
}

type fixture struct {
	d   *db.DB
	cfg *configmgr.Manager
	m   *filter.Manager
	c   *counter
	tr  *tracker
	// plugins is the registry the filters find their plugins in.
	plugins *plugin.Registry
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	d := dbtest.SQLite(t)
	cfg := configmgr.New(d, audit.New(d, nil), nil)
	c, tr := &counter{n: map[string]int64{}}, &tracker{}
	plugins := registry(t)
	m, err := filter.New(filter.Options{Store: d, Config: cfg, Plugins: plugins, Counters: c, Tracker: tr})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := d.CreateService(ctx, db.Service{Name: "svc", Type: db.ServiceSouth, Plugin: "sinusoid"},
		db.Schedule{ID: "00000000-0000-4000-8000-000000000001", Name: "svc", ProcessName: "south_c", Type: db.ScheduleStartup}); err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.Create(ctx, configmgr.CategoryInput{Key: "svc", Description: "svc", Items: map[string]configmgr.Item{}}); err != nil {
		t.Fatal(err)
	}
	return &fixture{d: d, cfg: cfg, m: m, c: c, tr: tr, plugins: plugins}
}

// registry returns a registry of the built-in filter plugins.
func registry(t testing.TB) *plugin.Registry {
	t.Helper()
	r, err := plugin.NewRegistry(builtin.Definitions()...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (f *fixture) create(t *testing.T, name, pluginName string, cfg map[string]string) {
	t.Helper()
	if _, err := f.m.Create(t.Context(), name, pluginName, cfg); err != nil {
		t.Fatalf("Create %s: %v", name, err)
	}
}

func readings(asset string, xs ...float64) []plugin.Reading {
	out := make([]plugin.Reading, len(xs))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, x := range xs {
		out[i] = plugin.Reading{Asset: asset, Timestamp: t0.Add(time.Duration(i) * time.Second), Values: json.RawMessage(fmt.Sprintf(`{"x":%g}`, x))}
	}
	return out
}

func xs(t *testing.T, rs []plugin.Reading) []float64 {
	t.Helper()
	out := []float64{}
	for _, r := range rs {
		var v struct{ X float64 }
		if err := json.Unmarshal(r.Values, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v.X)
	}
	return out
}

func TestCreateRefusals(t *testing.T) {
	f := newFixture(t)
	f.create(t, "s1", "scale", nil)
	tests := []struct {
		name, filter, plugin string
		cfg                  map[string]string
		kind                 *fault.Kind
	}{
		{name: "taken by a filter", filter: "s1", plugin: "scale", kind: fault.Conflict},
		{name: "taken by a service's category", filter: "svc", plugin: "scale", kind: fault.Conflict},
		{name: "unknown plugin", filter: "x", plugin: "nope", kind: fault.NotFound},
		{name: "config the filter refuses", filter: "x", plugin: "scale", cfg: map[string]string{"rules": `[{"factor":1}]`}, kind: fault.Invalid},
		{name: "unknown item", filter: "x", plugin: "scale", cfg: map[string]string{"nope": "1"}, kind: fault.Invalid},
		{name: "control character", filter: "a\tb", plugin: "scale", kind: fault.Invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.m.Create(t.Context(), tt.filter, tt.plugin, tt.cfg)
			if !errors.Is(err, tt.kind) {
				t.Errorf("Create = %v, want %v", err, tt.kind)
			}
		})
	}
	if _, err := f.d.GetFilter(t.Context(), "x"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("a refused filter was stored: %v", err)
	}
}

// TestSinkRollsBackOnBufferFull checks that a submission the buffer
// refuses leaves the delta filter as it was, so the producer's retry
// passes the same readings.
func TestSinkRollsBackOnBufferFull(t *testing.T) {
	f := newFixture(t)
	f.create(t, "d", "delta", map[string]string{"tolerance": "0.5"})
	if _, err := f.m.SetPipeline(t.Context(), "svc", []string{"d"}, false); err != nil {
		t.Fatal(err)
	}
	p, err := f.m.Open(t.Context(), "svc", filter.South)
	if err != nil {
		t.Fatal(err)
	}
	next := plugintest.NewSink(10)
	sink := p.Sink(next)
	next.SetReject(plugin.ErrBufferFull)
	if _, err := sink.Submit(readings("a", 1, 2)); !errors.Is(err, plugin.ErrBufferFull) {
		t.Fatalf("Submit = %v, want ErrBufferFull", err)
	}
	next.SetReject(nil)
	if _, err := sink.Submit(readings("a", 1, 2, 2.1)); err != nil {
		t.Fatal(err)
	}
	if got := xs(t, <-next.Calls); !slices.Equal(got, []float64{1, 2}) {
		t.Errorf("retried submission passed %v, want [1 2]", got)
	}
	if n := f.c.get(filter.FilteredKey("svc")); n != 1 {
		t.Errorf("dropped = %d, want 1 (the refused submission is not counted)", n)
	}
	if !slices.Contains(f.tr.events, "Filter svc delta a") {
		t.Errorf("tracking events = %v", f.tr.events)
	}

	// Close persists the state; a new pipeline picks it up.
	p.Close(t.Context())
	data, err := f.d.GetPluginData(t.Context(), "svc", "d")
	if err != nil {
		t.Fatalf("persisted state: %v", err)
	}
	p, err = f.m.Open(t.Context(), "svc", filter.South)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(t.Context())
	p.Sink(next).Put(readings("a", 2.2, 3))
	if got := xs(t, <-next.Calls); !slices.Equal(got, []float64{3}) {
		t.Errorf("after a restart with state %s, passed %v, want [3]", data, got)
	}
}

// partialNorth accepts only the first n readings of each Send.
type partialNorth struct {
	n    int
	sent [][]plugin.Reading
}

func (p *partialNorth) Send(_ context.Context, rs []plugin.Reading) (int, error) {
	p.sent = append(p.sent, rs)
	if len(rs) > p.n {
		return p.n, errors.New("destination gone")
	}
	return len(rs), nil
}

func (p *partialNorth) Reconfigure(plugin.Config) error { return nil }

// TestNorthPartialDelivery checks that when the destination accepts only
// part of a filtered block, the block counts as sent up to the reading
// that produced the first undelivered output, and the filter's state
// matches: resending the rest gives what it would have given.
func TestNorthPartialDelivery(t *testing.T) {
	f := newFixture(t)
	f.create(t, "d", "delta", map[string]string{"tolerance": "0.5"})
	if _, err := f.m.SetPipeline(t.Context(), "svc", []string{"d"}, false); err != nil {
		t.Fatal(err)
	}
	p, err := f.m.Open(t.Context(), "svc", filter.North)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(t.Context())
	out := &partialNorth{n: 1}
	north := p.North(out)
	in := readings("a", 1, 1.1, 2, 2.1, 3)
	// delta passes 1, 2, 3 (inputs 0, 2, 4); only "1" is accepted, so
	// inputs 0 and 1 are done and input 2 ("2") is not.
	n, err := north.Send(t.Context(), in)
	if err == nil || n != 2 {
		t.Fatalf("Send = %d, %v; want 2 and an error", n, err)
	}
	out.n = 100
	if n, err := north.Send(t.Context(), in[n:]); err != nil || n != 3 {
		t.Fatalf("resend = %d, %v", n, err)
	}
	if got := xs(t, out.sent[len(out.sent)-1]); !slices.Equal(got, []float64{2, 3}) {
		t.Errorf("resent block delivered %v, want [2 3]", got)
	}
	if dropped := f.c.get("UNSENT"); dropped != 2 {
		t.Errorf("UNSENT = %d, want 2 (1.1 and 2.1)", dropped)
	}
}

// TestLivePipelineChanges checks that a running pipeline follows pipeline
// and configuration changes at once.
func TestLivePipelineChanges(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.create(t, "s", "scale", map[string]string{"rules": `[{"datapoint":"x","factor":2}]`})
	f.create(t, "m", "assets", map[string]string{"action": "exclude", "assets": `["b"]`})
	p, err := f.m.Open(ctx, "svc", filter.South)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	next := plugintest.NewSink(10)
	sink := p.Sink(next)
	steps := []struct {
		name   string
		change func(t *testing.T)
		in     []plugin.Reading
		want   []float64
	}{
		{name: "no filters", change: func(*testing.T) {}, in: readings("a", 1), want: []float64{1}},
		{name: "scale added", change: func(t *testing.T) {
			if _, err := f.m.SetPipeline(ctx, "svc", []string{"s"}, false); err != nil {
				t.Fatal(err)
			}
		}, in: readings("a", 1), want: []float64{2}},
		{name: "factor changed", change: func(t *testing.T) {
			if _, err := f.cfg.SetValue(ctx, "s", "rules", `[{"datapoint":"x","factor":5}]`); err != nil {
				t.Fatal(err)
			}
		}, in: readings("a", 1), want: []float64{5}},
		{name: "assets appended", change: func(t *testing.T) {
			if _, err := f.m.SetPipeline(ctx, "svc", []string{"m"}, true); err != nil {
				t.Fatal(err)
			}
		}, in: append(readings("a", 1), readings("b", 1)...), want: []float64{5}},
		{name: "scale disabled", change: func(t *testing.T) {
			if _, err := f.cfg.SetValue(ctx, "s", filter.ItemEnable, "false"); err != nil {
				t.Fatal(err)
			}
		}, in: readings("a", 1), want: []float64{1}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.change(t)
			sink.Put(s.in)
			if got := xs(t, <-next.Calls); !slices.Equal(got, s.want) {
				t.Errorf("passed %v, want %v", got, s.want)
			}
		})
	}
	if got := p.Names(); !slices.Equal(got, []string{"s", "m"}) {
		t.Errorf("running pipeline = %v", got)
	}
	if err := f.m.Delete(ctx, "s"); !errors.Is(err, fault.Conflict) {
		t.Errorf("Delete in use = %v, want Conflict", err)
	}
}
