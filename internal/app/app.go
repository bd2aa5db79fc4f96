// Package app assembles the gateway: it opens storage, seeds configuration
// and statistics, builds the HTTP API and runs it until the context ends.
// It is the only package that imports impl/.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/impl"
	"github.com/edged/edged/internal/asset"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/auth"
	"github.com/edged/edged/internal/backup"
	"github.com/edged/edged/internal/catalogue"
	"github.com/edged/edged/internal/certstore"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/cors"
	"github.com/edged/edged/internal/directory"
	"github.com/edged/edged/internal/fleetconfig"
	"github.com/edged/edged/internal/logging"
	"github.com/edged/edged/internal/metrics"
	"github.com/edged/edged/internal/packages"
	"github.com/edged/edged/internal/portal"
	"github.com/edged/edged/internal/router"
	"github.com/edged/edged/internal/stats"
	"github.com/edged/edged/internal/supervisor"
	"github.com/edged/edged/internal/system"
	"github.com/edged/edged/internal/user"
)

// LogDir is the directory of the log file in the data directory.
const LogDir = "logs"

// Config is what a gateway is started with.
type Config struct {
	DataDir  string
	DB       string // empty: SQLite in DataDir; postgres://… : PostgreSQL
	Port     int    // 0: rest_api.httpPort
	SafeMode bool
	// Durability is what an acknowledged commit survives (db.Power when
	// empty).
	Durability    db.Durability
	AdminPassword string
	Version       string
	// DeleteTaskReadings is the number of readings above which a deletion
	// of readings (DELETE /edge/asset, /edge/asset/{code}) runs as a
	// background task and the call answers 202 at once (0:
	// asset.DefaultTaskThreshold).
	DeleteTaskReadings int64
	Logger             *slog.Logger
	// LogLevel is the level Logger filters with; it follows
	// LOGGING.logLevel (nil: the level is not adjustable).
	LogLevel *slog.LevelVar
	// LogLevelFixed keeps LogLevel as given at start (chosen on the
	// command line) instead of setting it from LOGGING.logLevel; later
	// changes of the item still apply.
	LogLevelFixed bool
	// Journal keeps the lines Logger logs (its handler feeds it) for GET
	// /edge/syslog and writes them to the log file in DataDir as LOGGING
	// says. nil: no lines are kept and no log file is written.
	Journal *logging.Journal
}

// Run starts the gateway and blocks until ctx is cancelled or a shutdown
// is requested through the API, then stops it cleanly (in-flight requests
// finish, tasks are cancelled, services stopped with their buffers flushed,
// FSTOP is audited, storage closed) and returns nil. A restart requested
// through the API stops the gateway the same way and starts it again in
// this process: storage re-opened, listeners re-opened, uptime from zero,
// services in their enabled state.
func Run(ctx context.Context, cfg Config) error {
	for {
		control := system.NewControl()
		if err := run(ctx, cfg, control); err != nil {
			return err
		}
		if control.Requested() != system.Restart {
			return nil
		}
		select {
		case <-ctx.Done(): // a signal during the restart ends it
			return nil
		default:
		}
		if cfg.Logger != nil {
			cfg.Logger.Info("edged restarting")
		}
	}
}

// run is one run of the gateway, until ctx ends or control carries a
// shutdown or restart request.
func run(ctx context.Context, cfg Config, control *system.Control) error {
	g, err := New(ctx, cfg, control)
	if err != nil {
		return err
	}
	defer g.Close()
	log := g.log
	ln, err := listen(ctx, g.tr, g.certs, log)
	if err != nil {
		return err
	}
	srv := newServer(g.handler, log, apiTimeouts)
	if err := g.audit.Record(ctx, auditcode.Start, audit.Information, map[string]any{
		"version": cfg.Version, "safeMode": cfg.SafeMode, "storage": string(g.store.Dialect()),
	}); err != nil {
		log.Error("audit START", "error", err)
	}
	log.Info("edged listening", "address", ln.Addr().String(), "https", g.tr.HTTPS, "storage", g.store.Dialect(),
		"data", cfg.DataDir, "safe_mode", cfg.SafeMode, "version", cfg.Version)

	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	g.Start(ctx)
	// also when serving fails
	defer g.svc.stop(context.WithoutCancel(ctx))
	defer g.jobs.stop(context.WithoutCancel(ctx))

	select {
	case <-ctx.Done():
	case a := <-control.Done():
		log.Info("edged " + a.String() + " requested")
	case err := <-serveErr:
		return fmt.Errorf("serve HTTP: %w", err)
	}
	log.Info("edged stopping")
	stopInStages(ctx, log, g.stopStages(func(ctx context.Context) {
		if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("HTTP shutdown", "error", err)
		}
	}))
	return nil
}

// Gateway is one run of the gateway, assembled: storage open, migrated and
// seeded, the runtime wired, its schedules seeded and the HTTP API built.
// Nothing listens and no service or task runs until Start. Run assembles
// one per run; tests of the API assemble one the same way and call its
// Handler in process.
type Gateway struct {
	cfg     Config
	log     *slog.Logger
	started time.Time
	store   *db.DB
	certs   *certstore.Store
	tr      transport
	audit   *audit.Logger
	svc     *services
	jobs    *tasks
	pkgs    *packages.Manager
	handler http.Handler
	assets  *asset.Service
	// closers release what New opened, run last to first by Close.
	closers []func()
}

// New assembles a gateway from cfg whose API carries shutdown and restart
// requests to control. Close releases it; on error, what was opened is
// released already.
func New(ctx context.Context, cfg Config, control *system.Control) (_ *Gateway, err error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g := &Gateway{cfg: cfg, log: log, started: time.Now()}
	defer func() {
		if err != nil {
			g.Close()
		}
	}()
	started := g.started

	certs := certstore.New(cfg.DataDir)
	g.certs = certs
	if err := secureDataDir(cfg.DataDir, certs); err != nil {
		return nil, err
	}
	durability := cfg.Durability
	if durability == "" {
		durability = db.Power
	}
	store, err := db.OpenDurable(ctx, cfg.DB, cfg.DataDir, durability)
	if err != nil {
		return nil, fmt.Errorf("open storage: %w", err)
	}
	g.store = store
	g.onClose(func() {
		if err := store.Close(); err != nil {
			log.Error("close storage", "error", err)
		}
	})

	auditLog := audit.New(store, log)
	g.audit = auditLog
	// A restore asked for before this start replaces the stored state
	// before anything reads it.
	backup.ApplyPending(ctx, cfg.DataDir, store, auditLog, log.With("component", "backup"))
	config := configmgr.New(store, auditLog, log)
	if err := config.Seed(ctx); err != nil {
		return nil, fmt.Errorf("seed configuration: %w", err)
	}
	if cfg.LogLevel != nil {
		unfollow, err := logging.Follow(ctx, config, cfg.LogLevel, cfg.LogLevelFixed, log)
		if err != nil {
			return nil, err
		}
		g.onClose(unfollow)
	}
	if cfg.Journal != nil {
		unfollow, err := logging.FollowFile(ctx, config, cfg.Journal, filepath.Join(cfg.DataDir, LogDir), log)
		if err != nil {
			return nil, err
		}
		g.onClose(unfollow)
	}
	if err := store.EnsureStatistics(ctx, stats.Fixed()...); err != nil {
		return nil, fmt.Errorf("seed statistics: %w", err)
	}
	if err := user.EnsureAdmin(ctx, store, auditLog, log, cfg.DataDir, cfg.AdminPassword); err != nil {
		return nil, err
	}

	authSettings, err := user.WatchConfig(ctx, config)
	if err != nil {
		return nil, err
	}
	g.onClose(authSettings.Close)
	ldapSettings, err := directory.Watch(ctx, config)
	if err != nil {
		return nil, err
	}
	g.onClose(ldapSettings.Close)
	users := user.NewService(user.Options{
		Store: store, Audit: auditLog, Settings: authSettings, CAs: certs, Logger: log,
		Directory: directory.NewClient(ldapSettings.Settings, certs),
	})
	authz := auth.New(users, authSettings, log)
	tr, err := chooseTransport(ctx, config, cfg.Port)
	if err != nil {
		return nil, err
	}
	g.tr = tr
	if !authSettings.Settings().Mandatory {
		log.Warn("authentication is optional: callers without a token may read the configuration, services and readings and change ordinary configuration (never packages, keys, users or the process); " +
			"to require a token for every call, log in as admin and set rest_api.authentication to mandatory (PUT /edge/category/rest_api/authentication {\"value\":\"mandatory\"})")
	}
	if !tr.HTTPS && authSettings.Settings().Mandatory {
		log.Warn("authentication is mandatory but the API is served over plain HTTP: tokens and passwords cross the network in clear; set rest_api.enableHttp to false for HTTPS")
	}

	monitor, err := supervisor.WatchConfig(ctx, config)
	if err != nil {
		return nil, err
	}
	g.onClose(monitor.Close)
	watchCtx, stopWatch := context.WithCancel(ctx)
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		system.WatchStorage(watchCtx, store, func() time.Duration { return monitor.Settings().Interval }, clock.Real{}, log)
	}()
	g.onClose(func() { stopWatch(); <-watchDone })
	obs := metrics.New(log)
	svc := newServices(store, config, auditLog, log, monitor, cfg.SafeMode, tr.Port, obs)
	g.svc = svc
	if err := svc.load(ctx); err != nil {
		return nil, err
	}
	obs.ReadFrom(metrics.Sources{Statistics: svc.m, Services: serviceList{svc.m}, Streams: store,
		Storage: store, StorageErrors: db.Failures})
	counted := countedStore{DB: store, counters: svc.counters}
	jobs := newTasks(store, counted, config, auditLog, log, svc.counters.Flush, cfg.SafeMode)
	g.jobs = jobs
	svc.m.SetSchedulesChanged(jobs.sched.Notify) // enable/disable reaches task schedules at once
	wireNorth(svc, jobs.sched)
	backups := backup.New(backup.Options{DataDir: cfg.DataDir, Store: store, Config: config, Audit: auditLog,
		Logger: log.With("component", "backup"), Version: cfg.Version, Trigger: jobs.triggerBackup})
	jobs.sched.Register(backup.ProcessName, backups.Run)
	instanceName, err := config.Watch(ctx, configmgr.CategoryService, configmgr.ItemServiceName)
	if err != nil {
		return nil, fmt.Errorf("read the instance name: %w", err)
	}
	g.onClose(instanceName.Close)
	instanceDescription, err := config.Watch(ctx, configmgr.CategoryService, configmgr.ItemServiceDescription)
	if err != nil {
		return nil, fmt.Errorf("read the instance description: %w", err)
	}
	g.onClose(instanceDescription.Close)
	pkgs := packages.New(packages.Options{Dir: filepath.Join(cfg.DataDir, "packages"), Config: config, Store: store,
		Audit: auditLog, Plugins: svc.plugins, Filters: svc.filters, Tasks: svc.north, Restart: restarter{svc.m}, Clock: clock.Real{}, Logger: log.With("component", "packages")})
	g.pkgs = pkgs
	pkgs.Load(ctx) // before services start, so those of installed plugins find them
	assets := asset.New(counted, auditLog, clock.Real{}, log)
	assets.EnableTasks(store, cfg.DeleteTaskReadings)
	g.assets = assets
	api := impl.New(impl.Deps{
		Packages:      pkgs,
		Catalogue:     catalogue.New(svc.plugins),
		Store:         store,
		Totals:        svc.counters,
		InstanceName:  instanceName,
		InstanceDesc:  instanceDescription,
		AuthSettings:  authSettings,
		Host:          system.NewHost(),
		Config:        config,
		Audit:         auditLog,
		Users:         users,
		Assets:        assets,
		Services:      svc.m,
		North:         svc.north,
		Filters:       svc.filters,
		Notifications: svc.notes,
		Fleet:         fleetconfig.New(fleetconfig.Gateway(config, svc.m, svc.filters, svc.notes, users)),
		Tasks:         jobs.sched,
		History:       jobs.history,
		Control:       control,
		Logger:        log,
		Version:       cfg.Version,
		SafeMode:      cfg.SafeMode,
		Started:       started,
		Metrics:       obs,
		Logs:          cfg.Journal,
		Backups:       backups,
	})
	origins, err := cors.Watch(ctx, config, log)
	if err != nil {
		return nil, err
	}
	g.onClose(origins.Close)
	handler, err := Handler(api, log, authz.Authorize, api.RefusedCall, origins.Allow, obs.Request)
	if err != nil {
		return nil, err
	}
	g.handler = handler

	// The gateway's schedules exist before the API answers.
	if err := jobs.seed(ctx); err != nil {
		return nil, err
	}
	return g, nil
}

// onClose adds f to what Close runs.
func (g *Gateway) onClose(f func()) { g.closers = append(g.closers, f) }

// Handler returns the HTTP handler of the gateway's API, the one Run
// serves: routing, validation, authorisation and the handlers.
func (g *Gateway) Handler() http.Handler { return g.handler }

// Start starts the enabled services and, unless in safe mode, the
// scheduler. A part that does not start is logged; the API answers
// regardless.
func (g *Gateway) Start(ctx context.Context) {
	if err := g.svc.start(ctx); err != nil {
		g.log.Error("services not started", "error", err)
	}
	if err := g.jobs.start(ctx); err != nil {
		g.log.Error("scheduler not started", "error", err)
	}
}

// Stop stops what Start started as a clean stop does (tasks cancelled,
// package installs ended, services drained) and audits FSTOP. The API
// still answers; Close releases the rest.
func (g *Gateway) Stop(ctx context.Context) {
	stopInStages(ctx, g.log, g.stopStages(func(context.Context) {}))
}

// stopStages are the stages of a clean stop, the API's (stopAPI) first.
// Readings deletions running as tasks end with the scheduler's tasks, in
// the tasks' stage and budget.
func (g *Gateway) stopStages(stopAPI func(context.Context)) []stage {
	tasks := func(ctx context.Context) {
		g.jobs.stop(ctx)
		if g.assets != nil {
			g.assets.Stop(ctx)
		}
	}
	return stopStages(stopAPI, tasks, g.pkgs.Stop, g.svc.stop, func(ctx context.Context) {
		if err := g.audit.Record(ctx, auditcode.Shutdown, audit.Information, map[string]any{
			"uptimeSeconds": int64(time.Since(g.started).Seconds()),
		}); err != nil {
			g.log.Error("audit FSTOP", "error", err)
		}
	})
}

// Close releases what New opened, storage last. Call it after Stop (or
// when Start was never called).
func (g *Gateway) Close() {
	for i := len(g.closers) - 1; i >= 0; i-- {
		g.closers[i]()
	}
	g.closers = nil
}

// Handler builds the HTTP handler of the API: the validating router with the
// generated routes bound to api, each call authorised by authorize first,
// calls refused before their handler reported to refused (see
// router.Options.Refused; nil: to nobody), cross-origin requests decided by
// allowOrigin. observe, when set, is told of every request answered (see
// router.Options.Observe).
func Handler(api gen.StrictServerInterface, log *slog.Logger, authorize func(*http.Request, router.Operation) (context.Context, error),
	refused func(*http.Request, router.Operation, error),
	allowOrigin func(origin string) (string, bool), observe func(operation string, status int, d time.Duration)) (http.Handler, error) {
	spec, err := gen.GetSpec()
	if err != nil {
		return nil, fmt.Errorf("load embedded OpenAPI spec: %w", err)
	}
	writeError := impl.ErrorWriter(log)
	rt := router.New(router.Options{Spec: spec, WriteError: writeError, Logger: log, Authorize: authorize, Refused: refused,
		AllowOrigin: allowOrigin, Observe: observe})
	specJSON, err := gen.GetSpecJSON()
	if err != nil {
		return nil, fmt.Errorf("load embedded OpenAPI spec: %w", err)
	}
	docs, err := portal.New(specJSON)
	if err != nil {
		return nil, err
	}
	docs.Register(rt.Unvalidated()) // /edge/docs, /edge/openapi.{yaml,json}: outside the contract, public
	return gen.HandlerWithOptions(
		gen.NewStrictHandlerWithOptions(api, nil, impl.StrictOptions(writeError)),
		gen.ChiServerOptions{BaseRouter: rt, ErrorHandlerFunc: impl.ParamErrorHandler(writeError)},
	), nil
}

// Store returns the gateway's storage, for tests and tools that seed it
// (readings, say) the way the runtime would.
func (g *Gateway) Store() *db.DB { return g.store }
