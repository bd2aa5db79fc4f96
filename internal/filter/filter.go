// Package filter runs filter pipelines: ordered lists of filter instances
// (instances of filter plugins, internal/plugin KindFilter) that south
// services apply to readings before they are buffered and north services
// before they are sent. It also owns the instances themselves: each has a
// configuration category named after it (the plugin's items, a readonly
// `plugin` item and `enable`), which becomes a child of the category of
// a service whose pipeline holds it (a category has one parent, see
// db.SetPipeline), and whose changes apply at once to the running
// pipelines.
//
// A filter that keeps state persists it as the plugin data of its instance
// in the service (spec §4.7) when the pipeline stops or drops it, and gets
// it back when the pipeline starts. Each filter records asset tracking
// events of kind Filter with its plugin's name; the statistic
// `<service>-Filtered` counts the readings a pipeline dropped (and, for a
// north pipeline, UNSENT too).
//
// Errors a client may see are *fault.Fault values; any other error is a
// storage failure.
package filter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
)

// Store is the storage the filters need; *db.DB implements it.
type Store interface {
	CreateFilter(ctx context.Context, f db.Filter) (db.Filter, error)
	GetFilter(ctx context.Context, name string) (db.Filter, error)
	ListFilters(ctx context.Context) ([]db.Filter, error)
	DeleteFilter(ctx context.Context, name string) error
	GetPipeline(ctx context.Context, service string) ([]string, error)
	SetPipeline(ctx context.Context, service string, filters []string) error
	GetPluginData(ctx context.Context, service, pluginName string) (json.RawMessage, error)
	SavePluginData(ctx context.Context, service, pluginName string, data json.RawMessage) error
}

// Config is the configuration manager as filters use it;
// *configmgr.Manager implements it.
type Config interface {
	Create(ctx context.Context, in configmgr.CategoryInput) (configmgr.Category, error)
	Category(ctx context.Context, key string) (configmgr.Category, error)
	Value(ctx context.Context, key, item string) (string, error)
	SetValue(ctx context.Context, key, item, value string) (configmgr.Item, error)
	Subscribe(key string, fn func(ctx context.Context, c configmgr.Category) error) (cancel func())
}

// Counter counts statistics; *ingest.Counters implements it.
type Counter interface {
	Add(key, description string, n int64)
}

// Tracker records asset tracking events; *ingest.Tracker implements it.
type Tracker interface {
	Track(ctx context.Context, event, service, plugin, asset string) error
}

// Plugins are the plugins a gateway has; *plugin.Registry implements it.
type Plugins interface {
	Lookup(name string) (plugin.Definition, bool)
	Names(kind string) []string
}

// Options configure a Manager.
type Options struct {
	Store  Store
	Config Config
	// Plugins is the gateway's plugin registry; the filter plugins are
	// its plugins of kind filter, built in or installed from packages.
	Plugins  Plugins
	Counters Counter
	Tracker  Tracker // nil: no tracking
	Clock    clock.Clock
	Logger   *slog.Logger
}

// Items every filter instance's category has besides its plugin's.
const (
	ItemPlugin = "plugin"
	ItemEnable = "enable"
)

// Manager manages filter instances and pipelines and runs the pipelines of
// running services. It is safe for concurrent use.
type Manager struct {
	o   Options
	log *slog.Logger

	mu   sync.Mutex           // guards live
	live map[string]*Pipeline // running pipelines by service
}

// New returns a Manager. It returns an error without a plugin registry.
func New(o Options) (*Manager, error) {
	if o.Plugins == nil {
		return nil, errors.New("filter: no plugin registry")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	return &Manager{o: o, log: o.Logger, live: map[string]*Pipeline{}}, nil
}

// Plugins returns the names of the filter plugins, sorted.
func (m *Manager) Plugins() []string { return m.o.Plugins.Names(plugin.KindFilter) }

// Lookup returns the filter plugin named name.
func (m *Manager) Lookup(name string) (plugin.Definition, bool) {
	d, ok := m.o.Plugins.Lookup(name)
	if !ok || d.Kind != plugin.KindFilter || d.NewFilter == nil {
		return plugin.Definition{}, false
	}
	return d, true
}

// UsedBy returns the filter instances of plugin pluginName, by name.
func (m *Manager) UsedBy(ctx context.Context, pluginName string) ([]string, error) {
	all, err := m.o.Store.ListFilters(ctx)
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	var out []string
	for _, f := range all {
		if f.Plugin == pluginName {
			out = append(out, f.Name)
		}
	}
	return out, nil
}

// Items returns the item definitions of the category of an instance of
// def: the plugin's own, its readonly name and the enable switch.
func Items(def plugin.Definition) map[string]configmgr.Item {
	out := make(map[string]configmgr.Item, len(def.Items)+2)
	maps.Copy(out, def.Items)
	out[ItemPlugin] = configmgr.Item{Description: "The filter plugin of this instance", Type: configmgr.TypeString,
		Default: def.Name, DisplayName: "Plugin", Order: "0", Readonly: "true"}
	out[ItemEnable] = configmgr.Item{Description: "Filter readings; when false the instance passes them on unchanged",
		Type: configmgr.TypeBoolean, Default: "true", DisplayName: "Enabled", Order: "1"}
	return out
}

// Instance is a filter instance as the API shows it.
type Instance = db.Filter

// Create creates the filter instance name of plugin pluginName with
// values for its items (validated whole first, the filter's own rules
// included), and its category. Errors: Invalid for a bad name or value;
// NotFound for an unknown plugin; Conflict when a filter or a
// configuration category (a service's included) already has the name.
func (m *Manager) Create(ctx context.Context, name, pluginName string, values map[string]string) (Instance, error) {
	if err := configmgr.CheckName("filter", name); err != nil {
		return Instance{}, err
	}
	def, err := m.definition(pluginName)
	if err != nil {
		return Instance{}, err
	}
	its := Items(def)
	checked, err := configmgr.CheckValues(name, its, values)
	if err != nil {
		return Instance{}, err
	}
	cfg := plugin.Config{}
	for item, it := range its {
		cfg[item] = it.Default
	}
	maps.Copy(cfg, checked)
	probe, err := m.instance(name, def, cfg)
	if err != nil {
		return Instance{}, fault.New(fault.Invalid, "configuration of filter %q: %s", name, strings.Join(strings.Fields(err.Error()), " "))
	}
	closeFilter(probe, m.log)
	switch _, err := m.o.Config.Category(ctx, name); {
	case err == nil:
		return Instance{}, fault.New(fault.Conflict, "a configuration category named %q already exists", name)
	case !errors.Is(err, fault.NotFound):
		return Instance{}, fmt.Errorf("filter: %w", err)
	}
	f, err := m.o.Store.CreateFilter(ctx, db.Filter{Name: name, Plugin: def.Name})
	if errors.Is(err, db.ErrConflict) {
		return Instance{}, fault.New(fault.Conflict, "a filter named %q already exists", name)
	}
	if err != nil {
		return Instance{}, fmt.Errorf("filter: %w", err)
	}
	// A package removal unregisters its plugin before it looks for the
	// instances using it: either it finds this one, or the plugin is gone
	// here.
	if _, ok := m.Lookup(def.Name); !ok {
		err = fault.New(fault.NotFound, "filter plugin %q was removed", def.Name)
	} else {
		err = m.createCategory(ctx, name, def, its, checked)
	}
	if err != nil {
		if derr := m.o.Store.DeleteFilter(context.WithoutCancel(ctx), name); derr != nil {
			m.log.Error("filter half created and not removed", "filter", name, "error", derr)
		}
		return Instance{}, err
	}
	m.log.Info("filter created", "filter", name, "plugin", def.Name)
	return f, nil
}

// createCategory creates an instance's category with the checked values.
func (m *Manager) createCategory(ctx context.Context, name string, def plugin.Definition, its map[string]configmgr.Item, values map[string]string) error {
	desc := def.Description
	if desc == "" {
		desc = def.Name + " filter"
	}
	if _, err := m.o.Config.Create(ctx, configmgr.CategoryInput{Key: name, Description: desc, DisplayName: name, Items: its}); err != nil {
		return fmt.Errorf("filter: create category %q: %w", name, err)
	}
	for _, item := range slices.Sorted(maps.Keys(values)) {
		if values[item] == its[item].Default {
			continue
		}
		if _, err := m.o.Config.SetValue(ctx, name, item, values[item]); err != nil {
			return fmt.Errorf("filter: set %s of category %q: %w", item, name, err)
		}
	}
	return nil
}

// closeFilter releases what a filter instance holds beyond its batches
// (the process of a plugin installed from a package).
func closeFilter(f plugin.Filter, log *slog.Logger) {
	if c, ok := f.(plugin.Closer); ok {
		if err := c.Close(); err != nil {
			log.Warn("filter instance not closed cleanly", "error", err)
		}
	}
}

// instance creates a filter instance, turning a panic into an error.
func (m *Manager) instance(name string, def plugin.Definition, cfg plugin.Config) (f plugin.Filter, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("filter plugin %q panicked while starting: %v", def.Name, p)
		}
	}()
	env := plugin.FilterEnv{Env: plugin.Env{Service: "", Clock: m.o.Clock, Logger: m.log.With("filter", name)}, Instance: name}
	return def.NewFilter(env, cfg)
}

// Get returns the filter instance name; NotFound when there is none.
func (m *Manager) Get(ctx context.Context, name string) (Instance, error) {
	f, err := m.o.Store.GetFilter(ctx, name)
	if errors.Is(err, db.ErrNotFound) {
		return Instance{}, fault.New(fault.NotFound, "filter %q not found", name)
	}
	if err != nil {
		return Instance{}, fmt.Errorf("filter: %w", err)
	}
	return f, nil
}

// List returns every filter instance, sorted by name.
func (m *Manager) List(ctx context.Context) ([]Instance, error) {
	fs, err := m.o.Store.ListFilters(ctx)
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	return fs, nil
}

// Delete removes the filter instance name with its category and persisted
// data. NotFound when there is none; Conflict while a pipeline holds it.
func (m *Manager) Delete(ctx context.Context, name string) error {
	err := m.o.Store.DeleteFilter(ctx, name)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return fault.New(fault.NotFound, "filter %q not found", name)
	case errors.Is(err, db.ErrConflict):
		f, _ := m.o.Store.GetFilter(ctx, name)
		return fault.New(fault.Conflict, "filter %q is in the pipeline of %s; remove it from the pipeline first",
			name, quoted(f.Users))
	case err != nil:
		return fmt.Errorf("filter: %w", err)
	}
	m.log.Info("filter deleted", "filter", name)
	return nil
}

func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 0 {
		return "a service"
	}
	return strings.Join(q, ", ")
}

// Pipeline returns the filter instances of the pipeline of service, in
// order. NotFound for an unknown service.
func (m *Manager) Pipeline(ctx context.Context, service string) ([]string, error) {
	names, err := m.o.Store.GetPipeline(ctx, service)
	if errors.Is(err, db.ErrNotFound) {
		return nil, fault.New(fault.NotFound, "service %q not found", service)
	}
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	return names, nil
}

// SetPipeline sets the pipeline of service to filters (or, with appendTo,
// appends them to it) and applies it at once when the service runs. A
// filter named twice is Invalid; an unknown service or filter NotFound.
func (m *Manager) SetPipeline(ctx context.Context, service string, filters []string, appendTo bool) ([]string, error) {
	names := slices.Clone(filters)
	if appendTo {
		cur, err := m.Pipeline(ctx, service)
		if err != nil {
			return nil, err
		}
		names = append(cur, filters...)
	}
	for i, f := range names {
		if slices.Contains(names[:i], f) {
			return nil, fault.New(fault.Invalid, "filter %q appears twice in the pipeline of service %q", f, service)
		}
	}
	err := m.o.Store.SetPipeline(ctx, service, names)
	if errors.Is(err, db.ErrNotFound) {
		if _, gerr := m.o.Store.GetPipeline(ctx, service); errors.Is(gerr, db.ErrNotFound) {
			return nil, fault.New(fault.NotFound, "service %q not found", service)
		}
		for _, f := range names {
			if _, gerr := m.o.Store.GetFilter(ctx, f); errors.Is(gerr, db.ErrNotFound) {
				return nil, fault.New(fault.NotFound, "filter %q not found", f)
			}
		}
		return nil, fault.New(fault.NotFound, "a filter of the pipeline was deleted meanwhile")
	}
	if err != nil {
		return nil, fmt.Errorf("filter: %w", err)
	}
	m.log.Info("pipeline set", "service", service, "pipeline", names)
	if p := m.running(service); p != nil {
		if err := p.rebuild(ctx, names); err != nil {
			m.log.Error("running pipeline not changed; it changes when the service restarts", "service", service, "error", err)
		}
	}
	return names, nil
}

// Persistent returns the filter instances of service's pipeline whose
// plugin persists data.
func (m *Manager) Persistent(ctx context.Context, service string) ([]string, error) {
	names, err := m.Pipeline(ctx, service)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		f, err := m.o.Store.GetFilter(ctx, n)
		if err != nil {
			return nil, fmt.Errorf("filter: %w", err)
		}
		if d, _ := m.Lookup(f.Plugin); d.Persists {
			out = append(out, n)
		}
	}
	return out, nil
}

// InPipeline reports whether the pipeline of service holds the filter
// instance name.
func (m *Manager) InPipeline(ctx context.Context, service, name string) (bool, error) {
	names, err := m.Pipeline(ctx, service)
	if err != nil {
		return false, err
	}
	return slices.Contains(names, name), nil
}

// running returns the running pipeline of service, if any.
func (m *Manager) running(service string) *Pipeline {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.live[service]
}

func (m *Manager) unregister(p *Pipeline) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.live[p.service] == p {
		delete(m.live, p.service)
	}
}

// Open starts the pipeline of service, running in stage: each filter
// instance created from its current configuration and given the state it
// persisted in the service. The pipeline follows pipeline and
// configuration changes until Close. An error (a filter that cannot start)
// means the service must not run unfiltered.
func (m *Manager) Open(ctx context.Context, service string, st Stage) (*Pipeline, error) {
	p := &Pipeline{m: m, service: service, stage: st, log: m.log}
	m.mu.Lock()
	if old := m.live[service]; old != nil {
		m.mu.Unlock()
		return nil, fmt.Errorf("filter: the pipeline of service %q is already running", service)
	}
	m.live[service] = p
	m.mu.Unlock()
	names, err := m.Pipeline(ctx, service)
	if err == nil {
		err = p.rebuild(ctx, names)
	}
	if err != nil {
		m.unregister(p)
		return nil, err
	}
	return p, nil
}

// rebuild makes the pipeline run names: instances it already runs keep
// running (and their state), new ones are started with their persisted
// state, dropped ones persist theirs. On error nothing changes.
func (p *Pipeline) rebuild(ctx context.Context, names []string) error {
	m := p.m
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	have := map[string]*stage{}
	for _, s := range p.stages {
		have[s.name] = s
	}
	next := make([]*stage, 0, len(names))
	var started []*stage
	fail := func(err error) error {
		for _, s := range started {
			s.unsubscribe()
			closeFilter(s.inst, m.log)
		}
		return err
	}
	for _, n := range names {
		if s := have[n]; s != nil {
			next = append(next, s)
			delete(have, n)
			continue
		}
		s, err := m.start(ctx, p, n)
		if err != nil {
			return fail(err)
		}
		started = append(started, s)
		next = append(next, s)
	}
	p.stages = next
	for _, s := range have {
		s.unsubscribe()
		m.persist(ctx, p.service, s)
		closeFilter(s.inst, m.log)
	}
	return nil
}

// start creates the stage of the filter instance name in p.
func (m *Manager) start(ctx context.Context, p *Pipeline, name string) (*stage, error) {
	f, err := m.o.Store.GetFilter(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("filter %q: %w", name, err)
	}
	def, ok := m.Lookup(f.Plugin)
	if !ok {
		return nil, fmt.Errorf("filter %q: plugin %q is not installed", name, f.Plugin)
	}
	cfg, err := m.config(ctx, name)
	if err != nil {
		return nil, err
	}
	inst, err := m.instance(name, def, cfg)
	if err != nil {
		return nil, fmt.Errorf("filter %q: %w", name, err)
	}
	s := &stage{name: name, plugin: def.Name, persists: def.Persists, inst: inst, enabled: cfg[ItemEnable] != "false"}
	if per, ok := inst.(plugin.Persister); ok {
		data, err := m.o.Store.GetPluginData(ctx, p.service, name)
		switch {
		case err == nil:
			if err := per.Restore(data); err != nil {
				m.log.Warn("persisted filter state not usable; starting afresh", "service", p.service, "filter", name, "error", err)
			}
		case !errors.Is(err, db.ErrNotFound):
			closeFilter(inst, m.log)
			return nil, fmt.Errorf("filter %q: read persisted state: %w", name, err)
		}
	}
	s.unsubscribe = m.o.Config.Subscribe(name, func(ctx context.Context, _ configmgr.Category) error {
		return p.reconfigure(ctx, s)
	})
	return s, nil
}

// reconfigure applies the current configuration of s's instance.
func (p *Pipeline) reconfigure(ctx context.Context, s *stage) (err error) {
	m := p.m
	cfg, err := m.config(ctx, s.name)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.stages, s) {
		return nil // dropped meanwhile
	}
	s.enabled = cfg[ItemEnable] != "false"
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("filter %q panicked in Reconfigure: %v", s.name, r)
		}
	}()
	switch err := s.inst.Reconfigure(cfg); {
	case errors.Is(err, plugin.ErrRestart):
		def, _ := m.Lookup(s.plugin)
		inst, err := m.instance(s.name, def, cfg)
		if err != nil {
			return fmt.Errorf("filter %q: configuration not applied: %w", s.name, err)
		}
		if old, ok := s.inst.(plugin.Persister); ok {
			if st, err := old.State(); err == nil {
				if err := inst.(plugin.Persister).Restore(st); err != nil {
					m.log.Warn("filter state not carried over", "filter", s.name, "error", err)
				}
			}
		}
		closeFilter(s.inst, m.log)
		s.inst = inst
	case err != nil:
		return fmt.Errorf("filter %q: configuration not applied: %w", s.name, err)
	}
	return nil
}

// config reads an instance's configuration, passwords unmasked.
func (m *Manager) config(ctx context.Context, name string) (plugin.Config, error) {
	c, err := m.o.Config.Category(ctx, name)
	if err == nil {
		c, err = configmgr.Unmasked(ctx, m.o.Config, c)
	}
	if err != nil {
		return nil, fmt.Errorf("configuration of filter %q: %w", name, err)
	}
	return c.Values(), nil
}

// persist stores the state of a persisting filter of service.
func (m *Manager) persist(ctx context.Context, service string, s *stage) {
	per, ok := s.inst.(plugin.Persister)
	if !ok {
		return
	}
	data, err := func() (data json.RawMessage, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("filter panicked in State: %v", r)
			}
		}()
		return per.State()
	}()
	if err == nil {
		err = m.o.Store.SavePluginData(context.WithoutCancel(ctx), service, s.name, data)
	}
	if err != nil {
		m.log.Error("filter state not persisted", "service", service, "filter", s.name, "error", err)
	}
}

// CheckPlugin reports whether a filter of plugin name could be created,
// with the error Create would give if not (NotFound): a configuration plan
// checks with it.
func (m *Manager) CheckPlugin(name string) error {
	_, err := m.definition(name)
	return err
}

// definition returns the filter plugin named name.
func (m *Manager) definition(name string) (plugin.Definition, error) {
	def, ok := m.Lookup(name)
	if !ok {
		return plugin.Definition{}, fault.New(fault.NotFound, "filter plugin %q not found; the filter plugins are %s",
			name, strings.Join(m.Plugins(), ", "))
	}
	return def, nil
}
