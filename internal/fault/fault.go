// Package fault is the gateway's one error type for failures a client may
// see. A Fault carries a kind (what went wrong, which decides the HTTP
// status in one table in impl/), a public message (one human sentence
// naming the offending thing) and an optional private cause that is only
// ever logged.
//
// Domain packages translate storage sentinel errors into faults at their
// boundary; any other error reaching the HTTP layer is a bug and is answered
// with a generic 500.
package fault

import (
	"errors"
	"fmt"
)

// Kind classifies a fault. Kinds are compared with errors.Is.
type Kind struct{ name string }

func (k *Kind) Error() string { return k.name }

// The kinds of fault. Each maps to exactly one HTTP status in impl/.
var (
	Invalid          = &Kind{"invalid"}            // 400: malformed or invalid input
	Unauthorized     = &Kind{"unauthorized"}       // 401: no or bad credentials
	Forbidden        = &Kind{"forbidden"}          // 403: authenticated but not allowed
	NotFound         = &Kind{"not found"}          // 404: unknown resource
	MethodNotAllowed = &Kind{"method not allowed"} // 405: known path, other method
	Conflict         = &Kind{"conflict"}           // 409: conflicts with current state
	TooLarge         = &Kind{"too large"}          // 413: request body too large
	UnsupportedMedia = &Kind{"unsupported media"}  // 415: request body in a content type not taken
	TooMany          = &Kind{"too many"}           // 429: locked out or rate limited
	NotImplemented   = &Kind{"not implemented"}    // 501: operation not built yet
	BadGateway       = &Kind{"bad gateway"}        // 502: an upstream could not be reached
	Unavailable      = &Kind{"unavailable"}        // 503: temporarily unable, retry later
)

// Fault is an error with a kind and a message safe to show a client.
type Fault struct {
	Kind    *Kind
	Message string
	Cause   error // private: logged, never sent
	// RetryAfterSeconds, when > 0, is sent as a Retry-After header.
	RetryAfterSeconds int
}

// Error returns the public message, followed by the cause when there is one.
func (f *Fault) Error() string {
	if f.Cause != nil {
		return f.Message + ": " + f.Cause.Error()
	}
	return f.Message
}

// Is reports whether target is the fault's kind, so errors.Is(err,
// fault.NotFound) works through any wrapping.
func (f *Fault) Is(target error) bool {
	k, ok := target.(*Kind)
	return ok && k == f.Kind
}

// Unwrap returns the private cause.
func (f *Fault) Unwrap() error { return f.Cause }

// New returns a fault of kind k with a formatted public message.
func New(k *Kind, format string, args ...any) *Fault {
	return &Fault{Kind: k, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns a fault of kind k with a public message and a private cause.
func Wrap(k *Kind, cause error, format string, args ...any) *Fault {
	return &Fault{Kind: k, Message: fmt.Sprintf(format, args...), Cause: cause}
}

// As returns the Fault in err's chain, if any.
func As(err error) (*Fault, bool) {
	var f *Fault
	if errors.As(err, &f) {
		return f, true
	}
	return nil, false
}
