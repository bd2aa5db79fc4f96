package system

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
)

// fakeStorage is down until it is told otherwise; a probe succeeds only
// when it is back.
type fakeStorage struct {
	mu     sync.Mutex
	up     bool // what a probe finds
	health db.Health
	probes chan struct{}
}

func (f *fakeStorage) Health() db.Health {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.health
}

func (f *fakeStorage) Probe(context.Context) error {
	f.mu.Lock()
	defer func() {
		f.mu.Unlock()
		f.probes <- struct{}{}
	}()
	f.health.Available = f.up
	if !f.up {
		return errors.New("connection refused")
	}
	return nil
}

func TestWatchStorageProbesOnlyWhileDown(t *testing.T) {
	s := &fakeStorage{health: db.Health{Available: true}, probes: make(chan struct{}, 10)}
	clk := clock.NewFake(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		WatchStorage(ctx, s, func() time.Duration { return 5 * time.Second }, clk, slog.New(slog.DiscardHandler))
	}()
	tick := func() {
		clk.BlockUntil(1)
		clk.Advance(5 * time.Second)
	}
	tick() // available: no probe
	s.mu.Lock()
	s.health = db.Health{Cause: "connection refused"}
	s.mu.Unlock()
	tick()
	<-s.probes // down: probed, still down
	s.mu.Lock()
	s.up = true
	s.mu.Unlock()
	tick()
	<-s.probes // back
	if !s.Health().Available {
		t.Error("storage still unavailable after a successful probe")
	}
	tick() // available again: no probe
	clk.BlockUntil(1)
	cancel()
	<-done
	if n := len(s.probes); n != 0 {
		t.Errorf("%d probes while storage was available", n)
	}
}
