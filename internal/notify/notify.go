// Package notify is the notification engine of the gateway's notification
// service: instances pair a rule (threshold, outofbound, data_availability,
// statistic) with a notification type (one shot, retriggered, toggled) and
// one or more delivery channels (webhook, mqtt, email, asset, setpoint).
//
// The engine knows nothing of its transport. The gateway hands it the
// readings it committed (Readings), the audit codes it wrote (Audit) and
// snapshots of its statistics counters (Statistics); the engine answers
// through a Host: audit entries (NTFSN for each send, NTFCL when a toggled
// notification clears), readings written by the asset delivery and control
// writes made by the setpoint delivery.
//
// Evaluation is on the caller's goroutine and is cheap: instances are
// indexed by asset and datapoint, and a reading that triggers nothing
// allocates nothing. Sending is not: every channel has its own goroutine
// and bounded queue, so a slow destination never stalls Readings.
package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"sync"
	"time"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Audit sources and severities the engine writes.
const (
	AuditSent    = auditcode.NotificationSent    // a notification was sent (or failed to be) on a channel
	AuditCleared = auditcode.NotificationCleared // a toggled notification's rule became false

)

// Notification types.
const (
	TypeOneShot     = "one shot"
	TypeRetriggered = "retriggered"
	TypeToggled     = "toggled"
)

// States a notification is sent in.
const (
	StateTriggered = "triggered"
	StateCleared   = "cleared"
)

// Host is what the engine needs from the gateway. Its methods are called
// from the channels' goroutines (never from Readings) and must be safe for
// concurrent use; an error is logged and, for a delivery, audited as a
// failure.
type Host interface {
	// Audit writes an audit entry.
	Audit(ctx context.Context, source, severity string, details any) error
	// Ingest adds readings to the gateway's buffer (the asset delivery).
	Ingest(ctx context.Context, readings []Reading) error
	// Dispatch makes a control write (the setpoint delivery).
	Dispatch(ctx context.Context, w Write) error
}

// Reading is a reading: an asset, the sensor's time and the values by
// datapoint (numbers as float64, or any integer type, or json.Number).
type Reading struct {
	Asset     string         `json:"asset"`
	Timestamp time.Time      `json:"timestamp"`
	Values    map[string]any `json:"readings"`
}

// Write is a control write: values to set on a south service or on the
// service that serves an asset.
type Write struct {
	Destination string         `json:"destination"` // "service" or "asset"
	Name        string         `json:"name"`
	Values      map[string]any `json:"values"`
}

// Instance is a notification instance: a rule, a notification type
// (TypeOneShot, TypeRetriggered or TypeToggled) and its delivery channels,
// the first of which is the instance's own delivery; channel names are
// unique within an instance. RetriggerTime must be positive for a
// retriggered notification. It is the plugin contract's type.
type Instance = edgeplugin.NotificationInstance

// Channel is a delivery channel of an instance.
type Channel = edgeplugin.NotificationChannel

// Event is what a channel delivers: one send of a notification.
type Event struct {
	Notification string    `json:"notification"`
	Description  string    `json:"description,omitempty"`
	Rule         string    `json:"rule"`
	Asset        string    `json:"asset,omitempty"`
	Reason       string    `json:"reason"`
	State        string    `json:"state"` // StateTriggered or StateCleared
	Time         time.Time `json:"time"`
	// Reading holds the values of the reading that made the rule true
	// (absent when a timer did).
	Reading map[string]any `json:"reading,omitempty"`
	// Message is a human-readable one-line summary.
	Message string `json:"message"`
}

// Options are the engine's dependencies.
type Options struct {
	Host Host // required
	// Clock drives "not seen within", windows and retriggering; nil is
	// the system clock.
	Clock clock.Clock
	// Logger; nil discards.
	Logger *slog.Logger
	// HTTPClient sends webhooks; nil is a client without a timeout of its
	// own (each webhook has its timeout item).
	HTTPClient *http.Client
	// QueueLength is the number of notifications a channel holds while
	// its destination is slow; further ones are dropped (and a failure
	// is audited). Zero is 256.
	QueueLength int
}

// Engine evaluates instances against what the gateway hands it. Its
// methods are safe for concurrent use.
type Engine struct {
	host   Host
	clock  clock.Clock
	log    *slog.Logger
	http   *http.Client
	qlen   int
	ctx    context.Context // ends with Close: channels' goroutines
	cancel context.CancelFunc
	wake   chan struct{} // tells Run the deadlines changed

	mu        sync.Mutex // guards everything below and every instance's state
	instances map[string]*instance
	byAsset   map[string]*assetIndex
	byAudit   map[string][]*instance
	stats     []*instance // statistic rules
	timed     []*instance // rules with deadlines
	closed    bool
}

// New returns an engine with no instances.
func New(o Options) *Engine {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	if o.QueueLength <= 0 {
		o.QueueLength = 256
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Engine{host: o.Host, clock: o.Clock, log: o.Logger, http: o.HTTPClient, qlen: o.QueueLength,
		ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1),
		instances: map[string]*instance{}, byAsset: map[string]*assetIndex{}, byAudit: map[string][]*instance{}}
}

// assetIndex is what a reading of one asset is evaluated against.
type assetIndex struct {
	points []pointIndex // by datapoint, each looked up once per reading
	any    []*instance  // rules on any reading of the asset (data_availability)
}

type pointIndex struct {
	point string
	insts []*instance
}

// ValidateInstance checks in without starting anything: its name, type,
// rule and channels. The error says what is wrong; it is the caller's
// fault (a bad request), never the engine's.
func ValidateInstance(in Instance) error {
	_, err := build(in, deps{})
	return err
}

// SetInstances replaces the set of instances by set. An instance whose
// rule, type and retrigger time are unchanged keeps its state (whether it
// is triggered, when it last sent, its windows); one whose channels alone
// changed gets new channels. An invalid instance fails the whole call and
// nothing changes. Channels of removed or replaced instances stop; what
// their queues held is dropped.
func (e *Engine) SetInstances(ctx context.Context, set []Instance) error {
	_ = ctx // building makes no calls: clients connect on their first send
	seen := map[string]bool{}
	for _, in := range set {
		if seen[in.Name] {
			return fmt.Errorf("instance %q is given twice", in.Name)
		}
		seen[in.Name] = true
		if err := ValidateInstance(in); err != nil {
			return err
		}
	}
	// Channels stop after the lock is released: a delivery may take a
	// moment to notice (a connection attempt), and Readings must not wait.
	var stopping []*channel
	defer func() {
		for _, c := range stopping {
			c.stop()
		}
	}()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return errors.New("the notification engine is closed")
	}
	now := e.clock.Now()
	next := map[string]*instance{}
	var stop []*instance
	var rechannel []func() // applied once nothing can fail
	for _, spec := range set {
		old := e.instances[spec.Name]
		switch {
		case old != nil && reflect.DeepEqual(old.spec, spec):
			next[spec.Name] = old
			continue
		case old != nil && sameRule(old.spec, spec):
			chans, err := e.channels(spec)
			if err != nil {
				return err // cannot happen: validated above
			}
			rechannel = append(rechannel, func() {
				stopping = append(stopping, old.channels...)
				old.spec, old.channels = spec, chans
			})
			next[spec.Name] = old
			continue
		}
		in, err := build(spec, deps{host: e.host, clock: e.clock, http: e.http})
		if err != nil {
			return err
		}
		if in.channels, err = e.channels(spec); err != nil {
			return err
		}
		in.e = e
		in.rule.start(now)
		next[spec.Name] = in
		if old != nil {
			stop = append(stop, old)
		}
	}
	for name, old := range e.instances {
		if next[name] == nil {
			stop = append(stop, old)
		}
	}
	for _, f := range rechannel {
		f()
	}
	for _, old := range stop {
		stopping = append(stopping, old.channels...)
	}
	for _, in := range next {
		in.startChannels(e)
	}
	e.instances = next
	e.reindex()
	e.poke()
	return nil
}

// sameRule tells whether a and b differ at most in their channels and
// description.
func sameRule(a, b Instance) bool {
	return a.Rule == b.Rule && reflect.DeepEqual(a.RuleConfig, b.RuleConfig) && a.Type == b.Type &&
		a.Enabled == b.Enabled && a.RetriggerTime == b.RetriggerTime
}

// channels builds the channels of spec (not started).
func (e *Engine) channels(spec Instance) ([]*channel, error) {
	var out []*channel
	for _, c := range spec.Channels {
		d, err := newDelivery(c, deps{host: e.host, clock: e.clock, http: e.http})
		if err != nil {
			return nil, fmt.Errorf("instance %q channel %q: %w", spec.Name, c.Name, err)
		}
		out = append(out, &channel{spec: c, d: d, q: make(chan queued, e.qlen)})
	}
	return out, nil
}

// reindex rebuilds the lookup tables from e.instances; e.mu is held.
func (e *Engine) reindex() {
	e.byAsset = map[string]*assetIndex{}
	e.byAudit = map[string][]*instance{}
	e.stats, e.timed = nil, nil
	for _, in := range e.instances {
		if !in.spec.Enabled {
			continue
		}
		w := in.rule.watches()
		for _, a := range w.points {
			ai := e.asset(a.asset)
			found := false
			for i := range ai.points {
				if ai.points[i].point == a.point {
					ai.points[i].insts = append(ai.points[i].insts, in)
					found = true
				}
			}
			if !found {
				ai.points = append(ai.points, pointIndex{point: a.point, insts: []*instance{in}})
			}
		}
		for _, a := range w.assets {
			ai := e.asset(a)
			ai.any = append(ai.any, in)
		}
		for _, c := range w.audit {
			e.byAudit[c] = append(e.byAudit[c], in)
		}
		if w.statistic {
			e.stats = append(e.stats, in)
		}
		e.timed = append(e.timed, in)
	}
}

func (e *Engine) asset(name string) *assetIndex {
	ai := e.byAsset[name]
	if ai == nil {
		ai = &assetIndex{}
		e.byAsset[name] = ai
	}
	return ai
}

// Readings evaluates the instances on readings the gateway committed. It
// does not block on deliveries. The engine keeps the Values map of a
// reading that triggers a notification until it is delivered: the caller
// must not change the maps after the call.
func (e *Engine) Readings(ctx context.Context, readings []Reading) {
	_ = ctx
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.byAsset) == 0 {
		return
	}
	var now time.Time // read once, and only when a rule needs it
	for i := range readings {
		r := &readings[i]
		ai := e.byAsset[r.Asset]
		if ai == nil {
			continue
		}
		if now.IsZero() {
			now = e.clock.Now()
		}
		for p := range ai.points {
			pi := &ai.points[p]
			raw, ok := r.Values[pi.point]
			if !ok {
				continue
			}
			v, ok := plugin.NumberOrBool(raw)
			if !ok {
				continue
			}
			for _, in := range pi.insts {
				cond, known := in.rule.value(now, v)
				if known {
					in.observe(now, cond, r)
				}
			}
		}
		for _, in := range ai.any {
			in.observe(now, in.rule.seen(now), r)
		}
	}
}

// Audit evaluates the instances on an audit entry the gateway wrote.
func (e *Engine) Audit(ctx context.Context, code string, at time.Time) {
	_, _ = ctx, at // "within" is judged on the engine's clock, like readings
	e.mu.Lock()
	defer e.mu.Unlock()
	insts := e.byAudit[code]
	if len(insts) == 0 {
		return
	}
	now := e.clock.Now()
	for _, in := range insts {
		in.observe(now, in.rule.seen(now), nil)
	}
}

// Statistics evaluates the statistic rules on a snapshot of the gateway's
// statistics counters taken at at.
func (e *Engine) Statistics(ctx context.Context, at time.Time, counters map[string]int64) {
	_ = ctx
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.clock.Now()
	for _, in := range e.stats {
		if cond, known := in.rule.statistics(at, counters); known {
			in.observe(now, cond, nil)
		}
	}
}

// Run runs the timers of the instances ("not seen within", windows
// emptying, retriggering) until ctx ends or the engine is closed, then
// returns nil. Run once.
func (e *Engine) Run(ctx context.Context) error {
	for {
		now := e.clock.Now()
		next := e.tick(now)
		var fire <-chan time.Time
		var t clock.Timer
		if !next.IsZero() {
			t = e.clock.NewTimer(max(next.Sub(now), time.Millisecond))
			fire = t.C()
		}
		select {
		case <-ctx.Done():
			if t != nil {
				t.Stop()
			}
			return nil
		case <-e.ctx.Done(): // Close
			if t != nil {
				t.Stop()
			}
			return nil
		case <-fire:
		case <-e.wake:
			if t != nil {
				t.Stop()
			}
		}
	}
}

// tick runs the timers due at now and returns the next deadline (zero:
// none).
func (e *Engine) tick(now time.Time) time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	var next time.Time
	for _, in := range e.timed {
		in.tick(now)
		if d, ok := in.deadline(); ok && (next.IsZero() || d.Before(next)) {
			next = d
		}
	}
	return next
}

// poke wakes Run to look at the deadlines again.
func (e *Engine) poke() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Close stops every channel and ends Run; notifications still queued are
// dropped. The engine takes no instances after it.
func (e *Engine) Close() {
	e.mu.Lock()
	e.closed = true
	insts := e.instances
	e.instances = map[string]*instance{}
	e.reindex()
	e.mu.Unlock()
	for _, in := range insts {
		in.stopChannels()
	}
	e.cancel()
}
