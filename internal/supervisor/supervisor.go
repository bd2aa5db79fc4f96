// Package supervisor is the one lifecycle of every service the gateway
// runs in-process, south and north alike: a Supervisor runs a Unit's
// attempts in a goroutine, turns a panic into a failure, restarts a failed
// unit with backoff as the service monitor's settings (the SMNTR category)
// allow, checks a running unit's health every sleep_interval, and reports
// the service's status:
//
//   - running: an attempt is up (its plugin started: an external plugin's
//     process handshook and its Start returned) and its health checks
//     pass;
//   - unresponsive: no attempt is up yet (the plugin is starting, or
//     hangs in its start), a health check failed or took longer than
//     ping_timeout, the unit reported itself degraded (a north
//     destination that does not accept readings), the unit cannot run
//     because storage is unavailable, or it did not stop in time;
//   - failed: the last attempt failed; it is restarted after its backoff
//     unless restart_failed is manual or max_attempts restarts in a row
//     failed already, and then it stays failed.
//
// An attempt that ends with an error wrapping db.ErrUnavailable is not the
// service's failure: the service is unresponsive and tried again every
// sleep_interval, without counting towards max_attempts and whatever
// restart_failed says, so it recovers on its own with storage.
package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/backoff"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/system"
)

// ErrRestart ends an attempt so that the next one starts at once (a
// configuration change that needs a new plugin instance); it is no failure.
var ErrRestart = errors.New("restart for a configuration change")

// Audit sources and severities a Supervisor writes.
const (
	AuditFailed = auditcode.ServiceFailed
)

// Unit is what a Supervisor runs: one service.
type Unit struct {
	// Kind names the kind of service in logs ("service", "north service").
	Kind string
	// Name and Plugin name the service and its plugin.
	Name, Plugin string
	// Run runs one attempt: it starts the plugin, calls up once it runs,
	// and returns when the plugin fails (an error), when ctx ends (nil),
	// or with ErrRestart. A panic in Run is a failure.
	Run func(ctx context.Context, up func()) error
	// Pending, when set, says why the attempt that runs has not come up
	// yet ("" when it cannot tell).
	Pending func() string
	// Check, when set, is the health check of a running attempt: called
	// every sleep_interval with a context ending after ping_timeout. An
	// error, a panic or no answer in time makes the service unresponsive
	// until a check passes.
	Check func(ctx context.Context) error
}

// Options are a Supervisor's collaborators.
type Options struct {
	Clock   clock.Clock
	Logger  *slog.Logger
	Backoff backoff.Policy // zero fields take backoff.Default's
	// Settings are the service monitor's settings, read at every check
	// and restart; nil means DefaultSettings.
	Settings Source
	// Audit writes an audit entry (SRVFL); nil writes none.
	Audit func(ctx context.Context, source, severity string, details any)

	// checked, when set, is told each health check's recorded outcome
	// (tests).
	checked func(error)
}

// Supervisor supervises one Unit from Start until Stop. Its methods are
// safe for concurrent use.
type Supervisor struct {
	o   Options
	u   Unit
	log *slog.Logger

	done    chan struct{} // closed when the supervisor has ended
	started chan error    // the first attempt's outcome

	mu       sync.Mutex         // guards the fields below
	stop     context.CancelFunc // ends the supervision; a no-op before Start
	up       bool               // an attempt runs
	failed   bool               // the last attempt failed
	noStore  bool               // the last attempt could not run: storage unavailable
	checkErr error              // the last health check's failure; nil when it passed
	degraded string             // why the unit says it is degraded; "" when it is not
	stuck    bool               // it did not stop within its grace
	lastErr  error              // why the last attempt failed or could not run
	idle     chan struct{}
	idleShut bool // idle is closed
}

// Start starts supervising u in its own goroutine, until Stop; ctx's
// values are kept, its cancellation is not.
func Start(ctx context.Context, o Options, u Unit) *Supervisor {
	s := New(o, u)
	s.Start(ctx)
	return s
}

// New returns a supervisor of u that runs nothing until Start, for a unit
// that needs to know its supervisor before its first attempt.
func New(o Options, u Unit) *Supervisor {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Settings == nil {
		o.Settings = Static(DefaultSettings)
	}
	o.Backoff = o.Backoff.WithDefaults()
	if u.Kind == "" {
		u.Kind = "service"
	}
	return &Supervisor{o: o, u: u, log: o.Logger, stop: func() {}, done: make(chan struct{}),
		started: make(chan error, 1), idle: make(chan struct{})}
}

// Start starts supervising in its own goroutine, until Stop; ctx's values
// are kept, its cancellation is not. Call it once.
func (s *Supervisor) Start(ctx context.Context) {
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.mu.Lock()
	s.stop = cancel
	s.mu.Unlock()
	go s.supervise(runCtx)
	if s.u.Check != nil {
		go s.checks(runCtx)
	}
}

// Started receives the first attempt's outcome: nil once it runs (or the
// supervisor stopped first), its error when it failed.
func (s *Supervisor) Started() <-chan error { return s.started }

// Done is closed once the supervisor has ended, after Stop.
func (s *Supervisor) Done() <-chan struct{} { return s.done }

// Idle returns a channel that is closed while no attempt runs: between a
// failure and the next attempt, after the supervisor gave up, and once it
// ended. A caller that hands work to the running attempt selects on it so
// as not to wait for an attempt that is not there.
func (s *Supervisor) Idle() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.idle
}

// Status returns the service's status: running, unresponsive or failed.
func (s *Supervisor) Status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stuck:
		return system.StatusUnresponsive
	case s.failed:
		return system.StatusFailed
	case !s.up, s.noStore, s.checkErr != nil, s.degraded != "":
		return system.StatusUnresponsive
	}
	return system.StatusRunning
}

// Reason says why the service is not running ("" while it is): the error
// of its last attempt, its failed health check, why it is degraded, or
// that its plugin has not started yet.
func (s *Supervisor) Reason() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stuck:
		return "it did not stop in time"
	case (s.failed || s.noStore) && s.lastErr != nil:
		return s.lastErr.Error()
	case s.up && s.checkErr != nil:
		return "health check: " + s.checkErr.Error()
	case s.up && s.degraded != "":
		return s.degraded
	case !s.up && s.u.Pending != nil:
		if why := s.u.Pending(); why != "" {
			return "its plugin has not started yet: " + why
		}
	}
	if !s.up {
		return "its plugin has not started yet"
	}
	return ""
}

// Degraded sets why the unit, while it runs, cannot do its work (e.g. its
// destination refuses or does not answer): the service is unresponsive
// until Degraded("") clears it.
func (s *Supervisor) Degraded(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.degraded = reason
}

// Stop stops the supervisor and waits for it until grace has passed on the
// clock or ctx ends. It reports whether it stopped; when it did not in
// time, the service is unresponsive from then on, an SRVFL entry says so,
// and Done tells when it finally stops.
func (s *Supervisor) Stop(ctx context.Context, grace clock.Timer) bool {
	s.mu.Lock()
	stop := s.stop
	s.mu.Unlock()
	stop()
	defer grace.Stop()
	select {
	case <-s.done:
		return true
	case <-grace.C():
		s.mu.Lock()
		s.stuck = true
		s.mu.Unlock()
		s.log.Error(s.u.Kind+" did not stop in time; it is unresponsive", "service", s.u.Name)
		s.audit(ctx, map[string]any{"name": s.u.Name, "error": "did not stop in time"})
		return false
	case <-ctx.Done():
		return false
	}
}

func (s *Supervisor) audit(ctx context.Context, details map[string]any) {
	if s.o.Audit != nil {
		s.o.Audit(context.WithoutCancel(ctx), AuditFailed, auditcode.Failure, details)
	}
}

// setIdle opens (false) or closes (true) the idle channel.
func (s *Supervisor) setIdle(idle bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case idle && !s.idleShut:
		close(s.idle)
		s.idleShut = true
	case !idle && s.idleShut:
		s.idle, s.idleShut = make(chan struct{}), false
	}
}

// supervise runs attempts until ctx ends.
func (s *Supervisor) supervise(ctx context.Context) {
	defer close(s.done)
	defer s.setIdle(true)
	first := true
	started := func(err error) {
		if first {
			first = false
			s.started <- err
		}
	}
	defer started(nil) // stopped before it came up
	attempt := 0
	for {
		began := s.o.Clock.Now()
		s.setIdle(false)
		s.mu.Lock()
		s.degraded = "" // a new attempt has no word on its work yet
		s.mu.Unlock()
		err := s.attempt(ctx, func() {
			s.mu.Lock()
			s.up, s.failed, s.noStore, s.checkErr, s.lastErr = true, false, false, nil, nil
			s.mu.Unlock()
			started(nil)
		})
		s.mu.Lock()
		s.up = false
		s.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, ErrRestart) {
			s.log.Info(s.u.Kind+" plugin restarted for a configuration change", "service", s.u.Name)
			continue
		}
		s.setIdle(true)
		if err == nil {
			err = errors.New("the plugin stopped on its own")
		}
		set := s.o.Settings.Settings()
		switch {
		case errors.Is(err, db.ErrUnavailable):
			s.mu.Lock()
			wasDown := s.noStore
			s.noStore, s.lastErr = true, err
			s.mu.Unlock()
			if !wasDown {
				s.log.Warn(s.u.Kind+" cannot run while storage is unavailable; retrying", "service", s.u.Name,
					"every", set.Interval, "error", err)
			}
			started(err)
			if !s.wait(ctx, set.Interval) {
				return
			}
			continue
		default:
			s.mu.Lock()
			s.failed, s.noStore, s.lastErr = true, false, err
			s.mu.Unlock()
			s.log.Error(s.u.Kind+" failed", "service", s.u.Name, "plugin", s.u.Plugin, "error", err)
			s.audit(ctx, map[string]any{"name": s.u.Name, "plugin": s.u.Plugin, "error": err.Error()})
			started(err)
		}
		if s.o.Clock.Now().Sub(began) >= s.o.Backoff.ResetAfter {
			attempt = 0
		}
		switch {
		case !set.RestartFailed:
			s.giveUp(ctx, "restart_failed is manual: the service stays failed until it is disabled and enabled again")
			return
		case attempt >= set.MaxAttempts:
			s.giveUp(ctx, fmt.Sprintf("%d restarts in a row failed (max_attempts): the service stays failed until it is disabled and enabled again", attempt))
			return
		}
		delay := s.o.Backoff.Jittered(attempt)
		attempt++
		if !s.wait(ctx, delay) {
			return
		}
	}
}

// giveUp leaves the service failed until the supervisor is stopped.
func (s *Supervisor) giveUp(ctx context.Context, why string) {
	s.log.Error(s.u.Kind+" is not restarted", "service", s.u.Name, "reason", why)
	s.audit(ctx, map[string]any{"name": s.u.Name, "plugin": s.u.Plugin, "error": why})
	<-ctx.Done()
}

// wait waits d on the clock; false when ctx ended first.
func (s *Supervisor) wait(ctx context.Context, d time.Duration) bool {
	t := s.o.Clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}

// attempt runs one attempt of the unit, turning a panic into an error.
func (s *Supervisor) attempt(ctx context.Context, up func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("plugin panicked: %v", p)
			s.log.Error(s.u.Kind+" plugin panic", "service", s.u.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	return s.u.Run(ctx, up)
}

// waitFor waits until result has a value (true) or d passed on the clock
// or ctx ended (false). The value is left in result.
func (s *Supervisor) waitFor(ctx context.Context, d time.Duration, result chan error) bool {
	t := s.o.Clock.NewTimer(d)
	defer t.Stop()
	select {
	case err := <-result:
		result <- err
		return true
	case <-t.C():
		return false
	case <-ctx.Done():
		return false
	}
}
