package external

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/faultcode"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// extService is an instance of an external notification or dispatcher
// service. Its process is started by Open (or Run, when the runtime did
// not call Open) and stopped when Run returns.
type extService struct {
	*launcher
	env  plugin.ServiceEnv
	host edgeplugin.Host

	kept keptState

	mu   sync.Mutex
	cfg  plugin.Config
	proc *edgeplugin.Process
}

func newService(l *launcher, env plugin.ServiceEnv, cfg plugin.Config) (*extService, error) {
	if env.Host == nil {
		return nil, fmt.Errorf("service plugin %q: the runtime gave no ServiceHost", l.name)
	}
	return &extService{launcher: l, env: env, host: serviceHost{env.Host}, cfg: cfg}, nil
}

// Open starts the process with the configuration and the restored state
// and serves the gateway's host to it; an error fails the start.
func (s *extService) Open(ctx context.Context) error {
	// The lock is not held while the process starts: its Start may call
	// the gateway, which may call the service back.
	s.mu.Lock()
	running, cfg := s.proc != nil, s.cfg
	s.mu.Unlock()
	state := s.kept.get()
	if running {
		return nil
	}
	p, err := s.launch(ctx, s.env.Service)
	if err != nil {
		return err
	}
	st := edgeplugin.Start{Service: s.env.Service, Config: cfg, State: state}
	startCtx, cancel := context.WithTimeout(ctx, callWait)
	defer cancel()
	if err := p.StartService(startCtx, st, s.host); err != nil {
		p.Kill()
		return serviceFault(s.name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil {
		p.Kill() // another Open won
		return nil
	}
	s.proc = p
	return nil
}

// Run waits until ctx ends, then takes the state of a persisting service
// and stops the process (nil), or until the process exits by itself (an
// error, so the service's supervisor starts a new instance, and process,
// with its backoff).
func (s *extService) Run(ctx context.Context) error {
	if err := s.Open(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	defer s.stop(p)
	select {
	case <-ctx.Done():
		return nil
	case <-p.Done():
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("the process of service plugin %q has exited", s.name)
	}
}

// stop takes the state of a persisting service and kills the process.
func (s *extService) stop(p *edgeplugin.Process) {
	defer p.Kill()
	s.mu.Lock()
	if s.proc == p {
		s.proc = nil
	}
	s.mu.Unlock()
	s.kept.takeFrom(p, s.env.Log(), s.name)
}

// process returns the running process, or fault.Unavailable while none
// runs.
func (s *extService) process() (*edgeplugin.Process, error) {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil {
		return nil, fault.New(fault.Unavailable, "the service %q is not running", s.env.Service)
	}
	return p, nil
}

// call runs fn on the running process; its errors become faults of the
// kind the service's code maps to (faultcode), fault.Unavailable while no
// process runs.
func (s *extService) call(fn func(p *edgeplugin.Process) error) error {
	p, err := s.process()
	if err != nil {
		return err
	}
	return serviceFault(s.name, fn(p))
}

// Reconfigure hands the running service its new configuration; the next
// process starts with it in any case.
func (s *extService) Reconfigure(ctx context.Context, cfg plugin.Config) error {
	s.mu.Lock()
	p := s.proc
	s.cfg = cfg
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, callWait)
	defer cancel()
	err := p.Reconfigure(ctx, cfg)
	if err != nil && ctx.Err() != nil {
		// Past its deadline the call can end with the stream's reset
		// rather than DeadlineExceeded: either way the plugin did not
		// answer in time.
		return fault.Wrap(fault.Unavailable, err, "service plugin %q did not answer a reconfiguration in time", s.name)
	}
	return serviceFault(s.name, reconfigureError(err))
}

// Close kills the process if Run did not (the service stopped between
// Open and Run).
func (s *extService) Close() error {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p != nil {
		p.Kill()
	}
	return nil
}

// notificationService is an instance of a notification service.
type notificationService struct{ *extService }

var _ plugin.NotificationService = notificationService{}

func (s notificationService) Plugins(ctx context.Context) (out edgeplugin.NotificationPlugins, err error) {
	err = s.call(func(p *edgeplugin.Process) error {
		out, err = p.Notification().Plugins(ctx)
		return err
	})
	return out, err
}

func (s notificationService) Validate(ctx context.Context, in edgeplugin.NotificationInstance) error {
	return s.call(func(p *edgeplugin.Process) error { return p.Notification().Validate(ctx, in) })
}

func (s notificationService) SetInstances(ctx context.Context, set []edgeplugin.NotificationInstance) error {
	return s.call(func(p *edgeplugin.Process) error { return p.Notification().SetInstances(ctx, set) })
}

func (s notificationService) Readings(ctx context.Context, rs []edgeplugin.Reading) error {
	return s.call(func(p *edgeplugin.Process) error { return p.Notification().Readings(ctx, rs) })
}

func (s notificationService) Audited(ctx context.Context, code string, at time.Time) error {
	return s.call(func(p *edgeplugin.Process) error { return p.Notification().Audited(ctx, code, at) })
}

func (s notificationService) Statistics(ctx context.Context, at time.Time, counters map[string]int64) error {
	return s.call(func(p *edgeplugin.Process) error { return p.Notification().Statistics(ctx, at, counters) })
}

// dispatcherService is an instance of a dispatcher service.
type dispatcherService struct{ *extService }

var _ plugin.DispatcherService = dispatcherService{}

func (s dispatcherService) Write(ctx context.Context, req edgeplugin.ControlRequest) (out []edgeplugin.ControlResult, err error) {
	err = s.call(func(p *edgeplugin.Process) error {
		out, err = p.Dispatcher().Write(ctx, req)
		return err
	})
	return out, err
}

func (s dispatcherService) Operate(ctx context.Context, req edgeplugin.ControlRequest) (out []edgeplugin.ControlResult, err error) {
	err = s.call(func(p *edgeplugin.Process) error {
		out, err = p.Dispatcher().Operate(ctx, req)
		return err
	})
	return out, err
}

// persisting keeps the state of a service instance across its processes.
type persisting struct{ s *extService }

// Restore keeps the state for the process Open starts.
func (p persisting) Restore(state json.RawMessage) error { return p.s.kept.Restore(state) }

// State is the state the process reported when its run ended.
func (p persisting) State() (json.RawMessage, error) { return p.s.kept.State() }

// persistingNotification and persistingDispatcher are the instances of
// the services whose plugin keeps state.
type (
	persistingNotification struct {
		notificationService
		persisting
	}
	persistingDispatcher struct {
		dispatcherService
		persisting
	}
)

// instance returns the instance of s for its kind.
func (s *extService) instance(persists bool) plugin.Service {
	switch {
	case s.kind == edgeplugin.KindNotification && persists:
		return persistingNotification{notificationService{s}, persisting{s}}
	case s.kind == edgeplugin.KindNotification:
		return notificationService{s}
	case persists:
		return persistingDispatcher{dispatcherService{s}, persisting{s}}
	}
	return dispatcherService{s}
}

// serviceHost is the gateway's ServiceHost as the SDK serves it to the
// process: its faults become codes (faultcode), and a panic, which would
// otherwise end the gateway from a gRPC goroutine, an internal error.
type serviceHost struct{ h plugin.ServiceHost }

// guard runs the gateway's side of call, turning its error into one with
// a code and a panic into an internal error.
func guard(call string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the gateway failed on %s: %v", call, r)
		}
	}()
	return faultcode.Code(fn())
}

func (h serviceHost) Audit(ctx context.Context, e edgeplugin.AuditEntry) error {
	return guard("Audit", func() error { return h.h.Audit(ctx, e) })
}

func (h serviceHost) Ingest(ctx context.Context, rs []edgeplugin.Reading) error {
	return guard("Ingest", func() error { return h.h.Ingest(ctx, rs) })
}

func (h serviceHost) Dispatch(ctx context.Context, req edgeplugin.ControlRequest) (out []edgeplugin.ControlResult, err error) {
	err = guard("Dispatch", func() error {
		out, err = h.h.Dispatch(ctx, req)
		return err
	})
	return out, err
}

func (h serviceHost) Services(ctx context.Context) (out []edgeplugin.ControlTarget, err error) {
	err = guard("Services", func() error {
		out, err = h.h.Services(ctx)
		return err
	})
	return out, err
}

func (h serviceHost) Write(ctx context.Context, service, asset string, values map[string]any) error {
	return guard("Write", func() error { return h.h.Write(ctx, service, asset, values) })
}

func (h serviceHost) Operate(ctx context.Context, service, operation string, params map[string]any) error {
	return guard("Operate", func() error { return h.h.Operate(ctx, service, operation, params) })
}
