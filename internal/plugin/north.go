package plugin

import (
	"context"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// KindNorth is the kind of the plugins north services and tasks run.
const KindNorth = "north"

// North is a running instance of a north plugin: it sends readings read
// from the buffer to a destination (see edgeplugin.North). The north
// runtime (internal/north) reads the readings after the service's saved
// stream position, hands them to Send in blocks and saves the position of
// the last reading Send reports accepted.
type North = edgeplugin.North

// RejectedError is the error of a Send whose destination refused readings
// for good.
type RejectedError = edgeplugin.RejectedError

// NorthEnv is what the runtime gives a north plugin instance besides its
// configuration.
type NorthEnv struct {
	Env
	// Audit writes an audit entry, e.g. NHDWN and NHAVL when the
	// destination is lost and regained. The runtime logs a failure to
	// write it. Nil means no audit trail (tests).
	Audit func(ctx context.Context, source, severity string, details any)
	// Destination tells the runtime whether the destination accepts
	// readings: an error from when it stops (it does not answer, answers
	// 5xx or refuses the requests themselves) until nil once it accepts
	// them again. Meanwhile a north service is unresponsive. Nil: nobody
	// listens (tasks and tests).
	Destination func(err error)
}

// ReportDestination tells Destination, if set, the destination's state.
func (e NorthEnv) ReportDestination(err error) {
	if e.Destination != nil {
		e.Destination(err)
	}
}

// Record writes an audit entry through Audit, if set.
func (e NorthEnv) Record(ctx context.Context, source, severity string, details any) {
	if e.Audit != nil {
		e.Audit(ctx, source, severity, details)
	}
}
