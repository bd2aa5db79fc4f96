package service

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/supervisor"
)

// runner is one started service: its plugin instance, run and restarted
// by a supervisor (internal/supervisor), and its ingest buffer, which
// outlives plugin restarts.
type runner struct {
	m    *Manager
	name string
	def  plugin.Definition
	buf  *ingest.Buffer

	sup         *supervisor.Supervisor
	unsubscribe func()           // ends the configuration subscription
	reconfig    chan reconfigure // configuration changes for the running attempt

	// waiting are the acknowledgements of changes that restart the
	// plugin; they are closed once the next instance started (or failed
	// to). Only the supervisor's goroutine uses it.
	waiting []chan struct{}

	mu   sync.Mutex   // guards inst
	inst plugin.South // the running instance; nil between attempts
}

// reconfigure is a configuration change handed to the running attempt;
// done is closed once the plugin applied it.
type reconfigure struct {
	cfg  plugin.Config
	done chan struct{}
}

func newRunner(m *Manager, name string, def plugin.Definition, limits ingest.Limits) *runner {
	r := &runner{
		m: m, name: name, def: def,
		buf: ingest.New(ingest.Options{Service: name, Plugin: def.Name, Store: m.o.Store, Counters: m.o.Counters,
			Tracker: m.o.Tracker, Clock: m.o.Clock, Logger: m.log, Limits: limits,
			Observer: m.o.Observer, Listener: m.o.Listener}),
		reconfig: make(chan reconfigure),
	}
	u := supervisor.Unit{Kind: "service", Name: name, Plugin: def.Name, Run: r.attempt, Pending: r.pending}
	if def.Checks {
		u.Check = r.check
	}
	r.sup = supervisor.New(supervisor.Options{Clock: m.o.Clock, Logger: m.log, Backoff: m.o.Backoff,
		Settings: m.o.Monitor, Audit: func(ctx context.Context, source, severity string, details any) {
			m.audit(ctx, source, severity, details)
		}}, u)
	return r
}

// start starts supervising the plugin.
func (r *runner) start(ctx context.Context) { r.sup.Start(ctx) }

// status returns the service's status.
func (r *runner) status() string { return r.sup.Status() }

// onConfig is the configuration listener: the buffer takes new limits at
// once, the plugin its new configuration in the running attempt. It
// returns once the plugin applied the change (a restart included), so the
// write that changed the configuration answers after it took effect; it
// waits at most StartWait. Between attempts there is nothing to hand over:
// the next attempt reads the configuration afresh.
func (r *runner) onConfig(_ context.Context, c configmgr.Category) error {
	cfg, limits := configOf(c)
	r.buf.SetLimits(limits)
	req := reconfigure{cfg: cfg, done: make(chan struct{})}
	t := r.m.o.Clock.NewTimer(r.m.o.StartWait)
	defer t.Stop()
	select {
	case r.reconfig <- req:
	case <-r.sup.Idle():
		return nil
	case <-t.C():
		return fmt.Errorf("service %q did not take its new configuration within %v", r.name, r.m.o.StartWait)
	}
	select {
	case <-req.done:
		return nil
	case <-r.sup.Done():
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

// attempt is the supervisor's unit: one run of the plugin. A change that
// was waiting for a restart is acknowledged when the attempt fails too,
// since the next attempt reads the configuration afresh.
func (r *runner) attempt(ctx context.Context, up func()) error {
	err := r.runOnce(ctx, up)
	if !errors.Is(err, supervisor.ErrRestart) {
		r.acknowledge()
	}
	return err
}

// pending says why a Readier instance is not ready yet.
func (r *runner) pending() string {
	r.mu.Lock()
	inst := r.inst
	r.mu.Unlock()
	if rd, ok := inst.(plugin.Readier); ok {
		return rd.NotReady()
	}
	return ""
}

// check is the health check of a plugin whose instances are Checkers;
// between attempts there is nothing to check.
func (r *runner) check(ctx context.Context) error {
	r.mu.Lock()
	inst := r.inst
	r.mu.Unlock()
	if c, ok := inst.(plugin.Checker); ok {
		return c.Check(ctx)
	}
	return nil
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
	if c, ok := inst.(plugin.Closer); ok {
		defer func() {
			if err := c.Close(); err != nil {
				m.log.Warn("plugin instance not closed cleanly", "service", r.name, "error", err)
			}
		}()
	}
	r.mu.Lock()
	r.inst = inst
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inst = nil
		r.mu.Unlock()
	}()
	var sink plugin.Sink = r.buf
	if m.o.Filters != nil {
		pipe, err := m.o.Filters.Open(ctx, r.name, filter.South)
		if err != nil {
			return fmt.Errorf("filter pipeline: %w", err)
		}
		defer pipe.Close(ctx) // persists the filters' state
		sink = pipe.Sink(r.buf)
	}
	// A Readier is up once ready, while it runs; any other instance now.
	// Either has taken the changes that waited for a new instance.
	var ready <-chan struct{}
	if rd, ok := inst.(plugin.Readier); ok {
		ready = rd.Ready()
	} else {
		up()
	}
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
		ended <- inst.Run(runCtx, sink)
	}()

	for {
		select {
		case <-ready:
			ready = nil
			up()
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
				return supervisor.ErrRestart
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
