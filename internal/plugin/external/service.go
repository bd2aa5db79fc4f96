package external

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
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
	st := edgeplugin.Start{Service: s.env.Service, Config: edgeplugin.Config(cfg), State: state}
	if err := p.StartService(ctx, st, s.host); err != nil {
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

// Call runs method of the service; its errors are faults of the kind the
// service's code maps to (fault.go), fault.Unavailable while no process
// runs.
func (s *extService) Call(ctx context.Context, method string, body []byte) ([]byte, error) {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil {
		return nil, fault.New(fault.Unavailable, "the service %q is not running", s.env.Service)
	}
	out, err := p.Call(ctx, method, body)
	if err != nil {
		return nil, serviceFault(s.name, err)
	}
	return out, nil
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
	ctx, cancel := context.WithTimeout(ctx, stopWait)
	defer cancel()
	return reconfigureError(p.Reconfigure(ctx, edgeplugin.Config(cfg)))
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

// persistingService is a service instance of a plugin that keeps state.
type persistingService struct{ *extService }

// Restore keeps the state for the process Open starts.
func (s *persistingService) Restore(state json.RawMessage) error { return s.kept.Restore(state) }

// State is the state the process reported when its run ended.
func (s *persistingService) State() (json.RawMessage, error) { return s.kept.State() }

// serviceHost is the gateway's ServiceHost as the SDK serves it to the
// process: its faults become codes (fault.go), and a panic, which would
// otherwise end the gateway from a gRPC goroutine, an internal error.
type serviceHost struct{ h plugin.ServiceHost }

func (h serviceHost) Call(ctx context.Context, method string, body []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("the gateway failed on %q: %v", method, r)
		}
	}()
	out, err = h.h.Call(ctx, method, body)
	if err != nil {
		return nil, hostError(err)
	}
	return out, nil
}
