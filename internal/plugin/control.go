package plugin

import "github.com/edged/edged/pluginsdk/go/edgeplugin"

// Writer is implemented by south plugins that can write setpoints to the
// devices they read: Modbus coils and holding registers, OPC UA nodes. The
// control calls of the API reach a device through it.
type Writer = edgeplugin.Writer

// Operator is implemented by south plugins that can run named operations
// on their devices (an OPC UA method call, say).
type Operator = edgeplugin.Operator

// Closer is implemented by plugin instances that hold resources beyond
// their run; the runtime calls Close once the instance is done with.
type Closer = edgeplugin.Closer

// Errors of Writer and Operator.
var (
	// ErrNotWritable means a write named a datapoint the plugin cannot
	// write, or a value it cannot convert for it.
	ErrNotWritable = edgeplugin.ErrNotWritable
	// ErrNoOperation means an operation the plugin does not know or offer.
	ErrNoOperation = edgeplugin.ErrNoOperation
	// ErrBadParameters means parameters of an operation that are missing,
	// unknown to it, or not convertible to the types it takes.
	ErrBadParameters = edgeplugin.ErrBadParameters
)

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
