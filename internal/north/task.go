package north

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/system"
)

// ItemPlugin is the readonly item of a north task's category naming its
// plugin (as in a service's category).
const ItemPlugin = "plugin"

// Names that stand for the core and storage in service listings; a task
// cannot take them.
var reserved = []string{"Edge Core", "Edge Storage"}

// MaxRepeat is the longest interval between runs of a north task, in
// seconds (a year).
const MaxRepeat = 365 * 24 * 3600

// TaskRequest is a north task to create.
type TaskRequest struct {
	Name    string
	Plugin  string
	Enabled bool
	Repeat  int64             // seconds between runs, 1..MaxRepeat
	Config  map[string]string // item name → value
}

// taskItems are the items of a north task's category: the plugin's and
// the readonly plugin name.
func taskItems(def plugin.Definition) map[string]configmgr.Item {
	items := maps.Clone(def.Items)
	if items == nil {
		items = map[string]configmgr.Item{}
	}
	items[ItemPlugin] = configmgr.Item{Description: "The plugin the task runs", Type: configmgr.TypeString,
		Default: def.Name, DisplayName: "Plugin", Order: "0", Readonly: "true"}
	return items
}

// CreateTask validates the request completely, then creates the task's
// configuration category (the plugin's items with the requested values and
// the readonly plugin item), its stream position (nothing sent) and its
// INTERVAL schedule (SCHAD), all named after it. An enabled task runs at
// once and then every Repeat seconds.
//
// Errors: Invalid for a bad name, repeat, a plugin that is not a north
// plugin or a config value failing its item's rules; NotFound for an
// unknown plugin; Conflict when a service, schedule or category already
// has the name, or it is reserved.
func (rt *Runtime) CreateTask(ctx context.Context, req TaskRequest) (db.Schedule, error) {
	if err := configmgr.CheckName("task", req.Name); err != nil {
		return db.Schedule{}, err
	}
	if req.Repeat < 1 || req.Repeat > MaxRepeat {
		return db.Schedule{}, fault.New(fault.Invalid, "repeat %d is not a number of seconds from 1 to %d", req.Repeat, MaxRepeat)
	}
	if req.Plugin == "" {
		return db.Schedule{}, fault.New(fault.Invalid, `request body field "plugin" is required`)
	}
	def, ok := rt.o.Plugins.Lookup(req.Plugin)
	if !ok {
		return db.Schedule{}, fault.New(fault.NotFound, "plugin %q not found; the north plugins are %s",
			req.Plugin, strings.Join(rt.o.Plugins.Names(plugin.KindNorth), ", "))
	}
	if def.Kind != plugin.KindNorth {
		return db.Schedule{}, fault.New(fault.Invalid, "plugin %q is a %s plugin, not a north plugin", req.Plugin, def.Kind)
	}
	items := taskItems(def)
	values, err := configmgr.CheckValues(req.Name, items, req.Config)
	if err != nil {
		return db.Schedule{}, err
	}
	if slices.Contains(reserved, req.Name) {
		return db.Schedule{}, fault.New(fault.Conflict, "the name %q is reserved", req.Name)
	}
	rt.mu.Lock()
	sched := rt.schedules
	rt.mu.Unlock()
	if sched == nil {
		return db.Schedule{}, errors.New("north: no scheduler to create tasks on")
	}

	rt.create.Lock()
	defer rt.create.Unlock()
	switch _, err := rt.o.Store.GetScheduleByName(ctx, req.Name); {
	case err == nil:
		return db.Schedule{}, fault.New(fault.Conflict, "a service or schedule named %q already exists", req.Name)
	case !errors.Is(err, db.ErrNotFound):
		return db.Schedule{}, fmt.Errorf("north: %w", err)
	}
	switch _, err := rt.o.Config.Category(ctx, req.Name); {
	case err == nil:
		return db.Schedule{}, fault.New(fault.Conflict, "a configuration category named %q already exists", req.Name)
	case !errors.Is(err, fault.NotFound):
		return db.Schedule{}, fmt.Errorf("north: %w", err)
	}
	// The category and position come first: an enabled INTERVAL schedule
	// runs as soon as it exists.
	undo := func() {
		if err := rt.o.Store.DeleteStreamPosition(context.WithoutCancel(ctx), req.Name); err != nil {
			rt.log.Error("north task half created and not removed", "task", req.Name, "error", err)
		}
	}
	if err := rt.createCategory(ctx, req.Name, def, items, values); err != nil {
		return db.Schedule{}, err
	}
	if err := rt.Prepare(ctx, req.Name); err != nil {
		return db.Schedule{}, err
	}
	s, err := sched.Create(ctx, db.Schedule{Name: req.Name, ProcessName: db.NorthTaskProcess, Type: db.ScheduleInterval,
		RepeatSeconds: req.Repeat, Exclusive: true, Enabled: req.Enabled})
	if err != nil {
		undo()
		return db.Schedule{}, err
	}
	// A package removal unregisters its plugin before it looks for the
	// tasks using it: either it finds this task, or the plugin is gone
	// here, and the task is not left to fail at every run.
	if _, ok := rt.o.Plugins.Lookup(def.Name); !ok {
		if err := rt.DeleteTask(context.WithoutCancel(ctx), req.Name); err != nil {
			rt.log.Error("north task of a removed plugin not removed", "task", req.Name, "error", err)
		}
		return db.Schedule{}, fault.New(fault.NotFound, "plugin %q was removed", def.Name)
	}
	rt.log.Info("north task created", "task", req.Name, "plugin", def.Name, "repeat", req.Repeat, "enabled", req.Enabled)
	return s, nil
}

// createCategory creates a task's category and sets the requested values
// (already validated).
func (rt *Runtime) createCategory(ctx context.Context, name string, def plugin.Definition, items map[string]configmgr.Item, values map[string]string) error {
	desc := def.Description
	if desc == "" {
		desc = def.Name + " north task"
	}
	if _, err := rt.o.Config.Create(ctx, configmgr.CategoryInput{Key: name, Description: desc, DisplayName: name, Items: items}); err != nil {
		return fmt.Errorf("north: create category %q: %w", name, err)
	}
	for _, item := range slices.Sorted(maps.Keys(values)) {
		if values[item] == items[item].Default {
			continue
		}
		if _, err := rt.o.Config.SetValue(ctx, name, item, values[item]); err != nil {
			return fmt.Errorf("north: set %s of category %q: %w", item, name, err)
		}
	}
	return nil
}

// DeleteTask removes the north task name: schedule, category, stream
// position and statistic. A run in progress finishes its block. Unknown
// task: NotFound.
func (rt *Runtime) DeleteTask(ctx context.Context, name string) error {
	err := rt.o.Store.DeleteNorthTask(ctx, name)
	if errors.Is(err, db.ErrNotFound) {
		return fault.New(fault.NotFound, "north task %q not found", name)
	}
	if err != nil {
		return fmt.Errorf("north: %w", err)
	}
	rt.forget(name)
	rt.mu.Lock()
	sched := rt.schedules
	rt.mu.Unlock()
	if sched != nil {
		sched.Notify()
	}
	rt.log.Info("north task deleted", "task", name)
	return nil
}

// TasksUsing returns the north tasks whose plugin is pluginName, by name.
func (rt *Runtime) TasksUsing(ctx context.Context, pluginName string) ([]string, error) {
	scheds, err := rt.o.Store.ListSchedules(ctx)
	if err != nil {
		return nil, fmt.Errorf("north: %w", err)
	}
	var out []string
	for _, s := range scheds {
		if s.ProcessName != db.NorthTaskProcess {
			continue
		}
		name, err := rt.o.Config.Value(ctx, s.Name, ItemPlugin)
		if errors.Is(err, fault.NotFound) {
			continue // half created or half deleted
		}
		if err != nil {
			return nil, fmt.Errorf("north: plugin of task %q: %w", s.Name, err)
		}
		if name == pluginName {
			out = append(out, s.Name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// RunTask is one execution of the north task named task (the scheduler's
// process db.NorthTaskProcess): it sends what is pending with a new
// instance of the task's plugin, then audits NHCOM with the number sent.
// Cancelled, it returns ctx's error once the position of what was
// accepted is saved.
func (rt *Runtime) RunTask(ctx context.Context, task string) error {
	rt.mu.Lock()
	rt.tasks[task]++
	rt.mu.Unlock()
	defer func() {
		rt.mu.Lock()
		if rt.tasks[task]--; rt.tasks[task] <= 0 {
			delete(rt.tasks, task)
		}
		rt.mu.Unlock()
	}()
	name, err := rt.o.Config.Value(ctx, task, ItemPlugin)
	if err != nil {
		return fmt.Errorf("north task %q: plugin: %w", task, err)
	}
	def, ok := rt.o.Plugins.Lookup(name)
	if !ok || def.Kind != plugin.KindNorth {
		return fmt.Errorf("north task %q: north plugin %q is not installed", task, name)
	}
	inst, err := rt.instance(ctx, task, def, nil)
	if err != nil {
		return fmt.Errorf("north task %q: %w", task, err)
	}
	defer closeInstance(inst, rt.log)
	sent, err := rt.stream(task, def.Name, inst, nil).Drain(ctx)
	if err != nil {
		return err
	}
	rt.audit(ctx, auditTaskComplete, auditcode.Information, map[string]any{"name": task, "sent": sent})
	return nil
}

// Record is a north service or task as GET /edge/north shows it.
type Record struct {
	Name          string
	Task          bool // a scheduled task, not a service
	Plugin        string
	PluginVersion string
	Sent          int64
	Status        string // running, shutdown, failed, unresponsive
	ScheduleID    string
	Enabled       bool
	Repeat        int64 // a task's seconds between runs; 0 for a service
}

// List returns every north service and task, sorted by name, with the
// readings each sent (its statistic, counted with its stream position).
func (rt *Runtime) List(ctx context.Context) ([]Record, error) {
	svcs, err := rt.o.Store.ListServices(ctx, db.ServiceNorth)
	if err != nil {
		return nil, fmt.Errorf("north: %w", err)
	}
	scheds, err := rt.o.Store.ListSchedules(ctx)
	if err != nil {
		return nil, fmt.Errorf("north: %w", err)
	}
	all, err := rt.o.Store.ListStatistics(ctx)
	if err != nil {
		return nil, fmt.Errorf("north: %w", err)
	}
	sent := make(map[string]int64, len(all))
	for _, s := range all {
		sent[s.Key] = s.Value
	}
	out := make([]Record, 0, len(svcs))
	for _, s := range svcs {
		out = append(out, rt.record(Record{Name: s.Name, Plugin: s.Plugin, Sent: sent[s.Name], Status: rt.Status(s.Name),
			ScheduleID: s.ScheduleID, Enabled: s.ScheduleEnabled}))
	}
	for _, s := range scheds {
		if s.ProcessName != db.NorthTaskProcess {
			continue
		}
		name, err := rt.o.Config.Value(ctx, s.Name, ItemPlugin)
		if err != nil && !errors.Is(err, fault.NotFound) {
			return nil, fmt.Errorf("north: plugin of task %q: %w", s.Name, err)
		}
		rt.mu.Lock()
		status := system.StatusShutdown
		if rt.tasks[s.Name] > 0 {
			status = system.StatusRunning
		}
		rt.mu.Unlock()
		out = append(out, rt.record(Record{Name: s.Name, Task: true, Plugin: name, Sent: sent[s.Name], Status: status,
			ScheduleID: s.ID, Enabled: s.Enabled, Repeat: s.RepeatSeconds}))
	}
	slices.SortFunc(out, func(a, b Record) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// record fills in the plugin's version.
func (rt *Runtime) record(r Record) Record {
	if def, ok := rt.o.Plugins.Lookup(r.Plugin); ok {
		r.PluginVersion = def.Version
	}
	return r
}
