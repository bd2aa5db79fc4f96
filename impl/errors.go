package impl

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/directory"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/router"
)

// statusByKind is the one table mapping fault kinds to HTTP statuses.
var statusByKind = []struct {
	kind   *fault.Kind
	status int
}{
	{fault.Invalid, http.StatusBadRequest},
	{fault.Unauthorized, http.StatusUnauthorized},
	{fault.Forbidden, http.StatusForbidden},
	{fault.NotFound, http.StatusNotFound},
	{fault.MethodNotAllowed, http.StatusMethodNotAllowed},
	{fault.Conflict, http.StatusConflict},
	{fault.TooLarge, http.StatusRequestEntityTooLarge},
	{fault.UnsupportedMedia, http.StatusUnsupportedMediaType},
	{fault.TooMany, http.StatusTooManyRequests},
	{fault.NotImplemented, http.StatusNotImplemented},
	{fault.BadGateway, http.StatusBadGateway},
	{fault.Unavailable, http.StatusServiceUnavailable},
}

// StorageRetryAfter is the Retry-After, in seconds, of a call refused
// because storage is unavailable.
const StorageRetryAfter = 5

// DirectoryRetryAfter is the Retry-After, in seconds, of a login refused
// because the LDAP directory is unavailable.
const DirectoryRetryAfter = 30

// classify returns err as a client sees it: an error wrapping
// db.ErrUnavailable, whatever wraps it, becomes an Unavailable fault (503
// with Retry-After) saying storage is unavailable; one wrapping
// directory.ErrUnavailable, one saying the LDAP directory is unavailable
// and why; anything else is returned unchanged.
func classify(err error) error {
	if errors.Is(err, directory.ErrUnavailable) && !errors.Is(err, fault.Unavailable) {
		reason := "it cannot be asked"
		var u *directory.UnavailableError
		if errors.As(err, &u) {
			reason = u.Reason
		}
		return &fault.Fault{Kind: fault.Unavailable, Cause: err, RetryAfterSeconds: DirectoryRetryAfter,
			Message: "The LDAP directory is unavailable (" + reason + "): directory users cannot log in now; the gateway's own users still can"}
	}
	if errors.Is(err, db.ErrUnavailable) && !errors.Is(err, fault.Unavailable) {
		return &fault.Fault{Kind: fault.Unavailable, Cause: err, RetryAfterSeconds: StorageRetryAfter,
			Message: "storage is unavailable; the gateway retries on its own, try again later"}
	}
	return err
}

// StatusOf returns the HTTP status and the public message for err. Errors
// that are not faults are bugs: they get 500 and a generic message, and the
// caller must log them. Storage being unavailable is 503 (see classify).
func StatusOf(err error) (status int, message string) {
	err = classify(err)
	if f, ok := fault.As(err); ok {
		for _, s := range statusByKind {
			if errors.Is(err, s.kind) {
				return s.status, f.Message
			}
		}
	}
	return http.StatusInternalServerError, "internal error"
}

// ErrorWriter returns the function that renders every error of the HTTP API
// as {"message": "..."} with its status. Server errors are logged once, here,
// with the request id, which the message also carries so an operator can
// find the log line.
func ErrorWriter(log *slog.Logger) router.ErrorWriter {
	return func(w http.ResponseWriter, r *http.Request, err error) {
		err = classify(err)
		status, msg := StatusOf(err)
		reqID := router.RequestID(r.Context())
		if status >= http.StatusInternalServerError && status != http.StatusNotImplemented {
			log.ErrorContext(r.Context(), "request failed", "request_id", reqID,
				"method", r.Method, "path", r.URL.EscapedPath(), "status", status, "error", err)
			if status == http.StatusInternalServerError {
				msg = "internal error; request id " + reqID
			}
		}
		if f, ok := fault.As(err); ok && f.RetryAfterSeconds > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfterSeconds))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(gen.Error{Message: msg})
	}
}

// StrictOptions returns the strict handler options that render request
// decoding errors and handler errors through writeError.
func StrictOptions(writeError router.ErrorWriter) gen.StrictHTTPServerOptions {
	return gen.StrictHTTPServerOptions{
		RequestErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				writeError(w, r, router.TooLarge(tooLarge.Limit))
				return
			}
			writeError(w, r, fault.Wrap(fault.Invalid, err, "request body could not be decoded"))
		},
		ResponseErrorHandlerFunc: writeError,
	}
}

// ParamErrorHandler renders errors of the generated parameter binding.
func ParamErrorHandler(writeError router.ErrorWriter) func(http.ResponseWriter, *http.Request, error) {
	return func(w http.ResponseWriter, r *http.Request, err error) {
		writeError(w, r, paramFault(err))
	}
}

// paramFault names the parameter the generated binding could not bind; the
// binder's own text (Go type names and all) stays the private cause.
func paramFault(err error) error {
	var (
		format   *gen.InvalidParamFormatError
		required *gen.RequiredParamError
		many     *gen.TooManyValuesForParamError
		unmarsh  *gen.UnmarshalingParamError
	)
	switch {
	case errors.As(err, &format):
		return fault.Wrap(fault.Invalid, err, "parameter %q has an invalid value for its type", format.ParamName)
	case errors.As(err, &required):
		return fault.Wrap(fault.Invalid, err, "parameter %q is required", required.ParamName)
	case errors.As(err, &many):
		return fault.Wrap(fault.Invalid, err, "parameter %q is given more than once", many.ParamName)
	case errors.As(err, &unmarsh):
		return fault.Wrap(fault.Invalid, err, "parameter %q could not be read", unmarsh.ParamName)
	}
	return fault.Wrap(fault.Invalid, err, "%s", router.OneLine(err.Error()))
}

// notImplemented is the error of an operation this server was built
// without.
func notImplemented(op string) error {
	return fault.New(fault.NotImplemented, "%s is not implemented yet", op)
}
