package plugin

import (
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// ConfigItems turns the configuration items of the plugin contract (a
// plugin's Info, or derived from its configuration struct by
// edgeplugin.ItemsOf) into the configuration manager's.
func ConfigItems(in map[string]edgeplugin.Item) map[string]configmgr.Item {
	out := make(map[string]configmgr.Item, len(in))
	for n, it := range in {
		out[n] = configmgr.Item{Description: it.Description, Type: it.Type, Default: it.Default,
			DisplayName: it.DisplayName, Order: it.Order, Options: it.Options, Minimum: it.Minimum,
			Maximum: it.Maximum, Length: it.Length, Readonly: it.Readonly, Mandatory: it.Mandatory,
			Validity: it.Validity}
	}
	return out
}

// ItemsOf returns the configuration items the configuration struct v of
// a built-in plugin declares (see edgeplugin.ItemsOf for its tags), the
// same derivation a plugin of the Go SDK uses. It panics on a malformed
// struct: a built-in plugin's is fixed at compile time, and its tests
// derive it.
func ItemsOf(v any) map[string]configmgr.Item {
	return ConfigItems(edgeplugin.MustItemsOf(v))
}

// Decode fills the configuration struct v points to from cfg (see
// edgeplugin.Decode): a plugin gets its configuration typed instead of
// parsing its items.
func Decode(cfg Config, v any) error { return edgeplugin.Decode(cfg, v) }
