// Package app assembles the gateway: it opens storage, seeds configuration
// and statistics, builds the HTTP API and runs it until the context ends.
// It is the only package that imports impl/.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/impl"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/router"
	"github.com/edged/edged/internal/stats"
	"github.com/edged/edged/internal/user"
)

// Config is what a gateway is started with.
type Config struct {
	DataDir       string
	DB            string // empty: SQLite in DataDir; postgres://… : PostgreSQL
	Port          int    // 0: rest_api.httpPort
	SafeMode      bool
	AdminPassword string
	Version       string
	Logger        *slog.Logger
}

// shutdownGrace bounds how long in-flight requests may take at stop.
const shutdownGrace = 10 * time.Second

// Run starts the gateway and blocks until ctx is cancelled, then stops it
// cleanly (in-flight requests finish, FSTOP is audited, storage closed).
func Run(ctx context.Context, cfg Config) error {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	started := time.Now()

	store, err := db.Open(ctx, cfg.DB, cfg.DataDir)
	if err != nil {
		return fmt.Errorf("open storage: %w", err)
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("close storage", "error", err)
		}
	}()

	auditLog := audit.New(store, log)
	config := configmgr.New(store, auditLog, log)
	if err := config.Seed(ctx); err != nil {
		return fmt.Errorf("seed configuration: %w", err)
	}
	if err := store.EnsureStatistics(ctx, stats.Fixed()...); err != nil {
		return fmt.Errorf("seed statistics: %w", err)
	}
	if err := user.EnsureAdmin(ctx, store, auditLog, log, cfg.DataDir, cfg.AdminPassword); err != nil {
		return err
	}

	port := cfg.Port
	if port == 0 {
		v, err := config.Value(ctx, configmgr.CategoryRESTAPI, configmgr.ItemHTTPPort)
		if err != nil {
			return fmt.Errorf("read rest_api.httpPort: %w", err)
		}
		if port, err = strconv.Atoi(v); err != nil {
			return fmt.Errorf("rest_api.httpPort %q is not a port: %w", v, err)
		}
	}

	api := impl.New(impl.Deps{
		Store:    store,
		Config:   config,
		Audit:    auditLog,
		Logger:   log,
		Version:  cfg.Version,
		SafeMode: cfg.SafeMode,
		Started:  started,
	})
	handler, err := Handler(api, log)
	if err != nil {
		return err
	}

	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return fmt.Errorf("listen on port %d: %w", port, err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if err := auditLog.Record(ctx, "START", audit.Information, map[string]any{
		"version": cfg.Version, "safeMode": cfg.SafeMode, "storage": string(store.Dialect()),
	}); err != nil {
		log.Error("audit START", "error", err)
	}
	log.Info("edged listening", "address", ln.Addr().String(), "storage", store.Dialect(),
		"data", cfg.DataDir, "safe_mode", cfg.SafeMode, "version", cfg.Version)

	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()

	select {
	case <-ctx.Done():
	case err := <-serveErr:
		return fmt.Errorf("serve HTTP: %w", err)
	}
	log.Info("edged stopping")
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(stopCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("HTTP shutdown", "error", err)
	}
	if err := auditLog.Record(stopCtx, "FSTOP", audit.Information, map[string]any{
		"uptimeSeconds": int64(time.Since(started).Seconds()),
	}); err != nil {
		log.Error("audit FSTOP", "error", err)
	}
	return nil
}

// Handler builds the HTTP handler of the API: the validating router with the
// generated routes bound to api.
func Handler(api gen.StrictServerInterface, log *slog.Logger) (http.Handler, error) {
	spec, err := gen.GetSpec()
	if err != nil {
		return nil, fmt.Errorf("load embedded OpenAPI spec: %w", err)
	}
	writeError := impl.ErrorWriter(log)
	rt := router.New(router.Options{Spec: spec, WriteError: writeError, Logger: log})
	return gen.HandlerWithOptions(
		gen.NewStrictHandlerWithOptions(api, nil, impl.StrictOptions(writeError)),
		gen.ChiServerOptions{BaseRouter: rt, ErrorHandlerFunc: impl.ParamErrorHandler(writeError)},
	), nil
}
