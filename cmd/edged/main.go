// Command edged runs the edge data gateway: the REST API under /edge, its
// storage (an embedded SQLite file by default, PostgreSQL on request) and
// the services that ingest and forward readings.
//
// Every flag has an environment equivalent; a flag given on the command line
// wins over the environment.
//
//	--data DIR      EDGE_DATA       data directory (default ./data)
//	--port N        EDGE_PORT       HTTP port for this run (default: rest_api.httpPort, 8081)
//	--db URL        EDGE_DB         storage: empty for SQLite in the data dir, postgres://… for PostgreSQL
//	--safe-mode     EDGE_SAFE_MODE  start only the core and storage
//	--log-level L   EDGE_LOG_LEVEL  debug, info, warning or error for this run (default: LOGGING.logLevel, info)
//	                EDGE_ADMIN_PASSWORD  password of the first admin user, at first start
//
// `edged config export|plan|apply --url URL` exports, plans and applies the
// declarative configuration of remote gateways (docs/fleet-config.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/app"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/logging"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "1.0.0-dev"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "config" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return runConfig(ctx, args[1:], os.Stdout, os.Stderr)
	}
	cfg, logLevel, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "edged:", err)
		return 2
	}
	cfg.LogLevel = new(slog.LevelVar)
	cfg.LogLevel.Set(logLevel)
	// The journal keeps what is logged for GET /edge/syslog and the log
	// file; the console (stderr) gets every line as before.
	cfg.Journal = logging.NewJournal()
	logger := slog.New(cfg.Journal.Handler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel})))
	cfg.Logger = logger

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := app.Run(ctx, cfg); err != nil {
		logger.Error("gateway stopped with an error", "error", err)
		return 1
	}
	return 0
}

// parseFlags reads the configuration from args, with environment variables
// as defaults.
func parseFlags(args []string) (app.Config, slog.Level, error) {
	fs := flag.NewFlagSet("edged", flag.ContinueOnError)
	port, err := envInt("EDGE_PORT")
	if err != nil {
		return app.Config{}, 0, err
	}
	safe, err := envBool("EDGE_SAFE_MODE")
	if err != nil {
		return app.Config{}, 0, err
	}
	deleteTask, err := envInt("EDGE_DELETE_TASK_READINGS")
	if err != nil {
		return app.Config{}, 0, err
	}
	cfg := app.Config{Version: version, AdminPassword: os.Getenv("EDGE_ADMIN_PASSWORD")}
	fs.Int64Var(&cfg.DeleteTaskReadings, "delete-task-readings", int64(deleteTask),
		"readings above which a deletion of readings runs as a background task, answered 202 at once; 0: 100000 (EDGE_DELETE_TASK_READINGS)")
	fs.StringVar(&cfg.DataDir, "data", envOr("EDGE_DATA", "./data"), "data directory (EDGE_DATA)")
	fs.IntVar(&cfg.Port, "port", port, "HTTP port for this run, overriding rest_api.httpPort (EDGE_PORT)")
	fs.StringVar(&cfg.DB, "db", os.Getenv("EDGE_DB"), "storage URL: empty for the embedded SQLite file, postgres://… for PostgreSQL (EDGE_DB)")
	fs.BoolVar(&cfg.SafeMode, "safe-mode", safe, "start only the core and storage (EDGE_SAFE_MODE)")
	durability := fs.String("durability", envOr("EDGE_DURABILITY", string(db.Power)),
		"what an acknowledged reading survives: power (a power cut) or process (a crash of the gateway) (EDGE_DURABILITY)")
	level := fs.String("log-level", envOr("EDGE_LOG_LEVEL", configmgr.LogLevelInfo),
		"debug, info, warning or error for this run, overriding LOGGING.logLevel until it is changed (EDGE_LOG_LEVEL)")
	showVersion := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return app.Config{}, 0, err
	}
	if fs.NArg() > 0 {
		return app.Config{}, 0, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *showVersion {
		fmt.Println("edged", version)
		return app.Config{}, 0, flag.ErrHelp
	}
	if cfg.Port < 0 || cfg.Port > 65535 {
		return app.Config{}, 0, fmt.Errorf("port %d is out of range 0-65535", cfg.Port)
	}
	d, err := db.ParseDurability(*durability)
	if err != nil {
		return app.Config{}, 0, fmt.Errorf("durability %q: use power or process", *durability)
	}
	cfg.Durability = d
	lvl, err := logging.ParseLevel(*level)
	if err != nil {
		return app.Config{}, 0, err
	}
	// A level chosen for this run, by flag or environment, wins over the
	// stored LOGGING.logLevel at start.
	cfg.LogLevelFixed = os.Getenv("EDGE_LOG_LEVEL") != ""
	fs.Visit(func(f *flag.Flag) { cfg.LogLevelFixed = cfg.LogLevelFixed || f.Name == "log-level" })
	return cfg, lvl, nil
}

func envOr(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}

func envInt(key string) (int, error) {
	v := os.Getenv(key)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not an integer", key, v)
	}
	return n, nil
}

func envBool(key string) (bool, error) {
	v := os.Getenv(key)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q is not a boolean", key, v)
	}
	return b, nil
}
