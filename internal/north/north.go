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
	"runtime/debug"
	"sync"
	"time"

	"github.com/edged/edged/internal/backoff"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/system"
)

// Store is the storage the runtime needs; *db.DB implements it.
type Store interface {
	StreamStore
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

// Counters are the in-memory statistics; *ingest.Counters implements it.
type Counters interface {
	Counter
	Flush(ctx context.Context) error
	Forget(key string)
}

// Schedules creates task schedules; *scheduler.Scheduler implements it.
type Schedules interface {
	Create(ctx context.Context, s db.Schedule) (db.Schedule, error)
	Notify()
}

// Audit sources and severities the runtime writes.
const (
	auditRegistered   = "SRVRG"
	auditUnregistered = "SRVUN"
	auditFailed       = "SRVFL"
	auditTaskComplete = "NHCOM"
	severityInfo      = "INFORMATION"
	severityFailure   = "FAILURE"
)

// Backoff is the restart backoff of north services.
type Backoff = backoff.Policy

// DefaultBackoff is the restart backoff of north services unless Options say otherwise.
var DefaultBackoff = backoff.Default

// Options configure a Runtime.
type Options struct {
	Store    Store
	Config   Config
	Audit    Auditor
	Plugins  *plugin.Registry
	Counters Counters
	Tracker  Tracker
	Clock    clock.Clock
	Logger   *slog.Logger
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
	// StopGrace bounds how long a service may take to stop (default
	// 15 s); beyond it, it is reported unresponsive.
	StopGrace time.Duration
	// StartWait bounds how long starting a service waits for its plugin
	// instance (default 10 s).
	StartWait time.Duration
	// SendErrors, when set, counts the failed sends of every stream.
	SendErrors SendErrors
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
	return &Runtime{o: o, log: o.Logger, runners: map[string]*runner{}, tasks: map[string]int{}, base: context.Background()}
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
	if err != nil {
		return nil, fmt.Errorf("configuration of %q: %w", name, err)
	}
	cfg := make(plugin.Config, len(c.Items))
	for item, it := range c.Items {
		cfg[item] = it.Value
		if it.Type == configmgr.TypePassword {
			if cfg[item], err = rt.o.Config.Value(ctx, name, item); err != nil {
				return nil, fmt.Errorf("configuration of %q: %w", name, err)
			}
		}
	}
	return cfg, nil
}

// instance creates a plugin instance for the north service or task name,
// turning a panic into an error.
func (rt *Runtime) instance(ctx context.Context, name string, def plugin.Definition) (inst plugin.North, err error) {
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
		Env: plugin.Env{Service: name, Clock: rt.o.Clock, Logger: rt.log.With("north", name)},
		Audit: func(ctx context.Context, source, severity string, details any) {
			rt.audit(ctx, source, severity, details)
		},
	}
	inst, err = def.NewNorth(env, cfg)
	if err != nil {
		return nil, fmt.Errorf("create plugin %q: %w", def.Name, err)
	}
	return inst, nil
}

// stream returns the stream of the north service or task name.
func (rt *Runtime) stream(name, pluginName string, out plugin.North) *Stream {
	return &Stream{Name: name, Plugin: pluginName, Out: out, Store: rt.o.Store, Counter: rt.o.Counters,
		Tracker: rt.o.Tracker, Block: rt.o.Block, Log: rt.log, Errors: rt.o.SendErrors}
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
// deleted: its stream position (so purges stop keeping readings for it)
// and its in-memory counter.
func (rt *Runtime) Removed(ctx context.Context, name string) error {
	rt.o.Counters.Forget(name)
	if err := rt.o.Store.DeleteStreamPosition(ctx, name); err != nil {
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
		return r.getStatus()
	}
	return system.StatusShutdown
}

// Statuses returns the statuses of the started north services.
func (rt *Runtime) Statuses() []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	out := make([]string, 0, len(rt.runners))
	for _, r := range rt.runners {
		out = append(out, r.getStatus())
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
		rt.audit(ctx, auditFailed, severityFailure, map[string]any{"name": name, "error": err.Error()})
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
	r.unsubscribe = rt.o.Config.Subscribe(name, r.onConfig)
	rt.audit(ctx, auditRegistered, severityInfo, map[string]any{"name": name, "plugin": pluginName})
	rt.log.Info("north service starting", "service", name, "plugin", pluginName)
	runCtx, cancel := context.WithCancel(base)
	r.cancel = cancel
	go r.supervise(runCtx)

	wait := rt.o.Clock.NewTimer(rt.o.StartWait)
	defer wait.Stop()
	select {
	case err := <-r.started:
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
	r.cancel()
	grace := rt.o.Clock.NewTimer(rt.o.StopGrace)
	defer grace.Stop()
	select {
	case <-r.done:
	case <-grace.C():
		r.setStatus(system.StatusUnresponsive)
		rt.log.Error("north service did not stop in time; it is unresponsive", "service", name, "grace", rt.o.StopGrace)
		rt.audit(ctx, auditFailed, severityFailure, map[string]any{"name": name, "error": "did not stop in time"})
		go func() {
			<-r.done
			rt.finish(context.WithoutCancel(ctx), r)
		}()
		return
	case <-ctx.Done():
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
	rt.audit(ctx, auditUnregistered, severityInfo, map[string]any{"name": r.name})
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

// runner supervises one started north service: a plugin instance and its
// stream, restarted with backoff after a failure.
type runner struct {
	rt   *Runtime
	name string
	def  plugin.Definition

	cancel      context.CancelFunc // stops the supervisor
	unsubscribe func()
	done        chan struct{} // closed when the supervisor has stopped
	started     chan error    // the first attempt's outcome

	mu      sync.Mutex // guards the fields below
	status  string
	inst    plugin.North       // the running instance; nil between runs
	restart context.CancelFunc // ends the running instance's run for a restart
	again   bool               // the run ended for a restart
}

func newRunner(rt *Runtime, name string, def plugin.Definition) *runner {
	return &runner{rt: rt, name: name, def: def, done: make(chan struct{}), started: make(chan error, 1),
		status: system.StatusRunning}
}

func (r *runner) getStatus() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status
}

func (r *runner) setStatus(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status = s
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

// errRestart ends a run so that the next starts at once.
var errRestart = errors.New("restart for a configuration change")

// supervise runs the service until ctx ends, restarting it with backoff
// after every failure.
func (r *runner) supervise(ctx context.Context) {
	defer close(r.done)
	rt := r.rt
	attempt := 0
	first := true
	started := func(err error) {
		if first {
			first = false
			r.started <- err
		}
	}
	defer started(nil)
	for {
		began := rt.o.Clock.Now()
		err := r.runOnce(ctx, func() { started(nil) })
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errRestart) {
			rt.log.Info("north plugin restarted for a configuration change", "service", r.name)
			continue
		}
		if err == nil {
			err = errors.New("the plugin stopped on its own")
		}
		r.setStatus(system.StatusFailed)
		rt.log.Error("north service failed", "service", r.name, "plugin", r.def.Name, "error", err)
		rt.audit(ctx, auditFailed, severityFailure, map[string]any{"name": r.name, "plugin": r.def.Name, "error": err.Error()})
		started(err)
		if rt.o.Clock.Now().Sub(began) >= rt.o.Backoff.ResetAfter {
			attempt = 0
		}
		t := rt.o.Clock.NewTimer(rt.o.Backoff.Delay(attempt))
		attempt++
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}

// runOnce runs one plugin instance until it fails, ctx ends (nil) or a
// configuration change needs a new instance (errRestart). A panic is a
// failure.
func (r *runner) runOnce(ctx context.Context, up func()) (err error) {
	rt := r.rt
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("plugin panicked: %v", p)
			rt.log.Error("north plugin panic", "service", r.name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	inst, err := rt.instance(ctx, r.name, r.def)
	if err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.mu.Lock()
	r.inst, r.restart, r.again = inst, cancel, false
	r.status = system.StatusRunning
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inst, r.restart = nil, nil
		again := r.again
		r.mu.Unlock()
		if again && ctx.Err() == nil {
			err = errRestart
		}
	}()
	up()
	return rt.stream(r.name, r.def.Name, inst).Run(runCtx, rt.o.Clock, rt.o.Poll)
}
