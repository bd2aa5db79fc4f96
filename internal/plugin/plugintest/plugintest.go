// Package plugintest has helpers for testing plugins: a Sink that records
// what a plugin delivers, the default configuration of a definition, and
// the check every built-in filter's folder runs on its definition.
package plugintest

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/internal/plugin"
)

// Sink records readings. Put and Submit send each call's readings on
// Calls (buffered); Submit answers with the error in Reject when it is set,
// and otherwise with a receipt resolved with Commit's result (nil by
// default).
type Sink struct {
	Calls chan []plugin.Reading

	mu     sync.Mutex
	reject error
	commit func([]plugin.Reading) error
}

// NewSink returns a recording sink whose Calls channel holds up to n calls.
func NewSink(n int) *Sink { return &Sink{Calls: make(chan []plugin.Reading, n)} }

// SetReject makes Submit refuse with err (nil to accept again).
func (s *Sink) SetReject(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reject = err
}

// SetCommit sets the function deciding each Submit's outcome.
func (s *Sink) SetCommit(fn func([]plugin.Reading) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commit = fn
}

// Put implements plugin.Sink.
func (s *Sink) Put(rs []plugin.Reading) { s.Calls <- rs }

// Submit implements plugin.Sink.
func (s *Sink) Submit(rs []plugin.Reading) (plugin.Receipt, error) {
	s.mu.Lock()
	reject, commit := s.reject, s.commit
	s.mu.Unlock()
	if reject != nil {
		return nil, reject
	}
	var err error
	if commit != nil {
		err = commit(rs)
	}
	s.Calls <- rs
	return done{err}, nil
}

type done struct{ err error }

func (d done) Wait(context.Context) error { return d.err }

// Defaults returns the default configuration of def's items.
func Defaults(def plugin.Definition) plugin.Config {
	cfg := plugin.Config{}
	for name, it := range def.Items {
		cfg[name] = it.Default
	}
	return cfg
}

// CheckFilter checks the built-in filter plugin def, whose configuration
// struct is config: its items are the struct's, its defaults decode into
// the struct, and an instance made with them processes a batch and takes
// its defaults again.
func CheckFilter(t testing.TB, def plugin.Definition, config any) {
	t.Helper()
	if def.Kind != plugin.KindFilter || def.NewFilter == nil {
		t.Fatalf("%s is no filter plugin: %+v", def.Name, def)
	}
	if want := plugin.ItemsOf(config); !reflect.DeepEqual(def.Items, want) {
		t.Errorf("items = %v, want those of %T: %v", def.Items, config, want)
	}
	cfg := Defaults(def)
	c := reflect.New(reflect.TypeOf(config)).Interface()
	if err := plugin.Decode(cfg, c); err != nil {
		t.Fatalf("the defaults do not decode: %v", err)
	}
	f, err := def.NewFilter(plugin.FilterEnv{}, cfg)
	if err != nil {
		t.Fatalf("a filter with the defaults: %v", err)
	}
	in := []plugin.Point{{Asset: "a", Timestamp: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Values: map[string]any{"x": int64(1)}}}
	if _, err := f.Process(context.Background(), in); err != nil {
		t.Errorf("Process: %v", err)
	}
	if err := f.Reconfigure(cfg); err != nil {
		t.Errorf("Reconfigure to the defaults: %v", err)
	}
}
