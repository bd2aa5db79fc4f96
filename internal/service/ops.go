package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/stats"
	"github.com/edged/edged/internal/system"
)

// Names of the records that stand for the core and the storage layer in
// service listings. They cannot be created or deleted.
const (
	CoreName    = "Edge Core"
	StorageName = "Edge Storage"
)

// Wire types of service records.
const (
	TypeCore         = "Core"
	TypeStorage      = "Storage"
	TypeSouthbound   = "Southbound"
	TypeNorthbound   = "Northbound"
	TypeNotification = "Notification"
	TypeDispatcher   = "Dispatcher"
)

// wireType maps stored service types to the types records carry.
var wireType = map[string]string{
	db.ServiceSouth: TypeSouthbound, db.ServiceNorth: TypeNorthbound,
	db.ServiceNotification: TypeNotification, db.ServiceDispatcher: TypeDispatcher,
}

// processName is the process of a south service's schedule.
const processName = "south_c"

// CreateRequest is a service to create.
type CreateRequest struct {
	Name    string
	Type    string // south, north, notification or dispatcher, any case
	Plugin  string
	Enabled bool
	Config  map[string]string // item name → value
}

// Created is the result of Create.
type Created struct {
	Name       string
	ScheduleID string
	Started    bool // false when disabled or in safe mode
}

// Create validates the request completely, then creates the service's
// schedule and registration, its configuration category (named after it;
// the plugin's items with the requested values, the readonly plugin item
// and the ingest settings) and starts it when enabled (never in safe mode).
// It is all or nothing.
//
// Errors: Invalid for a bad name, type, missing plugin or a config value
// failing its item's rules or a second notification or dispatcher
// service; NotFound for an unknown plugin or a notification or dispatcher
// service package not installed; Conflict when a service, schedule or
// configuration category already has the name.
func (m *Manager) Create(ctx context.Context, req CreateRequest) (Created, error) {
	if err := configmgr.CheckName("service", req.Name); err != nil {
		return Created{}, err
	}
	def, typ, err := m.pluginOf(ctx, req.Type, req.Plugin)
	if err != nil {
		return Created{}, err
	}
	req.Plugin = def.Name
	items, proc := Items(def), processName
	switch typ {
	case db.ServiceNorth:
		proc = northProcessName
	case db.ServiceNotification, db.ServiceDispatcher:
		proc = hostedProcess[typ]
	}
	values, err := configmgr.CheckValues(req.Name, items, req.Config)
	if err != nil {
		return Created{}, err
	}
	if req.Name == CoreName || req.Name == StorageName {
		return Created{}, fault.New(fault.Conflict, "the name %q is reserved", req.Name)
	}

	m.ops.Lock()
	defer m.ops.Unlock()
	switch _, err := m.o.Config.Category(ctx, req.Name); {
	case err == nil:
		return Created{}, fault.New(fault.Conflict, "a configuration category named %q already exists", req.Name)
	case !errors.Is(err, fault.NotFound):
		return Created{}, fmt.Errorf("service: %w", err)
	}
	sched := db.Schedule{ID: uuid.NewString(), Name: req.Name, ProcessName: proc, Type: db.ScheduleStartup,
		Exclusive: true, Enabled: req.Enabled}
	svc, err := m.o.Store.CreateService(ctx, db.Service{Name: req.Name, Type: typ, Plugin: def.Name}, sched)
	if errors.Is(err, db.ErrConflict) {
		return Created{}, fault.New(fault.Conflict, "a service or schedule named %q already exists", req.Name)
	}
	if err != nil {
		return Created{}, fmt.Errorf("service: %w", err)
	}
	// A package removal unregisters its plugin before it looks for the
	// services using it: either it finds this service, or the plugin is
	// gone here, and no service is left whose every start fails.
	if _, ok := m.o.Plugins.Lookup(def.Name); ok {
		err = m.createCategory(ctx, req.Name, def, items, values)
	} else {
		err = fault.New(fault.NotFound, "plugin %q was removed", def.Name)
	}
	if err == nil && typ == db.ServiceNorth {
		err = m.o.North.Prepare(ctx, req.Name)
	}
	if err != nil {
		if derr := m.o.Store.DeleteService(context.WithoutCancel(ctx), req.Name, nil); derr != nil {
			m.log.Error("service half created and not removed", "service", req.Name, "error", derr)
		}
		return Created{}, err
	}
	m.audit(ctx, auditSchedAdded, auditcode.Information, map[string]any{"schedule": sched.Name, "id": sched.ID,
		"type": sched.Type, "enabled": sched.Enabled})
	m.schedulesChanged()
	m.log.Info("service created", "service", req.Name, "plugin", def.Name, "enabled", req.Enabled)

	out := Created{Name: svc.Name, ScheduleID: svc.ScheduleID}
	if req.Enabled && !m.o.SafeMode {
		if err := m.start(ctx, svc); err != nil {
			m.log.Error("new service not started", "service", req.Name, "error", err)
		} else {
			out.Started = true
		}
	}
	return out, nil
}

// hostedPlugin returns the plugin of a new notification or dispatcher
// service: the one installed of that kind (or want, when named). Errors:
// NotFound when none is installed, Conflict when the gateway already has a
// service of that type.
func (m *Manager) hostedPlugin(ctx context.Context, typ, want string) (string, error) {
	names := m.o.Plugins.Names(typ)
	if want != "" {
		names = slices.DeleteFunc(names, func(n string) bool { return n != want })
	}
	if len(names) == 0 {
		return "", fault.New(fault.NotFound, "the %s service is not installed: install its service package with POST /edge/service?action=install", typ)
	}
	svcs, err := m.o.Store.ListServices(ctx, typ)
	if err != nil {
		return "", fmt.Errorf("service: %w", err)
	}
	if len(svcs) > 0 {
		return "", fault.New(fault.Conflict, "the gateway already has a %s service, %q: it runs at most one", typ, svcs[0].Name)
	}
	return names[0], nil
}

// createCategory creates the service's category and sets the requested
// values (already validated).
func (m *Manager) createCategory(ctx context.Context, name string, def plugin.Definition, items map[string]configmgr.Item, values map[string]string) error {
	desc := def.Description
	if desc == "" {
		desc = def.Name + " " + def.Kind + " service"
	}
	if _, err := m.o.Config.Create(ctx, configmgr.CategoryInput{Key: name, Description: desc, DisplayName: name, Items: items}); err != nil {
		return fmt.Errorf("service: create category %q: %w", name, err)
	}
	for _, item := range slices.Sorted(maps.Keys(values)) {
		if values[item] == items[item].Default {
			continue
		}
		if _, err := m.o.Config.SetValue(ctx, name, item, values[item]); err != nil {
			return fmt.Errorf("service: set %s of category %q: %w", item, name, err)
		}
	}
	return nil
}

// Delete stops the service name and removes its registration, schedule,
// category, plugin data and `<name>-Ingest` statistic (a north service's
// statistic and stream position); its readings stay and its tracking
// events are deprecated. A north task of that name is deleted likewise.
// The core and storage records cannot be deleted (Invalid); an unknown
// name is NotFound.
func (m *Manager) Delete(ctx context.Context, name string) error {
	if name == CoreName || name == StorageName {
		return fault.New(fault.Invalid, "%q cannot be deleted", name)
	}
	m.ops.Lock()
	defer m.ops.Unlock()
	svc, err := m.getService(ctx, name)
	if errors.Is(err, fault.NotFound) {
		return m.deleteNorthTask(ctx, name)
	}
	if err != nil {
		return err
	}
	m.stop(ctx, name)
	if err := m.o.Counters.Flush(ctx); err != nil {
		m.log.Warn("statistics not flushed before deleting a service", "service", name, "error", err)
	}
	keys := []string{stats.IngestKey(name)}
	if svc.Type == db.ServiceNorth { // what it sent, and what it set aside
		keys = []string{name, db.SetAsideKey(name)}
	}
	keys = append(keys, filter.FilteredKey(name)) // the readings its pipeline dropped
	err = m.o.Store.DeleteService(ctx, name, keys)
	if errors.Is(err, db.ErrNotFound) {
		return notFound(name)
	}
	if err != nil {
		return fmt.Errorf("service: %w", err)
	}
	if m.isNorth(svc) {
		if err := m.o.North.Removed(ctx, name); err != nil {
			m.log.Error("north stream position not removed", "service", name, "error", err)
		}
	}
	for _, key := range keys {
		m.o.Counters.Forget(key)
	}
	m.o.Tracker.ForgetService(name)
	m.schedulesChanged()
	m.log.Info("service deleted", "service", name)
	return nil
}

// Record is a service as the service listing shows it.
type Record struct {
	Name           string
	Type           string // Core, Storage, Southbound, …
	Address        string // "" when shut down
	ManagementPort int    // the API's port: the core manages every service, running or not
	ServicePort    *int   // nil: no API of its own
	Protocol       string // "" when shut down
	Status         string
	Reason         string // why it is not running; "" while it runs or is shut down
}

// record returns the record of a registered service.
func (m *Manager) record(s db.Service) Record {
	status := m.Status(s.Name)
	r := Record{Name: s.Name, Type: wireType[s.Type], ManagementPort: m.o.CorePort, Status: status}
	if status != system.StatusShutdown {
		r.Address, r.Protocol = "localhost", "http"
	}
	if status != system.StatusRunning && status != system.StatusShutdown {
		r.Reason = m.Reason(s.Name)
	}
	return r
}

// Records returns the core, storage and every registered service, with
// those of type typ only when typ is not "" (matched case-insensitively).
func (m *Manager) Records(ctx context.Context, typ string) ([]Record, error) {
	port := m.o.CorePort
	storage := system.StatusRunning
	if err := m.o.Store.Ping(ctx); err != nil {
		storage = system.StatusFailed
	}
	all := []Record{
		{Name: CoreName, Type: TypeCore, Address: "localhost", ManagementPort: port, ServicePort: &port, Protocol: "http", Status: system.StatusRunning},
		{Name: StorageName, Type: TypeStorage, Address: "localhost", ManagementPort: port, Protocol: "", Status: storage},
	}
	svcs, err := m.o.Store.ListServices(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	for _, s := range svcs {
		all = append(all, m.record(s))
	}
	out := make([]Record, 0, len(all))
	for _, r := range all {
		if typ == "" || strings.EqualFold(r.Type, typ) {
			out = append(out, r)
		}
	}
	return out, nil
}

// AssetCount is an asset a south service ingested, with the asset's
// ingest statistic.
type AssetCount struct {
	Asset string
	Count int64
}

// SouthRecord is a south service as the south listing shows it.
type SouthRecord struct {
	Record
	Assets          []AssetCount
	Plugin          string
	PluginVersion   string
	ScheduleEnabled bool
}

// South returns every south service with its assets (its live Ingest
// tracking events, each with the asset's statistic), plugin and schedule
// state.
func (m *Manager) South(ctx context.Context) ([]SouthRecord, error) {
	svcs, err := m.o.Store.ListServices(ctx, db.ServiceSouth)
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	// Tracking events first: the ingest path counts a batch before it
	// tracks its assets, so every asset listed has its readings counted in
	// the statistics flushed and read after.
	events := make([][]db.TrackingEvent, len(svcs))
	for i, s := range svcs {
		if events[i], err = m.o.Store.ListTrackingEvents(ctx, db.TrackingFilter{Service: s.Name, Event: db.EventIngest}); err != nil {
			return nil, fmt.Errorf("service: %w", err)
		}
	}
	if err := m.o.Counters.Flush(ctx); err != nil {
		m.log.Warn("statistics not flushed for the south listing", "error", err)
	}
	all, err := m.o.Store.ListStatistics(ctx)
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	counts := make(map[string]int64, len(all))
	for _, s := range all {
		counts[s.Key] = s.Value
	}
	out := make([]SouthRecord, 0, len(svcs))
	for i, s := range svcs {
		assets := []AssetCount{}
		for _, e := range events[i] {
			if e.DeprecatedTS.IsZero() && !slices.ContainsFunc(assets, func(a AssetCount) bool { return a.Asset == e.Asset }) {
				assets = append(assets, AssetCount{Asset: e.Asset, Count: counts[e.Asset]})
			}
		}
		rec := SouthRecord{Record: m.record(s), Assets: assets, Plugin: s.Plugin, ScheduleEnabled: s.ScheduleEnabled}
		if def, ok := m.o.Plugins.Lookup(s.Plugin); ok {
			rec.PluginVersion = def.Version
		}
		out = append(out, rec)
	}
	return out, nil
}

// Installed returns the kinds of service this gateway can run: storage and
// the kinds of its plugins (a filter is a step of a service, not one).
func (m *Manager) Installed() []string {
	kinds := append([]string{"storage"}, m.o.Plugins.Kinds()...)
	kinds = slices.DeleteFunc(kinds, func(k string) bool { return k == plugin.KindFilter })
	slices.Sort(kinds)
	return slices.Compact(kinds)
}

// ScheduleSelector names a schedule by ID or by Name (exactly one).
type ScheduleSelector struct {
	ID   string
	Name string
}

// schedule resolves sel or returns a NotFound fault.
func (m *Manager) schedule(ctx context.Context, sel ScheduleSelector) (db.Schedule, error) {
	var (
		s    db.Schedule
		err  error
		what string
	)
	if sel.ID != "" {
		s, err = m.o.Store.GetSchedule(ctx, sel.ID)
		what = fmt.Sprintf("schedule with id %s", sel.ID)
	} else {
		s, err = m.o.Store.GetScheduleByName(ctx, sel.Name)
		what = fmt.Sprintf("schedule %q", sel.Name)
	}
	if errors.Is(err, db.ErrNotFound) {
		return db.Schedule{}, fault.New(fault.NotFound, "%s not found", what)
	}
	if err != nil {
		return db.Schedule{}, fmt.Errorf("service: %w", err)
	}
	return s, nil
}

// Schedule returns the schedule sel names; NotFound when there is none.
func (m *Manager) Schedule(ctx context.Context, sel ScheduleSelector) (db.Schedule, error) {
	return m.schedule(ctx, sel)
}

// Registered returns every registered service (not the core and storage
// records) with its plugin and schedule state.
func (m *Manager) Registered(ctx context.Context) ([]db.Service, error) {
	s, err := m.o.Store.ListServices(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	return s, nil
}

// Schedules returns every schedule, sorted by name.
func (m *Manager) Schedules(ctx context.Context) ([]db.Schedule, error) {
	s, err := m.o.Store.ListSchedules(ctx)
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	return s, nil
}

// SetScheduleEnabled enables or disables the schedule sel names and
// persists the flag; a service's schedule starts or stops the service
// (never starts in safe mode). A change writes SCHCH; setting the current
// value succeeds and changes nothing. Unknown schedule: NotFound.
func (m *Manager) SetScheduleEnabled(ctx context.Context, sel ScheduleSelector, enabled bool) (db.Schedule, error) {
	m.ops.Lock()
	defer m.ops.Unlock()
	s, err := m.schedule(ctx, sel)
	if err != nil {
		return db.Schedule{}, err
	}
	s, changed, err := m.o.Store.SetScheduleEnabled(ctx, s.ID, enabled)
	if errors.Is(err, db.ErrNotFound) {
		return db.Schedule{}, fault.New(fault.NotFound, "schedule %q not found", s.Name)
	}
	if err != nil {
		return db.Schedule{}, fmt.Errorf("service: %w", err)
	}
	if changed {
		m.audit(ctx, auditSchedChanged, auditcode.Information, map[string]any{"schedule": s.Name, "id": s.ID, "enabled": enabled})
		m.log.Info("schedule changed", "schedule", s.Name, "enabled", enabled)
		m.schedulesChanged()
	}
	svc, err := m.o.Store.GetServiceBySchedule(ctx, s.ID)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return s, nil // a task's schedule: the scheduler reads the flag
	case err != nil:
		return db.Schedule{}, fmt.Errorf("service: %w", err)
	}
	switch {
	case !enabled:
		m.stop(ctx, svc.Name)
	case m.o.SafeMode:
		m.log.Info("safe mode: enabled service not started", "service", svc.Name)
	default:
		if err := m.start(ctx, svc); err != nil {
			m.log.Error("service not started", "service", svc.Name, "error", err)
		}
	}
	return s, nil
}

// TrackingEvents returns the asset tracking events matching f.
func (m *Manager) TrackingEvents(ctx context.Context, f db.TrackingFilter) ([]db.TrackingEvent, error) {
	ev, err := m.o.Store.ListTrackingEvents(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	return ev, nil
}

// DeprecateTrackingEvent marks the event of asset in service deprecated
// and writes ASTDP. The next sighting of the asset by that service clears
// the deprecation. Unknown event: NotFound; already deprecated: Conflict.
func (m *Manager) DeprecateTrackingEvent(ctx context.Context, service, asset, event string) error {
	at, err := m.o.Store.DeprecateTrackingEvent(ctx, service, asset, event)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return fault.New(fault.NotFound, "no %s event of asset %q in service %q", event, asset, service)
	case errors.Is(err, db.ErrConflict):
		return fault.New(fault.Conflict, "the %s event of asset %q in service %q is already deprecated", event, asset, service)
	case err != nil:
		return fmt.Errorf("service: %w", err)
	}
	m.o.Tracker.Forget(service, asset, event)
	m.audit(ctx, auditDeprecated, auditcode.Information, map[string]any{"asset": asset, "event": event, "service": service,
		"deprecatedTimestamp": at.UTC().Format("2006-01-02 15:04:05.000000")})
	return nil
}

// PersistentPlugins returns the plugin instances of the service name that
// persist data: its own plugin, named after the service, when it does, and
// the filter instances of its pipeline that do. Unknown service: NotFound.
func (m *Manager) PersistentPlugins(ctx context.Context, name string) ([]string, error) {
	s, err := m.getService(ctx, name)
	if err != nil {
		return nil, err
	}
	out := []string{}
	if def, ok := m.o.Plugins.Lookup(s.Plugin); ok && def.Persists {
		out = append(out, s.Name)
	}
	if m.o.Filters != nil {
		filters, err := m.o.Filters.Persistent(ctx, name)
		if err != nil {
			return nil, err
		}
		out = append(out, filters...)
	}
	return out, nil
}

// pluginInstance checks that service exists and has the plugin instance
// pluginName: its own plugin, named after the service, or a filter
// instance of its pipeline.
func (m *Manager) pluginInstance(ctx context.Context, service, pluginName string) error {
	if _, err := m.getService(ctx, service); err != nil {
		return err
	}
	if pluginName == service {
		return nil
	}
	if m.o.Filters != nil {
		ok, err := m.o.Filters.InPipeline(ctx, service, pluginName)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
	return fault.New(fault.NotFound, "service %q has no plugin instance %q: its plugin is named after the service, its filters as in its pipeline", service, pluginName)
}

// notRunning returns a Conflict fault while the service runs.
func (m *Manager) notRunning(service, action string) error {
	if m.runner(service) != nil || m.northRunning(service) {
		return fault.New(fault.Conflict, "service %q is running; disable its schedule before %s its plugin data", service, action)
	}
	return nil
}

// PluginData returns what the plugin instance persisted at its last
// shutdown. Unknown service or instance, or no data: NotFound.
func (m *Manager) PluginData(ctx context.Context, service, pluginName string) (json.RawMessage, error) {
	if err := m.pluginInstance(ctx, service, pluginName); err != nil {
		return nil, err
	}
	data, err := m.o.Store.GetPluginData(ctx, service, pluginName)
	if errors.Is(err, db.ErrNotFound) {
		return nil, fault.New(fault.NotFound, "plugin %q of service %q has no persisted data", pluginName, service)
	}
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	return data, nil
}

// SetPluginData stores data for the plugin instance to load at its next
// start. Unknown service or instance: NotFound; the service running or
// data already stored: Conflict.
func (m *Manager) SetPluginData(ctx context.Context, service, pluginName string, data json.RawMessage) error {
	m.ops.Lock()
	defer m.ops.Unlock()
	if err := m.pluginInstance(ctx, service, pluginName); err != nil {
		return err
	}
	if err := m.notRunning(service, "writing"); err != nil {
		return err
	}
	err := m.o.Store.InsertPluginData(ctx, service, pluginName, data)
	if errors.Is(err, db.ErrConflict) {
		return fault.New(fault.Conflict, "plugin %q of service %q already has persisted data; delete it first", pluginName, service)
	}
	if err != nil {
		return fmt.Errorf("service: %w", err)
	}
	return nil
}

// DeletePluginData removes the plugin instance's persisted data. Unknown
// service or instance, or no data: NotFound; the service running:
// Conflict.
func (m *Manager) DeletePluginData(ctx context.Context, service, pluginName string) error {
	m.ops.Lock()
	defer m.ops.Unlock()
	if err := m.pluginInstance(ctx, service, pluginName); err != nil {
		return err
	}
	if err := m.notRunning(service, "deleting"); err != nil {
		return err
	}
	err := m.o.Store.DeletePluginData(ctx, service, pluginName)
	if errors.Is(err, db.ErrNotFound) {
		return fault.New(fault.NotFound, "plugin %q of service %q has no persisted data", pluginName, service)
	}
	if err != nil {
		return fmt.Errorf("service: %w", err)
	}
	return nil
}

// Statistics flushes the in-memory counters, so every reading committed so
// far is counted, and returns every statistic sorted by key.
func (m *Manager) Statistics(ctx context.Context) ([]db.Statistic, error) {
	if err := m.o.Counters.Flush(ctx); err != nil {
		m.log.Warn("statistics not flushed before listing them", "error", err)
	}
	s, err := m.o.Store.ListStatistics(ctx)
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	return s, nil
}

// CheckPlugin reports whether a service of type typ could be created with
// plugin name, with the error Create would give if not (Invalid for a bad
// type or a plugin of another kind, NotFound for an unknown plugin or a
// service package not installed): a configuration plan checks with it.
func (m *Manager) CheckPlugin(ctx context.Context, typ, name string) error {
	_, _, err := m.pluginOf(ctx, typ, name)
	return err
}

// pluginOf returns the plugin a service of type typ would run for the
// requested plugin name, and the type in lower case.
func (m *Manager) pluginOf(ctx context.Context, reqType, name string) (plugin.Definition, string, error) {
	typ := strings.ToLower(reqType)
	switch typ {
	case db.ServiceSouth:
	case db.ServiceNorth:
		if m.o.North == nil {
			return plugin.Definition{}, "", fault.New(fault.NotImplemented, "creating a %s service is not implemented yet", typ)
		}
	case db.ServiceNotification, db.ServiceDispatcher:
		hosted, err := m.hostedPlugin(ctx, typ, name)
		if err != nil {
			return plugin.Definition{}, "", err
		}
		name = hosted
	default:
		return plugin.Definition{}, "", fault.New(fault.Invalid, "service type %q is not one of south, north, notification, dispatcher", reqType)
	}
	if name == "" {
		return plugin.Definition{}, "", fault.New(fault.Invalid, `request body field "plugin" is required for a %s service`, typ)
	}
	def, ok := m.o.Plugins.Lookup(name)
	if !ok {
		return plugin.Definition{}, "", fault.New(fault.NotFound, "plugin %q not found; the %s plugins are %s",
			name, typ, strings.Join(m.o.Plugins.Names(typ), ", "))
	}
	if def.Kind != typ {
		return plugin.Definition{}, "", fault.New(fault.Invalid, "plugin %q is a %s plugin, not a %s plugin", name, def.Kind, typ)
	}
	return def, typ, nil
}
