package router

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/edged/edged/internal/fault"
)

// CORS (decisions §1): browsers' pages from the origins Options.AllowOrigin
// allows may call the API. Their answers name the origin and expose the
// headers a client reads; a preflight from such an origin is answered here
// with the path's methods and the request headers the API reads, and one
// from any other origin is refused, so the browser reports why.

// corsHeaders are the request headers the API reads, which a cross-origin
// page may therefore send.
var corsHeaders = "Authorization, Authtoken, Content-Type, X-Request-Id"

// corsExposed are the response headers a cross-origin page may read.
var corsExposed = "X-Request-Id, Retry-After"

// corsMaxAge is how long, in seconds, a browser may cache a preflight's
// answer. Ten minutes: browsers cap it at that or less anyway.
const corsMaxAge = 600

// cors applies the CORS rules to requests that carry an Origin header.
func (rt *Router) cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		value, ok := "", false
		if rt.opts.AllowOrigin != nil {
			value, ok = rt.opts.AllowOrigin(origin)
		}
		h := w.Header()
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Add("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
			if !ok {
				rt.opts.WriteError(w, r, fault.New(fault.Forbidden,
					"cross-origin requests from %s are not allowed: add the origin to rest_api.allowedOrigins", origin))
				return
			}
			methods := rt.methodsOf(r)
			if len(methods) == 0 {
				rt.opts.WriteError(w, r, fault.New(fault.NotFound, "no such endpoint: %s", r.URL.EscapedPath()))
				return
			}
			h.Set("Access-Control-Allow-Origin", value)
			h.Set("Access-Control-Allow-Methods", strings.Join(methods, ", "))
			h.Set("Access-Control-Allow-Headers", corsHeaders)
			h.Set("Access-Control-Max-Age", strconv.Itoa(corsMaxAge))
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if ok {
			h.Set("Access-Control-Allow-Origin", value)
			h.Set("Access-Control-Expose-Headers", corsExposed)
			if value != "*" {
				h.Add("Vary", "Origin")
			}
		}
		next.ServeHTTP(w, r)
	})
}
