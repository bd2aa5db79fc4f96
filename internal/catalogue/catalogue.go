// Package catalogue lists the plugins a gateway can run, built in and
// installed from packages, each with the configuration items a service
// (or filter instance) of it gets, so that a client can render the form
// that creates one before any exists. It reads the plugin registry; it
// keeps nothing of its own.
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

// Plugins are the plugins of every kind, built in and installed;
// *plugin.Registry implements it.
type Plugins interface {
	Catalogue() []plugin.Entry
	Lookup(name string) (plugin.Definition, bool)
}

// Catalogue answers what plugins there are. It is safe for concurrent
// use as its source is.
type Catalogue struct {
	plugins Plugins
}

// New returns a catalogue over plugins.
func New(plugins Plugins) *Catalogue {
	return &Catalogue{plugins: plugins}
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

// entries reads every plugin from the registry (Registry.Catalogue),
// which holds the filter plugins too: the one place that knows how a
// plugin's items become a category's (a service's or a filter
// instance's).
func (c *Catalogue) entries() []Entry {
	var out []Entry
	for _, e := range c.plugins.Catalogue() {
		d, ok := c.plugins.Lookup(e.Name)
		if !ok { // removed meanwhile
			continue
		}
		items := service.Items
		if d.Kind == plugin.KindFilter {
			items = filter.Items
		}
		out = append(out, Entry{Name: d.Name, Kind: d.Kind, Version: d.Version, Description: d.Description,
			Package: d.External, Items: configmgr.Initial(items(d))})
	}
	return out
}
