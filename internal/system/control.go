package system

import "sync"

// Action is what the gateway is asked to do with itself.
type Action int

// The actions a Control carries.
const (
	// Shutdown stops the gateway cleanly and ends the process.
	Shutdown Action = iota + 1
	// Restart stops the gateway cleanly and starts it again in the same
	// process.
	Restart
)

// String returns "shutdown" or "restart".
func (a Action) String() string {
	switch a {
	case Shutdown:
		return "shutdown"
	case Restart:
		return "restart"
	}
	return "none"
}

// Control carries a shutdown or restart request from the API to the code
// that runs the gateway. One Control serves one run of the gateway: the
// first request is kept, later ones are refused. It is safe for concurrent
// use.
type Control struct {
	once sync.Once
	ch   chan Action // cap 1: the request, once made

	mu        sync.Mutex // guards requested
	requested Action
}

// NewControl returns a Control with no request.
func NewControl() *Control { return &Control{ch: make(chan Action, 1)} }

// Request asks for a; it reports false when a request was made already
// (whichever), which stays the one acted on.
func (c *Control) Request(a Action) bool {
	accepted := false
	c.once.Do(func() {
		c.mu.Lock()
		c.requested = a
		c.mu.Unlock()
		c.ch <- a
		accepted = true
	})
	return accepted
}

// Requested returns the pending request, 0 when none was made.
func (c *Control) Requested() Action {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requested
}

// Done returns the channel that delivers the request once it is made.
func (c *Control) Done() <-chan Action { return c.ch }
