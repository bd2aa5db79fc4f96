package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/north"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/builtin"
	"github.com/edged/edged/internal/service"
)

// statsFlushInterval is how often in-memory counters reach storage (reads
// of the statistics flush them too).
const statsFlushInterval = time.Second

// services is the service runtime with its shared counters.
type services struct {
	m        *service.Manager
	plugins  *plugin.Registry
	north    *north.Runtime
	counters *ingest.Counters
	log      *slog.Logger
	stopLoop context.CancelFunc
	loopDone chan struct{}
}

// newServices wires the service runtime over store; nothing runs until
// start.
func newServices(store *db.DB, config *configmgr.Manager, auditLog *audit.Logger, log *slog.Logger, safeMode bool, port int) *services {
	clk := clock.Real{}
	counters := ingest.NewCounters(store, log)
	tracker := ingest.NewTracker(store, func(ctx context.Context) (string, error) {
		return config.Value(ctx, configmgr.CategoryService, configmgr.ItemServiceName)
	}, clk)
	plugins := builtin.Registry()
	nr := north.New(north.Options{Store: store, Config: config, Audit: auditLog, Plugins: plugins, Counters: counters,
		Tracker: tracker, Clock: clk, Logger: log.With("component", "north")})
	m := service.New(service.Options{
		Store: store, Config: config, Audit: auditLog, Plugins: plugins, Counters: counters,
		Tracker: tracker, Clock: clk, Logger: log, SafeMode: safeMode, CorePort: port, North: nr,
	})
	return &services{m: m, plugins: plugins, north: nr, counters: counters, log: log}
}

// start flushes counters periodically from now on and starts the enabled
// services.
func (s *services) start(ctx context.Context) error {
	loopCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.stopLoop, s.loopDone = cancel, make(chan struct{})
	go func() {
		defer close(s.loopDone)
		s.counters.Run(loopCtx, clock.Real{}, statsFlushInterval)
	}()
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
