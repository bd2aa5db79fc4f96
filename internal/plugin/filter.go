package plugin

import (
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// KindFilter is the kind of the plugins filter pipelines run.
const KindFilter = "filter"

// Point is a reading as filters see it: its values decoded.
type Point = edgeplugin.Point

// Filter is a running instance of a filter plugin: one element of a south
// or north service's pipeline.
type Filter = edgeplugin.Filter

// FilterEnv is what the pipeline gives a filter instance besides its
// configuration.
type FilterEnv struct {
	Env
	// Instance is the filter instance's name; its state is persisted under
	// it.
	Instance string
}

// FilterDefinition describes a filter plugin. A filter that keeps state
// between batches (delta, downsample) implements Persister and sets
// Persists; its state is stored as the plugin data of its instance in the
// service when the pipeline stops and handed back when it starts.
type FilterDefinition struct {
	Name        string
	Version     string
	Description string
	Items       map[string]configmgr.Item
	Persists    bool
	New         func(env FilterEnv, cfg Config) (Filter, error)
}

// Snapshotter may be implemented by a Persister filter whose state is
// cheap to copy.
type Snapshotter = edgeplugin.Snapshotter
