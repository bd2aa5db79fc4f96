package router

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/go-chi/chi/v5"

	"github.com/edged/edged/internal/fault"
)

// validator checks requests against the operation their route belongs to.
type validator struct {
	spec       *openapi3.T
	routes     *routeTable
	writeError ErrorWriter
	authorize  func(r *http.Request, op Operation) (context.Context, error)
	refused    func(r *http.Request, op Operation, err error)
	opts       openapi3filter.Options
}

func newValidator(o Options) *validator {
	opts := openapi3filter.Options{
		// Defaults are applied by the handlers, not injected into the
		// request: an injected limit=20 would collide with seconds=N.
		SkipSettingDefaults: true,
		// The strict handler binds the value the validator decoded, so
		// the body is parsed once and exactly as it was validated.
		KeepValidatedValue: true,
		AuthenticationFunc: o.Authenticate,
	}
	if opts.AuthenticationFunc == nil {
		opts.AuthenticationFunc = openapi3filter.NoopAuthenticationFunc
	}
	return &validator{spec: o.Spec, routes: newRouteTable(o.Spec), writeError: o.WriteError, authorize: o.Authorize, refused: o.Refused, opts: opts}
}

// wrap returns h guarded by authorisation (Options.Authorize) and by
// validation against the operation at method and pattern. It panics when the spec has no such operation: a route outside
// the contract is a programming error found at start-up.
func (v *validator) wrap(method, pattern string, h http.HandlerFunc) http.HandlerFunc {
	item := v.spec.Paths.Value(pattern)
	if item == nil {
		panic(fmt.Sprintf("router: path %q is not in the OpenAPI spec", pattern))
	}
	op := item.GetOperation(method)
	if op == nil {
		panic(fmt.Sprintf("router: %s %s is not in the OpenAPI spec", method, pattern))
	}
	route := &routers.Route{Spec: v.spec, Path: pattern, PathItem: item, Method: method, Operation: op}
	var pathNames []string
	for _, params := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, p := range params {
			if p.Value != nil && p.Value.In == openapi3.ParameterInPath {
				pathNames = append(pathNames, p.Value.Name)
			}
		}
	}
	opID := op.OperationID
	nul := newNULCheck(item, op)
	shadowed := v.routes.shadowed(pattern)
	media := newBodyMedia(op)
	forms := newWireForms(op)
	_, streamed := ownBodyLimit(op)
	return func(w http.ResponseWriter, r *http.Request) {
		if shadowed {
			// chi fell back to this parameter route because the literal
			// route owning the path lacks the method (see routeTable).
			if o := v.routes.owner(r.URL.EscapedPath()); o != nil && o.pattern != pattern {
				writeNotAllowed(w, r, o.methods, v.writeError)
				return
			}
		}
		r = r.WithContext(context.WithValue(r.Context(), operationKey, opID))
		if o, ok := r.Context().Value(observedKey).(*string); ok {
			*o = opID
		}
		rctx := chi.RouteContext(r.Context())
		pathParams := make(map[string]string, len(pathNames))
		operation := Operation{ID: opID, PathParams: pathParams}
		refuse := func(r *http.Request, err error) {
			if v.refused != nil {
				v.refused(r, operation, err)
			}
			v.writeError(w, r, err)
		}
		for _, name := range pathNames {
			// chi routes on the escaped path (see normalisePath), so
			// every value is escaped here and decoded exactly once.
			decoded, err := url.PathUnescape(rctx.URLParam(name))
			if err != nil {
				refuse(r, fault.New(fault.Invalid, "path parameter %q is not valid percent-encoding", name))
				return
			}
			pathParams[name] = decoded
		}
		if v.authorize != nil {
			ctx, err := v.authorize(r, operation)
			if ctx != nil {
				r = r.WithContext(ctx)
			}
			if err != nil {
				refuse(r, err)
				return
			}
		}
		if err := media.check(r); err != nil {
			refuse(r, err)
			return
		}
		if err := forms.rewrite(r); err != nil {
			refuse(r, err)
			return
		}
		if err := nul.check(r, pathParams); err != nil {
			refuse(r, err)
			return
		}
		opts := v.opts
		// A file upload with its own size limit is streamed to its
		// handler, never read whole into memory to be validated.
		opts.ExcludeRequestBody = streamed
		err := openapi3filter.ValidateRequest(r.Context(), &openapi3filter.RequestValidationInput{
			Request: r, PathParams: pathParams, Route: route, Options: &opts,
		})
		if err != nil {
			refuse(r, RequestFault(err))
			return
		}
		h(w, r)
	}
}

// RequestFault converts an error raised while validating or decoding a
// request into a fault with a one-line message naming the offending
// parameter or body field. kin-openapi's own texts span several lines and
// quote the schema, so they are kept as the private cause only.
func RequestFault(err error) error {
	if f, ok := fault.As(err); ok {
		return f
	}
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return TooLarge(tooLarge.Limit)
	}
	var sec *openapi3filter.SecurityRequirementsError
	if errors.As(err, &sec) {
		for _, e := range sec.Errors {
			if f, ok := fault.As(e); ok {
				return f
			}
		}
		return fault.Wrap(fault.Unauthorized, err, "a valid token is required")
	}
	var re *openapi3filter.RequestError
	if errors.As(err, &re) {
		switch {
		case re.Parameter != nil:
			return fault.Wrap(fault.Invalid, err, "%s parameter %q %s", re.Parameter.In, re.Parameter.Name, describe(re))
		case re.RequestBody != nil:
			return fault.Wrap(fault.Invalid, err, "request body %s", describe(re))
		}
		return fault.Wrap(fault.Invalid, err, "invalid request: %s", OneLine(re.Reason))
	}
	return fault.Wrap(fault.Invalid, err, "invalid request")
}

// describe renders the cause of a request error as the end of a sentence.
func describe(re *openapi3filter.RequestError) string {
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		if branch, pointer, ok := closestBranch(se); ok {
			return describeSchemaError(branch, pointer)
		}
		return describeSchemaError(se, se.JSONPointer())
	}
	var pe *openapi3filter.ParseError
	if errors.As(re.Err, &pe) {
		reason := pe.Reason
		if reason == "" && pe.Cause != nil {
			reason = pe.Cause.Error()
		}
		if re.RequestBody != nil {
			return "is not valid JSON: " + OneLine(reason)
		}
		if pe.Value != nil {
			return fmt.Sprintf("value %q is %s", fmt.Sprint(pe.Value), OneLine(reason))
		}
		return "is invalid: " + OneLine(reason)
	}
	if errors.Is(re.Err, openapi3filter.ErrInvalidRequired) {
		return "is required"
	}
	reason := re.Reason
	if re.Err != nil {
		reason = re.Err.Error()
	}
	return "is invalid: " + OneLine(reason)
}

// describeSchemaError renders a schema violation at pointer as the end of
// a sentence.
func describeSchemaError(se *openapi3.SchemaError, pointer []string) string {
	reason := se.Reason
	switch se.SchemaField {
	case "enum":
		// The allowed values are in the contract; listing dozens of
		// them here would bury the point.
		reason = "value is not one of the allowed values"
		if v, ok := se.Value.(string); ok {
			reason = fmt.Sprintf("value %q is not one of the allowed values", v)
		}
	case "pattern":
		// Name the value refused: the pattern alone (a case-insensitive
		// list of words, say) hardly tells what was wrong.
		if v, ok := se.Value.(string); ok {
			switch {
			case se.Schema.Description != "":
				reason = fmt.Sprintf("value %q is not allowed: %s", v, se.Schema.Description)
			case len(se.Schema.Pattern) <= 40:
				reason = fmt.Sprintf("value %q does not match the pattern %s", v, se.Schema.Pattern)
			default:
				reason = fmt.Sprintf("value %q is not allowed", v)
			}
		}
	}
	if len(pointer) > 0 {
		return fmt.Sprintf("field %q: %s", strings.Join(pointer, "."), OneLine(reason))
	}
	return "is invalid: " + OneLine(reason)
}

// OneLine keeps the first line of s, at most 200 bytes of it.
func OneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
