package service

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/system"
)

// runner supervises one started service: its plugin instance in a
// goroutine, restarted with backoff after a failure, and its ingest buffer,
// which outlives plugin restarts.
type runner struct {
	m    *Manager
	name string
	def  plugin.Definition
	buf  *ingest.Buffer

	cancel      context.CancelFunc // stops the supervisor
	unsubscribe func()             // ends the configuration subscription
	done        chan struct{}      // closed when the supervisor has stopped
	started     chan error         // receives the first attempt's outcome
	reconfig    chan reconfigure   // configuration changes for the supervisor

	// waiting are the acknowledgements of changes that restart the
	// plugin; they are closed once the next instance started (or failed
	// to). Only the supervisor's goroutine uses it.
	waiting []chan struct{}

	mu     sync.Mutex // guards status
	status string
}

// reconfigure is a configuration change handed to the supervisor; done is
// closed once the plugin applied it.
type reconfigure struct {
	cfg  plugin.Config
	done chan struct{}
}

func newRunner(m *Manager, name string, def plugin.Definition, limits ingest.Limits) *runner {
	return &runner{
		m: m, name: name, def: def,
		buf: ingest.New(ingest.Options{Service: name, Plugin: def.Name, Store: m.o.Store, Counters: m.o.Counters,
			Tracker: m.o.Tracker, Clock: m.o.Clock, Logger: m.log, Limits: limits, Observer: m.o.Observer}),
		done:     make(chan struct{}),
		started:  make(chan error, 1),
		reconfig: make(chan reconfigure),
		status:   system.StatusRunning,
	}
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

// onConfig is the configuration listener: the buffer takes new limits at
// once, the plugin its new configuration in the supervisor's goroutine. It
// returns once the plugin applied the change (a restart included), so the
// write that changed the configuration answers after it took effect; it
// waits at most StartWait.
func (r *runner) onConfig(_ context.Context, c configmgr.Category) error {
	cfg, limits := configOf(c)
	r.buf.SetLimits(limits)
	req := reconfigure{cfg: cfg, done: make(chan struct{})}
	t := r.m.o.Clock.NewTimer(r.m.o.StartWait)
	defer t.Stop()
	select {
	case r.reconfig <- req:
	case <-r.done:
		return nil
	case <-t.C():
		return fmt.Errorf("service %q did not take its new configuration within %v", r.name, r.m.o.StartWait)
	}
	select {
	case <-req.done:
		return nil
	case <-r.done:
		return nil
	case <-t.C():
		return fmt.Errorf("service %q did not apply its new configuration within %v", r.name, r.m.o.StartWait)
	}
}

// acknowledge closes the acknowledgements of restarting changes.
func (r *runner) acknowledge() {
	for _, ch := range r.waiting {
		close(ch)
	}
	r.waiting = nil
}

// errRestart ends a run so the next one starts at once with the current
// configuration.
var errRestart = errors.New("restart for a configuration change")

// supervise runs the plugin until ctx ends, restarting it with backoff
// after every failure.
func (r *runner) supervise(ctx context.Context) {
	defer close(r.done)
	defer r.acknowledge()
	m := r.m
	attempt := 0
	first := true
	// started reports the first attempt's outcome to the starter.
	started := func(err error) {
		if first {
			first = false
			r.started <- err
		}
	}
	defer started(nil) // stopped before it came up
	for {
		began := m.o.Clock.Now()
		err := r.runOnce(ctx, func() { started(nil) })
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errRestart) {
			m.log.Info("service plugin restarted for a configuration change", "service", r.name)
			continue
		}
		if err == nil {
			err = errors.New("the plugin stopped on its own")
		}
		r.setStatus(system.StatusFailed)
		m.log.Error("service failed", "service", r.name, "plugin", r.def.Name, "error", err)
		m.audit(ctx, auditFailed, severityFailure, map[string]any{"name": r.name, "plugin": r.def.Name, "error": err.Error()})
		started(err) // the starter sees the failure recorded
		if m.o.Clock.Now().Sub(began) >= m.o.Backoff.ResetAfter {
			attempt = 0
		}
		delay := m.o.Backoff.Delay(attempt)
		attempt++
		r.acknowledge() // the next attempt reads the configuration afresh
		t := m.o.Clock.NewTimer(delay)
	wait:
		for {
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case req := <-r.reconfig:
				close(req.done) // applies at the next attempt
			case <-t.C():
				break wait
			}
		}
	}
}

// runOnce creates, starts and runs one plugin instance until it fails, ctx
// ends (nil) or a configuration change needs a new instance (errRestart);
// up is called once the instance runs. A panic anywhere in the plugin is a
// failure.
func (r *runner) runOnce(ctx context.Context, up func()) (err error) {
	m := r.m
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("plugin panicked: %v", p)
			m.log.Error("plugin panic", "service", r.name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()

	cfg, _, err := m.serviceConfig(ctx, r.name)
	if err != nil {
		return err
	}
	inst, err := r.def.New(plugin.Env{Service: r.name, Clock: m.o.Clock, Logger: m.log.With("service", r.name)}, cfg)
	if err != nil {
		return fmt.Errorf("create plugin %q: %w", r.def.Name, err)
	}
	if p, ok := inst.(plugin.Persister); ok {
		data, err := m.o.Store.GetPluginData(ctx, r.name, r.name)
		switch {
		case err == nil:
			if err := p.Restore(data); err != nil {
				m.log.Warn("persisted plugin data not usable; starting afresh", "service", r.name, "error", err)
			}
		case !errors.Is(err, db.ErrNotFound):
			return fmt.Errorf("read persisted plugin data: %w", err)
		}
	}
	if o, ok := inst.(plugin.Opener); ok {
		if err := o.Open(ctx); err != nil {
			return err
		}
	}
	r.setStatus(system.StatusRunning)
	up()
	r.acknowledge()

	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	ended := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				m.log.Error("plugin panic", "service", r.name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				ended <- fmt.Errorf("plugin panicked: %v", p)
			}
		}()
		ended <- inst.Run(runCtx, r.buf)
	}()

	for {
		select {
		case err := <-ended:
			r.persist(ctx, inst)
			return err
		case req := <-r.reconfig:
			switch err := r.apply(inst, req.cfg); {
			case errors.Is(err, plugin.ErrRestart):
				r.waiting = append(r.waiting, req.done)
				stopRun()
				r.ended(<-ended)
				r.persist(ctx, inst)
				return errRestart
			case err != nil:
				m.log.Error("configuration change not applied to the plugin", "service", r.name, "error", err)
			}
			close(req.done)
		case <-ctx.Done():
			stopRun()
			r.ended(<-ended)
			r.persist(ctx, inst)
			return nil
		}
	}
}

// ended logs the error of a plugin that was asked to stop.
func (r *runner) ended(err error) {
	if err != nil {
		r.m.log.Warn("plugin reported an error while stopping", "service", r.name, "error", err)
	}
}

// apply calls the plugin's Reconfigure, turning a panic into an error.
func (r *runner) apply(inst plugin.South, cfg plugin.Config) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("plugin panicked in Reconfigure: %v", p)
		}
	}()
	return inst.Reconfigure(cfg)
}

// persist stores the state of a persisting plugin after it stopped.
func (r *runner) persist(ctx context.Context, inst plugin.South) {
	p, ok := inst.(plugin.Persister)
	if !ok {
		return
	}
	data, err := func() (data []byte, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("plugin panicked in State: %v", p)
			}
		}()
		return p.State()
	}()
	if err == nil {
		err = r.m.o.Store.SavePluginData(context.WithoutCancel(ctx), r.name, r.name, data)
	}
	if err != nil {
		r.m.log.Error("plugin state not persisted", "service", r.name, "error", err)
	}
}
