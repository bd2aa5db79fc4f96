// Package catalogue lists the plugins a gateway can run, built in and
// installed from packages, each with the configuration items a service
// (or filter instance) of it gets, so that a client can render the form
// that creates one before any exists. It reads the plugin registry and
// the filter plugins; it keeps nothing of its own.
package catalogue

import (
	"cmp"
	"slices"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/service"
)

// Entry is one plugin of the catalogue.
type Entry struct {
	Name        string
	Kind        string // south, north, filter, notification or dispatcher
	Version     string
	Description string
	// Package is true for a plugin installed from a package, false for
	// one built into the gateway.
	Package bool
	// Items are the items of the category a service or filter instance
	// of the plugin gets, as a client reads them right after creating
	// one without configuration: values at their defaults, passwords
	// masked.
	Items map[string]configmgr.Item
}

// Plugins are the south, north and service plugins, built in and
// installed; *plugin.Registry implements it.
type Plugins interface {
	Kinds() []string
	Names(kind string) []string
	Lookup(name string) (plugin.Definition, bool)
}

// Filters are the filter plugins the pipelines run, built in and
// installed; *filter.Manager implements it.
type Filters interface {
	Plugins() []string
	Lookup(name string) (plugin.FilterDefinition, bool)
}

// Catalogue answers what plugins there are. It is safe for concurrent
// use as its sources are.
type Catalogue struct {
	plugins Plugins
	filters Filters
}

// New returns a catalogue over plugins and filters (nil: no filters).
func New(plugins Plugins, filters Filters) *Catalogue {
	return &Catalogue{plugins: plugins, filters: filters}
}

// List returns the plugins of kind, or of every kind for "", sorted by
// kind and name. An unknown kind has none.
func (c *Catalogue) List(kind string) []Entry {
	out := c.entries()
	if kind != "" {
		out = slices.DeleteFunc(out, func(e Entry) bool { return e.Kind != kind })
	}
	slices.SortFunc(out, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// entries reads every plugin from the registry and the filters: the one
// place that knows where plugins are kept and how a plugin's items become
// a category's. Filter plugins are taken from the filters, which hold the
// built-in ones too; the registry knows which of them came in packages.
func (c *Catalogue) entries() []Entry {
	var out []Entry
	for _, kind := range c.plugins.Kinds() {
		if kind == plugin.KindFilter {
			continue
		}
		for _, name := range c.plugins.Names(kind) {
			d, ok := c.plugins.Lookup(name)
			if !ok { // removed meanwhile
				continue
			}
			out = append(out, Entry{Name: d.Name, Kind: d.Kind, Version: d.Version, Description: d.Description,
				Package: d.External, Items: configmgr.Initial(service.Items(d))})
		}
	}
	if c.filters == nil {
		return out
	}
	for _, name := range c.filters.Plugins() {
		d, ok := c.filters.Lookup(name)
		if !ok {
			continue
		}
		reg, _ := c.plugins.Lookup(name)
		out = append(out, Entry{Name: d.Name, Kind: plugin.KindFilter, Version: d.Version, Description: d.Description,
			Package: reg.External && reg.Kind == plugin.KindFilter, Items: configmgr.Initial(filter.Items(d))})
	}
	return out
}
