package plugin

import "context"

// KindFilter is the kind of the plugins of a filter pipeline.
const KindFilter = "filter"

// Filter is a running instance of a filter plugin: readings in, readings
// out, called from one goroutine at a time.
type Filter interface {
	// Ingest returns the readings that go on in place of readings.
	Ingest(ctx context.Context, readings []Reading) ([]Reading, error)
	// Reconfigure applies a changed configuration; ErrRestart asks for a
	// new instance, another error keeps the old configuration in force.
	Reconfigure(cfg Config) error
}

// Closer is implemented by instances that hold resources beyond their run
// (a plugin process); the runtime calls Close once it is done with the
// instance.
type Closer interface {
	Close() error
}
