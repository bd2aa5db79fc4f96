package assets

import (
	"context"
	"fmt"

	"github.com/edged/edged/internal/filter/builtin/glob"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Items of the assets filter.
const (
	ItemAssetsAction   = "action"
	ItemAssetsPatterns = "assets"
)

// Definition describes the filter plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Kind: plugin.KindFilter,
		Name: "assets", Version: "1.0.0",
		Description: "Passes on or drops readings by asset code pattern",
		Items:       plugin.ItemsOf(Config{}),
		NewFilter: func(_ plugin.FilterEnv, cfg plugin.Config) (plugin.Filter, error) {
			a := &assets{}
			return a, a.Reconfigure(cfg)
		},
	}
}

type assets struct {
	include  bool
	patterns []glob.Pattern
}

func (a *assets) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	globs := c.Assets
	ps := make([]glob.Pattern, 0, len(globs))
	for _, g := range globs {
		p, err := glob.Compile(g)
		if err != nil {
			return fmt.Errorf("item %q: %w", ItemAssetsPatterns, err)
		}
		ps = append(ps, p)
	}
	switch c.Action {
	case "include":
		a.include = true
	case "exclude":
		a.include = false
	default:
		return fmt.Errorf("item %q is neither include nor exclude", ItemAssetsAction)
	}
	a.patterns = ps
	return nil
}

func (a *assets) Process(_ context.Context, points []plugin.Point) ([]plugin.Point, error) {
	out := points[:0]
	for _, p := range points {
		matched := false
		for _, pat := range a.patterns {
			if pat.Match(p.Asset) {
				matched = true
				break
			}
		}
		if matched == a.include {
			out = append(out, p)
		}
	}
	return out, nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.Filter = (*assets)(nil)
)
