package conformance

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// listPlugins calls the plugin catalogue and fails the test unless it
// answers 200.
func listPlugins(t testing.TB, c *edgeclient.ClientWithResponses, params *edgeclient.ListInstalledPluginsParams) []edgeclient.InstalledPlugin {
	t.Helper()
	resp, err := c.ListInstalledPluginsWithResponse(t.Context(), params)
	must(t, err)
	wantStatus(t, "listInstalledPlugins", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listInstalledPlugins: no JSON body: %s", truncate(resp.Body))
	}
	return resp.JSON200.Plugins
}

// cataloguePlugin returns the catalogue's entry of name, or nil.
func cataloguePlugin(plugins []edgeclient.InstalledPlugin, name string) *edgeclient.InstalledPlugin {
	i := slices.IndexFunc(plugins, func(p edgeclient.InstalledPlugin) bool { return p.Name == name })
	if i < 0 {
		return nil
	}
	return &plugins[i]
}

// sameItems fails the test unless the catalogue's items of a plugin are
// exactly the items of the category got, compared as JSON.
func sameItems(t testing.TB, what string, catalogue *edgeclient.Category, got edgeclient.Category) {
	t.Helper()
	if catalogue == nil {
		t.Errorf("%s: the catalogue has no config", what)
		return
	}
	want, err := json.Marshal(*catalogue)
	must(t, err)
	have, err := json.Marshal(got)
	must(t, err)
	if !bytes.Equal(want, have) {
		t.Errorf("%s: the catalogue's items differ from the created category's:\ncatalogue %s\ncategory  %s", what, want, have)
	}
}

// TestPluginCatalogue checks GET /edge/plugin/installed: the built-in
// plugins of every kind, in order, with config only when asked for, each
// with exactly the items a service or filter instance created from it
// without configuration then shows; and its errors.
func testPluginCatalogue(t *testing.T) {
	c := api(t)
	plain := listPlugins(t, c, nil)
	for _, name := range []string{"sinusoid", "http_south", "http_north"} { // decisions §8
		if p := cataloguePlugin(plain, name); p == nil || p.Origin != edgeclient.PluginOriginBuiltin {
			t.Errorf("built-in plugin %s: catalogue entry %+v", name, p)
		}
	}
	if !slices.IsSortedFunc(plain, func(a, b edgeclient.InstalledPlugin) int {
		return strings.Compare(string(a.Type)+"\x00"+a.Name, string(b.Type)+"\x00"+b.Name)
	}) {
		t.Errorf("the catalogue is not sorted by type and name")
	}
	kinds := map[edgeclient.PluginType]bool{}
	for _, p := range plain {
		kinds[p.Type] = true
		if p.Config != nil {
			t.Errorf("%s: config without config=true", p.Name)
		}
		if p.Version == "" || p.Description == "" || !p.Type.Valid() || !p.Origin.Valid() {
			t.Errorf("incomplete entry %+v", p)
		}
	}
	if !kinds[edgeclient.PluginTypeFilter] {
		t.Errorf("no filter plugins in %+v", plain)
	}

	full := listPlugins(t, c, &edgeclient.ListInstalledPluginsParams{Config: ptr(true)})
	if len(full) != len(plain) {
		t.Errorf("config=true lists %d plugins, without it %d", len(full), len(plain))
	}
	for _, p := range full {
		if p.Origin != edgeclient.PluginOriginBuiltin {
			continue // packages come and go with other tests
		}
		t.Run(string(p.Type)+"/"+p.Name, func(t *testing.T) {
			name := unique("cat-" + p.Name)
			switch p.Type {
			case edgeclient.PluginTypeSouth, edgeclient.PluginTypeNorth:
				var body edgeclient.ServiceRequest
				must(t, body.FromServiceCreateRequest(edgeclient.ServiceCreateRequest{Name: name, Type: string(p.Type),
					Plugin: ptr(p.Name), Enabled: false}))
				resp, err := c.CreateServiceWithResponse(t.Context(), nil, body)
				must(t, err)
				wantStatus(t, "createService "+name, resp.StatusCode(), resp.Body, http.StatusOK)
				defer func() {
					r, err := c.DeleteServiceWithResponse(t.Context(), name)
					must(t, err)
					wantStatus(t, "deleteService "+name, r.StatusCode(), r.Body, http.StatusOK)
				}()
			case edgeclient.PluginTypeFilter:
				createFilter(t, c, name, p.Name, nil)
			default:
				t.Skipf("no instance of a %s plugin is created here", p.Type)
			}
			sameItems(t, p.Name, p.Config, getCategory(t, name))
		})
	}

	t.Run("type", func(t *testing.T) {
		for _, kind := range []edgeclient.PluginType{edgeclient.PluginTypeSouth, edgeclient.PluginTypeNorth, edgeclient.PluginTypeFilter,
			edgeclient.PluginTypeNotification, edgeclient.PluginTypeDispatcher} {
			got := listPlugins(t, c, &edgeclient.ListInstalledPluginsParams{Type: &kind, Config: ptr(true)})
			var want []edgeclient.InstalledPlugin
			for _, p := range full {
				if p.Type == kind {
					want = append(want, p)
				}
			}
			g, err := json.Marshal(got)
			must(t, err)
			w, err := json.Marshal(want)
			must(t, err)
			if len(want) == 0 {
				w = []byte("[]")
			}
			if !bytes.Equal(g, w) {
				t.Errorf("type=%s: %s\nwant %s", kind, g, w)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		for _, q := range []string{"type=teapot", "type=South", "config=maybe", "type="} {
			r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/plugin/installed?" + q})
			checkError(t, r.status, r.body, http.StatusBadRequest)
		}
		r := doRaw(t, rawRequest{method: http.MethodDelete, path: "/edge/plugin/installed"})
		checkError(t, r.status, r.body, http.StatusMethodNotAllowed)
	})
}
