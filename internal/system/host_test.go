package system

import (
	"sync"
	"testing"
	"time"
)

func TestHostFactsAreCachedAndRefreshed(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	lookups := 0
	looked := make(chan struct{}, 10)
	h := newHost(func() time.Time { mu.Lock(); defer mu.Unlock(); return now }, func() (string, []string) {
		mu.Lock()
		defer mu.Unlock()
		lookups++
		return "edge-" + string(rune('0'+lookups)), []string{"10.0.0.1"}
	}, time.Minute)
	h.updated = func() { looked <- struct{}{} }
	for range 3 {
		if name, _ := h.Facts(); name != "edge-1" {
			t.Fatalf("Facts = %s, want the first lookup's answer", name)
		}
	}
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	if name, _ := h.Facts(); name != "edge-1" { // answered from memory; the refresh runs behind
		t.Errorf("Facts when stale = %s, want the cached edge-1", name)
	}
	<-looked
	if name, addrs := h.Facts(); name != "edge-2" || len(addrs) != 1 {
		t.Errorf("Facts after the refresh = %s %v", name, addrs)
	}
	mu.Lock()
	defer mu.Unlock()
	if lookups != 2 {
		t.Errorf("%d lookups, want 2", lookups)
	}
}
