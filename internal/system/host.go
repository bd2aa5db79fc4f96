package system

import (
	"sync"
	"time"
)

// HostRefresh is how old the host facts Host returns may be.
const HostRefresh = 30 * time.Second

// Host caches the host's name and addresses, which take system calls (an
// interface listing among them) to find: Facts answers from memory and
// refreshes them in the background once they are older than HostRefresh.
// The zero value is not usable; use NewHost. Safe for concurrent use.
type Host struct {
	now     func() time.Time
	lookup  func() (string, []string)
	refresh time.Duration
	updated func() // called after each background refresh (tests)

	mu        sync.Mutex // guards the fields below
	name      string
	addresses []string
	at        time.Time // when they were found
	busy      bool      // a refresh is under way
}

// NewHost returns the host facts of this machine, found once now.
func NewHost() *Host {
	return newHost(time.Now, func() (string, []string) { return HostName(), IPAddresses() }, HostRefresh)
}

func newHost(now func() time.Time, lookup func() (string, []string), refresh time.Duration) *Host {
	h := &Host{now: now, lookup: lookup, refresh: refresh}
	h.name, h.addresses = lookup()
	h.at = now()
	return h
}

// Facts returns the host's name and addresses as last found; when they are
// older than the refresh period, a background refresh starts (one at a
// time) and a later call sees its result. The slice is the caller's.
func (h *Host) Facts() (string, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.busy && h.now().Sub(h.at) >= h.refresh {
		h.busy = true
		go h.update()
	}
	return h.name, append([]string(nil), h.addresses...)
}

func (h *Host) update() {
	name, addresses := h.lookup()
	h.mu.Lock()
	h.name, h.addresses, h.at, h.busy = name, addresses, h.now(), false
	h.mu.Unlock()
	if h.updated != nil {
		h.updated()
	}
}
