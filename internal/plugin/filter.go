package plugin

import (
	"time"

	"github.com/edged/edged/internal/configmgr"
)

// KindFilter is the kind of the plugins filter pipelines run.
const KindFilter = "filter"

// Point is a reading as filters see it: its values decoded. A number is an
// int64 when the JSON held an integer that fits, a float64 otherwise;
// other values are as encoding/json decodes them.
type Point struct {
	Asset     string
	Timestamp time.Time
	Values    map[string]any
	// Origin is the index, in the batch handed to the pipeline, of the
	// reading whose arrival made the filter emit this point. A filter that
	// emits a point for each point it receives keeps its Origin; one that
	// aggregates (downsample) gives the Origin of the point that closed
	// the aggregate. The pipeline uses it to tell which inputs a north
	// destination has fully received.
	Origin int
}

// Filter is a running instance of a filter plugin: one element of a south
// or north service's pipeline. The pipeline calls its methods from one
// goroutine at a time.
type Filter interface {
	// Process transforms a batch of points, in order, and returns the
	// points to pass on (it may change and return the points it got).
	Process(points []Point) []Point
	// Reconfigure applies a changed configuration; ErrRestart asks for a
	// new instance, another error keeps the old configuration in force.
	Reconfigure(cfg Config) error
}

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
// cheap to copy: the pipeline takes a snapshot before each batch it may
// have to undo (a submission the buffer refuses, a block the destination
// takes only in part) and calls the returned function to go back to it.
// Without it the pipeline uses State and Restore.
type Snapshotter interface {
	Snapshot() (restore func())
}

// FallibleFilter is implemented by a filter that can fail on a batch: one
// running in its own process, which may die. The pipeline calls
// TryProcess in place of Process; on an error it passes the batch on
// unfiltered and logs it, as for a filter that panics.
type FallibleFilter interface {
	Filter
	TryProcess(points []Point) ([]Point, error)
}
