// Package builtin lists the plugins compiled into the gateway, of every
// kind (filters included): the one registry the services, the north
// runtime, the filter pipelines and the package manager share. Adding a
// plugin is one line here besides the plugin's own package.
package builtin

import (
	filters "github.com/edged/edged/internal/filter/builtin"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/httpnorth"
	"github.com/edged/edged/internal/plugin/httpsouth"
	"github.com/edged/edged/internal/plugin/modbus"
	"github.com/edged/edged/internal/plugin/mqtt"
	"github.com/edged/edged/internal/plugin/natsnorth"
	"github.com/edged/edged/internal/plugin/opcua"
	"github.com/edged/edged/internal/plugin/sinusoid"
	"github.com/edged/edged/internal/plugin/systeminfo"
)

// Definitions returns the built-in plugins.
func Definitions() []plugin.Definition {
	return append([]plugin.Definition{
		sinusoid.Definition(),
		httpsouth.Definition(),
		systeminfo.Definition(),
		httpnorth.Definition(),
		modbus.Definition(),
		mqtt.SouthDefinition(),
		mqtt.NorthDefinition(),
		natsnorth.Definition(),
		opcua.Definition(),
	}, filters.Definitions()...)
}

// Registry returns a registry of the built-in plugins.
func Registry() *plugin.Registry {
	r, err := plugin.NewRegistry(Definitions()...)
	if err != nil {
		panic(err) // the built-in list is fixed at compile time; a test guards it
	}
	return r
}
