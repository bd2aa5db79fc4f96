package metadata

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// ItemMetadata is the metadata filter's datapoints to add.
const ItemMetadata = "metadata"

// Definition describes the filter plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Kind: plugin.KindFilter,
		Name: "metadata", Version: "1.0.0",
		Description: "Adds constant datapoints to every reading",
		Items:       plugin.ItemsOf(Config{}),
		NewFilter: func(_ plugin.FilterEnv, cfg plugin.Config) (plugin.Filter, error) {
			m := &metadata{}
			return m, m.Reconfigure(cfg)
		},
	}
}

type metadata struct{ values map[string]any }

func (m *metadata) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	var raw map[string]any // the text is kept, its numbers typed as readings' are
	if err := json.Unmarshal([]byte(c.Metadata), &raw); err != nil || raw == nil {
		return fmt.Errorf("item %q must be a JSON object", ItemMetadata)
	}
	m.values = edgeplugin.DecodeValues([]byte(c.Metadata))
	return nil
}

func (m *metadata) Process(_ context.Context, points []plugin.Point) ([]plugin.Point, error) {
	for _, p := range points {
		for k, v := range m.values {
			if _, ok := p.Values[k]; !ok {
				p.Values[k] = v
			}
		}
	}
	return points, nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.Filter = (*metadata)(nil)
)
