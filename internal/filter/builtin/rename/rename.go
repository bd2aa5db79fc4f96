package rename

import (
	"context"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Items of the rename filter.
const (
	ItemRenameAssets     = "assets"
	ItemRenameDatapoints = "datapoints"
)

// Definition describes the filter plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Kind: plugin.KindFilter,
		Name: "rename", Version: "1.0.0",
		Description: "Renames assets and datapoints",
		Items:       plugin.ItemsOf(Config{}),
		NewFilter: func(_ plugin.FilterEnv, cfg plugin.Config) (plugin.Filter, error) {
			r := &rename{}
			return r, r.Reconfigure(cfg)
		},
	}
}

type rename struct{ assets, datapoints map[string]string }

func (r *rename) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	r.assets, r.datapoints = c.Assets, c.Datapoints
	return nil
}

func (r *rename) Process(_ context.Context, points []plugin.Point) ([]plugin.Point, error) {
	for i := range points {
		p := &points[i]
		if to, ok := r.assets[p.Asset]; ok {
			p.Asset = to
		}
		if len(r.datapoints) == 0 {
			continue
		}
		var moved map[string]any
		for from, to := range r.datapoints {
			if v, ok := p.Values[from]; ok && from != to {
				if moved == nil {
					moved = map[string]any{}
				}
				moved[to] = v
				delete(p.Values, from)
			}
		}
		for k, v := range moved {
			p.Values[k] = v
		}
	}
	return points, nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.Filter = (*rename)(nil)
)
