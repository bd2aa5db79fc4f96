// Package external runs plugins in their own processes, over the contract
// in proto/edged/plugin/v1 (HashiCorp go-plugin, gRPC): Load describes a
// plugin executable and returns a plugin.Definition whose instances each
// start the executable, so the service runtime treats an external plugin
// exactly like a built-in one: its items become the service's category,
// Reconfigure, persisted state, asset tracking and statistics go through
// the same code. The process of a south instance, or of a notification or
// dispatcher service, lives from Open to the end of Run; a crash ends Run
// with an error, and the runtime restarts the instance, a new process,
// with the service's backoff. A service process calls the gateway back
// through the ServiceHost of its environment; errors both ways are mapped
// between the SDK's codes and the gateway's faults by package faultcode.
// Every call into a plugin process carries a deadline: its caller's, or
// callWait for the calls that have none (describing, starting,
// reconfiguring), so a hung plugin fails the call instead of holding what
// waits on it (a configuration write, a service's start).
package external

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// stopWait bounds the calls made to a plugin while its instance ends
// (State), so a hung plugin cannot hold a service's stop.
const stopWait = 5 * time.Second

// callWait bounds a call into a plugin process that has no deadline of
// its caller's: describing and starting it, handing it a changed
// configuration. A variable so that tests of a hung plugin wait less.
var callWait = 30 * time.Second

// sendWait bounds a north plugin's Send whose caller set no deadline; a
// variable for the tests, as callWait.
var sendWait = 2 * time.Minute

// Options are what LoadWith needs besides the executable.
type Options struct {
	// Log receives what plugin processes write to stderr.
	Log *slog.Logger
	// Environment returns the allow-list of the gateway's environment
	// variables a plugin process sees (Installation.pluginEnvironment, see
	// Environ); it is called at every start of a process. nil means
	// configmgr.DefaultPluginEnvironment.
	Environment func(ctx context.Context) (string, error)
	// Digest is the hex SHA-256 the executable was installed with: the
	// file is hashed before every start, the describing one included, and
	// a start of a file that hashes otherwise fails with an error wrapping
	// ErrChanged, so a swapped executable never runs. "" checks nothing.
	Digest string
}

// Load is LoadWith with the default environment of plugin processes.
func Load(ctx context.Context, path string, log *slog.Logger) (plugin.Definition, error) {
	return LoadWith(ctx, path, Options{Log: log})
}

// LoadWith starts the plugin executable path once to describe it and
// returns its definition. A plugin that does not start is an error that
// ends with the last lines of its stderr.
func LoadWith(ctx context.Context, path string, o Options) (plugin.Definition, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	l := &launcher{path: path, digest: o.Digest, log: o.Log, env: o.Environment}
	p, err := l.process(ctx, o.Log)
	if err != nil {
		return plugin.Definition{}, err
	}
	defer p.Kill()
	info := p.Info
	def := plugin.Definition{Name: info.Name, Version: info.Version, Kind: info.Kind, Description: info.Description,
		Items: items(info.Items), Persists: info.Persists, External: true}
	l.name, l.kind = info.Name, info.Kind
	switch info.Kind {
	case edgeplugin.KindSouth:
		def.New = func(env plugin.Env, cfg plugin.Config) (plugin.South, error) {
			s := &south{launcher: l, env: env, cfg: cfg, writes: info.Writes, operates: info.Operates}
			if info.Persists {
				return &persistingSouth{s}, nil
			}
			return s, nil
		}
	case edgeplugin.KindNorth:
		def.NewNorth = func(env plugin.NorthEnv, cfg plugin.Config) (plugin.North, error) {
			return newNorth(context.Background(), l, env.Env, cfg)
		}
	case edgeplugin.KindFilter:
		def.NewFilter = func(env plugin.FilterEnv, cfg plugin.Config) (plugin.Filter, error) {
			f, err := newFilter(context.Background(), l, env, cfg)
			if err != nil {
				return nil, err
			}
			if info.Persists {
				return &persistingFilter{f}, nil
			}
			return f, nil
		}
	case edgeplugin.KindNotification, edgeplugin.KindDispatcher:
		def.NewService = func(env plugin.ServiceEnv, cfg plugin.Config) (plugin.Service, error) {
			s, err := newService(l, env, cfg)
			if err != nil {
				return nil, err
			}
			return s.instance(info.Persists), nil
		}
	}
	return def, nil
}

// items converts the plugin's items to configuration items.
func items(in map[string]edgeplugin.Item) map[string]configmgr.Item {
	out := plugin.ConfigItems(in)
	for n, it := range out {
		it.Value = it.Default
		out[n] = it
	}
	return out
}

// launcher starts processes of one plugin executable.
type launcher struct {
	path string
	name string
	kind string
	log  *slog.Logger

	// digest is the hex SHA-256 the executable must have at every
	// start; "" checks nothing.
	digest string
	env    func(ctx context.Context) (string, error) // nil: the default allow-list
}

// process starts a process of the executable with the environment the
// allow-list gives it, logging its stderr to log.
func (l *launcher) process(ctx context.Context, log *slog.Logger) (*edgeplugin.Process, error) {
	ctx, cancel := context.WithTimeout(ctx, callWait)
	defer cancel()
	if err := checkDigest(l.path, l.digest); err != nil {
		return nil, err
	}
	env := defaultEnviron()
	if l.env != nil {
		allow, err := l.env(ctx)
		if err != nil {
			return nil, fmt.Errorf("the environment of plugin processes: %w", err)
		}
		env = Environ(allow, os.Environ())
	}
	return edgeplugin.LaunchWith(ctx, l.path, edgeplugin.LaunchOptions{Log: logWriter(log, l.path), Env: env})
}

// launch launches a process for service and checks it is still the
// plugin Load described.
func (l *launcher) launch(ctx context.Context, service string) (*edgeplugin.Process, error) {
	p, err := l.process(ctx, l.log.With("service", service))
	if err != nil {
		return nil, err
	}
	if p.Info.Name != l.name || p.Info.Kind != l.kind {
		p.Kill()
		return nil, fmt.Errorf("the executable of plugin %q (%s) now says it is %q (%s)", l.name, l.kind, p.Info.Name, p.Info.Kind)
	}
	return p, nil
}

// start launches a process and starts the plugin in it for service with
// cfg and state; the process is killed again on failure.
func (l *launcher) start(ctx context.Context, service string, cfg plugin.Config, state []byte) (*edgeplugin.Process, error) {
	p, err := l.launch(ctx, service)
	if err != nil {
		return nil, err
	}
	startCtx, cancel := context.WithTimeout(ctx, callWait)
	defer cancel()
	if err := p.Start(startCtx, edgeplugin.Start{Service: service, Config: cfg, State: state}); err != nil {
		p.Kill()
		return nil, err
	}
	return p, nil
}

// reconfigureError maps the SDK's restart request to the runtime's.
func reconfigureError(err error) error {
	if errors.Is(err, edgeplugin.ErrRestart) {
		return plugin.ErrRestart
	}
	return err
}

func fromSDK(rs []edgeplugin.Reading) []plugin.Reading {
	out := make([]plugin.Reading, len(rs))
	for i, r := range rs {
		out[i] = plugin.Reading{Asset: r.Asset, Timestamp: r.Timestamp.UTC(), Values: r.Values}
	}
	return out
}

// logWriter returns a writer that logs each line a plugin process wrote
// (go-plugin's logger writes whole lines) at the line's level: go-plugin
// writes hclog lines ("<time> [WARN]  plugin.x: message"), whose level
// carries over, so a plugin's warnings are warnings of its service; a line
// without one is info.
func logWriter(log *slog.Logger, path string) io.Writer {
	return lineLogger{log: log, path: path}
}

type lineLogger struct {
	log  *slog.Logger
	path string
}

func (l lineLogger) Write(p []byte) (int, error) {
	for line := range strings.SplitSeq(strings.TrimRight(string(p), "\n"), "\n") {
		if line != "" {
			l.log.Log(context.Background(), lineLevel(line), "plugin output", "plugin", l.path, "line", line)
		}
	}
	return len(p), nil
}

// lineLevel is the level of an hclog line, "<time> [LEVEL] …": the
// bracketed word after the time (or opening the line), info when there is
// none.
func lineLevel(line string) slog.Level {
	word := line
	if !strings.HasPrefix(word, "[") {
		_, word, _ = strings.Cut(line, " ")
	}
	name, _, ok := strings.Cut(strings.TrimPrefix(word, "["), "]")
	if !ok || !strings.HasPrefix(word, "[") {
		return slog.LevelInfo
	}
	switch strings.TrimSpace(name) {
	case "TRACE", "DEBUG":
		return slog.LevelDebug
	case "WARN":
		return slog.LevelWarn
	case "ERROR":
		return slog.LevelError
	}
	return slog.LevelInfo
}

// The host side adapts plugins in their own processes to the same plugin
// interfaces the built-in plugins implement (edgeplugin's, by their
// runtime names).
var (
	_ plugin.South     = (*south)(nil)
	_ plugin.Opener    = (*south)(nil)
	_ plugin.Checker   = (*south)(nil)
	_ plugin.Closer    = (*south)(nil)
	_ plugin.Persister = (*persistingSouth)(nil)
	_ plugin.Writer    = (*south)(nil)
	_ plugin.Operator  = (*south)(nil)
	_ plugin.Controls  = (*south)(nil)
	_ plugin.North     = (*north)(nil)
	_ plugin.Closer    = (*north)(nil)
	_ plugin.Filter    = (*extFilter)(nil)
	_ plugin.Closer    = (*extFilter)(nil)
	_ plugin.Persister = (*persistingFilter)(nil)
)
