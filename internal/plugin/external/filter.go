package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// ingestWait bounds one batch's round trip through a filter process, so a
// hung plugin cannot hold its service's readings.
const ingestWait = 30 * time.Second

// extFilter is an instance of an external filter plugin: one process from
// its creation to Close. A process that dies is started again, with the
// last configuration and state, for the next batch.
type extFilter struct {
	*launcher
	env plugin.FilterEnv

	mu    sync.Mutex
	cfg   plugin.Config
	state json.RawMessage
	proc  *edgeplugin.Process
	// failedAt is when the last start failed; a new start waits a
	// backoff from it so a broken plugin is not relaunched per batch.
	failedAt time.Time
	backoff  time.Duration
	closed   bool
}

// filterRestartMax bounds the wait between starts of a filter process
// that keeps failing.
const filterRestartMax = 30 * time.Second

func newFilter(ctx context.Context, l *launcher, env plugin.FilterEnv, cfg plugin.Config) (*extFilter, error) {
	f := &extFilter{launcher: l, env: env, cfg: cfg}
	p, err := l.start(ctx, service(env), cfg, nil)
	if err != nil {
		return nil, err
	}
	f.proc = p
	return f, nil
}

// service is what a filter process is told it serves: its instance.
func service(env plugin.FilterEnv) string {
	if env.Instance != "" {
		return env.Instance
	}
	return env.Service
}

// Process passes points through the plugin. When the plugin fails (its
// process died, or it answered an error), Process returns the error; the
// pipeline passes that batch on unfiltered and logs it, and the next batch
// goes to a new process. A batch's round trip takes at most ingestWait.
func (f *extFilter) Process(ctx context.Context, points []plugin.Point) ([]plugin.Point, error) {
	p, err := f.process()
	if err != nil {
		return nil, err
	}
	in, err := edgeplugin.Readings(points)
	if err != nil {
		return nil, fmt.Errorf("filter %q: %w", f.name, err)
	}
	ctx, cancel := context.WithTimeout(ctx, ingestWait)
	defer cancel()
	rs, err := p.Ingest(ctx, in)
	if err != nil {
		if p.Exited() || p.Ping() != nil {
			f.drop(p)
		}
		return nil, fmt.Errorf("filter plugin %q: %w", f.name, err)
	}
	out := make([]plugin.Point, len(rs))
	for i, r := range rs {
		// A filter that keeps one reading per reading keeps each one's
		// origin; otherwise which input produced an output is unknown,
		// so a north destination that takes only part of the outputs has
		// the whole batch sent again (never a reading lost).
		origin := 0
		if len(rs) == len(points) {
			origin = points[i].Origin
		}
		out[i] = plugin.Point{Asset: r.Asset, Timestamp: r.Timestamp.UTC(), Values: edgeplugin.DecodeValues(r.Values), Origin: origin}
	}
	return out, nil
}

// process returns the running process, starting a new one when the last
// one died (not sooner than the backoff after a failed start).
func (f *extFilter) process() (*edgeplugin.Process, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.closed:
		return nil, errors.New("the filter instance is closed")
	case f.proc != nil && !f.proc.Exited():
		return f.proc, nil
	}
	if f.proc != nil {
		f.proc.Kill()
		f.proc = nil
	}
	if !f.failedAt.IsZero() && f.env.Clock.Now().Sub(f.failedAt) < f.backoff {
		return nil, fmt.Errorf("filter plugin %q is not running; starting it again after %s", f.name, f.backoff)
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopWait)
	defer cancel()
	p, err := f.start(ctx, service(f.env), f.cfg, f.state)
	if err != nil {
		f.failedAt = f.env.Clock.Now()
		f.backoff = min(max(2*f.backoff, time.Second), filterRestartMax)
		return nil, err
	}
	f.env.Logger.Info("filter plugin process started again", "plugin", f.name)
	f.proc, f.failedAt, f.backoff = p, time.Time{}, 0
	return p, nil
}

// drop forgets p, a process that no longer answers, killing it.
func (f *extFilter) drop(p *edgeplugin.Process) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.proc == p {
		f.proc.Kill()
		f.proc = nil
	}
}

// Reconfigure hands the plugin its new configuration.
func (f *extFilter) Reconfigure(cfg plugin.Config) error {
	f.mu.Lock()
	p := f.proc
	f.mu.Unlock()
	if p == nil {
		f.mu.Lock()
		f.cfg = cfg
		f.mu.Unlock()
		return nil // the next start takes it
	}
	ctx, cancel := context.WithTimeout(context.Background(), callWait)
	defer cancel()
	if err := reconfigureError(p.Reconfigure(ctx, cfg)); err != nil {
		return err
	}
	f.mu.Lock()
	f.cfg = cfg
	f.mu.Unlock()
	return nil
}

// Close kills the process.
func (f *extFilter) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	if f.proc != nil {
		f.proc.Kill()
		f.proc = nil
	}
	return nil
}

// persistingFilter is an instance of a filter plugin that keeps state.
type persistingFilter struct{ *extFilter }

// State asks the plugin for its state.
func (f *persistingFilter) State() (json.RawMessage, error) {
	f.mu.Lock()
	p, state := f.proc, f.state
	f.mu.Unlock()
	if p == nil {
		if state == nil {
			return nil, errors.New("the filter process is not running")
		}
		return state, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopWait)
	defer cancel()
	return p.State(ctx)
}

// Restore starts the plugin again with state.
func (f *persistingFilter) Restore(state json.RawMessage) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.state = state
	if f.proc != nil {
		f.proc.Kill()
		f.proc = nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopWait)
	defer cancel()
	p, err := f.start(ctx, service(f.env), f.cfg, state)
	if err != nil {
		return err
	}
	f.proc = p
	return nil
}
