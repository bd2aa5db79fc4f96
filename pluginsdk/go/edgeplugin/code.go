package edgeplugin

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Code tells what kind of failure an error of a service's call is, in
// either direction (the gateway's calls of a Notification or Dispatcher,
// the service's calls of its Host). The gateway answers its clients by
// it: CodeInvalid and CodeUnsupported as a bad request, CodeNotFound as not
// found, CodeConflict as a conflict, CodeUnavailable as unavailable,
// CodeBusy as too many requests, CodeFailed as a failure of the device or
// destination behind the service and CodeInternal as an internal error.
type Code int

// The codes. The zero Code is none: CodeOf(nil).
const (
	CodeInvalid     Code = iota + 1 // the request is invalid (a bad body, a bad argument)
	CodeNotFound                    // what the request names does not exist
	CodeConflict                    // the request conflicts with the current state
	CodeUnsupported                 // the method or the option is not supported
	CodeUnavailable                 // temporarily unable; the caller may retry later
	CodeFailed                      // the device or destination failed
	CodeInternal                    // anything else: a bug, an unexpected failure
	// CodeBusy: the other end takes no more now (a full queue); the
	// caller may retry after a while. Newer than the codes above: an end
	// that predates it reads it as CodeInternal.
	CodeBusy
)

var codeNames = map[Code]string{CodeInvalid: "invalid", CodeNotFound: "not found", CodeConflict: "conflict",
	CodeUnsupported: "unsupported", CodeUnavailable: "unavailable", CodeFailed: "failed", CodeInternal: "internal",
	CodeBusy: "busy"}

// String returns the code's name.
func (c Code) String() string {
	if n, ok := codeNames[c]; ok {
		return n
	}
	return fmt.Sprintf("Code(%d)", int(c))
}

// grpcCodes is the one table between Codes and the gRPC status codes that
// carry them over the wire: each row both ways.
var grpcCodes = []struct {
	code Code
	grpc codes.Code
}{
	{CodeInvalid, codes.InvalidArgument},
	{CodeNotFound, codes.NotFound},
	{CodeConflict, codes.FailedPrecondition},
	{CodeUnsupported, codes.Unimplemented},
	{CodeUnavailable, codes.Unavailable},
	{CodeFailed, codes.Aborted},
	{CodeInternal, codes.Internal},
	{CodeBusy, codes.ResourceExhausted},
}

// codeError is an error with a Code.
type codeError struct {
	code Code
	err  error
}

func (e *codeError) Error() string { return e.err.Error() }
func (e *codeError) Unwrap() error { return e.err }

// Errorf returns an error of code whose message is formatted as by
// fmt.Errorf (%w wraps). Returned by a service's call or a Host's, it reaches
// the other end with the same code and message.
func Errorf(code Code, format string, args ...any) error {
	if _, ok := codeNames[code]; !ok {
		code = CodeInternal
	}
	return &codeError{code: code, err: fmt.Errorf(format, args...)}
}

// CodeOf returns the code of err: that of the first error with a code in
// its chain, CodeInternal when none has one, and 0 for nil.
func CodeOf(err error) Code {
	if err == nil {
		return 0
	}
	var ce *codeError
	if errors.As(err, &ce) {
		return ce.code
	}
	return CodeInternal
}

// toStatus turns err, returned by an implementation of Service or Host,
// into the gRPC status that carries its code and message.
func toStatus(err error) error {
	if err == nil {
		return nil
	}
	c := CodeOf(err)
	for _, r := range grpcCodes {
		if r.code == c {
			return status.Error(r.grpc, err.Error())
		}
	}
	return status.Error(codes.Internal, err.Error())
}

// fromStatus turns the error of a gRPC call made with ctx into an error
// with the code and message the other end sent. A call that ctx ended
// is CodeUnavailable (the other end did not answer in time) and wraps
// ctx's error. prefix, when not empty, goes before the message.
func fromStatus(ctx context.Context, prefix string, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return &codeError{code: CodeUnavailable, err: fmt.Errorf("%s%w", prefix, ctx.Err())}
	}
	st, ok := status.FromError(err)
	if !ok {
		return &codeError{code: CodeInternal, err: fmt.Errorf("%s%w", prefix, err)}
	}
	code := CodeInternal
	for _, r := range grpcCodes {
		if r.grpc == st.Code() {
			code = r.code
			break
		}
	}
	if st.Code() == codes.AlreadyExists {
		code = CodeConflict // an implementation in another language may say so
	}
	return &codeError{code: code, err: errors.New(prefix + st.Message())}
}
