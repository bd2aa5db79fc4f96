package external

import (
	"errors"
	"fmt"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// codeKinds is the one table between the SDK's error codes, which cross
// the process boundary, and the gateway's fault kinds, which decide the
// HTTP status. Each direction takes the first row that matches: a code
// becomes the kind of its first row, a kind the code of its first row, so
// the rows after the first seven only translate kinds into codes.
// CodeInternal has no row: it is a plain error, and a plain error (or a
// kind without a row) is CodeInternal.
var codeKinds = []struct {
	code edgeplugin.Code
	kind *fault.Kind
}{
	{edgeplugin.CodeInvalid, fault.Invalid},
	{edgeplugin.CodeNotFound, fault.NotFound},
	{edgeplugin.CodeConflict, fault.Conflict},
	// a method or option the service lacks is the caller's mistake
	{edgeplugin.CodeUnsupported, fault.Invalid},
	{edgeplugin.CodeUnavailable, fault.Unavailable},
	// the device or destination behind the service failed
	{edgeplugin.CodeFailed, fault.BadGateway},
	// a full queue of the service (the dispatcher's per service)
	{edgeplugin.CodeBusy, fault.TooMany},
	// kinds into codes only
	{edgeplugin.CodeUnsupported, fault.NotImplemented},
	{edgeplugin.CodeInvalid, fault.TooLarge},
	{edgeplugin.CodeInvalid, fault.UnsupportedMedia},
}

// busyRetryAfter is the Retry-After, in seconds, of a service's CodeBusy:
// the code carries no time of its own.
const busyRetryAfter = 1

// serviceFault turns an error of a call to a service process into the
// gateway's: a *fault.Fault of the kind of its code whose message is the
// service's, or for CodeInternal a plain error naming the plugin.
func serviceFault(plugin string, err error) error {
	if err == nil {
		return nil
	}
	code := edgeplugin.CodeOf(err)
	for _, r := range codeKinds {
		if r.code == code {
			f := &fault.Fault{Kind: r.kind, Message: err.Error()}
			if r.kind == fault.TooMany {
				f.RetryAfterSeconds = busyRetryAfter
			}
			return f
		}
	}
	return fmt.Errorf("service plugin %q: %w", plugin, err)
}

// hostError turns an error of the gateway's ServiceHost into one the SDK
// carries to the process: a fault's public message with the code of its
// kind, anything else as CodeInternal with its text.
func hostError(err error) error {
	f, ok := fault.As(err)
	if !ok {
		return err
	}
	for _, r := range codeKinds {
		if r.kind == f.Kind {
			return edgeplugin.Errorf(r.code, "%s", f.Message)
		}
	}
	return errors.New(f.Message)
}
