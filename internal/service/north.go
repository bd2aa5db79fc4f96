package service

import (
	"context"
	"errors"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
)

// NorthRuntime runs north services (and owns north tasks);
// *north.Runtime implements it. The Manager keeps the registrations,
// schedules and categories of north services as of south ones, and hands
// running them to the NorthRuntime.
type NorthRuntime interface {
	// Prepare registers a new north service's stream position.
	Prepare(ctx context.Context, name string) error
	// Start starts the north service name running plugin pluginName.
	Start(ctx context.Context, name, pluginName string) error
	// Stop stops it and waits for it.
	Stop(ctx context.Context, name string)
	// Running reports whether it is started.
	Running(name string) bool
	// Status is its status: running, failed, unresponsive or shutdown.
	Status(name string) string
	// Reason says why it is not running ("" while it runs).
	Reason(name string) string
	// Statuses are the statuses of the started north services.
	Statuses() []string
	// Shutdown stops every north service.
	Shutdown(ctx context.Context)
	// Removed forgets a deleted north service (stream position, counter).
	Removed(ctx context.Context, name string) error
	// DeleteTask deletes the north task name; NotFound when there is none.
	DeleteTask(ctx context.Context, name string) error
}

// northProcessName is the process of a north service's schedule.
const northProcessName = "north_C"

// northItems returns the item definitions of a north service's category:
// the plugin's items and the readonly plugin name.
func northItems(def plugin.Definition) map[string]configmgr.Item {
	items := make(map[string]configmgr.Item, len(def.Items)+1)
	for name, it := range def.Items {
		items[name] = it
	}
	items[ItemPlugin] = configmgr.Item{Description: "The plugin the service runs", Type: configmgr.TypeString,
		Default: def.Name, DisplayName: "Plugin", Order: "0", Readonly: "true"}
	return items
}

// isNorth reports whether s is a north service the runtime can run.
func (m *Manager) isNorth(s db.Service) bool {
	return s.Type == db.ServiceNorth && m.o.North != nil
}

// northRunning reports whether the north service name is started.
func (m *Manager) northRunning(name string) bool {
	return m.o.North != nil && m.o.North.Running(name)
}

// northStatus returns the status of name when it is a started north
// service.
func (m *Manager) northStatus(name string) (string, bool) {
	if !m.northRunning(name) {
		return "", false
	}
	return m.o.North.Status(name), true
}

// deleteNorthTask deletes the north task name when there is one; the
// NotFound fault of the service otherwise.
func (m *Manager) deleteNorthTask(ctx context.Context, name string) error {
	if m.o.North == nil {
		return notFound(name)
	}
	err := m.o.North.DeleteTask(ctx, name)
	if errors.Is(err, fault.NotFound) {
		return notFound(name)
	}
	if err == nil {
		m.log.Info("north task deleted", "task", name)
	}
	return err
}

// northStatuses returns the statuses of the started north services.
func (m *Manager) northStatuses() []string {
	if m.o.North == nil {
		return nil
	}
	return m.o.North.Statuses()
}
