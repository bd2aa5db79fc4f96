package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The interfaces of this file are the one definition of what a plugin
// instance of each kind is. The gateway runs its built-in plugins through
// them (its package internal/plugin names these very types), and Serve
// adapts them to the contract of proto/edged/plugin/v1 for a plugin in its
// own process: a type written against them runs either way.
//
// What differs is only how an instance is made: a built-in plugin has a
// constructor the gateway calls with its configuration; a plugin in its
// own process is one value, given to Serve, that takes its configuration
// and state in Start (Starter).

// Errors of a Sink.
var (
	// ErrBufferFull means the gateway's ingest buffer has no room for the
	// readings; none of them was taken. The producer may retry later.
	ErrBufferFull = errors.New("ingest buffer full")
	// ErrStopped means the service is stopping and takes no more readings.
	ErrStopped = errors.New("service stopping")
	// ErrTooLarge means more readings were submitted at once than the
	// buffer, or one message to the gateway, can ever hold.
	ErrTooLarge = errors.New("more readings than the ingest buffer holds")
	// ErrRefused, from a Receipt, means storage refused the readings'
	// data itself (a value it cannot hold): nothing was stored, and
	// submitting them again cannot succeed.
	ErrRefused = errors.New("storage refused the readings")
)

// Receipt tells when submitted readings are committed to storage.
type Receipt interface {
	// Wait blocks until the readings are committed (nil), could not be
	// stored (the storage error), or ctx ends (ctx's error).
	Wait(ctx context.Context) error
}

// Sink is where a south plugin delivers readings. It is safe for
// concurrent use.
type Sink interface {
	// Put hands readings over without waiting. Readings the buffer has no
	// room for are discarded and counted (statistic DISCARDED): right for
	// polled sensors, whose old values are worthless later. So are, and
	// logged, readings whose asset code the gateway refuses.
	Put(readings []Reading)
	// Submit queues the readings as one unit, or none of them: it returns
	// ErrBufferFull when there is no room, ErrTooLarge when there never
	// can be, ErrStopped while the service stops, and an error naming the
	// reading's index for an asset code the gateway refuses. The Receipt
	// tells when they are committed: right for pushed data whose sender
	// retries. In a plugin's own process the Receipt tells when the
	// gateway received them.
	Submit(readings []Reading) (Receipt, error)
}

// ErrRestart is returned by Reconfigure when a change needs a new
// instance: the gateway stops this one and starts another with the new
// configuration.
var ErrRestart = errors.New("the change needs a restart of the plugin")

// South is a running instance of a south plugin: a data source.
//
// The gateway calls, in order: Restore (if the plugin is a Persister and
// has state), Start (for a plugin in its own process, a Starter), Open (if
// it is an Opener), Run, then State (if a Persister) after Run returns.
// Reconfigure may be called at any time, concurrently with Run.
type South interface {
	// Run delivers readings to sink until ctx ends, then returns nil. An
	// error or a panic marks the service failed; the gateway restarts it
	// with backoff.
	Run(ctx context.Context, sink Sink) error
	// Reconfigure applies a changed configuration to the running
	// instance. It returns ErrRestart when the change needs a new
	// instance, or an error when cfg is unusable (logged; the old
	// configuration stays in force).
	Reconfigure(cfg Config) error
}

// North is a running instance of a north plugin: it sends readings read
// from the gateway's buffer to a destination. The gateway saves the
// position of the last reading Send reports accepted; so a plugin reports
// a reading accepted only once the destination has it for good. Send is
// called from one goroutine at a time; Reconfigure may be called
// concurrently with it.
type North interface {
	// Send delivers readings, in order. It returns how many of them,
	// counted from the first, the destination accepted: len(readings)
	// and nil when all were, fewer and an error otherwise. A plugin keeps
	// retrying (with its own backoff) while the destination is
	// unreachable, and returns early when ctx ends (with ctx's error) or
	// when retrying cannot help; the gateway then resends the rest later.
	// When the destination refuses readings for good, Send returns a
	// *RejectedError for those right after the ones accepted: the
	// gateway sets them aside and goes on with the rest.
	Send(ctx context.Context, readings []Reading) (int, error)
	// Reconfigure applies a changed configuration; ErrRestart asks for a
	// new instance, another error keeps the old configuration in force.
	Reconfigure(cfg Config) error
}

// RejectedError is the error of a Send whose destination refused readings
// for good: the Count readings right after those Send reports accepted.
// Reason is the destination's refusal, for the operator.
type RejectedError struct {
	Count  int
	Reason string
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("the destination refused %d readings for good: %s", e.Count, e.Reason)
}

// Point is a reading as filters see it: its values decoded (Points). A
// number is an int64 when the JSON held an integer that fits, a float64
// otherwise; other values are as encoding/json decodes them.
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
	// points to pass on (it may change and return the points it got). An
	// error (a plugin process that died) makes the pipeline pass the
	// batch on unfiltered and log it, as it does for a filter that
	// panics.
	Process(ctx context.Context, points []Point) ([]Point, error)
	// Reconfigure applies a changed configuration; ErrRestart asks for a
	// new instance, another error keeps the old configuration in force.
	Reconfigure(cfg Config) error
}

// Starter is implemented by a plugin served in its own process (Serve):
// Start hands it the configuration of its service, the state persisted
// by its previous run (Start.State, also given to Restore when it is a
// Persister) and lets it acquire its resources; an error fails the
// service's start. A built-in plugin gets its configuration from its
// constructor instead.
type Starter interface {
	Start(ctx context.Context, s Start) error
}

// Opener is implemented by plugins that acquire resources (a listening
// socket) before running, so that the service counts as started only once
// they hold them.
type Opener interface {
	// Open acquires the plugin's resources; an error fails the start.
	Open(ctx context.Context) error
}

// Checker is implemented by plugins that can tell whether they still do
// their work: the service monitor calls Check every SMNTR.sleep_interval
// while the plugin runs, with a context that ends after
// SMNTR.ping_timeout. An error, or no answer in time, makes the service
// unresponsive until a check passes again. Check may be called
// concurrently with Run and Reconfigure.
type Checker interface {
	Check(ctx context.Context) error
}

// Readier is implemented by south plugins that do their work only once
// they reached something outside the gateway (a broker they subscribe
// to): their service is running only once Ready is closed, and until then
// unresponsive, with NotReady ("" when it cannot tell) as the reason. Run
// is called before Ready closes; NotReady may be called concurrently with
// it.
type Readier interface {
	Ready() <-chan struct{}
	NotReady() string
}

// Persister is implemented by plugins that keep state between runs. The
// state is stored when the plugin stops and handed back at its next start.
type Persister interface {
	// State returns the state to persist, a JSON document.
	State() (json.RawMessage, error)
	// Restore loads state persisted by an earlier run; an error is logged
	// and the plugin starts afresh.
	Restore(state json.RawMessage) error
}

// Snapshotter may be implemented by a Persister filter whose state is
// cheap to copy: the pipeline takes a snapshot before each batch it may
// have to undo (a submission the buffer refuses, a block the destination
// takes only in part) and calls the returned function to go back to it.
// Without it the pipeline uses State and Restore.
type Snapshotter interface {
	Snapshot() (restore func())
}

// Writer is implemented by south plugins that can write setpoints to the
// devices they read (Modbus coils and holding registers, OPC UA nodes).
// The control calls of the gateway's API reach a device through it.
type Writer interface {
	// Write sets datapoints of asset on the device (asset "": of whichever
	// asset has the datapoint, which must then be unambiguous): values are
	// keyed by datapoint name, as the plugin's readings name them, and
	// given in the units of those readings, as JSON types (a number as
	// int64 or float64, a boolean, a string). It returns once the device
	// acknowledged every write, or with the first error: ErrNotWritable
	// (wrapped) for a datapoint the plugin does not know or cannot write,
	// a value it cannot convert, or the device's or transport's error.
	Write(ctx context.Context, asset string, values map[string]any) error
}

// ErrNotWritable means a write named a datapoint the plugin cannot write,
// or a value it cannot convert for it.
var ErrNotWritable = errors.New("datapoint not writable")

// Operator is implemented by south plugins that can run named operations
// on their devices (an OPC UA method call, say).
type Operator interface {
	// Operate runs operation on the device with params, keyed by the
	// operation's parameter names. It returns once the device reported the
	// operation done, or with an error: ErrNoOperation (wrapped) for an
	// operation the plugin does not know or offer, ErrBadParameters
	// (wrapped) for missing, unknown or unconvertible parameters, or the
	// device's or transport's error.
	Operate(ctx context.Context, operation string, params map[string]any) error
}

// ErrNoOperation means an operation the plugin does not know or offer.
var ErrNoOperation = errors.New("operation not supported")

// ErrBadParameters means parameters of an operation that are missing,
// unknown to it, or not convertible to the types it takes.
var ErrBadParameters = errors.New("operation parameters not accepted")

// Closer is implemented by plugin instances that hold resources beyond
// their run (a broker connection kept between Send calls); the gateway
// calls Close once the instance is done with.
type Closer interface {
	Close() error
}
