// Package dispatch is the engine of the gateway's dispatcher service: it
// takes control requests — write values to a device, run an operation on
// one — resolves their destination (a service, the service that ingests an
// asset, or every service) to running south services, runs them one at a
// time per service in arrival order, and audits each request.
//
// The engine does not know how it reaches the gateway: it calls a Host,
// which the dispatcher executable implements over the plugin contract and
// tests implement in memory.
package dispatch

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Destinations of a request.
const (
	DestinationService   = "service"   // Name is a south service
	DestinationAsset     = "asset"     // Name is an asset; the service that ingests it
	DestinationBroadcast = "broadcast" // every running service whose plugin supports the action
)

// Audit codes and severities the dispatcher records with (they are in the
// gateway's audit code table).
const (
	AuditWrite     = auditcode.ControlWrite     // control write
	AuditOperation = auditcode.ControlOperation // control operation

)

// Defaults of Options.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultQueueLength = 16
)

// Target is a south service as the dispatcher sees it (Running is false
// for a service that is configured but not running now: a request naming
// it is refused as a conflict rather than as unknown).
type Target = edgeplugin.ControlTarget

// Host is the gateway as the dispatcher uses it. Its methods may be called
// concurrently.
type Host interface {
	// Services lists the south services.
	Services(ctx context.Context) ([]Target, error)
	// Write sets values of asset (may be empty for a broadcast) on
	// service's device; Operate runs operation on it. They return once
	// the device answered. A *fault.Fault keeps its kind (Invalid for a
	// value the plugin refuses, NotFound for a service gone meanwhile);
	// any other error is the device's or transport's and is answered as
	// fault.BadGateway with its message.
	Write(ctx context.Context, service, asset string, values map[string]any) error
	Operate(ctx context.Context, service, operation string, params map[string]any) error
	// Audit records an audit entry; details marshal to a JSON object.
	Audit(ctx context.Context, source, severity string, details any) error
}

// Request is a control request (Values and Parameters by name: numbers
// as json.Number, strings, booleans).
type Request = edgeplugin.ControlRequest

// Result is what one service did with a request; Error is the failure's
// public message, empty when the service did it.
type Result = edgeplugin.ControlResult

// Options are the dependencies and limits of a Dispatcher.
type Options struct {
	Host Host
	// Timeout bounds a request from its arrival to the devices' answer,
	// waiting in a service's queue included; 0 is DefaultTimeout.
	Timeout time.Duration
	// QueueLength is how many requests may wait for one service behind
	// the one it runs; one more is refused with fault.TooMany. 0 is
	// DefaultQueueLength.
	QueueLength int
	// Log receives what the dispatcher cannot report to a caller (an
	// audit entry that could not be written); nil discards it.
	Log *slog.Logger
}

// Dispatcher runs control requests. It is safe for concurrent use; a
// request to a service waits for the earlier ones to that service.
type Dispatcher struct {
	host Host
	log  *slog.Logger

	mu       sync.Mutex // guards the fields below
	timeout  time.Duration
	queueLen int
	lanes    map[string]*lane // by service; present while it has work
}

// lane is one service's queue. A worker goroutine runs its jobs while
// busy is set.
type lane struct {
	jobs []*job // waiting, in arrival order
	busy bool
}

// job is one request's execution at one service.
type job struct {
	ctx     context.Context
	run     func(context.Context) error
	started chan struct{} // closed when the worker takes it
	done    chan error    // receives run's outcome, or errSkipped
}

// errSkipped is a job's outcome when its context ended while it waited.
var errSkipped = errors.New("skipped")

// errTimeout is the cause of a request's context ending at the
// dispatcher's timeout, told apart from its caller going away.
var errTimeout = errors.New("control request timed out")

// New returns a Dispatcher with o's host and limits.
func New(o Options) *Dispatcher {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d := &Dispatcher{host: o.Host, log: log, lanes: map[string]*lane{}}
	d.SetLimits(o.Timeout, o.QueueLength)
	return d
}

// SetLimits changes the timeout and queue length (0: the defaults) for
// requests arriving from now on.
func (d *Dispatcher) SetLimits(timeout time.Duration, queueLength int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.timeout = cmp.Or(timeout, DefaultTimeout)
	d.queueLen = cmp.Or(queueLength, DefaultQueueLength)
}

// action is what differs between a write and an operation.
type action struct {
	audit    string
	noun     string              // for messages: "control writes"
	supports func(Target) bool   // the plugin has it
	check    func(Request) error // the request's own fields
	run      func(ctx context.Context, t Target, r Request) error
	asset    func(r Request) string // the asset a result names
}

// Write sets r.Values on the device(s) of r's destination and returns one
// Result per service it reached. Errors are *fault.Fault: Invalid for a
// malformed request or a service whose plugin cannot write, NotFound for
// an unknown service or asset, Conflict for one not running (or an asset
// several able services ingest), TooMany when the service's queue is
// full, Unavailable when the request waited longer than the timeout or
// the gateway could not list its services, BadGateway for the device's or
// transport's failure (or no answer in time); a fault the Host returned
// keeps its kind. When ctx ends first, its error. A broadcast succeeds
// when one service did, with each service's error in its Result;
// otherwise it returns the first error, in the order of service names.
// Every request is audited (AuditWrite), refused ones included.
func (d *Dispatcher) Write(ctx context.Context, r Request) ([]Result, error) {
	return d.do(ctx, r, action{
		audit: AuditWrite, noun: "control writes",
		supports: func(t Target) bool { return t.Writes },
		check:    checkWrite,
		run: func(ctx context.Context, t Target, r Request) error {
			return d.host.Write(ctx, t.Name, assetOf(r), r.Values)
		},
		asset: assetOf,
	})
}

// Operate runs r.Operation with r.Parameters on the device(s) of r's
// destination; results and errors are as for Write, the plugin having to
// support operations. Audited as AuditOperation.
func (d *Dispatcher) Operate(ctx context.Context, r Request) ([]Result, error) {
	return d.do(ctx, r, action{
		audit: AuditOperation, noun: "control operations",
		supports: func(t Target) bool { return t.Operates },
		check:    checkOperation,
		run: func(ctx context.Context, t Target, r Request) error {
			return d.host.Operate(ctx, t.Name, r.Operation, r.Parameters)
		},
		asset: func(r Request) string {
			if r.Destination == DestinationAsset {
				return r.Name
			}
			return ""
		},
	})
}

// assetOf is the asset a write sets: the destination asset, or the one a
// broadcast names.
func assetOf(r Request) string {
	if r.Destination == DestinationService {
		return ""
	}
	return r.Name
}

// Outcomes recorded in the audit details (AuditDetails.Outcome).
const (
	OutcomeDone    = "done"    // every target did it
	OutcomePartial = "partial" // a broadcast some targets failed
	OutcomeFailed  = "failed"  // it reached no device successfully
	OutcomeRefused = "refused" // refused before any device was asked
)

// AuditDetails are the details of a CTLWR or CTLOP entry. The gateway
// writes the same for a request it refuses before the dispatcher sees it
// (the caller's role, an invalid body, no dispatcher running), with
// Outcome OutcomeRefused and Error the refusal's message.
type AuditDetails struct {
	Caller      string         `json:"caller"`
	Destination string         `json:"destination"`
	Name        string         `json:"name,omitempty"`
	Values      map[string]any `json:"values,omitempty"`
	Operation   string         `json:"operation,omitempty"`
	Parameters  map[string]any `json:"parameters,omitempty"`
	Outcome     string         `json:"outcome"`
	Results     []Result       `json:"results,omitempty"`
	Error       string         `json:"error,omitempty"`
}

func (d *Dispatcher) do(ctx context.Context, r Request, a action) ([]Result, error) {
	d.mu.Lock()
	timeout := d.timeout
	d.mu.Unlock()
	details := AuditDetails{Caller: r.Caller, Destination: r.Destination, Name: r.Name, Values: r.Values,
		Operation: r.Operation, Parameters: r.Parameters}
	results, outcome, err := d.execute(ctx, timeout, r, a)
	details.Outcome, details.Results = outcome, results
	sev := auditcode.Information
	if err != nil {
		sev, details.Error = auditcode.Failure, message(err)
	}
	// The request is done whatever happens to its audit entry, and the
	// caller may be gone: record it on a context of its own.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	if aerr := d.host.Audit(actx, a.audit, sev, details); aerr != nil {
		d.log.Warn("control request not audited", "source", a.audit, "error", aerr, "caller", r.Caller)
	}
	if err != nil {
		return nil, err
	}
	return results, nil
}

// execute validates, resolves and runs r.
func (d *Dispatcher) execute(ctx context.Context, timeout time.Duration, r Request, a action) ([]Result, string, error) {
	if err := checkDestination(r); err != nil {
		return nil, OutcomeRefused, err
	}
	if err := a.check(r); err != nil {
		return nil, OutcomeRefused, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()
	targets, err := d.host.Services(ctx)
	if err != nil {
		if _, ok := fault.As(err); !ok {
			err = fault.Wrap(fault.Unavailable, err, "the gateway's list of services is unavailable")
		}
		return nil, OutcomeRefused, err
	}
	slices.SortFunc(targets, func(x, y Target) int { return strings.Compare(x.Name, y.Name) })
	chosen, err := resolve(targets, r, a)
	if err != nil {
		return nil, OutcomeRefused, err
	}
	results := make([]Result, len(chosen))
	errs := make([]error, len(chosen))
	var wg sync.WaitGroup
	for i, t := range chosen {
		wg.Go(func() {
			results[i] = Result{Service: t.Name, Asset: a.asset(r)}
			errs[i] = d.enqueue(ctx, timeout, t.Name, func(ctx context.Context) error { return a.run(ctx, t, r) })
			if errs[i] != nil {
				results[i].Error = message(errs[i])
			}
		})
	}
	wg.Wait()
	failed := 0
	var first error
	for _, e := range errs {
		if e != nil {
			failed++
			first = cmp.Or(first, e)
		}
	}
	switch {
	case failed == 0:
		return results, OutcomeDone, nil
	case failed < len(chosen):
		return results, OutcomePartial, nil
	}
	return results, OutcomeFailed, first
}

// Check reports, as a fault.Invalid, what makes r malformed as a control
// write (operation false) or operation: the checks Write and Operate make
// before they look at any service. The API makes them before it hands a
// request on, so a malformed request is answered as such (400) even while
// no dispatcher service runs.
func Check(r Request, operation bool) error {
	if err := checkDestination(r); err != nil {
		return err
	}
	if operation {
		return checkOperation(r)
	}
	return checkWrite(r)
}

// checkDestination checks what every request has.
func checkDestination(r Request) error {
	switch r.Destination {
	case DestinationService, DestinationAsset:
		if r.Name == "" {
			return fault.New(fault.Invalid, "a control request to a %s needs the %s's name", r.Destination, r.Destination)
		}
	case DestinationBroadcast:
	case "":
		return fault.New(fault.Invalid, "a control request needs a destination: service, asset or broadcast")
	default:
		return fault.New(fault.Invalid, "destination %q is not service, asset or broadcast", r.Destination)
	}
	return nil
}

func checkWrite(r Request) error {
	if r.Operation != "" || r.Parameters != nil {
		return fault.New(fault.Invalid, "a control write takes values, not an operation")
	}
	if len(r.Values) == 0 {
		return fault.New(fault.Invalid, "a control write needs values: an object of datapoint names to numbers, strings or booleans")
	}
	for k, v := range r.Values {
		if k == "" {
			return fault.New(fault.Invalid, "a control write names a datapoint with the empty string")
		}
		if !scalar(v) {
			return fault.New(fault.Invalid, "the value of datapoint %q is not a number, string or boolean", k)
		}
	}
	return nil
}

func checkOperation(r Request) error {
	if r.Values != nil {
		return fault.New(fault.Invalid, "a control operation takes an operation and parameters, not values")
	}
	if r.Operation == "" {
		return fault.New(fault.Invalid, "a control operation needs the operation's name")
	}
	if r.Destination == DestinationBroadcast && r.Name != "" {
		return fault.New(fault.Invalid, "a broadcast operation names no service or asset, but %q was given", r.Name)
	}
	for k := range r.Parameters {
		if k == "" {
			return fault.New(fault.Invalid, "a control operation names a parameter with the empty string")
		}
	}
	return nil
}

// scalar tells whether v is a value a datapoint takes.
func scalar(v any) bool {
	switch v.(type) {
	case string, bool, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, json.Number:
		return true
	}
	return false
}

// resolve returns the targets r goes to, sorted by name.
func resolve(targets []Target, r Request, a action) ([]Target, error) {
	unsupported := func(t Target) error {
		return fault.New(fault.Invalid, "service %q's plugin %q does not support %s", t.Name, t.Plugin, a.noun)
	}
	switch r.Destination {
	case DestinationService:
		i := slices.IndexFunc(targets, func(t Target) bool { return t.Name == r.Name })
		switch {
		case i < 0:
			return nil, fault.New(fault.NotFound, "there is no south service %q", r.Name)
		case !targets[i].Running:
			return nil, fault.New(fault.Conflict, "south service %q is not running", r.Name)
		case !a.supports(targets[i]):
			return nil, unsupported(targets[i])
		}
		return targets[i : i+1], nil
	case DestinationAsset:
		var running, stopped []Target
		for _, t := range targets {
			if slices.Contains(t.Assets, r.Name) {
				if t.Running {
					running = append(running, t)
				} else {
					stopped = append(stopped, t)
				}
			}
		}
		switch {
		case len(running) == 0 && len(stopped) == 0:
			return nil, fault.New(fault.NotFound, "no south service ingests asset %q", r.Name)
		case len(running) == 0:
			return nil, fault.New(fault.Conflict, "asset %q is ingested by %s, which is not running", r.Name, names(stopped))
		case len(running) == 1:
			if !a.supports(running[0]) {
				return nil, unsupported(running[0])
			}
			return running, nil
		}
		able := slices.DeleteFunc(slices.Clone(running), func(t Target) bool { return !a.supports(t) })
		switch len(able) {
		case 0:
			return nil, fault.New(fault.Invalid, "asset %q is ingested by %s, none of whose plugins supports %s", r.Name, names(running), a.noun)
		case 1:
			return able, nil
		}
		return nil, fault.New(fault.Conflict, "asset %q is ingested by %s: name the service instead", r.Name, names(able))
	}
	if len(targets) == 0 {
		return nil, fault.New(fault.NotFound, "there is no south service to broadcast to")
	}
	var out []Target
	for _, t := range targets {
		if t.Running && a.supports(t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fault.New(fault.Conflict, "no running south service's plugin supports %s", a.noun)
	}
	return out, nil
}

// names lists services for a message: service "a", services "a", "b".
func names(ts []Target) string {
	q := make([]string, len(ts))
	for i, t := range ts {
		q[i] = fmt.Sprintf("%q", t.Name)
	}
	if len(q) == 1 {
		return "service " + q[0]
	}
	return "services " + strings.Join(q, ", ")
}

// message is the public message of err.
func message(err error) string {
	if f, ok := fault.As(err); ok {
		return f.Message
	}
	return err.Error()
}

// enqueue runs run at service once the requests to it that arrived before
// have run, and returns its outcome as a fault (see Write). ctx bounds the
// wait and the run; timeout is what it was made with, for messages.
func (d *Dispatcher) enqueue(ctx context.Context, timeout time.Duration, service string, run func(context.Context) error) error {
	j := &job{ctx: ctx, run: run, started: make(chan struct{}), done: make(chan error, 1)}
	d.mu.Lock()
	l := d.lanes[service]
	if l == nil {
		l = &lane{}
		d.lanes[service] = l
	}
	if len(l.jobs) >= d.queueLen {
		d.mu.Unlock()
		return &fault.Fault{Kind: fault.TooMany, RetryAfterSeconds: 1,
			Message: fmt.Sprintf("service %q has %d control requests waiting: try again later", service, len(l.jobs))}
	}
	l.jobs = append(l.jobs, j)
	if !l.busy {
		l.busy = true
		go d.work(service, l)
	}
	d.mu.Unlock()

	select {
	case err := <-j.done:
		return d.outcome(ctx, timeout, service, err)
	case <-ctx.Done():
	}
	// An answer that came with the deadline counts.
	select {
	case err := <-j.done:
		if !errors.Is(err, errSkipped) {
			return d.outcome(ctx, timeout, service, err)
		}
	default:
	}
	select {
	case <-j.started:
		return d.outcome(ctx, timeout, service, ctx.Err())
	default:
	}
	if !errors.Is(context.Cause(ctx), errTimeout) {
		return ctx.Err() // the caller went away
	}
	return &fault.Fault{Kind: fault.Unavailable, RetryAfterSeconds: 1,
		Message: fmt.Sprintf("service %q was busy with earlier control requests for %s", service, timeout)}
}

// outcome turns what a job's run returned into the request's error.
func (d *Dispatcher) outcome(ctx context.Context, timeout time.Duration, service string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(context.Cause(ctx), errTimeout):
		// the device did not answer in time, whatever the host made of it
		return fault.Wrap(fault.BadGateway, err, "service %q: the device did not answer within %s", service, timeout)
	case ctx.Err() != nil:
		return ctx.Err() // the caller went away
	}
	if f, ok := fault.As(err); ok {
		return f
	}
	return fault.New(fault.BadGateway, "service %q: %s", service, err.Error())
}

// work runs l's jobs one at a time until none waits.
func (d *Dispatcher) work(service string, l *lane) {
	for {
		d.mu.Lock()
		if len(l.jobs) == 0 {
			l.busy = false
			delete(d.lanes, service)
			d.mu.Unlock()
			return
		}
		j := l.jobs[0]
		l.jobs[0] = nil
		l.jobs = l.jobs[1:]
		d.mu.Unlock()
		if j.ctx.Err() != nil {
			j.done <- errSkipped // its caller has gone or timed out
			continue
		}
		close(j.started)
		j.done <- j.run(j.ctx)
	}
}
