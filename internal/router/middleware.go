package router

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/edged/edged/internal/fault"
)

// maxRequestIDLen bounds a client-supplied X-Request-Id; longer or
// non-printable ids are replaced rather than echoed.
const maxRequestIDLen = 128

// requestID gives every request an id: the client's X-Request-Id when it is
// short and printable, otherwise a random one. The id is echoed in the
// response and kept in the context for logs.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !validRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey, id)))
	})
}

func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// recoverer turns a panic in any handler into a logged 500 with the JSON
// error body, so a bug never drops the connection. http.ErrAbortHandler is
// re-raised: it is the standard way to abort a response deliberately.
func recoverer(log *slog.Logger, writeError ErrorWriter) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				v := recover()
				if v == nil {
					return
				}
				if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(v)
				}
				log.ErrorContext(r.Context(), "panic serving request",
					"request_id", RequestID(r.Context()), "method", r.Method, "path", r.URL.EscapedPath(),
					"panic", v, "stack", string(debug.Stack()))
				writeError(w, r, errPanic)
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// errPanic is not a fault, so the error writer answers a generic 500; the
// panic itself has already been logged with the request id.
var errPanic = errors.New("handler panicked")

// statusRecorder remembers the status written, for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// observe reports every request to fn with the operation the validator
// routed it to (it fills the slot this middleware puts in the context),
// the status answered and the time taken.
func observe(fn func(operation string, status int, d time.Duration)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			var op string
			rec := &statusRecorder{ResponseWriter: w}
			defer func() {
				status := rec.status
				if status == 0 {
					status = http.StatusOK
				}
				fn(op, status, time.Since(start))
			}()
			next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), observedKey, &op)))
		})
	}
}

// accessLog writes one debug line per request.
func accessLog(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !log.Enabled(r.Context(), slog.LevelDebug) {
				next.ServeHTTP(w, r)
				return
			}
			start := time.Now()
			rec := &statusRecorder{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			log.DebugContext(r.Context(), "request", "request_id", RequestID(r.Context()),
				"method", r.Method, "path", r.URL.EscapedPath(), "status", rec.status,
				"duration", time.Since(start))
		})
	}
}

// normalisePath makes chi always route on the escaped path. chi routes on
// URL.RawPath when it is set and on the decoded URL.Path otherwise, so
// without this a parameter would arrive escaped ("a%2Fb") or already decoded
// ("50%") depending on the request, and decoding it again would break "50%".
// With RawPath always set, every parameter arrives escaped and is decoded
// exactly once, by the validator and the generated binding.
func normalisePath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.URL.RawPath = r.URL.EscapedPath()
		next.ServeHTTP(w, r)
	})
}

// limitBody refuses bodies over limit: at once when Content-Length says so,
// and while reading otherwise (the reader then fails with
// *http.MaxBytesError, which becomes 413).
func limitBody(limit int64, own map[string]int64, writeError ErrorWriter) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			limit := limit
			if n, ok := own[r.Method+" "+r.URL.Path]; ok {
				limit = n
			}
			if r.ContentLength > limit {
				w.Header().Set("Connection", "close")
				writeError(w, r, TooLarge(limit))
				return
			}
			if r.Body != nil && r.Body != http.NoBody {
				r.Body = http.MaxBytesReader(w, r.Body, limit)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// maxBodyExtension is the operation extension giving an operation's own
// request body limit in bytes (a file upload); only operations of paths
// without parameters may carry it.
const maxBodyExtension = "x-max-body-bytes"

// bodyLimits returns the own body limits of spec's operations by
// "METHOD /path".
func bodyLimits(spec *openapi3.T) map[string]int64 {
	out := map[string]int64{}
	if spec == nil || spec.Paths == nil {
		return out
	}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			if n, ok := ownBodyLimit(op); ok {
				out[method+" "+path] = n
			}
		}
	}
	return out
}

// ownBodyLimit returns op's x-max-body-bytes.
func ownBodyLimit(op *openapi3.Operation) (int64, bool) {
	v, ok := op.Extensions[maxBodyExtension]
	if !ok {
		return 0, false
	}
	switch n := v.(type) {
	case float64:
		return int64(n), n > 0
	case int:
		return int64(n), n > 0
	case int64:
		return n, n > 0
	}
	return 0, false
}

// TooLarge returns the fault for a body over limit bytes.
func TooLarge(limit int64) error {
	return fault.New(fault.TooLarge, "request body is larger than the limit of %d bytes", limit)
}
