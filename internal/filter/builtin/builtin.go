// Package builtin lists the filter plugins compiled into the gateway, a
// folder each (code, configuration struct, README.md, sample
// configuration): scale, rename, expression, delta, downsample, assets and
// metadata. Each is a plugin.Definition of kind filter, in the gateway's
// one plugin registry; their configurations are validated when an
// instance is created and whenever it is reconfigured. The tests here run
// every filter through its plugin.Filter interface.
package builtin

import (
	"github.com/edged/edged/internal/filter/builtin/assets"
	"github.com/edged/edged/internal/filter/builtin/delta"
	"github.com/edged/edged/internal/filter/builtin/downsample"
	"github.com/edged/edged/internal/filter/builtin/expression"
	"github.com/edged/edged/internal/filter/builtin/metadata"
	"github.com/edged/edged/internal/filter/builtin/rename"
	"github.com/edged/edged/internal/filter/builtin/scale"
	"github.com/edged/edged/internal/plugin"
)

// Definitions returns the built-in filter plugins.
func Definitions() []plugin.Definition {
	return []plugin.Definition{
		scale.Definition(),
		rename.Definition(),
		expression.Definition(),
		delta.Definition(),
		downsample.Definition(),
		assets.Definition(),
		metadata.Definition(),
	}
}
