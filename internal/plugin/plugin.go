// Package plugin defines what the gateway's runtimes run: a Definition
// (name, version, kind, configuration items, whether it persists) and the
// instance of each kind it constructs from the current configuration —
// South (a Run loop delivering readings to a Sink; optionally Writer and
// Operator for control), North (Send), Filter (filter.go), and the
// notification and dispatcher Service (service.go) — with live
// reconfiguration and optional persisted state (Persister). The service
// runtime (internal/service) supervises south and service instances, the
// north runtime (internal/north) north ones, the filter pipelines
// (internal/filter) filters; the ingest buffer (internal/ingest) is the
// Sink.
//
// The built-in south and north plugins are registered in
// internal/plugin/builtin, the built-in filters in internal/filter/builtin;
// a plugin in its own process (any language, from a package) gets the same
// Definition from internal/plugin/external, so the runtimes do not tell
// the two apart.
package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
)

// Kinds of plugin.
const (
	KindSouth = "south"
)

// Reading is one reading a south plugin produces.
type Reading struct {
	Asset     string          // asset code; any UTF-8, a slash included
	Timestamp time.Time       // the sensor's time, UTC
	Values    json.RawMessage // a JSON object of reading key → value
}

// Errors of a Sink.
var (
	// ErrBufferFull means the ingest buffer has no room for the readings;
	// none of them was taken. The producer may retry later.
	ErrBufferFull = errors.New("ingest buffer full")
	// ErrStopped means the service is stopping and takes no more readings.
	ErrStopped = errors.New("service stopping")
	// ErrTooLarge means more readings were submitted at once than the
	// buffer can ever hold.
	ErrTooLarge = errors.New("more readings than the ingest buffer holds")
	// ErrRefused, from a Receipt, means storage refused the readings'
	// data itself (a value it cannot hold): nothing was stored, and
	// submitting them again cannot succeed.
	ErrRefused = errors.New("storage refused the readings")
)

// Receipt tells when submitted readings are committed to storage.
type Receipt interface {
	// Wait blocks until the readings are committed (nil), could not be
	// stored (the storage error), or ctx ends (ctx's error).
	Wait(ctx context.Context) error
}

// Sink is where a south plugin delivers readings. It is safe for concurrent
// use.
type Sink interface {
	// Put hands readings over without waiting. Readings the buffer has no
	// room for are discarded and counted (statistic DISCARDED): right for
	// polled sensors, whose old values are worthless later. So are, and
	// logged, readings whose asset code CheckAsset refuses.
	Put(readings []Reading)
	// Submit queues the readings as one unit, or none of them: it returns
	// ErrBufferFull when there is no room, ErrTooLarge when there never
	// can be, ErrStopped while the service stops, and an error wrapping
	// ErrAssetCode, naming the reading's index, when CheckAsset refuses
	// a reading's asset code. The Receipt tells when
	// they are committed: right for pushed data whose sender retries.
	Submit(readings []Reading) (Receipt, error)
}

// Config is the current configuration of a service: every item of its
// category by name, with its value.
type Config map[string]string

// String returns the value of item name ("" when absent).
func (c Config) String(name string) string { return c[name] }

// Int returns the value of item name as an integer. The configuration
// manager validated it, so an error means the plugin's definition and its
// code disagree.
func (c Config) Int(name string) (int, error) {
	v, err := strconv.Atoi(c[name])
	if err != nil {
		return 0, fmt.Errorf("item %q = %q is not an integer", name, c[name])
	}
	return v, nil
}

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

// South is a running instance of a south plugin.
//
// The runtime calls, in order: Restore (if the plugin is a Persister and
// has data), Open (if it is an Opener), Run, then State (if a Persister)
// after Run returns. Reconfigure may be called at any time, concurrently
// with Run.
type South interface {
	// Run delivers readings to sink until ctx ends, then returns nil. An
	// error or a panic marks the service failed; the runtime restarts it
	// with backoff.
	Run(ctx context.Context, sink Sink) error
	// Reconfigure applies a changed configuration to the running
	// instance. It returns ErrRestart when the change needs a new
	// instance (the runtime then stops this one and starts another with
	// cfg), or an error when cfg is unusable (logged; the old
	// configuration stays in force).
	Reconfigure(cfg Config) error
}

// ErrRestart is returned by Reconfigure when a change needs a new instance.
var ErrRestart = errors.New("the change needs a restart of the plugin")

// Opener is implemented by plugins that acquire resources (a listening
// socket) before running, so that the service counts as started only once
// they hold them.
type Opener interface {
	// Open acquires the plugin's resources; an error fails the start.
	Open(ctx context.Context) error
}

// Checker is implemented by plugins that can tell whether they still do
// their work: the service monitor calls Check every SMNTR.sleep_interval
// while the plugin runs, with a context that ends after
// SMNTR.ping_timeout. An error, or no answer in time, makes the service
// unresponsive until a check passes again. Check may be called
// concurrently with Run and Reconfigure.
type Checker interface {
	Check(ctx context.Context) error
}

// Readier is implemented by south plugins that do their work only once
// they reached something outside the gateway (a broker they subscribe
// to): their service is running only once Ready is closed, and until then
// unresponsive, with NotReady ("" when it cannot tell) as the reason. Run
// is called before Ready closes; NotReady may be called concurrently with
// it.
type Readier interface {
	Ready() <-chan struct{}
	NotReady() string
}

// Persister is implemented by plugins that keep state between runs. The
// state is stored when the plugin stops and handed back at its next start.
type Persister interface {
	// State returns the state to persist, a JSON document.
	State() (json.RawMessage, error)
	// Restore loads state persisted by an earlier run; an error is logged
	// and the plugin starts afresh.
	Restore(state json.RawMessage) error
}

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
