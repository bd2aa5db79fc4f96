// Package plugintest has helpers for testing plugins: a Sink that records
// what a plugin delivers, and the default configuration of a definition.
package plugintest

import (
	"context"
	"sync"

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
