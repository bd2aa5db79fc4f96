package filter_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
)

// outOfProcess is a filter like one running in its own process: it can
// fail on a batch, and holds a resource Close releases.
type outOfProcess struct {
	mu     *sync.Mutex
	fail   *bool
	closed *int
}

func (o outOfProcess) Process(_ context.Context, points []plugin.Point) ([]plugin.Point, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if *o.fail {
		return nil, errors.New("the plugin process died")
	}
	for i := range points {
		switch x := points[i].Values["x"].(type) {
		case int64:
			points[i].Values["x"] = x * 10
		case float64:
			points[i].Values["x"] = x * 10
		}
	}
	return points, nil
}

func (o outOfProcess) Reconfigure(plugin.Config) error { return nil }

func (o outOfProcess) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	*o.closed++
	return nil
}

// TestInstalledFilterPlugin adds a filter plugin while the manager runs,
// as an installed package does: instances of it run in pipelines, a failed
// batch passes unfiltered, instances are closed when done with, and the
// plugin cannot be removed while an instance uses it.
func TestInstalledFilterPlugin(t *testing.T) {
	f := newFixture(t)
	var (
		mu     sync.Mutex
		fail   bool
		closed int
	)
	def := plugin.Definition{Name: "times_ten", Version: "1.0.0", Kind: plugin.KindFilter,
		NewFilter: func(plugin.FilterEnv, plugin.Config) (plugin.Filter, error) {
			return outOfProcess{mu: &mu, fail: &fail, closed: &closed}, nil
		}}
	if _, err := f.m.Create(t.Context(), "t1", "times_ten", nil); err == nil {
		t.Fatal("Create of a plugin not installed yet = nil")
	}
	// Installing a package adds its plugin to the one registry, where
	// the filters find it.
	if err := f.plugins.Add(def); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(f.m.Plugins(), "times_ten") {
		t.Errorf("Plugins = %v", f.m.Plugins())
	}
	f.create(t, "t1", "times_ten", nil)
	mu.Lock()
	if closed != 1 {
		t.Errorf("the instance made to check the configuration was closed %d times, want 1", closed)
	}
	mu.Unlock()
	if users, err := f.m.UsedBy(t.Context(), "times_ten"); err != nil || !slices.Equal(users, []string{"t1"}) {
		t.Errorf("UsedBy = %v, %v", users, err)
	}
	if _, err := f.m.SetPipeline(t.Context(), "svc", []string{"t1"}, false); err != nil {
		t.Fatal(err)
	}
	p, err := f.m.Open(t.Context(), "svc", filter.South)
	if err != nil {
		t.Fatal(err)
	}
	next := plugintest.NewSink(10)
	sink := p.Sink(next)
	sink.Put(readings("a", 1, 2))
	if got := xs(t, <-next.Calls); !slices.Equal(got, []float64{10, 20}) {
		t.Errorf("filtered = %v, want [10 20]", got)
	}
	mu.Lock()
	fail = true
	mu.Unlock()
	sink.Put(readings("a", 3))
	if got := xs(t, <-next.Calls); !slices.Equal(got, []float64{3}) {
		t.Errorf("a failed batch passed %v, want it unfiltered [3]", got)
	}
	if !slices.Contains(f.tr.events, "Filter svc times_ten a") {
		t.Errorf("tracking events = %v", f.tr.events)
	}
	p.Close(context.Background())
	mu.Lock()
	if closed != 2 {
		t.Errorf("closed %d times after the pipeline closed, want 2", closed)
	}
	mu.Unlock()
	f.plugins.Remove("times_ten")
	if _, err := f.m.Create(t.Context(), "t2", "times_ten", nil); !errors.Is(err, fault.NotFound) {
		t.Errorf("Create of a removed plugin = %v, want NotFound", err)
	}
}
