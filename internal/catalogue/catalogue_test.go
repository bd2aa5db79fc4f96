package catalogue

import (
	"maps"
	"slices"
	"testing"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/builtin"
)

// packaged is a south plugin as an installed package registers it, with a
// password item whose default a client must not read.
func packaged() plugin.Definition {
	return plugin.Definition{Name: "pkg_south", Version: "2.1.0", Kind: plugin.KindSouth, Description: "From a package",
		External: true,
		Items: map[string]configmgr.Item{
			"secret": {Description: "A key", Type: configmgr.TypePassword, Default: "hunter2", Order: "1"},
			"mode": {Description: "Mode", Type: configmgr.TypeEnumeration, Default: "a", Options: []string{"a", "b"},
				Order: "2", Validity: `secret != ""`, Mandatory: "true"},
		},
		New: func(plugin.Env, plugin.Config) (plugin.South, error) { return nil, nil },
	}
}

func packagedFilter() plugin.Definition {
	return plugin.Definition{Name: "pkg_filter", Version: "0.3.0", Kind: plugin.KindFilter, Description: "A filter from a package",
		External:  true,
		Items:     map[string]configmgr.Item{"factor": {Description: "Factor", Type: configmgr.TypeFloat, Default: "2"}},
		NewFilter: func(plugin.FilterEnv, plugin.Config) (plugin.Filter, error) { return nil, nil },
	}
}

// gateway returns the registry a gateway starts with (every kind, the
// filters included), plus a package's south plugin and filter plugin,
// registered as the package manager registers them.
func gateway(t *testing.T) *plugin.Registry {
	t.Helper()
	reg := builtin.Registry()
	for _, d := range []plugin.Definition{packaged(), packagedFilter()} {
		if err := reg.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func find(entries []Entry, name string) (Entry, bool) {
	i := slices.IndexFunc(entries, func(e Entry) bool { return e.Name == name })
	if i < 0 {
		return Entry{}, false
	}
	return entries[i], true
}

func TestListsEveryPlugin(t *testing.T) {
	reg := gateway(t)
	c := New(reg)
	all := c.List("")

	var want []string
	for _, d := range builtin.Definitions() {
		want = append(want, d.Kind+"/"+d.Name)
	}
	want = append(want, "south/pkg_south", "filter/pkg_filter")
	slices.Sort(want)
	var got []string
	for _, e := range all {
		got = append(got, e.Kind+"/"+e.Name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("catalogue = %v\nwant        %v", got, want)
	}

	for _, tc := range []struct {
		name    string
		kind    string
		pkg     bool
		version string
		items   []string // items the category gets besides the plugin's own
	}{
		{name: "sinusoid", kind: "south", version: "1.0.0", items: []string{"plugin", "bufferThreshold", "maxSendLatency"}},
		{name: "http_north", kind: "north", version: "1.0.0", items: []string{"plugin"}},
		{name: "scale", kind: "filter", version: "1.0.0", items: []string{"plugin", "enable"}},
		{name: "pkg_south", kind: "south", pkg: true, version: "2.1.0", items: []string{"plugin", "bufferThreshold", "maxSendLatency"}},
		{name: "pkg_filter", kind: "filter", pkg: true, version: "0.3.0", items: []string{"plugin", "enable"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := find(all, tc.name)
			if !ok {
				t.Fatal("not listed")
			}
			if e.Kind != tc.kind || e.Package != tc.pkg || e.Version != tc.version || e.Description == "" {
				t.Errorf("entry = %+v", e)
			}
			for _, item := range tc.items {
				if _, ok := e.Items[item]; !ok {
					t.Errorf("item %q missing from %v", item, slices.Sorted(maps.Keys(e.Items)))
				}
			}
			if p := e.Items["plugin"]; p.Value != tc.name || p.Readonly != "true" {
				t.Errorf("plugin item = %+v", p)
			}
			for name, it := range e.Items {
				if it.Type != configmgr.TypePassword && it.Value != it.Default {
					t.Errorf("item %q: value %q, want the default %q", name, it.Value, it.Default)
				}
			}
		})
	}
}

func TestItemsCarryTheWholeSchema(t *testing.T) {
	reg := gateway(t)
	e, ok := find(New(reg).List(plugin.KindSouth), "pkg_south")
	if !ok {
		t.Fatal("pkg_south not listed")
	}
	if s := e.Items["secret"]; s.Value != configmgr.PasswordMask || s.Default != configmgr.PasswordMask || s.Type != configmgr.TypePassword {
		t.Errorf("password item = %+v, want its default masked", s)
	}
	want := configmgr.Item{Description: "Mode", Type: configmgr.TypeEnumeration, Default: "a", Value: "a",
		Options: []string{"a", "b"}, Order: "2", Validity: `secret != ""`, Mandatory: "true"}
	if m := e.Items["mode"]; m.Description != want.Description || m.Type != want.Type || m.Default != want.Default ||
		m.Value != want.Value || !slices.Equal(m.Options, want.Options) || m.Order != want.Order ||
		m.Validity != want.Validity || m.Mandatory != want.Mandatory {
		t.Errorf("enumeration item = %+v, want %+v", m, want)
	}
	// The registry's definition is not changed by the masking.
	if d, _ := reg.Lookup("pkg_south"); d.Items["secret"].Default != "hunter2" {
		t.Errorf("the registry's password default became %q", d.Items["secret"].Default)
	}
}

func TestListByKind(t *testing.T) {
	reg := gateway(t)
	c := New(reg)
	for _, kind := range []string{plugin.KindSouth, plugin.KindNorth, plugin.KindFilter} {
		t.Run(kind, func(t *testing.T) {
			got := c.List(kind)
			if len(got) == 0 {
				t.Fatal("none listed")
			}
			for _, e := range got {
				if e.Kind != kind {
					t.Errorf("%s is a %s plugin", e.Name, e.Kind)
				}
			}
		})
	}
	if got := c.List("dispatcher"); len(got) != 0 {
		t.Errorf("dispatcher plugins of a gateway without the package = %+v", got)
	}
}

func TestRemovedPackageLeaves(t *testing.T) {
	reg := gateway(t)
	c := New(reg)
	reg.Remove("pkg_south")
	reg.Remove("pkg_filter")
	for _, name := range []string{"pkg_south", "pkg_filter"} {
		if _, ok := find(c.List(""), name); ok {
			t.Errorf("%s still listed after its removal", name)
		}
	}
}
