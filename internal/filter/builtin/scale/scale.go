package scale

import (
	"context"
	"fmt"

	"github.com/edged/edged/internal/filter/builtin/glob"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// ItemScaleRules is the scale filter's list of rules.
const ItemScaleRules = "rules"

// Definition describes the filter plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Kind: plugin.KindFilter,
		Name: "scale", Version: "1.0.0",
		Description: "Scales numeric datapoints: value × factor + offset, by asset and datapoint pattern",
		Items:       plugin.ItemsOf(Config{}),
		NewFilter: func(_ plugin.FilterEnv, cfg plugin.Config) (plugin.Filter, error) {
			s := &scale{}
			return s, s.Reconfigure(cfg)
		},
	}
}

type scaleRule struct {
	asset, datapoint glob.Pattern
	factor, offset   float64
}

type scale struct{ rules []scaleRule }

func (s *scale) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	raw := c.Rules
	rules := make([]scaleRule, 0, len(raw))
	for i, r := range raw {
		if r.Asset == "" {
			r.Asset = "*"
		}
		var rule scaleRule
		var err error
		if rule.asset, err = glob.Compile(r.Asset); err != nil {
			return fmt.Errorf("rule %d: asset %w", i+1, err)
		}
		if rule.datapoint, err = glob.Compile(r.Datapoint); err != nil {
			return fmt.Errorf("rule %d: datapoint %w", i+1, err)
		}
		rule.factor, rule.offset = 1, r.Offset
		if r.Factor != nil {
			rule.factor = *r.Factor
		}
		rules = append(rules, rule)
	}
	s.rules = rules
	return nil
}

func (s *scale) Process(_ context.Context, points []plugin.Point) ([]plugin.Point, error) {
	for _, p := range points {
		for k, v := range p.Values {
			x, ok := plugin.Number(v)
			if !ok {
				continue
			}
			for _, r := range s.rules {
				if r.datapoint.Match(k) && r.asset.Match(p.Asset) {
					p.Values[k] = plugin.Tidy(x*r.factor + r.offset)
					break
				}
			}
		}
	}
	return points, nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.Filter = (*scale)(nil)
)
