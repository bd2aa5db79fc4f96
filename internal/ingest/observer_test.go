package ingest

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// commits records what an Observer is told.
type commits struct {
	mu  sync.Mutex
	got []string
}

func (c *commits) Committed(service string, d time.Duration, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d < 0 {
		service += " (negative duration)"
	}
	if !ok {
		service += " failed"
	}
	c.got = append(c.got, service)
}

func (c *commits) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.got...)
}

func TestDepthAndObserver(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 3, MaxLatency: time.Hour, Capacity: 100}, true)
	obs := &commits{}
	h.buf.o.Observer = obs // before any write: the writer reads it only when writing

	if d := h.buf.Depth(); d != 0 {
		t.Fatalf("depth of an empty buffer = %d", d)
	}
	h.buf.Put(readings("a", 2))
	if d := h.buf.Depth(); d != 2 {
		t.Errorf("depth with 2 queued = %d, want 2", d)
	}
	r := submit(t, h.buf, readings("a", 2)) // the batch is full: written now
	h.store.next(t)
	h.buf.Put(readings("b", 1))
	if d := h.buf.Depth(); d != 5 {
		t.Errorf("depth with 4 being written and 1 queued = %d, want 5", d)
	}
	h.store.gate <- nil
	if err := r.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	if d := h.buf.Depth(); d != 1 {
		t.Errorf("depth after the write = %d, want 1", d)
	}
	r = submit(t, h.buf, readings("c", 2))
	h.store.next(t)
	h.store.gate <- errors.New("disk on fire")
	if err := r.Wait(t.Context()); err == nil {
		t.Fatal("Wait after a failed write = nil")
	}
	if got := obs.list(); len(got) != 2 || got[0] != "svc" || got[1] != "svc failed" {
		t.Errorf("observed %v, want [svc, svc failed]", got)
	}
}
