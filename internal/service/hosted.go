package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/supervisor"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// processNames are the schedule processes of the services whose plugin
// runs a process of its own: the notification and dispatcher services.
var hostedProcess = map[string]string{
	db.ServiceNotification: "notification_c",
	db.ServiceDispatcher:   "dispatcher_c",
}

// Audit codes of the hosted services' starts and stops.
var hostedAudit = map[string][2]string{
	db.ServiceNotification: {auditcode.NotificationStarted, auditcode.NotificationStopped},
	db.ServiceDispatcher:   {auditcode.DispatcherStarted, auditcode.DispatcherStopped},
}

// isHosted reports whether s is a notification or dispatcher service.
func isHosted(s db.Service) bool {
	_, ok := hostedProcess[s.Type]
	return ok
}

// hosted is a started notification or dispatcher service: its plugin's
// process, started and restarted by a supervisor, and the ingest buffer
// of the readings it writes (a notification's asset delivery).
type hosted struct {
	m    *Manager
	name string
	typ  string // db.ServiceNotification or db.ServiceDispatcher
	def  plugin.Definition
	buf  *ingest.Buffer
	sup  *supervisor.Supervisor

	unsubscribe func()
	restart     chan struct{} // cap 1: the process asked for a new instance

	mu   sync.Mutex     // guards inst
	inst plugin.Service // the running process; nil between attempts
}

func newHosted(m *Manager, s db.Service, def plugin.Definition) *hosted {
	h := &hosted{m: m, name: s.Name, typ: s.Type, def: def, restart: make(chan struct{}, 1),
		buf: ingest.New(ingest.Options{Service: s.Name, Plugin: def.Name, Store: m.o.Store, Counters: m.o.Counters,
			Tracker: m.o.Tracker, Clock: m.o.Clock, Logger: m.log, Limits: ingest.DefaultLimits,
			Observer: m.o.Observer, Listener: m.o.Listener})}
	h.sup = supervisor.New(supervisor.Options{Clock: m.o.Clock, Logger: m.log, Backoff: m.o.Backoff,
		Settings: m.o.Monitor, Audit: func(ctx context.Context, source, severity string, details any) {
			m.audit(ctx, source, severity, details)
		}}, supervisor.Unit{Kind: s.Type + " service", Name: s.Name, Plugin: def.Name, Run: h.attempt})
	return h
}

// running returns the running process, if any.
func (h *hosted) running() plugin.Service {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.inst
}

func (h *hosted) set(inst plugin.Service) {
	h.mu.Lock()
	h.inst = inst
	h.mu.Unlock()
}

// attempt is the supervisor's unit: one run of the service's process,
// until it dies (an error) or ctx ends (nil).
func (h *hosted) attempt(ctx context.Context, up func()) error {
	m := h.m
	cfg, _, err := m.serviceConfig(ctx, h.name)
	if err != nil {
		return err
	}
	env := plugin.ServiceEnv{Env: plugin.Env{Service: h.name, Clock: m.o.Clock, Logger: m.log.With("service", h.name)},
		Host: hostCalls{h: h}}
	inst, err := h.def.NewService(env, cfg)
	if err != nil {
		return fmt.Errorf("start the %s service's process: %w", h.typ, err)
	}
	if p, ok := inst.(plugin.Persister); ok {
		data, err := m.o.Store.GetPluginData(ctx, h.name, h.name)
		switch {
		case err == nil:
			if err := p.Restore(data); err != nil {
				m.log.Warn("persisted service data not usable; starting afresh", "service", h.name, "error", err)
			}
		case !errors.Is(err, db.ErrNotFound):
			return fmt.Errorf("read persisted service data: %w", err)
		}
		defer h.persist(ctx, p)
	}
	if o, ok := inst.(plugin.Opener); ok {
		if err := o.Open(ctx); err != nil {
			return fmt.Errorf("start the %s service's process: %w", h.typ, err)
		}
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	ended := make(chan error, 1)
	go func() { ended <- inst.Run(runCtx) }()
	if fn := m.hostedStarted(); fn != nil {
		if err := fn(ctx, h.typ, inst); err != nil {
			stop()
			if runErr := <-ended; runErr != nil {
				m.log.Warn("service process reported an error while stopping", "service", h.name, "error", runErr)
			}
			return fmt.Errorf("prepare the %s service: %w", h.typ, err)
		}
	}
	h.set(inst)
	defer h.set(nil)
	// The start is audited before the service is reported running, so a
	// client that sees it running finds its start entry too.
	codes := hostedAudit[h.typ]
	m.audit(ctx, codes[0], auditcode.Information, map[string]any{"name": h.name, "plugin": h.def.Name})
	up()
	select {
	case err = <-ended:
	case <-h.restart:
		stop()
		if runErr := <-ended; runErr != nil {
			m.log.Warn("service process reported an error while stopping", "service", h.name, "error", runErr)
		}
		m.audit(context.WithoutCancel(ctx), codes[1], auditcode.Information, map[string]any{"name": h.name, "restart": true})
		return supervisor.ErrRestart
	case <-ctx.Done():
		stop()
		err = <-ended
		if err != nil {
			m.log.Warn("service process reported an error while stopping", "service", h.name, "error", err)
		}
		err = nil
	}
	severity := auditcode.Information
	details := map[string]any{"name": h.name}
	if err != nil {
		severity, details["error"] = auditcode.Failure, err.Error()
	}
	m.audit(context.WithoutCancel(ctx), codes[1], severity, details)
	return err
}

// persist stores the state of a persisting service after it stopped.
func (h *hosted) persist(ctx context.Context, p plugin.Persister) {
	data, err := p.State()
	if err == nil && data != nil {
		err = h.m.o.Store.SavePluginData(context.WithoutCancel(ctx), h.name, h.name, data)
	}
	if err != nil {
		h.m.log.Error("service state not persisted", "service", h.name, "error", err)
	}
}

// onConfig hands a changed configuration to the running process.
func (h *hosted) onConfig(ctx context.Context, c configmgr.Category) error {
	inst := h.running()
	if inst == nil {
		return nil // the next attempt reads the configuration afresh
	}
	cfg, _ := configOf(c)
	for item, it := range c.Items {
		if it.Type == configmgr.TypePassword {
			v, err := h.m.o.Config.Value(ctx, h.name, item)
			if err != nil {
				return err
			}
			cfg[item] = v
		}
	}
	if err := inst.Reconfigure(ctx, cfg); err != nil {
		if errors.Is(err, plugin.ErrRestart) {
			select {
			case h.restart <- struct{}{}:
			default:
			}
			return nil
		}
		return err
	}
	return nil
}

// startHosted starts the notification or dispatcher service s; m.ops is
// held.
func (m *Manager) startHosted(ctx context.Context, s db.Service) error {
	m.mu.Lock()
	if m.hosted[s.Name] != nil {
		m.mu.Unlock()
		return nil
	}
	base := m.base
	m.mu.Unlock()
	def, ok := m.o.Plugins.Lookup(s.Plugin)
	if !ok || def.NewService == nil {
		err := fmt.Errorf("the %s service package %q is not installed", s.Type, s.Plugin)
		m.audit(ctx, auditFailed, auditcode.Failure, map[string]any{"name": s.Name, "error": err.Error()})
		return err
	}
	h := newHosted(m, s, def)
	m.mu.Lock()
	m.hosted[s.Name] = h
	m.mu.Unlock()
	m.audit(ctx, auditRegistered, auditcode.Information, map[string]any{"name": s.Name, "plugin": s.Plugin})
	m.log.Info("service starting", "service", s.Name, "plugin", s.Plugin)
	h.sup.Start(base)
	h.unsubscribe = m.o.Config.Subscribe(s.Name, h.onConfig)
	m.awaitStart(ctx, s.Name, h.sup)
	return nil
}

// stopHosted stops the hosted service name if it runs; m.ops is held. It
// reports whether name was one.
func (m *Manager) stopHosted(ctx context.Context, name string) bool {
	m.mu.Lock()
	h := m.hosted[name]
	m.mu.Unlock()
	if h == nil {
		return false
	}
	h.unsubscribe()
	if !h.sup.Stop(ctx, m.o.Clock.NewTimer(m.o.StopGrace)) {
		m.log.Warn("service process did not stop in time", "service", name)
	}
	drainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DrainWait)
	defer cancel()
	if err := h.buf.Close(drainCtx); err != nil {
		m.log.Error("ingest buffer not drained", "service", name, "error", err)
	}
	m.mu.Lock()
	delete(m.hosted, name)
	m.mu.Unlock()
	m.audit(ctx, auditUnregistered, auditcode.Information, map[string]any{"name": name})
	m.log.Info("service stopped", "service", name)
	return true
}

// hostedStatus returns the status of name when it is a started hosted
// service.
func (m *Manager) hostedStatus(name string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if h := m.hosted[name]; h != nil {
		return h.sup.Status(), true
	}
	return "", false
}

// SetListener sets the listener of every ingest buffer's committed
// readings; call it before Start.
func (m *Manager) SetListener(l ingest.Listener) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.o.Listener = l
}

// SetHostedStarted sets the function called each time the process of a
// notification or dispatcher service has started, before it is offered
// to callers (the notification instances hand it their configuration);
// an error restarts the process. Call it before Start.
func (m *Manager) SetHostedStarted(fn func(ctx context.Context, typ string, inst plugin.Service) error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.started = fn
}

func (m *Manager) hostedStarted() func(ctx context.Context, typ string, inst plugin.Service) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.started
}

// ErrNotRunning is the cause of the Conflict of Notification and
// Dispatcher when no service of the type runs: the call reached no service
// process.
var ErrNotRunning = errors.New("no service of the type is running")

// notRunning is the fault of a call to a service of type typ when none
// runs.
func notRunning(typ string) error {
	return fault.Wrap(fault.Conflict, ErrNotRunning, "no %s service is running: install the %s service package, then create and enable a %s service", typ, typ, typ)
}

// Notification returns the calls of the running notification service.
// Errors: Conflict wrapping ErrNotRunning when none runs. The calls'
// errors are the process's, as faults of their kind.
func (m *Manager) Notification() (edgeplugin.NotificationCalls, error) {
	if n, ok := m.runningHosted(db.ServiceNotification).(plugin.NotificationService); ok {
		return n, nil
	}
	return nil, notRunning(db.ServiceNotification)
}

// Dispatcher returns the calls of the running dispatcher service, with
// the errors of Notification.
func (m *Manager) Dispatcher() (edgeplugin.DispatcherCalls, error) {
	if d, ok := m.runningHosted(db.ServiceDispatcher).(plugin.DispatcherService); ok {
		return d, nil
	}
	return nil, notRunning(db.ServiceDispatcher)
}

// Running reports whether a service of type typ (notification or
// dispatcher) runs.
func (m *Manager) Running(typ string) bool { return m.runningHosted(typ) != nil }

// runningHosted returns the process of the running service of type typ.
func (m *Manager) runningHosted(typ string) plugin.Service {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, h := range m.hosted {
		if h.typ == typ {
			return h.running()
		}
	}
	return nil
}

// hostCalls answers the calls a service process makes to the gateway
// (the contract's Host), as hostRights allow its kind.
type hostCalls struct{ h *hosted }

// Calls of the gateway's Host, as hostRights names them.
const (
	callAudit    = "Audit"
	callIngest   = "Ingest"
	callDispatch = "Dispatch"
	callServices = "Services"
	callWrite    = "Write"
	callOperate  = "Operate"
)

// hostRights is the one table of what each service kind may do through
// the gateway's Host: the calls it may make and the audit sources it may
// write.
var hostRights = map[string]struct {
	calls   []string
	sources []string
}{
	db.ServiceNotification: {calls: []string{callAudit, callIngest, callDispatch}, sources: []string{auditcode.NotificationSent, auditcode.NotificationCleared}},
	db.ServiceDispatcher:   {calls: []string{callAudit, callServices, callWrite, callOperate}, sources: []string{auditcode.ControlWrite, auditcode.ControlOperation}},
}

// may refuses call unless the service's kind may make it.
func (c hostCalls) may(call string) error {
	if !slices.Contains(hostRights[c.h.typ].calls, call) {
		return fault.New(fault.Invalid, "a %s service may not call the gateway's %s", c.h.typ, call)
	}
	return nil
}

// Audit implements plugin.ServiceHost.
func (c hostCalls) Audit(ctx context.Context, e edgeplugin.AuditEntry) error {
	if err := c.may(callAudit); err != nil {
		return err
	}
	if !slices.Contains(hostRights[c.h.typ].sources, e.Source) {
		return fault.New(fault.Invalid, "a %s service may not write audit entries of source %q", c.h.typ, e.Source)
	}
	return c.h.m.o.Audit.Record(ctx, e.Source, e.Severity, e.Details)
}

// Dispatch implements plugin.ServiceHost: the request goes to the
// dispatcher service, which audits who asked: here the notification
// service.
func (c hostCalls) Dispatch(ctx context.Context, req edgeplugin.ControlRequest) ([]edgeplugin.ControlResult, error) {
	if err := c.may(callDispatch); err != nil {
		return nil, err
	}
	d, err := c.h.m.Dispatcher()
	if err != nil {
		return nil, err
	}
	req.Caller = "notification service " + c.h.name
	return d.Write(ctx, req)
}

// Services implements plugin.ServiceHost.
func (c hostCalls) Services(ctx context.Context) ([]edgeplugin.ControlTarget, error) {
	if err := c.may(callServices); err != nil {
		return nil, err
	}
	return c.h.m.targets(ctx)
}

// Write implements plugin.ServiceHost.
func (c hostCalls) Write(ctx context.Context, service, asset string, values map[string]any) error {
	if err := c.may(callWrite); err != nil {
		return err
	}
	return c.h.m.write(ctx, service, asset, values)
}

// Operate implements plugin.ServiceHost.
func (c hostCalls) Operate(ctx context.Context, service, operation string, params map[string]any) error {
	if err := c.may(callOperate); err != nil {
		return err
	}
	return c.h.m.operate(ctx, service, operation, params)
}

// Ingest implements plugin.ServiceHost: it stores the readings a
// notification service writes and returns once they are committed.
func (c hostCalls) Ingest(ctx context.Context, in []edgeplugin.Reading) error {
	if err := c.may(callIngest); err != nil {
		return err
	}
	rs := make([]plugin.Reading, 0, len(in))
	for _, r := range in {
		if r.Asset == "" || len(r.Values) == 0 || r.Values[0] != '{' {
			return fault.New(fault.Invalid, "ingest: a reading needs an asset and a readings object")
		}
		rs = append(rs, plugin.Reading{Asset: r.Asset, Timestamp: r.Timestamp.UTC(), Values: r.Values})
	}
	rc, err := c.h.buf.Submit(rs)
	switch {
	case errors.Is(err, plugin.ErrAssetCode):
		return fault.Wrap(fault.Invalid, err, "ingest: %v", err)
	case err != nil:
		return fault.Wrap(fault.Unavailable, err, "ingest: %v", err)
	}
	err = rc.Wait(ctx)
	if errors.Is(err, plugin.ErrRefused) {
		// a value storage cannot hold: sending it again cannot succeed
		return fault.Wrap(fault.Invalid, err, "ingest: storage refused a value of these readings")
	}
	return err
}

// Target is a south service as the dispatcher sees it.
type Target = edgeplugin.ControlTarget

// targets lists the south services, with whether they run, what their
// running plugin instance can do, and the assets they ingest.
func (m *Manager) targets(ctx context.Context) ([]Target, error) {
	svcs, err := m.o.Store.ListServices(ctx, db.ServiceSouth)
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	out := make([]Target, 0, len(svcs))
	for _, s := range svcs {
		t := Target{Name: s.Name, Plugin: s.Plugin, Assets: []string{}}
		if r := m.runner(s.Name); r != nil {
			r.mu.Lock()
			inst := r.inst
			r.mu.Unlock()
			if inst != nil {
				_, t.Writes = plugin.AsWriter(inst)
				_, t.Operates = plugin.AsOperator(inst)
				t.Running = true
			}
		}
		evs, err := m.o.Store.ListTrackingEvents(ctx, db.TrackingFilter{Service: s.Name, Event: db.EventIngest})
		if err != nil {
			return nil, fmt.Errorf("service: assets of %q: %w", s.Name, err)
		}
		for _, e := range evs {
			if e.DeprecatedTS.IsZero() {
				t.Assets = append(t.Assets, e.Asset)
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// southInstance returns the running plugin instance of the south service
// name. Errors: NotFound for no such service, Conflict when it is not
// running.
func (m *Manager) southInstance(ctx context.Context, name string) (plugin.South, error) {
	if r := m.runner(name); r != nil {
		r.mu.Lock()
		inst := r.inst
		r.mu.Unlock()
		if inst != nil {
			return inst, nil
		}
	}
	s, err := m.getService(ctx, name)
	if err != nil {
		return nil, err
	}
	if s.Type != db.ServiceSouth {
		return nil, fault.New(fault.Invalid, "service %q is a %s service, not a south service", name, s.Type)
	}
	return nil, fault.New(fault.Conflict, "service %q is not running", name)
}

// deviceError turns a plugin's control error into a fault.
func deviceError(service string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := fault.As(err); ok {
		return err
	}
	if errors.Is(err, plugin.ErrNotWritable) || errors.Is(err, plugin.ErrNoOperation) || errors.Is(err, plugin.ErrBadParameters) {
		return fault.Wrap(fault.Invalid, err, "service %q: %v", service, err)
	}
	return fault.Wrap(fault.BadGateway, err, "service %q: %v", service, err)
}

// write sets values of asset through the south service's plugin.
func (m *Manager) write(ctx context.Context, service, asset string, values map[string]any) error {
	inst, err := m.southInstance(ctx, service)
	if err != nil {
		return err
	}
	w, ok := plugin.AsWriter(inst)
	if !ok {
		return fault.New(fault.Invalid, "service %q's plugin does not support control writes", service)
	}
	return deviceError(service, w.Write(ctx, asset, values))
}

// operate runs an operation through the south service's plugin.
func (m *Manager) operate(ctx context.Context, service, operation string, params map[string]any) error {
	inst, err := m.southInstance(ctx, service)
	if err != nil {
		return err
	}
	o, ok := plugin.AsOperator(inst)
	if !ok {
		return fault.New(fault.Invalid, "service %q's plugin does not support control operations", service)
	}
	return deviceError(service, o.Operate(ctx, operation, params))
}
