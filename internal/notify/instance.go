package notify

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edged/edged/internal/auditcode"
)

// instance is a built Instance and its state. Its fields other than
// channels' internals are guarded by Engine.mu.
type instance struct {
	e        *Engine
	spec     Instance
	rule     rule
	channels []*channel

	active   bool      // the rule was true at its last evaluation
	sent     bool      // a notification was sent since it became true
	lastSent time.Time // when the last triggered notification was sent
	asset    string    // the asset of the last reading that made the rule true
}

// observe applies the instance's type to a new evaluation of its rule at
// now; r is the reading evaluated (nil for audit codes, statistics and
// timers). It allocates only when it sends.
func (in *instance) observe(now time.Time, cond bool, r *Reading) {
	was := in.active
	in.active = cond
	switch {
	case cond && !was:
		in.sent = false
		if r != nil {
			in.asset = r.Asset
		}
		in.send(now, StateTriggered, r)
	case cond && in.spec.Type == TypeRetriggered && now.Sub(in.lastSent) >= in.spec.RetriggerTime:
		in.send(now, StateTriggered, r)
	case !cond && was && in.spec.Type == TypeToggled && in.sent:
		in.send(now, StateCleared, r)
	}
}

// tick evaluates the rule's timers at now.
func (in *instance) tick(now time.Time) {
	if cond, changed := in.rule.tick(now); changed {
		in.observe(now, cond, nil)
		return
	}
	if in.active && in.spec.Type == TypeRetriggered && !now.Before(in.lastSent.Add(in.spec.RetriggerTime)) {
		in.send(now, StateTriggered, nil)
	}
}

// deadline returns when tick has something to do next.
func (in *instance) deadline() (time.Time, bool) {
	d, ok := in.rule.deadline()
	if in.active && in.spec.Type == TypeRetriggered {
		r := in.lastSent.Add(in.spec.RetriggerTime)
		if !ok || r.Before(d) {
			d, ok = r, true
		}
	}
	return d, ok
}

// send queues an event on every channel; a full queue drops it.
func (in *instance) send(now time.Time, state string, r *Reading) {
	if state == StateTriggered {
		in.sent = true
		in.lastSent = now
	}
	ev := Event{Notification: in.spec.Name, Description: in.spec.Description, Rule: in.spec.Rule,
		Asset: in.asset, State: state, Time: now, Reason: in.rule.reason(state == StateTriggered)}
	if r != nil {
		ev.Asset, ev.Reading = r.Asset, r.Values
	}
	if state == StateTriggered {
		ev.Message = fmt.Sprintf("%s triggered: %s", in.spec.Name, ev.Reason)
	} else {
		ev.Message = fmt.Sprintf("%s cleared: %s", in.spec.Name, ev.Reason)
	}
	for i, c := range in.channels {
		// The clear is audited once per instance, by its first channel's
		// goroutine: never from here, which runs on the caller of Readings.
		c.put(ev, state == StateCleared && i == 0)
	}
	in.e.poke()
}

func (in *instance) startChannels(e *Engine) {
	for _, c := range in.channels {
		c.start(e, in)
	}
}

func (in *instance) stopChannels() {
	for _, c := range in.channels {
		c.stop()
	}
}

// errSkip is returned by a delivery that has nothing to send for an event
// (the setpoint delivery on a clear without clear values): nothing is
// audited.
var errSkip = errors.New("nothing to send")

// delivery sends events to one destination. Deliver is called from one
// goroutine at a time; Close once, after the last Deliver.
type delivery interface {
	Deliver(ctx context.Context, ev Event) error
	Close()
}

// channel is a delivery with its queue and goroutine.
type channel struct {
	spec    Channel
	d       delivery
	q       chan queued
	mu      sync.Mutex // guards dropped, started, cancel, done
	dropped int
	pending atomic.Int64 // queued or being delivered (tests wait for 0)
	started bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// queued is an event in a channel's queue.
type queued struct {
	ev         Event
	auditClear bool // the delivery also writes the instance's NTFCL entry
}

// put queues ev without blocking; auditClear marks the event whose
// delivery also writes the NTFCL entry.
func (c *channel) put(ev Event, auditClear bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case c.q <- queued{ev: ev, auditClear: auditClear}:
		c.pending.Add(1)
	default:
		c.dropped++
	}
}

func (c *channel) start(e *Engine, in *instance) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started {
		return
	}
	c.started = true
	ctx, cancel := context.WithCancel(e.ctx)
	c.cancel, c.done = cancel, make(chan struct{})
	go c.run(ctx, e, in.spec.Name, in.spec.Rule)
}

func (c *channel) stop() {
	c.mu.Lock()
	cancel, done := c.cancel, c.done
	c.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// run delivers queued events until ctx ends.
func (c *channel) run(ctx context.Context, e *Engine, name, rule string) {
	defer close(c.done)
	defer c.d.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case item := <-c.q:
			c.deliver(ctx, e, name, rule, item)
			c.pending.Add(-1)
		}
	}
}

// deliver delivers one queued event and audits the outcome.
func (c *channel) deliver(ctx context.Context, e *Engine, name, rule string, item queued) {
	ev := item.ev
	c.mu.Lock()
	dropped := c.dropped
	c.dropped = 0
	c.mu.Unlock()
	if dropped > 0 {
		c.audit(ctx, e, auditcode.Failure, map[string]any{"name": name, "rule": rule, "channel": c.spec.Name,
			"error": fmt.Sprintf("%d notifications dropped: the channel's queue was full", dropped)})
	}
	if item.auditClear {
		c.audit(ctx, e, AuditCleared, map[string]any{"name": name, "rule": rule, "reason": ev.Reason})
	}
	err := c.d.Deliver(ctx, ev)
	details := map[string]any{"name": name, "rule": rule, "channel": c.spec.Name, "state": ev.State}
	switch {
	case errors.Is(err, errSkip):
	case err != nil:
		if ctx.Err() != nil {
			return // stopped, not failed
		}
		details["error"] = err.Error()
		e.log.Warn("notification not delivered", "notification", name, "channel", c.spec.Name, "error", err)
		c.audit(ctx, e, auditcode.Failure, details)
	default:
		c.audit(ctx, e, auditcode.Information, details)
	}
}

// audit writes an NTFSN entry of severity (or an NTFCL entry when
// severity is AuditCleared).
func (c *channel) audit(ctx context.Context, e *Engine, severity string, details map[string]any) {
	source := AuditSent
	if severity == AuditCleared {
		source, severity = AuditCleared, auditcode.Information
	}
	if err := e.host.Audit(ctx, source, severity, details); err != nil {
		e.log.Warn("notification audit not written", "source", source, "error", err)
	}
}
