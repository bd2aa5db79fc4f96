package plugin

import (
	"context"
	"fmt"
)

// KindNorth is the kind of the plugins north services and tasks run.
const KindNorth = "north"

// North is a running instance of a north plugin: it sends readings read
// from the buffer to a destination. The north runtime (internal/north)
// reads the readings after the service's saved stream position, hands them
// to Send in blocks and saves the position of the last reading Send
// reports accepted; so a plugin must report a reading accepted only once
// the destination has it for good.
//
// The runtime calls Send from one goroutine at a time; Reconfigure may be
// called concurrently with Send.
type North interface {
	// Send delivers readings, in order. It returns how many of them,
	// counted from the first, the destination accepted: len(readings)
	// and nil when all were, fewer and an error otherwise. A plugin keeps
	// retrying (with its own backoff) while the destination is
	// unreachable, and returns early when ctx ends (with ctx's error) or
	// when retrying cannot help; the runtime then resends the rest later.
	// When the destination refuses readings for good (they are invalid
	// to it, whatever the number of tries), Send returns a *RejectedError
	// for those right after the ones accepted: the runtime sets them
	// aside and goes on with the rest.
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
