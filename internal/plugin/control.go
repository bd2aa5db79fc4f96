package plugin

import (
	"context"
	"errors"
)

// Writer is implemented by south plugins that can write setpoints to the
// devices they read: Modbus coils and holding registers, OPC UA nodes. The
// control calls of the API reach a device through it.
type Writer interface {
	// Write sets datapoints of asset on the device (asset "": of whichever
	// asset has the datapoint, which must then be unambiguous): values are
	// keyed by datapoint name, as the plugin's readings name them, and
	// given in the units of those readings (a plugin that scales what it
	// reads unscales what it writes). It returns once the device acknowledged
	// every write, or with the first error: ErrNotWritable (wrapped) for
	// a datapoint the plugin does not know or cannot write, a value it
	// cannot convert, or the device's or transport's error.
	Write(ctx context.Context, asset string, values map[string]any) error
}

// ErrNotWritable means a write named a datapoint the plugin cannot write,
// or a value it cannot convert for it.
var ErrNotWritable = errors.New("datapoint not writable")

// Operator is implemented by south plugins that can run named operations
// on their devices (an OPC UA method call, say). The control calls of the
// API reach a device through it.
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
// their run (a broker connection kept between Send calls); the runtime
// calls Close once the instance is done with.
type Closer interface {
	Close() error
}

// Controls is implemented by an instance that has the Write and Operate
// methods on behalf of a plugin that may offer either or neither (one
// running in its own process, which says what it offers when described):
// it tells which of them work.
type Controls interface {
	Controls() (writes, operates bool)
}

// AsWriter returns inst as a Writer when it can write setpoints.
func AsWriter(inst any) (Writer, bool) {
	w, ok := inst.(Writer)
	if c, isC := inst.(Controls); ok && isC {
		ok, _ = c.Controls()
	}
	return w, ok
}

// AsOperator returns inst as an Operator when it can run operations.
func AsOperator(inst any) (Operator, bool) {
	o, ok := inst.(Operator)
	if c, isC := inst.(Controls); ok && isC {
		_, ok = c.Controls()
	}
	return o, ok
}
