// Package plugin is the gateway's side of its plugins: the registry of
// every plugin it has (built in, or installed from packages and run in
// their own processes by internal/plugin/external), of every kind (south,
// north, filter, notification, dispatcher), each a Definition with its
// configuration items and constructor; what the runtime gives an instance
// (Env, NorthEnv, FilterEnv, ServiceEnv); and, by their runtime names, the
// plugin interfaces, which are the plugin SDK's (pluginsdk/go/edgeplugin):
// South, North, Filter and the optional Persister, Writer, Operator,
// Opener, Checker, Readier, Closer, Snapshotter. The service runtime
// (internal/service) supervises south instances, internal/north runs north
// ones, internal/filter runs filters in pipelines.
//
// A built-in plugin is a folder: its code, a configuration struct whose
// item tags give its items (ItemsOf) and which an instance gets its
// configuration decoded into (Decode), a README.md and a sample
// configuration generated from it (make generate), and its tests; it is
// listed in internal/plugin/builtin. A plugin in its own process (any
// language, from a package) gets the same Definition from
// internal/plugin/external, so the runtimes do not tell the two apart.
package plugin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Kinds of plugin.
const (
	KindSouth = "south"
)

// Reading is one reading a south plugin produces.
type Reading = edgeplugin.Reading

// Errors of a Sink.
var (
	ErrBufferFull = edgeplugin.ErrBufferFull
	ErrStopped    = edgeplugin.ErrStopped
	ErrTooLarge   = edgeplugin.ErrTooLarge
	ErrRefused    = edgeplugin.ErrRefused
)

// Receipt tells when submitted readings are committed to storage.
type Receipt = edgeplugin.Receipt

// Sink is where a south plugin delivers readings.
type Sink = edgeplugin.Sink

// DirectSink is a Sink that can submit readings and wait for their
// commit in one call. A producer that waits for each submission at once
// (http_south) uses it where the sink offers it: a submission the sink's
// writer would have written alone is then written on the caller's own
// goroutine, sparing the hand-offs to the writer and back.
type DirectSink interface {
	// SubmitAndWait is Submit followed by Wait(ctx) on its receipt.
	// submitted is false when Submit refused the readings (err is then
	// Submit's error) and true when err is the receipt's outcome.
	SubmitAndWait(ctx context.Context, readings []Reading) (submitted bool, err error)
}

// Config is the current configuration of a service: every item of its
// category by name, with its value.
type Config = edgeplugin.Config

// Env is what the runtime gives a plugin instance besides its
// configuration.
type Env struct {
	Service string      // the service's name
	Clock   clock.Clock // the only source of time a plugin may use
	Logger  *slog.Logger
}

// Log returns the instance's logger, or one that discards when the runtime
// gave none (as tests do).
func (e Env) Log() *slog.Logger {
	if e.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return e.Logger
}

// Time returns the instance's clock, or the real one when the runtime gave
// none (as tests do).
func (e Env) Time() clock.Clock {
	if e.Clock == nil {
		return clock.Real{}
	}
	return e.Clock
}

// The instance interfaces are those of the plugin SDK
// (pluginsdk/go/edgeplugin), one definition for the built-in plugins and
// the plugins in their own processes; each built-in plugin asserts at
// compile time that it implements them.
type (
	// South is a running instance of a south plugin.
	South = edgeplugin.South
	// Opener acquires resources before the run.
	Opener = edgeplugin.Opener
	// Checker tells whether the plugin still does its work.
	Checker = edgeplugin.Checker
	// Readier tells when the plugin reached what it reads.
	Readier = edgeplugin.Readier
	// Persister keeps state between runs.
	Persister = edgeplugin.Persister
)

// ErrRestart is returned by Reconfigure when a change needs a new instance.
var ErrRestart = edgeplugin.ErrRestart

// Definition describes a plugin.
type Definition struct {
	Name        string
	Version     string
	Kind        string // KindSouth, KindNorth, KindFilter, KindNotification or KindDispatcher
	Description string
	// Items are the plugin's configuration items, which the service's
	// category holds with their values.
	Items map[string]configmgr.Item
	// Persists is true when instances implement Persister.
	Persists bool
	// Checks is true when instances implement Checker; only then does
	// the service monitor check them.
	Checks bool
	// New creates an instance of a south plugin from the current
	// configuration.
	New func(env Env, cfg Config) (South, error)
	// NewNorth creates an instance of a north plugin (Kind KindNorth).
	NewNorth func(env NorthEnv, cfg Config) (North, error)
	// NewFilter creates an instance of a filter plugin (Kind KindFilter).
	NewFilter func(env FilterEnv, cfg Config) (Filter, error)
	// NewService creates an instance of a notification or dispatcher
	// service (Kind KindNotification, KindDispatcher).
	NewService func(env ServiceEnv, cfg Config) (Service, error)
	// External is true for a plugin that runs in its own process,
	// installed from a package.
	External bool
}

// Registry holds the plugins a gateway has: the built-in ones from the
// start, plugins installed from packages added and removed while it runs.
// It is safe for concurrent use.
type Registry struct {
	mu   sync.RWMutex
	defs map[string]Definition
}

// NewRegistry returns a registry of defs. It returns an error for a
// definition without name, kind or constructor, or for two with one name.
func NewRegistry(defs ...Definition) (*Registry, error) {
	r := &Registry{defs: make(map[string]Definition, len(defs))}
	for _, d := range defs {
		if err := r.Add(d); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ErrDefined is returned by Add for a name the registry already has.
var ErrDefined = errors.New("a plugin of that name is installed")

// Add adds a plugin. It returns an error for a definition without name,
// kind or constructor, and ErrDefined for a name already there.
func (r *Registry) Add(d Definition) error {
	if d.Name == "" || d.Kind == "" || (d.New == nil && d.NewNorth == nil && d.NewFilter == nil && d.NewService == nil) {
		return fmt.Errorf("plugin: definition %q lacks a name, kind or constructor", d.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.defs[d.Name]; ok {
		return fmt.Errorf("plugin: %q: %w", d.Name, ErrDefined)
	}
	r.defs[d.Name] = d
	return nil
}

// Replace adds d in place of the plugin of its name (a newer version);
// services already running keep the instance they have until they restart.
func (r *Registry) Replace(d Definition) error {
	r.mu.Lock()
	delete(r.defs, d.Name)
	r.mu.Unlock()
	return r.Add(d)
}

// Remove removes the plugin named name, reporting whether it was there.
func (r *Registry) Remove(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.defs[name]
	delete(r.defs, name)
	return ok
}

// Lookup returns the plugin named name.
func (r *Registry) Lookup(name string) (Definition, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	d, ok := r.defs[name]
	return d, ok
}

// Kinds returns the kinds of plugin installed, sorted.
func (r *Registry) Kinds() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	set := map[string]bool{}
	for _, d := range r.defs {
		set[d.Kind] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// Names returns the names of the plugins of kind, sorted.
func (r *Registry) Names(kind string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	for _, d := range r.defs {
		if d.Kind == kind {
			out = append(out, d.Name)
		}
	}
	slices.Sort(out)
	return out
}

// Entry is what the registry tells of one plugin: enough for a client to
// render the form that creates a service (or filter) of it before one
// exists.
type Entry struct {
	Name        string
	Kind        string
	Version     string
	Description string
	// Items are the plugin's configuration items, as a new service's
	// category gets them (Value empty: a new item starts at its default).
	Items map[string]configmgr.Item
	// External is true for a plugin installed from a package, which runs
	// in its own process.
	External bool
}

// Catalogue returns every plugin of the registry, built in or installed,
// of every kind, sorted by kind then name; each entry's items are a copy
// the caller may change.
func (r *Registry) Catalogue() []Entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Entry, 0, len(r.defs))
	for _, d := range r.defs {
		items := make(map[string]configmgr.Item, len(d.Items))
		for n, it := range d.Items {
			it.Value = ""
			it.Options = slices.Clone(it.Options)
			items[n] = it
		}
		out = append(out, Entry{Name: d.Name, Kind: d.Kind, Version: d.Version, Description: d.Description,
			Items: items, External: d.External})
	}
	slices.SortFunc(out, func(a, b Entry) int {
		if c := strings.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}
