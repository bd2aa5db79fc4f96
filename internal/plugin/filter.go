package plugin

import (
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

// Snapshotter may be implemented by a Persister filter whose state is
// cheap to copy.
type Snapshotter = edgeplugin.Snapshotter
