// Package router is the gateway's HTTP front: it normalises request paths so
// that every path parameter is percent-decoded exactly once, gives each
// request an id, turns panics into logged 500s, limits body sizes, answers
// unknown routes and wrong methods with JSON, and validates every request
// against the OpenAPI operation that chi actually chose before the generated
// server code sees it.
package router

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/go-chi/chi/v5"

	"github.com/edged/edged/internal/fault"
)

// ErrorWriter writes err to w as the gateway's JSON error body. It is the one
// place that maps faults to HTTP statuses.
type ErrorWriter func(w http.ResponseWriter, r *http.Request, err error)

// Options configure a Router. Spec and WriteError are required.
type Options struct {
	// Spec is the OpenAPI document every registered route must belong to.
	Spec *openapi3.T
	// WriteError renders every error the router raises.
	WriteError ErrorWriter
	// Logger receives panics and access lines; nil discards them.
	Logger *slog.Logger
	// MaxBodyBytes bounds request bodies (413 beyond); 0 means 1 MiB.
	MaxBodyBytes int64
	// Authenticate checks an operation's security requirement; nil
	// accepts every request (authorisation then happens elsewhere).
	Authenticate openapi3filter.AuthenticationFunc
	// Authorize, when set, runs for every routed operation once its path
	// parameters are decoded and before the request is validated. It
	// returns the context the rest of the request runs with (nil keeps
	// the request's), e.g. one carrying the caller's identity, or an
	// error, which is written with WriteError and ends the request. A
	// context returned with an error is the one Refused sees.
	Authorize func(r *http.Request, op Operation) (context.Context, error)
	// Refused, when set, is told of every request to an operation that
	// is refused before its handler runs — by Authorize, for its content
	// type, or by validation — with the error written, before it is
	// written; r carries the context Authorize returned, if any (e.g. the
	// caller refused for their role). It must not write to the response.
	Refused func(r *http.Request, op Operation, err error)
	// AllowOrigin decides cross-origin (CORS) requests: for a request's
	// Origin it returns the Access-Control-Allow-Origin value ("*" or the
	// origin) and whether the origin is allowed. Nil allows none.
	AllowOrigin func(origin string) (value string, ok bool)
	// Observe, when set, is told of every request answered: its
	// operationId ("" for a route outside the contract or none), its
	// status and how long it took.
	Observe func(operation string, status int, d time.Duration)
}

// Operation is the API operation a request was routed to.
type Operation struct {
	// ID is the OpenAPI operationId.
	ID string
	// PathParams are the path parameters by name, percent-decoded once.
	PathParams map[string]string
}

// DefaultMaxBodyBytes is the request body limit when Options leave it unset.
const DefaultMaxBodyBytes = 1 << 20

// Router is a chi.Router whose route registrations are validated: each
// handler registered through it is wrapped so that the request is checked
// against the OpenAPI operation of the same method and path. Registering a
// route the spec does not declare panics at start-up.
type Router struct {
	chi.Router
	mux       *chi.Mux
	validator *validator
	opts      Options
}

// New returns a Router with the gateway's middleware chain installed.
func New(opts Options) *Router {
	if opts.MaxBodyBytes == 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	mux := chi.NewRouter()
	rt := &Router{Router: mux, mux: mux, opts: opts, validator: newValidator(opts)}
	if opts.Observe != nil {
		mux.Use(observe(opts.Observe))
	}
	mux.Use(
		requestID,
		recoverer(opts.Logger, opts.WriteError),
		accessLog(opts.Logger),
		normalisePath,
		rt.cors,
		limitBody(opts.MaxBodyBytes, bodyLimits(opts.Spec), opts.WriteError),
	)
	mux.NotFound(func(w http.ResponseWriter, r *http.Request) {
		opts.WriteError(w, r, fault.New(fault.NotFound, "no such endpoint: %s %s", r.Method, r.URL.EscapedPath()))
	})
	mux.MethodNotAllowed(rt.methodNotAllowed)
	return rt
}

// Group calls fn with the Router itself, so routes registered inside a group
// by generated code are validated too. Groups carry no middleware here.
func (rt *Router) Group(fn func(r chi.Router)) chi.Router {
	if fn != nil {
		fn(rt)
	}
	return rt
}

// Get registers a validated GET route.
func (rt *Router) Get(pattern string, h http.HandlerFunc) { rt.MethodFunc(http.MethodGet, pattern, h) }

// Post registers a validated POST route.
func (rt *Router) Post(pattern string, h http.HandlerFunc) {
	rt.MethodFunc(http.MethodPost, pattern, h)
}

// Put registers a validated PUT route.
func (rt *Router) Put(pattern string, h http.HandlerFunc) { rt.MethodFunc(http.MethodPut, pattern, h) }

// Delete registers a validated DELETE route.
func (rt *Router) Delete(pattern string, h http.HandlerFunc) {
	rt.MethodFunc(http.MethodDelete, pattern, h)
}

// Patch registers a validated PATCH route.
func (rt *Router) Patch(pattern string, h http.HandlerFunc) {
	rt.MethodFunc(http.MethodPatch, pattern, h)
}

// MethodFunc registers a validated route for method and pattern.
func (rt *Router) MethodFunc(method, pattern string, h http.HandlerFunc) {
	rt.mux.MethodFunc(method, pattern, rt.validator.wrap(method, pattern, h))
}

// Method registers a validated route for method and pattern.
func (rt *Router) Method(method, pattern string, h http.Handler) {
	rt.MethodFunc(method, pattern, h.ServeHTTP)
}

// Unvalidated returns the underlying chi router, for routes outside the API
// contract such as the documentation portal.
func (rt *Router) Unvalidated() chi.Router { return rt.mux }

var probeMethods = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
	http.MethodPatch, http.MethodDelete, http.MethodOptions,
}

// methodsOf returns the methods the path of r has: those of the contract's
// template that owns the path (see routeTable), or for a route outside the
// contract those chi matches.
func (rt *Router) methodsOf(r *http.Request) []string {
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	if o := rt.validator.routes.owner(path); o != nil {
		return o.methods
	}
	var out []string
	for _, m := range probeMethods {
		if rt.mux.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
		}
	}
	return out
}

// methodNotAllowed answers 405 with the Allow header listing the methods the
// path does have, which a custom chi handler must compute itself.
func (rt *Router) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	writeNotAllowed(w, r, rt.methodsOf(r), rt.opts.WriteError)
}

// writeNotAllowed answers 405, listing allowed in the Allow header.
func writeNotAllowed(w http.ResponseWriter, r *http.Request, allowed []string, writeError ErrorWriter) {
	for _, m := range allowed {
		w.Header().Add("Allow", m)
	}
	writeError(w, r, fault.New(fault.MethodNotAllowed, "method %s is not allowed on %s", r.Method, r.URL.EscapedPath()))
}

type ctxKey int

const (
	requestIDKey ctxKey = iota
	operationKey
	observedKey
)

// RequestID returns the id of the request ctx belongs to, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// OperationID returns the OpenAPI operationId chosen for the request ctx
// belongs to, or "" outside a routed API call.
func OperationID(ctx context.Context) string {
	id, _ := ctx.Value(operationKey).(string)
	return id
}
