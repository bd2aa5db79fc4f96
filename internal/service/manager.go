// Package service is the service runtime: it creates, starts, supervises,
// reconfigures, stops and deletes south services, each one plugin instance
// in a supervised goroutine feeding its own ingest buffer. It also owns
// what hangs off a service: its schedule (which decides whether it runs),
// its configuration category, its plugin's persisted data and its asset
// tracking events.
//
// Errors a client may see are *fault.Fault values; any other error is a
// storage failure.
package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/backoff"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/supervisor"
	"github.com/edged/edged/internal/system"
)

// Store is the storage the runtime needs; *db.DB implements it.
type Store interface {
	ingest.ReadingStore
	Ping(ctx context.Context) error
	CreateService(ctx context.Context, svc db.Service, sched db.Schedule) (db.Service, error)
	GetService(ctx context.Context, name string) (db.Service, error)
	GetServiceBySchedule(ctx context.Context, scheduleID string) (db.Service, error)
	ListServices(ctx context.Context, typ string) ([]db.Service, error)
	DeleteService(ctx context.Context, name string, statistics []string) error
	GetSchedule(ctx context.Context, id string) (db.Schedule, error)
	GetScheduleByName(ctx context.Context, name string) (db.Schedule, error)
	ListSchedules(ctx context.Context) ([]db.Schedule, error)
	SetScheduleEnabled(ctx context.Context, id string, enabled bool) (db.Schedule, bool, error)
	GetPluginData(ctx context.Context, service, pluginName string) (json.RawMessage, error)
	InsertPluginData(ctx context.Context, service, pluginName string, data json.RawMessage) error
	SavePluginData(ctx context.Context, service, pluginName string, data json.RawMessage) error
	DeletePluginData(ctx context.Context, service, pluginName string) error
	ListTrackingEvents(ctx context.Context, f db.TrackingFilter) ([]db.TrackingEvent, error)
	DeprecateTrackingEvent(ctx context.Context, service, asset, event string) (time.Time, error)
	ListStatistics(ctx context.Context) ([]db.Statistic, error)
}

// Config is the configuration manager as the runtime uses it;
// *configmgr.Manager implements it.
type Config interface {
	Create(ctx context.Context, in configmgr.CategoryInput) (configmgr.Category, error)
	Category(ctx context.Context, key string) (configmgr.Category, error)
	Value(ctx context.Context, key, item string) (string, error)
	SetValue(ctx context.Context, key, item, value string) (configmgr.Item, error)
	Subscribe(key string, fn func(ctx context.Context, c configmgr.Category) error) (cancel func())
}

// Auditor writes audit entries.
type Auditor interface {
	Record(ctx context.Context, source, severity string, details any) error
}

// Audit sources and severities the runtime writes.
const (
	auditRegistered   = auditcode.ServiceRegistered
	auditUnregistered = auditcode.ServiceUnregistered
	auditFailed       = auditcode.ServiceFailed
	auditSchedAdded   = auditcode.ScheduleAdded
	auditSchedChanged = auditcode.ScheduleChanged
	auditDeprecated   = auditcode.AssetDeprecated
)

// Backoff is the restart backoff of services.
type Backoff = backoff.Policy

// DefaultBackoff is the restart backoff of services unless Options say otherwise.
var DefaultBackoff = backoff.Default

// Options configure a Manager.
type Options struct {
	Store    Store
	Config   Config
	Audit    Auditor
	Plugins  *plugin.Registry
	Counters *ingest.Counters
	Tracker  *ingest.Tracker
	Clock    clock.Clock
	Logger   *slog.Logger
	// SafeMode keeps every service stopped (--safe-mode).
	SafeMode bool
	// CorePort is the port of the API, reported for the core and as the
	// management port of services (they run inside the core).
	CorePort int
	// Backoff of restarts after failures; zero fields take DefaultBackoff's.
	Backoff Backoff
	// StopGrace bounds how long a plugin may take to stop (default
	// DefaultStopGrace); beyond it the service is reported unresponsive.
	StopGrace time.Duration
	// StartWait bounds how long starting a service waits for its plugin
	// to come up (default 10 s).
	StartWait time.Duration
	// SchedulesChanged, when set, is called after the runtime changed the
	// schedules table (a schedule created, enabled, disabled or deleted),
	// e.g. the scheduler's Notify.
	SchedulesChanged func()
	// North runs north services; nil leaves them stopped.
	North NorthRuntime
	// Monitor is the service monitor's settings (SMNTR): health checks,
	// restarts of failed services; nil means supervisor.DefaultSettings.
	Monitor supervisor.Source
	// Filters runs the services' filter pipelines; nil runs none.
	Filters Pipelines
	// Observer, when set, watches the writes of every ingest buffer.
	Observer ingest.Observer
	// Listener, when set, is handed the readings every ingest buffer
	// committed (the notification service's feed).
	Listener ingest.Listener
}

// Pipelines runs services' filter pipelines; *filter.Manager implements
// it.
type Pipelines interface {
	// Open starts the pipeline of service; an error means the service
	// must not run unfiltered.
	Open(ctx context.Context, service string, st filter.Stage) (*filter.Pipeline, error)
	// Persistent returns the filter instances of service's pipeline that
	// persist data.
	Persistent(ctx context.Context, service string) ([]string, error)
	// InPipeline reports whether service's pipeline holds the instance.
	InPipeline(ctx context.Context, service, name string) (bool, error)
}

// Manager runs the gateway's services. It is safe for concurrent use.
type Manager struct {
	o   Options
	log *slog.Logger

	// ops serialises operations that start or stop services (start at
	// gateway start, create, enable, disable, delete, shutdown), so a
	// service is never started and stopped at once.
	ops sync.Mutex

	mu      sync.Mutex         // guards runners, base and closed
	runners map[string]*runner // running (or failed and retrying) services
	hosted  map[string]*hosted // started notification and dispatcher services
	base    context.Context    // parent of every runner; set by Start
	closed  bool               // Shutdown was called
	started func(ctx context.Context, typ string, inst plugin.Service) error
}

// The time a service's stop takes at most: its plugin's stop grace, then
// the write of its ingest buffer to storage. The gateway's stop budget
// (internal/app) is built on them.
const (
	DefaultStopGrace = 15 * time.Second
	DrainWait        = 30 * time.Second
)

// New returns a Manager; call Start to start the enabled services.
func New(o Options) *Manager {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	o.Backoff = o.Backoff.WithDefaults()
	if o.StopGrace <= 0 {
		o.StopGrace = DefaultStopGrace
	}
	if o.StartWait <= 0 {
		o.StartWait = 10 * time.Second
	}
	return &Manager{o: o, log: o.Logger, runners: map[string]*runner{}, hosted: map[string]*hosted{}, base: context.Background()}
}

// Start starts every south service whose schedule is enabled, unless in
// safe mode. A service that cannot start is logged and audited (SRVFL); it
// does not stop the others. Runners live until Shutdown, not until ctx
// ends.
func (m *Manager) Start(ctx context.Context) error {
	m.mu.Lock()
	m.base = context.WithoutCancel(ctx)
	m.mu.Unlock()
	if m.o.SafeMode {
		m.log.Info("safe mode: no service is started")
		return nil
	}
	svcs, err := m.o.Store.ListServices(ctx, "")
	if err != nil {
		return fmt.Errorf("service: list services: %w", err)
	}
	m.ops.Lock()
	defer m.ops.Unlock()
	for _, s := range svcs {
		if !s.ScheduleEnabled || (s.Type != db.ServiceSouth && !m.isNorth(s) && !isHosted(s)) {
			continue
		}
		if err := m.start(ctx, s); err != nil {
			m.log.Error("service not started", "service", s.Name, "error", err)
		}
	}
	return nil
}

// Shutdown stops every service cleanly (plugins stopped, buffers flushed,
// plugin state persisted) and refuses later starts. It returns once all are
// stopped or ctx ends.
func (m *Manager) Shutdown(ctx context.Context) {
	m.ops.Lock()
	defer m.ops.Unlock()
	m.mu.Lock()
	m.closed = true
	names := make([]string, 0, len(m.runners)+len(m.hosted))
	for name := range m.runners {
		names = append(names, name)
	}
	for name := range m.hosted {
		names = append(names, name)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Go(func() { m.stop(ctx, name) })
	}
	if m.o.North != nil {
		wg.Go(func() { m.o.North.Shutdown(ctx) })
	}
	wg.Wait()
}

// runner returns the runner of name, if it runs.
func (m *Manager) runner(name string) *runner {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runners[name]
}

// Status returns the status of the service name: running, failed or
// unresponsive while it is started, shutdown otherwise.
func (m *Manager) Status(name string) string {
	if r := m.runner(name); r != nil {
		return r.status()
	}
	if st, ok := m.northStatus(name); ok {
		return st
	}
	if st, ok := m.hostedStatus(name); ok {
		return st
	}
	return system.StatusShutdown
}

// Reason says why the started service name is not running: why its last
// attempt failed (for an external plugin that did not start, with the end
// of its stderr), its failed health check, or that its plugin has not
// started yet; "" while it runs or is shut down.
func (m *Manager) Reason(name string) string {
	if r := m.runner(name); r != nil {
		return r.sup.Reason()
	}
	if m.northRunning(name) {
		return m.o.North.Reason(name)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if h := m.hosted[name]; h != nil {
		return h.sup.Reason()
	}
	return ""
}

// Statuses returns the statuses of the started services, for the health
// that ping reports.
func (m *Manager) Statuses() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.runners))
	for _, r := range m.runners {
		out = append(out, r.status())
	}
	for _, h := range m.hosted {
		out = append(out, h.sup.Status())
	}
	return append(out, m.northStatuses()...)
}

// BufferDepths returns the readings held by the ingest buffer of every
// started south service, by service name.
func (m *Manager) BufferDepths() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]int, len(m.runners))
	for name, r := range m.runners {
		out[name] = r.buf.Depth()
	}
	return out
}

// FlushStatistics writes the in-memory counters to storage now, so a
// reader sees every reading committed so far.
func (m *Manager) FlushStatistics(ctx context.Context) error {
	return m.o.Counters.Flush(ctx)
}

// start starts service s; m.ops is held.
func (m *Manager) start(ctx context.Context, s db.Service) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return errors.New("the gateway is shutting down")
	}
	if m.isNorth(s) {
		m.mu.Unlock()
		return m.o.North.Start(ctx, s.Name, s.Plugin)
	}
	if isHosted(s) {
		m.mu.Unlock()
		return m.startHosted(ctx, s)
	}
	if m.runners[s.Name] != nil {
		m.mu.Unlock()
		return nil
	}
	base := m.base
	m.mu.Unlock()

	def, ok := m.o.Plugins.Lookup(s.Plugin)
	if !ok {
		err := fmt.Errorf("plugin %q is not installed", s.Plugin)
		m.audit(ctx, auditFailed, auditcode.Failure, map[string]any{"name": s.Name, "error": err.Error()})
		return err
	}
	_, limits, err := m.serviceConfig(ctx, s.Name)
	if err != nil {
		m.audit(ctx, auditFailed, auditcode.Failure, map[string]any{"name": s.Name, "error": err.Error()})
		return err
	}
	r := newRunner(m, s.Name, def, limits)
	m.mu.Lock()
	m.runners[s.Name] = r
	m.mu.Unlock()
	m.audit(ctx, auditRegistered, auditcode.Information, map[string]any{"name": s.Name, "plugin": s.Plugin})
	m.log.Info("service starting", "service", s.Name, "plugin", s.Plugin)
	r.start(base)
	r.unsubscribe = m.o.Config.Subscribe(s.Name, r.onConfig)
	m.awaitStart(ctx, s.Name, r.sup)
	return nil
}

// awaitStart waits up to StartWait for the first attempt of the service
// name to come up, and logs how it went: a start that fails or takes
// longer goes on in the supervisor's hands.
func (m *Manager) awaitStart(ctx context.Context, name string, sup *supervisor.Supervisor) {
	wait := m.o.Clock.NewTimer(m.o.StartWait)
	defer wait.Stop()
	select {
	case err := <-sup.Started():
		if err != nil {
			m.log.Warn("service failed to start; it will be retried", "service", name, "error", err)
		}
	case <-wait.C():
		m.log.Warn("service still starting", "service", name)
	case <-ctx.Done():
	}
}

// stop stops the service name if it runs; m.ops is held. A plugin that
// does not stop within StopGrace leaves the service unresponsive; it is
// finished (buffer drained, unregistered) whenever it stops.
func (m *Manager) stop(ctx context.Context, name string) {
	if m.northRunning(name) {
		m.o.North.Stop(ctx, name)
		return
	}
	if m.stopHosted(ctx, name) {
		return
	}
	r := m.runner(name)
	if r == nil {
		return
	}
	r.unsubscribe()
	if !r.sup.Stop(ctx, m.o.Clock.NewTimer(m.o.StopGrace)) {
		go func() { // forget it once it finally stops
			<-r.sup.Done()
			m.finish(context.WithoutCancel(ctx), r)
		}()
		return
	}
	m.finish(ctx, r)
}

// finish drains a stopped runner's buffer and unregisters it.
func (m *Manager) finish(ctx context.Context, r *runner) {
	drainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DrainWait)
	defer cancel()
	if err := r.buf.Close(drainCtx); err != nil {
		m.log.Error("ingest buffer not drained", "service", r.name, "error", err)
	}
	m.mu.Lock()
	if m.runners[r.name] == r {
		delete(m.runners, r.name)
	}
	m.mu.Unlock()
	m.audit(ctx, auditUnregistered, auditcode.Information, map[string]any{"name": r.name})
	m.log.Info("service stopped", "service", r.name)
}

// SetSchedulesChanged sets the SchedulesChanged hook after construction
// (for a scheduler built after the runtime); call it before Start.
func (m *Manager) SetSchedulesChanged(fn func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.o.SchedulesChanged = fn
}

// schedulesChanged tells the SchedulesChanged hook, if any.
func (m *Manager) schedulesChanged() {
	m.mu.Lock()
	fn := m.o.SchedulesChanged
	m.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// audit writes an entry; a failure is logged, since what it records has
// happened.
func (m *Manager) audit(ctx context.Context, source, severity string, details any) {
	if err := m.o.Audit.Record(context.WithoutCancel(ctx), source, severity, details); err != nil {
		m.log.Error("audit entry not written", "source", source, "error", err)
	}
}

// Items of a service's category besides its plugin's.
const (
	ItemPlugin          = "plugin"
	ItemBufferThreshold = "bufferThreshold"
	ItemMaxSendLatency  = "maxSendLatency"
)

// Items returns the items of the category a service of plugin def gets:
// the plugin's own and the service's, by def's kind (a south service's
// buffer limits, every service's readonly plugin name). The plugin
// catalogue serves them, so a client can render the create form.
func Items(def plugin.Definition) map[string]configmgr.Item {
	if def.Kind == plugin.KindSouth {
		return serviceItems(def)
	}
	return northItems(def)
}

// serviceItems returns the item definitions of a south service's category:
// the plugin's items, the readonly plugin name and the ingest settings.
func serviceItems(def plugin.Definition) map[string]configmgr.Item {
	items := make(map[string]configmgr.Item, len(def.Items)+3)
	for name, it := range def.Items {
		items[name] = it
	}
	items[ItemPlugin] = configmgr.Item{Description: "The plugin the service runs", Type: configmgr.TypeString,
		Default: def.Name, DisplayName: "Plugin", Order: "0", Readonly: "true"}
	items[ItemBufferThreshold] = configmgr.Item{Description: "Most readings written to storage in one transaction (readings that queued while the previous write was in flight go together, up to this many)",
		Type: configmgr.TypeInteger, Default: strconv.Itoa(ingest.DefaultLimits.BatchSize), DisplayName: "Buffer threshold",
		Order: "100", Minimum: "1", Maximum: "100000"}
	items[ItemMaxSendLatency] = configmgr.Item{Description: "Milliseconds readings of polled plugins may wait to share a transaction; readings a sender waits for are written at once",
		Type: configmgr.TypeInteger, Default: strconv.Itoa(int(ingest.DefaultLimits.MaxLatency / time.Millisecond)),
		DisplayName: "Maximum latency (ms)", Order: "101", Minimum: "0", Maximum: "60000"}
	return items
}

// configOf turns a category into a plugin configuration and buffer limits.
func configOf(c configmgr.Category) (plugin.Config, ingest.Limits) {
	cfg := make(plugin.Config, len(c.Items))
	for name, it := range c.Items {
		cfg[name] = it.Value
	}
	limits := ingest.DefaultLimits
	if n, err := strconv.Atoi(cfg[ItemBufferThreshold]); err == nil && n > 0 {
		limits.BatchSize = n
	}
	if n, err := strconv.Atoi(cfg[ItemMaxSendLatency]); err == nil && n >= 0 {
		limits.MaxLatency = time.Duration(n) * time.Millisecond
	}
	return cfg, limits
}

// serviceConfig reads the current configuration of the service name, with
// password values unmasked.
func (m *Manager) serviceConfig(ctx context.Context, name string) (plugin.Config, ingest.Limits, error) {
	c, err := m.o.Config.Category(ctx, name)
	if err == nil {
		c, err = configmgr.Unmasked(ctx, m.o.Config, c)
	}
	if err != nil {
		return nil, ingest.Limits{}, fmt.Errorf("configuration of service %q: %w", name, err)
	}
	cfg, limits := configOf(c)
	return cfg, limits, nil
}

// notFound returns the NotFound fault for an unknown service.
func notFound(name string) error {
	return fault.New(fault.NotFound, "service %q not found", name)
}

// getService returns the service name or a NotFound fault.
func (m *Manager) getService(ctx context.Context, name string) (db.Service, error) {
	s, err := m.o.Store.GetService(ctx, name)
	if errors.Is(err, db.ErrNotFound) {
		return db.Service{}, notFound(name)
	}
	if err != nil {
		return db.Service{}, fmt.Errorf("service: %w", err)
	}
	return s, nil
}
