// Package faultcode is the one table between the gateway's fault kinds
// (internal/fault, which decide the HTTP status) and the plugin
// contract's error codes (edgeplugin.Code), which cross the process
// boundary. Both ends translate through it: the gateway's side of a
// service process (internal/plugin/external) and the service processes
// (cmd/edged-notification, cmd/edged-dispatcher, via
// internal/plugin/servicemain).
package faultcode

import (
	"context"
	"errors"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// table maps codes and kinds. Each direction takes the first row that
// matches: a code becomes the kind of its first row, a kind the code of
// its first row, so the rows after the first seven only translate kinds
// into codes. CodeInternal has no row: it is a plain error, and a plain
// error (or a kind without a row) is CodeInternal.
var table = []struct {
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
	// a full queue (the dispatcher's, per service)
	{edgeplugin.CodeBusy, fault.TooMany},
	// kinds into codes only
	{edgeplugin.CodeUnsupported, fault.NotImplemented},
	{edgeplugin.CodeInvalid, fault.TooLarge},
	{edgeplugin.CodeInvalid, fault.UnsupportedMedia},
}

// BusyRetryAfter is the Retry-After, in seconds, of a fault made from
// CodeBusy: the code carries no time of its own.
const BusyRetryAfter = 1

// Kind returns the fault kind of the code of err, an error of the other
// end of the boundary; nil for nil, CodeInternal and an error without a
// code.
func Kind(err error) *fault.Kind {
	if err == nil {
		return nil
	}
	return KindOf(edgeplugin.CodeOf(err))
}

// KindOf returns the fault kind of code; nil for CodeInternal.
func KindOf(code edgeplugin.Code) *fault.Kind {
	for _, r := range table {
		if r.code == code {
			return r.kind
		}
	}
	return nil
}

// Fault turns err, an error of the other end of the boundary, into the
// gateway's: a *fault.Fault of the kind of its code whose message is the
// other end's, or err itself for CodeInternal.
func Fault(err error) error {
	k := Kind(err)
	if k == nil {
		return err
	}
	f := &fault.Fault{Kind: k, Message: err.Error()}
	if k == fault.TooMany {
		f.RetryAfterSeconds = BusyRetryAfter
	}
	return f
}

// Code turns err, the gateway's or an engine's, into one that crosses the
// boundary: a fault's public message with the code of its kind (its cause
// stays on this side); a context's end as CodeUnavailable; anything else
// as CodeInternal with its text.
func Code(err error) error {
	if err == nil {
		return nil
	}
	f, ok := fault.As(err)
	if !ok {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return edgeplugin.Errorf(edgeplugin.CodeUnavailable, "%s", err)
		}
		return edgeplugin.Errorf(edgeplugin.CodeInternal, "%s", err)
	}
	for _, r := range table {
		if r.kind == f.Kind {
			return edgeplugin.Errorf(r.code, "%s", f.Message)
		}
	}
	return edgeplugin.Errorf(edgeplugin.CodeInternal, "%s", f.Message)
}
