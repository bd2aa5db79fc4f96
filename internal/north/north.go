// Package north forwards buffered readings north, without loss: north
// services (continuous, supervised like south services) and north tasks
// (a scheduled process that sends what is pending and ends).
//
// Both read the readings stream (db.ReadStream: ordered by the readings'
// (ts, id), never past a reading still being committed) in blocks after
// their persisted stream position, hand each block to their north plugin
// (internal/plugin, KindNorth) and save the position of the last reading
// the plugin reports the destination accepted: at least once, nothing
// skipped across a crash of either side. Each counts the readings it sent
// in the statistic named after it (in memory, flushed with the other
// counters), and tracks the assets it sent (Egress).
//
// A north service is a row of services of type north with a STARTUP
// schedule, created and deleted by the service runtime (internal/service),
// which hands starting and stopping to the Runtime. A north task is an
// INTERVAL schedule running the process db.NorthTaskProcess with a
// category of the same name; the scheduler runs Runtime.RunTask.
//
// Errors a client may see are *fault.Fault values; any other error is a
// storage failure.
package north

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/backoff"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/supervisor"
	"github.com/edged/edged/internal/system"
)

// Store is the storage the runtime needs; *db.DB implements it.
type Store interface {
	StreamStore
	SetAsideStore
	CreateStreamPosition(ctx context.Context, name string) error
	DeleteStreamPosition(ctx context.Context, name string) error
	DeleteNorthTask(ctx context.Context, name string) error
	GetScheduleByName(ctx context.Context, name string) (db.Schedule, error)
	ListServices(ctx context.Context, typ string) ([]db.Service, error)
	ListSchedules(ctx context.Context) ([]db.Schedule, error)
	ListStatistics(ctx context.Context) ([]db.Statistic, error)
}

// Config is the configuration manager as the runtime uses it;
// *configmgr.Manager implements it.
type Config interface {
	Create(ctx context.Context, in configmgr.CategoryInput) (configmgr.Category, error)
	Category(ctx context.Context, key string) (configmgr.Category, error)
	Value(ctx context.Context, key, item string) (string, error)
	SetValue(ctx context.Context, key, item, value string) (configmgr.Item, error)
	Subscribe(key string, fn func(ctx context.Context, c configmgr.Category) error) (cancel func())
}

// Auditor writes audit entries.
type Auditor interface {
	Record(ctx context.Context, source, severity string, details any) error
}

// Schedules creates task schedules; *scheduler.Scheduler implements it.
type Schedules interface {
	Create(ctx context.Context, s db.Schedule) (db.Schedule, error)
	Notify()
}

// Audit sources and severities the runtime writes.
const (
	auditRegistered   = auditcode.ServiceRegistered
	auditUnregistered = auditcode.ServiceUnregistered
	auditFailed       = auditcode.ServiceFailed
	auditTaskComplete = auditcode.NorthComplete
)

// Backoff is the restart backoff of north services.
type Backoff = backoff.Policy

// DefaultBackoff is the restart backoff of north services unless Options say otherwise.
var DefaultBackoff = backoff.Default

// Options configure a Runtime.
type Options struct {
	Store   Store
	Config  Config
	Audit   Auditor
	Plugins *plugin.Registry
	Tracker Tracker
	Clock   clock.Clock
	Logger  *slog.Logger
	// Block is the number of readings read from storage at once (default
	// DefaultBlock).
	Block int
	// Poll bounds how long a caught-up service waits before it looks for
	// readings again (default 5 s); commits of this process wake it at
	// once.
	Poll time.Duration
	// Backoff of restarts after failures; zero fields take
	// DefaultBackoff's.
	Backoff Backoff
	// Monitor is the service monitor's settings (SMNTR); nil means
	// supervisor.DefaultSettings.
	Monitor supervisor.Source
	// StopGrace bounds how long a service may take to stop (default
	// 15 s); beyond it, it is reported unresponsive.
	StopGrace time.Duration
	// StartWait bounds how long starting a service waits for its plugin
	// instance (default 10 s).
	StartWait time.Duration
	// SendErrors, when set, counts the failed sends of every stream.
	SendErrors SendErrors
	// Filters runs the north services' filter pipelines; nil runs none.
	Filters Pipelines
}

// Pipelines runs filter pipelines; *filter.Manager implements it.
type Pipelines interface {
	// Open starts the pipeline of service; an error means the service
	// must not send unfiltered.
	Open(ctx context.Context, service string, st filter.Stage) (*filter.Pipeline, error)
}

// Runtime runs north services and tasks. It is safe for concurrent use.
type Runtime struct {
	o   Options
	log *slog.Logger

	create sync.Mutex // serialises task creation

	mu        sync.Mutex         // guards the fields below
	runners   map[string]*runner // started north services
	tasks     map[string]int     // north task name → executions in progress
	schedules Schedules
	base      context.Context // parent of every runner
	closed    bool
	// sent is what each north service and task sent, as its statistic
	// holds it: loaded by Load, then kept in step with every transaction
	// that counts readings sent, so ping reads it from memory.
	sent map[string]int64
}

// New returns a Runtime; nothing runs until a service is started or a
// task run.
func New(o Options) *Runtime {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Block < 1 {
		o.Block = DefaultBlock
	}
	if o.Poll <= 0 {
		o.Poll = 5 * time.Second
	}
	o.Backoff = o.Backoff.WithDefaults()
	if o.StopGrace <= 0 {
		o.StopGrace = 15 * time.Second
	}
	if o.StartWait <= 0 {
		o.StartWait = 10 * time.Second
	}
	return &Runtime{o: o, log: o.Logger, runners: map[string]*runner{}, tasks: map[string]int{}, base: context.Background(),
		sent: map[string]int64{}}
}

// SetSchedules sets the scheduler north tasks are created on (it is built
// after the runtime); CreateTask fails without one.
func (rt *Runtime) SetSchedules(s Schedules) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.schedules = s
}

// audit writes an entry; a failure is logged, since what it records has
// happened.
func (rt *Runtime) audit(ctx context.Context, source, severity string, details any) {
	if err := rt.o.Audit.Record(context.WithoutCancel(ctx), source, severity, details); err != nil {
		rt.log.Error("audit entry not written", "source", source, "error", err)
	}
}

// config reads the current configuration of the category name, with
// password values unmasked.
func (rt *Runtime) config(ctx context.Context, name string) (plugin.Config, error) {
	c, err := rt.o.Config.Category(ctx, name)
	if err == nil {
		c, err = configmgr.Unmasked(ctx, rt.o.Config, c)
	}
	if err != nil {
		return nil, fmt.Errorf("configuration of %q: %w", name, err)
	}
	return c.Values(), nil
}

// instance creates a plugin instance for the north service or task name,
// turning a panic into an error. destination, when set, hears whether the
// destination accepts readings.
func (rt *Runtime) instance(ctx context.Context, name string, def plugin.Definition, destination func(error)) (inst plugin.North, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("plugin %q panicked while starting: %v", def.Name, p)
		}
	}()
	if def.NewNorth == nil {
		return nil, fmt.Errorf("plugin %q is not a north plugin", def.Name)
	}
	cfg, err := rt.config(ctx, name)
	if err != nil {
		return nil, err
	}
	env := plugin.NorthEnv{
		Env: plugin.Env{Service: name, Clock: rt.o.Clock, Logger: rt.log.With("service", name)},
		Audit: func(ctx context.Context, source, severity string, details any) {
			rt.audit(ctx, source, severity, details)
		},
		Destination: destination,
	}
	inst, err = def.NewNorth(env, cfg)
	if err != nil {
		return nil, fmt.Errorf("create plugin %q: %w", def.Name, err)
	}
	return inst, nil
}

// stream returns the stream of the north service or task name; wake, when
// set, tells it set-aside readings were marked for resending.
func (rt *Runtime) stream(name, pluginName string, out plugin.North, wake <-chan struct{}) *Stream {
	return &Stream{Name: name, Plugin: pluginName, Out: out, Store: rt.o.Store, Tracker: rt.o.Tracker,
		Block: rt.o.Block, Log: rt.log, Wake: wake, Errors: rt.o.SendErrors,
		Audit: func(ctx context.Context, source, severity string, details any) {
			rt.audit(ctx, source, severity, details)
		},
		Sent: func(n int64) { rt.addSent(name, n) }}
}

// Load reads what every north service and task sent so far, for SentTotal;
// call it once, before they start.
func (rt *Runtime) Load(ctx context.Context) error {
	svcs, err := rt.o.Store.ListServices(ctx, db.ServiceNorth)
	if err != nil {
		return fmt.Errorf("north: %w", err)
	}
	scheds, err := rt.o.Store.ListSchedules(ctx)
	if err != nil {
		return fmt.Errorf("north: %w", err)
	}
	all, err := rt.o.Store.ListStatistics(ctx)
	if err != nil {
		return fmt.Errorf("north: %w", err)
	}
	values := make(map[string]int64, len(all))
	for _, st := range all {
		values[st.Key] = st.Value
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for _, s := range svcs {
		rt.sent[s.Name] = values[s.Name]
	}
	for _, s := range scheds {
		if s.ProcessName == db.NorthTaskProcess {
			rt.sent[s.Name] = values[s.Name]
		}
	}
	return nil
}

// addSent counts n more readings sent by name.
func (rt *Runtime) addSent(name string, n int64) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.sent[name] += n
}

// forget drops what name sent from SentTotal, once it is deleted.
func (rt *Runtime) forget(name string) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	delete(rt.sent, name)
}

// SentTotal returns the readings sent by every north service and task
// together, from memory (ping's dataSent).
func (rt *Runtime) SentTotal() int64 {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var total int64
	for _, n := range rt.sent {
		total += n
	}
	return total
}

// Prepare registers a new north service or task's stream position
// (nothing sent: it starts with the oldest buffered reading), so a purge
// that keeps unsent readings keeps them for it from now on.
func (rt *Runtime) Prepare(ctx context.Context, name string) error {
	if err := rt.o.Store.CreateStreamPosition(ctx, name); err != nil {
		return fmt.Errorf("north: %w", err)
	}
	return nil
}

// Removed forgets the north service name after its registration was
// deleted: its stream position (so purges stop keeping readings for it),
// the readings it set aside and what it sent.
func (rt *Runtime) Removed(ctx context.Context, name string) error {
	rt.forget(name)
	if err := rt.o.Store.DeleteStreamPosition(ctx, name); err != nil {
		return fmt.Errorf("north: %w", err)
	}
	if _, err := rt.o.Store.DeleteSetAside(ctx, name, nil); err != nil {
		return fmt.Errorf("north: %w", err)
	}
	return nil
}

// runner returns the runner of the service name, if started.
func (rt *Runtime) runner(name string) *runner {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.runners[name]
}

// Running reports whether the north service name is started.
func (rt *Runtime) Running(name string) bool { return rt.runner(name) != nil }

// Status returns the status of the north service name: running, failed or
// unresponsive while started, shutdown otherwise.
func (rt *Runtime) Status(name string) string {
	if r := rt.runner(name); r != nil {
		return r.status()
	}
	return system.StatusShutdown
}

// Reason says why the started north service name is not running; "" while
// it runs or when it is not started.
func (rt *Runtime) Reason(name string) string {
	if r := rt.runner(name); r != nil {
		return r.sup.Reason()
	}
	return ""
}

// Statuses returns the statuses of the started north services.
func (rt *Runtime) Statuses() []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	out := make([]string, 0, len(rt.runners))
	for _, r := range rt.runners {
		out = append(out, r.status())
	}
	return out
}

// Start starts the north service name running plugin pluginName, and
// waits (at most StartWait) for its first plugin instance. Starting a
// started service does nothing. Runners live until Stop or Shutdown, not
// until ctx ends.
func (rt *Runtime) Start(ctx context.Context, name, pluginName string) error {
	rt.mu.Lock()
	switch {
	case rt.closed:
		rt.mu.Unlock()
		return errors.New("the gateway is shutting down")
	case rt.runners[name] != nil:
		rt.mu.Unlock()
		return nil
	}
	rt.mu.Unlock()
	def, ok := rt.o.Plugins.Lookup(pluginName)
	if !ok || def.Kind != plugin.KindNorth {
		err := fmt.Errorf("north plugin %q is not installed", pluginName)
		rt.audit(ctx, auditFailed, auditcode.Failure, map[string]any{"name": name, "error": err.Error()})
		return err
	}
	r := newRunner(rt, name, def)
	rt.mu.Lock()
	if rt.runners[name] != nil { // started concurrently
		rt.mu.Unlock()
		return nil
	}
	rt.runners[name] = r
	base := rt.base
	rt.mu.Unlock()
	rt.audit(ctx, auditRegistered, auditcode.Information, map[string]any{"name": name, "plugin": pluginName})
	rt.log.Info("north service starting", "service", name, "plugin", pluginName)
	r.sup.Start(base)
	r.unsubscribe = rt.o.Config.Subscribe(name, r.onConfig)

	wait := rt.o.Clock.NewTimer(rt.o.StartWait)
	defer wait.Stop()
	select {
	case err := <-r.sup.Started():
		if err != nil {
			rt.log.Warn("north service failed to start; it will be retried", "service", name, "error", err)
		}
	case <-wait.C():
		rt.log.Warn("north service still starting", "service", name)
	case <-ctx.Done():
	}
	return nil
}

// Stop stops the north service name if it runs and waits (at most
// StopGrace) for it; the position of what it sent is saved.
func (rt *Runtime) Stop(ctx context.Context, name string) {
	r := rt.runner(name)
	if r == nil {
		return
	}
	r.unsubscribe()
	if !r.sup.Stop(ctx, rt.o.Clock.NewTimer(rt.o.StopGrace)) {
		go func() {
			<-r.sup.Done()
			rt.finish(context.WithoutCancel(ctx), r)
		}()
		return
	}
	rt.finish(ctx, r)
}

// finish unregisters a stopped runner.
func (rt *Runtime) finish(ctx context.Context, r *runner) {
	rt.mu.Lock()
	if rt.runners[r.name] == r {
		delete(rt.runners, r.name)
	}
	rt.mu.Unlock()
	rt.audit(ctx, auditUnregistered, auditcode.Information, map[string]any{"name": r.name})
	rt.log.Info("north service stopped", "service", r.name)
}

// Shutdown stops every north service and refuses later starts.
func (rt *Runtime) Shutdown(ctx context.Context) {
	rt.mu.Lock()
	rt.closed = true
	names := make([]string, 0, len(rt.runners))
	for name := range rt.runners {
		names = append(names, name)
	}
	rt.mu.Unlock()
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Go(func() { rt.Stop(ctx, name) })
	}
	wg.Wait()
}

// runner is one started north service: a plugin instance and its stream,
// run and restarted by a supervisor (internal/supervisor).
type runner struct {
	rt   *Runtime
	name string
	def  plugin.Definition

	sup         *supervisor.Supervisor
	unsubscribe func()
	wake        chan struct{} // cap 1: set-aside readings were marked for resending

	mu      sync.Mutex         // guards the fields below
	inst    plugin.North       // the running instance; nil between runs
	restart context.CancelFunc // ends the running instance's run for a restart
	again   bool               // the run ended for a restart
}

// newRunner returns the runner of the north service name, its supervisor
// made (not started): the runner's attempts tell it about the destination,
// and the runtime reads its status once the runner is registered.
func newRunner(rt *Runtime, name string, def plugin.Definition) *runner {
	r := &runner{rt: rt, name: name, def: def, wake: make(chan struct{}, 1)}
	r.sup = supervisor.New(supervisor.Options{Clock: rt.o.Clock, Logger: rt.log, Backoff: rt.o.Backoff,
		Settings: rt.o.Monitor, Audit: func(ctx context.Context, source, severity string, details any) {
			rt.audit(ctx, source, severity, details)
		}}, supervisor.Unit{Kind: "north service", Name: name, Plugin: def.Name, Run: r.runOnce})
	return r
}

// status returns the service's status.
func (r *runner) status() string { return r.sup.Status() }

// destination hears from the plugin whether its destination accepts
// readings: the service is unresponsive while it does not.
func (r *runner) destination(err error) {
	if err != nil {
		r.sup.Degraded("the destination does not accept readings: " + err.Error())
		return
	}
	r.sup.Degraded("")
}

// poke tells the running stream that set-aside readings were marked for
// resending.
func (r *runner) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// onConfig applies a configuration change to the running instance, or
// restarts it when the plugin asks for that. Between runs there is nothing
// to do: the next run reads the configuration afresh.
func (r *runner) onConfig(ctx context.Context, _ configmgr.Category) (err error) {
	r.mu.Lock()
	inst := r.inst
	r.mu.Unlock()
	if inst == nil {
		return nil
	}
	cfg, err := r.rt.config(ctx, r.name)
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("plugin panicked in Reconfigure: %v", p)
		}
	}()
	switch err := inst.Reconfigure(cfg); {
	case errors.Is(err, plugin.ErrRestart):
		r.mu.Lock()
		if r.inst == inst && r.restart != nil {
			r.again = true
			r.restart()
		}
		r.mu.Unlock()
		return nil
	case err != nil:
		return fmt.Errorf("north service %q: configuration not applied: %w", r.name, err)
	}
	return nil
}

// runOnce is the supervisor's unit: it runs one plugin instance until it
// fails, ctx ends (nil) or a configuration change needs a new instance
// (supervisor.ErrRestart).
func (r *runner) runOnce(ctx context.Context, up func()) (err error) {
	rt := r.rt
	inst, err := rt.instance(ctx, r.name, r.def, r.destination)
	if err != nil {
		return err
	}
	defer closeInstance(inst, rt.log)
	if rt.o.Filters != nil {
		pipe, err := rt.o.Filters.Open(ctx, r.name, filter.North)
		if err != nil {
			return fmt.Errorf("filter pipeline: %w", err)
		}
		defer pipe.Close(ctx) // persists the filters' state
		inst = pipe.North(inst)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.mu.Lock()
	r.inst, r.restart, r.again = inst, cancel, false
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inst, r.restart = nil, nil
		again := r.again
		r.mu.Unlock()
		if again && ctx.Err() == nil {
			err = supervisor.ErrRestart
		}
	}()
	up()
	return rt.stream(r.name, r.def.Name, inst, r.wake).Run(runCtx, rt.o.Clock, rt.o.Poll)
}
