package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/metrics"
	"github.com/edged/edged/internal/north"
	"github.com/edged/edged/internal/notification"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/builtin"
	"github.com/edged/edged/internal/service"
	"github.com/edged/edged/internal/supervisor"
)

// statsFlushInterval is how often in-memory counters reach storage (reads
// of the statistics flush them too).
const statsFlushInterval = time.Second

// services is the service runtime with its shared counters.
type services struct {
	store    *db.DB
	m        *service.Manager
	plugins  *plugin.Registry
	north    *north.Runtime
	filters  *filter.Manager
	notes    *notification.Manager
	counters *ingest.Counters
	log      *slog.Logger
	stopLoop context.CancelFunc
	loopDone chan struct{}
}

// newServices wires the service runtime over store; nothing runs until
// start.
func newServices(store *db.DB, config *configmgr.Manager, auditLog *audit.Logger, log *slog.Logger, monitor supervisor.Source,
	safeMode bool, port int, obs *metrics.Metrics) *services {
	clk := clock.Real{}
	counters := ingest.NewCounters(store, log)
	tracker := ingest.NewTracker(store, func(ctx context.Context) (string, error) {
		return config.Value(ctx, configmgr.CategoryService, configmgr.ItemServiceName)
	}, clk)
	plugins := builtin.Registry()
	pipelines, err := filter.New(filter.Options{Store: store, Config: config, Plugins: plugins,
		Counters: counters, Tracker: tracker, Clock: clk, Logger: log.With("component", "filter")})
	if err != nil {
		panic(err) // only without a registry
	}
	nr := north.New(north.Options{Store: store, Config: config, Audit: auditLog, Plugins: plugins,
		Tracker: tracker, Clock: clk, Logger: log.With("component", "north"), Monitor: monitor, Filters: pipelines,
		SendErrors: obs})
	m := service.New(service.Options{
		Store: store, Config: config, Audit: auditLog, Plugins: plugins, Counters: counters,
		Tracker: tracker, Clock: clk, Logger: log, SafeMode: safeMode, CorePort: port, North: nr, Monitor: monitor, Filters: pipelines,
		Observer: obs,
	})
	notes := notification.New(notification.Options{Config: config, Store: store, Audit: auditLog, Services: m,
		Logger: log.With("component", "notification")})
	m.SetListener(notes.Feed())
	m.SetHostedStarted(notes.Started)
	auditLog.SetListener(notes.Feed().Audited)
	return &services{store: store, m: m, plugins: plugins, north: nr, filters: pipelines, notes: notes, counters: counters, log: log}
}

// serviceList shows the services to the metrics.
type serviceList struct{ m *service.Manager }

func (l serviceList) Services(ctx context.Context) ([]metrics.Service, error) {
	recs, err := l.m.Records(ctx, "")
	if err != nil {
		return nil, err
	}
	out := make([]metrics.Service, len(recs))
	for i, r := range recs {
		out[i] = metrics.Service{Name: r.Name, Type: r.Type, Status: r.Status}
	}
	return out, nil
}

func (l serviceList) BufferDepths() map[string]int { return l.m.BufferDepths() }

// start flushes counters periodically from now on and starts the enabled
// services.
func (s *services) start(ctx context.Context) error {
	loopCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.stopLoop, s.loopDone = cancel, make(chan struct{})
	go func() {
		defer close(s.loopDone)
		s.counters.Run(loopCtx, clock.Real{}, statsFlushInterval)
	}()
	go s.notes.Feed().Run(loopCtx, s.counters.Totals)
	if err := s.notes.Start(loopCtx); err != nil {
		s.log.Error("notification instances not loaded", "error", err)
	}
	return s.m.Start(ctx)
}

// stop stops every service cleanly (buffers drained, plugin state
// persisted), then writes the counters a last time.
func (s *services) stop(ctx context.Context) {
	s.m.Shutdown(ctx)
	if s.stopLoop != nil {
		s.stopLoop()
		<-s.loopDone
	}
}

// load reads what the counters and the north runtime keep in memory from
// storage: the statistics' values (ping's figures) and what each north
// service and task sent.
func (s *services) load(ctx context.Context) error {
	if err := s.counters.Load(ctx, s.store); err != nil {
		return err
	}
	return s.north.Load(ctx)
}

// countedStore is the storage given to what adds to statistics outside the
// in-memory counters (the purges): every addition that commits is told to
// the counters too, so their totals, which ping reports, stay exact.
type countedStore struct {
	*db.DB
	counters *ingest.Counters
}

// AddStatistics adds deltas in storage and, once committed, to the
// counters' totals.
func (c countedStore) AddStatistics(ctx context.Context, deltas map[string]int64) error {
	if err := c.DB.AddStatistics(ctx, deltas); err != nil {
		return err
	}
	c.counters.Committed(deltas)
	return nil
}

// restarter restarts a service by disabling and enabling its schedule, so
// it runs the plugin the registry now holds (a package's new version).
type restarter struct{ m *service.Manager }

func (r restarter) Restart(ctx context.Context, name string) error {
	sel := service.ScheduleSelector{Name: name}
	if _, err := r.m.SetScheduleEnabled(ctx, sel, false); err != nil {
		return err
	}
	_, err := r.m.SetScheduleEnabled(ctx, sel, true)
	return err
}
