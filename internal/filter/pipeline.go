package filter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/stats"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Stage says where a pipeline runs.
type Stage int

// The stages a pipeline runs in.
const (
	// South pipelines run between a south plugin and the ingest buffer:
	// what they drop or change is never stored.
	South Stage = iota
	// North pipelines run between the buffer and a north plugin: they
	// change what is sent, not what is stored.
	North
)

// FilteredKey returns the name of the statistic counting the readings the
// pipeline of service dropped.
func FilteredKey(service string) string { return service + "-Filtered" }

// stage is one filter instance of a running pipeline.
type stage struct {
	name        string // the instance
	plugin      string
	persists    bool
	inst        plugin.Filter
	enabled     bool
	unsubscribe func()
}

// Pipeline is the running filter pipeline of one service. Its methods are
// safe for concurrent use; the filters run one batch at a time.
type Pipeline struct {
	m       *Manager
	service string
	stage   Stage
	log     *slog.Logger

	mu     sync.Mutex // guards stages and closed, and serialises the filters
	stages []*stage
	closed bool
}

// Empty reports whether the pipeline has no filter.
func (p *Pipeline) Empty() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.stages) == 0
}

// Names returns the instances of the pipeline, in order.
func (p *Pipeline) Names() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, len(p.stages))
	for i, s := range p.stages {
		out[i] = s.name
	}
	return out
}

// snapshot is the state of the persisting filters at one moment: their
// state documents, or the restore functions of those that take snapshots.
type snapshot struct {
	states   map[*stage]json.RawMessage
	restores []func()
}

// snapshot takes the state of every persisting filter; p.mu is held.
func (p *Pipeline) snapshot() snapshot {
	var snap snapshot
	for _, s := range p.stages {
		if sn, ok := s.inst.(plugin.Snapshotter); ok {
			snap.restores = append(snap.restores, sn.Snapshot())
			continue
		}
		per, ok := s.inst.(plugin.Persister)
		if !ok {
			continue
		}
		st, err := per.State()
		if err != nil {
			p.log.Warn("filter state not taken", "service", p.service, "filter", s.name, "error", err)
			continue
		}
		if snap.states == nil {
			snap.states = map[*stage]json.RawMessage{}
		}
		snap.states[s] = st
	}
	return snap
}

// rollback restores the filters to snap; p.mu is held.
func (p *Pipeline) rollback(snap snapshot) {
	for _, restore := range snap.restores {
		restore()
	}
	for s, st := range snap.states {
		if err := s.inst.(plugin.Persister).Restore(st); err != nil {
			p.log.Warn("filter state not restored", "service", p.service, "filter", s.name, "error", err)
		}
	}
}

// apply runs points through the enabled filters and tracks the assets each
// one passes on (Filter events). A panicking filter passes its input on
// unchanged and is logged: filtering must not stop ingest. p.mu is held.
func (p *Pipeline) apply(ctx context.Context, points []plugin.Point) []plugin.Point {
	for _, s := range p.stages {
		if !s.enabled || len(points) == 0 {
			continue
		}
		points = p.run(ctx, s, points)
		p.track(s, points)
	}
	return points
}

// run calls one filter, recovering a panic. A filter that fails (one in
// its own process that died) passes its batch on unfiltered, as one that
// panics does.
func (p *Pipeline) run(ctx context.Context, s *stage, in []plugin.Point) (out []plugin.Point) {
	defer func() {
		if r := recover(); r != nil {
			p.log.Error("filter panicked; its batch passed unfiltered", "service", p.service, "filter", s.name,
				"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			out = in
		}
	}()
	out, err := s.inst.Process(ctx, in)
	if err != nil {
		p.log.Error("filter failed; its batch passed unfiltered", "service", p.service, "filter", s.name, "error", err)
		return in
	}
	return out
}

// track records a Filter event for each asset a filter passed on.
func (p *Pipeline) track(s *stage, points []plugin.Point) {
	if p.m.o.Tracker == nil {
		return
	}
	var seen map[string]bool
	for _, pt := range points {
		if seen[pt.Asset] {
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[pt.Asset] = true
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := p.m.o.Tracker.Track(ctx, db.EventFilter, p.service, s.plugin, pt.Asset); err != nil {
			p.log.Error("asset tracking failed", "service", p.service, "filter", s.name, "asset", pt.Asset, "error", err)
		}
		cancel()
	}
}

// dropped counts readings the pipeline did not pass on.
func (p *Pipeline) dropped(n int) {
	if n <= 0 {
		return
	}
	c := p.m.o.Counters
	c.Add(FilteredKey(p.service), "Readings dropped by the filter pipeline of "+p.service, int64(n))
	if p.stage == North {
		c.Add(stats.Unsent, "Readings filtered out in the send process", int64(n))
	}
}

// transform runs decoded readings through the pipeline; p.mu is held.
func (p *Pipeline) transform(ctx context.Context, points []plugin.Point) ([]plugin.Point, []plugin.Reading, error) {
	points = p.apply(ctx, points)
	out, err := edgeplugin.Readings(points)
	return points, out, err
}

// Sink returns a sink that filters readings before handing them to next.
// Without filters it hands them over untouched.
func (p *Pipeline) Sink(next plugin.Sink) plugin.Sink { return &sink{p: p, next: next} }

type sink struct {
	p    *Pipeline
	next plugin.Sink
}

// Put filters readings and puts what is left.
func (s *sink) Put(readings []plugin.Reading) {
	p := s.p
	if p.Empty() || len(readings) == 0 {
		s.next.Put(readings)
		return
	}
	points := edgeplugin.Points(readings) // outside the lock: producers decode in parallel
	p.mu.Lock()
	defer p.mu.Unlock()
	// A Sink call has no context: a filter bounds its own waits (one in
	// its own process: a batch's round trip).
	_, out, err := p.transform(context.Background(), points)
	if err != nil {
		p.log.Error("filtered readings not encoded; discarded", "service", p.service, "error", err)
		return
	}
	p.dropped(len(readings) - len(out))
	if len(out) > 0 {
		s.next.Put(out)
	}
}

// SubmitAndWait is Submit followed by Wait on its receipt
// (plugin.DirectSink). With no filter in the pipeline it is the next
// sink's own SubmitAndWait where that has one, so a lone request can be
// written on its producer's goroutine.
func (s *sink) SubmitAndWait(ctx context.Context, readings []plugin.Reading) (bool, error) {
	if d, ok := s.next.(plugin.DirectSink); ok && (s.p.Empty() || len(readings) == 0) {
		return d.SubmitAndWait(ctx, readings)
	}
	rec, err := s.Submit(readings)
	if err != nil {
		return false, err
	}
	return true, rec.Wait(ctx)
}

// Submit filters readings and submits what is left as one unit. When the
// buffer refuses them the filters' state is rolled back, so that the
// producer's retry is filtered as if it came first.
func (s *sink) Submit(readings []plugin.Reading) (plugin.Receipt, error) {
	p := s.p
	if p.Empty() || len(readings) == 0 {
		return s.next.Submit(readings)
	}
	points := edgeplugin.Points(readings) // outside the lock: producers decode in parallel
	p.mu.Lock()
	defer p.mu.Unlock()
	snap := p.snapshot()
	_, out, err := p.transform(context.Background(), points)
	if err != nil {
		p.rollback(snap)
		return nil, err
	}
	rec, err := s.next.Submit(out)
	if err != nil {
		p.rollback(snap)
		return nil, err
	}
	p.dropped(len(readings) - len(out))
	return rec, nil
}

// North returns a north plugin that filters each block before out sends
// it. A block counts as sent up to the last reading whose outputs out
// accepted, so the stream position never passes a reading whose filtered
// form was not delivered; the filters' state then reflects exactly the
// readings counted sent.
func (p *Pipeline) North(out plugin.North) plugin.North { return &northFilter{p: p, out: out} }

type northFilter struct {
	p   *Pipeline
	out plugin.North
}

func (n *northFilter) Reconfigure(cfg plugin.Config) error { return n.out.Reconfigure(cfg) }

func (n *northFilter) Send(ctx context.Context, readings []plugin.Reading) (int, error) {
	p := n.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.stages) == 0 || len(readings) == 0 {
		return n.out.Send(ctx, readings)
	}
	snap := p.snapshot()
	points, out, err := p.transform(ctx, edgeplugin.Points(readings))
	if err != nil {
		p.rollback(snap)
		return 0, err
	}
	if len(out) == 0 {
		p.dropped(len(readings))
		return len(readings), nil
	}
	sent, err := n.out.Send(ctx, out)
	if sent >= len(out) {
		p.dropped(len(readings) - len(out))
		return len(readings), err
	}
	// Only the inputs before the one that produced the first undelivered
	// output are done: replay them alone so the state matches.
	done := max(0, points[max(sent, 0)].Origin)
	p.rollback(snap)
	if done > 0 {
		p.apply(ctx, edgeplugin.Points(readings[:done]))
	}
	p.dropped(done - max(sent, 0))
	if err == nil {
		err = errors.New("the destination accepted only part of a block")
	}
	return done, err
}

// Close stops the pipeline: its filters' state is persisted and it stops
// following configuration changes. Closing twice does nothing.
func (p *Pipeline) Close(ctx context.Context) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	stages := p.stages
	p.stages = nil
	p.mu.Unlock()
	p.m.unregister(p)
	for _, s := range stages {
		s.unsubscribe()
		p.m.persist(ctx, p.service, s)
		closeFilter(s.inst, p.log)
	}
}
