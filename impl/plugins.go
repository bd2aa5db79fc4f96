package impl

import (
	"context"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/catalogue"
)

// ListInstalledPlugins (GET /edge/plugin/installed) is the plugin
// catalogue: every built-in and installed plugin, with the configuration
// items a service of it gets when config=true.
func (s *Server) ListInstalledPlugins(_ context.Context, req gen.ListInstalledPluginsRequestObject) (gen.ListInstalledPluginsResponseObject, error) {
	kind := ""
	if req.Params.Type != nil {
		kind = string(*req.Params.Type)
	}
	withConfig := valueOr(req.Params.Config, false)
	entries := s.catalogue.List(kind)
	out := gen.ListInstalledPlugins200JSONResponse{Plugins: make([]gen.InstalledPlugin, 0, len(entries))}
	for _, e := range entries {
		out.Plugins = append(out.Plugins, installedPluginOut(e, withConfig))
	}
	return out, nil
}

// installedPluginOut converts a catalogue entry to its wire form, with its
// items when withConfig.
func installedPluginOut(e catalogue.Entry, withConfig bool) gen.InstalledPlugin {
	p := gen.InstalledPlugin{Name: e.Name, Type: gen.PluginType(e.Kind), Version: e.Version, Description: e.Description,
		Origin: gen.PluginOriginBuiltin}
	if e.Package {
		p.Origin = gen.PluginOriginPackage
	}
	if withConfig {
		c := gen.Category(itemsOut(e.Items))
		p.Config = &c
	}
	return p
}
