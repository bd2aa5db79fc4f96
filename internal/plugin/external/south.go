package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// south is an instance of an external south plugin. Its process is
// started by Open and killed when Run returns.
type south struct {
	*launcher
	env plugin.Env
	// writes and operates are what the plugin offers of Write and Operate.
	writes, operates bool

	kept keptState

	mu   sync.Mutex
	cfg  plugin.Config
	proc *edgeplugin.Process
	// cancel ends the current Run (a process found dead by Check).
	cancel context.CancelCauseFunc
}

// Open starts the plugin's process with the configuration and the
// restored state.
func (s *south) Open(ctx context.Context) error {
	s.mu.Lock()
	cfg := s.cfg
	s.mu.Unlock()
	p, err := s.start(ctx, s.env.Service, cfg, s.kept.get())
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.proc = p
	s.mu.Unlock()
	return nil
}

// Run hands the plugin's readings to sink until ctx ends or the process
// fails; then it keeps the plugin's state (when it persists) and kills the
// process. A process that dies ends Run with an error, so the service's
// supervisor starts a new instance, and process, with its backoff.
func (s *south) Run(ctx context.Context, sink plugin.Sink) error {
	s.mu.Lock()
	p := s.proc
	runCtx, cancel := context.WithCancelCause(ctx)
	s.cancel = cancel
	s.mu.Unlock()
	if p == nil {
		cancel(nil)
		return errors.New("the plugin process was not started")
	}
	defer s.stop(p)
	defer cancel(nil)
	err := p.Run(runCtx, func(rs []edgeplugin.Reading) { sink.Put(fromSDK(rs)) })
	if cause := context.Cause(runCtx); ctx.Err() == nil && cause != nil {
		return cause
	}
	return err
}

// Check is the service monitor's health check (SMNTR.sleep_interval):
// go-plugin's health service of the process. A process that has exited
// also ends the run, so the supervisor restarts the service.
func (s *south) Check(ctx context.Context) error {
	s.mu.Lock()
	p, cancel := s.proc, s.cancel
	s.mu.Unlock()
	if p == nil {
		return nil // between a run's end and the next start
	}
	if p.Exited() {
		err := fmt.Errorf("the process of plugin %q has exited", s.name)
		if cancel != nil {
			cancel(err)
		}
		return err
	}
	done := make(chan error, 1)
	go func() { done <- p.Ping() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("plugin %q failed its health check: %w", s.name, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("plugin %q did not answer its health check: %w", s.name, ctx.Err())
	}
}

// Close kills the process if Run did not (the service stopped between
// Open and Run).
func (s *south) Close() error {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p != nil {
		p.Kill()
	}
	return nil
}

// stop takes the state of a persisting plugin and kills the process.
func (s *south) stop(p *edgeplugin.Process) {
	defer p.Kill()
	s.mu.Lock()
	s.proc = nil
	s.mu.Unlock()
	s.kept.takeFrom(p, s.env.Logger, s.name)
}

// Reconfigure hands the running plugin its new configuration.
func (s *south) Reconfigure(cfg plugin.Config) error {
	s.mu.Lock()
	p := s.proc
	s.cfg = cfg
	s.mu.Unlock()
	if p == nil {
		return nil // the next start takes it
	}
	ctx, cancel := context.WithTimeout(context.Background(), callWait)
	defer cancel()
	return reconfigureError(p.Reconfigure(ctx, cfg))
}

// persistingSouth is a south instance of a plugin that keeps state.
type persistingSouth struct{ *south }

// Restore keeps the state for the process Open starts.
func (s *persistingSouth) Restore(state json.RawMessage) error { return s.kept.Restore(state) }

// State is the state the process reported when its run ended.
func (s *persistingSouth) State() (json.RawMessage, error) { return s.kept.State() }
