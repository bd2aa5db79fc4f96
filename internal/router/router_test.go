package router

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"

	"github.com/edged/edged/internal/fault"
)

const testSpec = `
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /edge/asset/{code}:
    parameters:
      - {name: code, in: path, required: true, schema: {type: string, minLength: 1, maxLength: 5}}
    get:
      operationId: getAsset
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 100}}
      responses: {"200": {description: ok}}
    delete:
      operationId: deleteAsset
      responses: {"200": {description: ok}}
  /edge/asset/timespan:
    get:
      operationId: timespan
      responses: {"200": {description: ok}}
  /edge/file:
    post:
      operationId: upload
      x-max-body-bytes: 200
      requestBody:
        required: true
        content:
          application/octet-stream:
            schema: {type: string, format: binary}
      responses: {"200": {description: ok}}
  /edge/thing:
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              additionalProperties: false
              properties:
                name: {type: string}
                size: {type: integer, minimum: 0}
      responses: {"200": {description: ok}}
  /edge/boom:
    get:
      operationId: boom
      responses: {"200": {description: ok}}
`

var statusOf = []struct {
	kind   *fault.Kind
	status int
}{
	{fault.Invalid, 400}, {fault.NotFound, 404}, {fault.MethodNotAllowed, 405},
	{fault.TooLarge, 413}, {fault.Unauthorized, 401}, {fault.UnsupportedMedia, 415}, {fault.Forbidden, 403},
}

// writeTestError mimics the gateway's error writer closely enough for the
// router's own tests.
func writeTestError(w http.ResponseWriter, _ *http.Request, err error) {
	status, msg := 500, "internal error"
	if f, ok := fault.As(err); ok {
		msg = f.Message
		for _, s := range statusOf {
			if errors.Is(err, s.kind) {
				status = s.status
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}

func newTestRouter(t *testing.T) (*Router, *[]string) {
	t.Helper()
	spec, err := openapi3.NewLoader().LoadFromData([]byte(testSpec))
	if err != nil {
		t.Fatal(err)
	}
	rt := New(Options{Spec: spec, WriteError: writeTestError, MaxBodyBytes: 64})
	var seen []string
	echo := func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, OperationID(r.Context())+":"+r.URL.EscapedPath())
		_, _ = io.WriteString(w, `{"ok":true}`)
	}
	rt.Group(func(r chi.Router) {
		r.Get("/edge/asset/{code}", echo)
		r.Delete("/edge/asset/{code}", echo)
		r.Get("/edge/asset/timespan", echo)
		r.Post("/edge/thing", echo)
		r.Post("/edge/file", echo)
		r.Get("/edge/boom", func(http.ResponseWriter, *http.Request) { panic("kaboom") })
	})
	return rt, &seen
}

func TestRouting(t *testing.T) {
	tests := []struct {
		name        string
		method      string
		target      string
		body        string
		header      map[string]string
		wantStatus  int
		wantMessage string // substring of the JSON message
		wantSeen    string
		wantNone    bool // no handler may run
		wantAllow   string
	}{
		{name: "encoded slash is one segment", method: "GET", target: "/edge/asset/a%2Fb", wantStatus: 200, wantSeen: "getAsset:/edge/asset/a%2Fb"},
		{name: "encoded percent decoded once", method: "GET", target: "/edge/asset/50%25", wantStatus: 200, wantSeen: "getAsset:/edge/asset/50%25"},
		{name: "decoded value is validated", method: "GET", target: "/edge/asset/abc%2Fdef", wantStatus: 400, wantMessage: `path parameter "code"`},
		{name: "literal segment wins", method: "GET", target: "/edge/asset/timespan", wantStatus: 200, wantSeen: "timespan:/edge/asset/timespan"},
		{name: "query out of range", method: "GET", target: "/edge/asset/x?limit=0", wantStatus: 400, wantMessage: `query parameter "limit"`},
		{name: "query not an integer", method: "GET", target: "/edge/asset/x?limit=abc", wantStatus: 400, wantMessage: `query parameter "limit"`},
		{name: "unknown route", method: "GET", target: "/edge/nothing", wantStatus: 404, wantMessage: "no such endpoint"},
		{name: "wrong method", method: "PUT", target: "/edge/asset/x", wantStatus: 405, wantMessage: "not allowed", wantAllow: "GET,DELETE"},
		{name: "literal segment is never a parameter", method: "DELETE", target: "/edge/asset/timespan", wantStatus: 405, wantMessage: "not allowed", wantAllow: "GET", wantNone: true},
		{name: "escaped literal segment is never a parameter", method: "DELETE", target: "/edge/asset/%74imespan", wantStatus: 405, wantAllow: "GET", wantNone: true},
		{name: "wrong method on a literal segment", method: "PUT", target: "/edge/asset/timespan", wantStatus: 405, wantAllow: "GET", wantNone: true},
		{name: "parameter route still takes other values", method: "DELETE", target: "/edge/asset/times", wantStatus: 200, wantSeen: "deleteAsset:/edge/asset/times"},
		{name: "body ok", method: "POST", target: "/edge/thing", body: `{"name":"a"}`, header: map[string]string{"Content-Type": "application/json"}, wantStatus: 200, wantSeen: "createThing:/edge/thing"},
		{name: "body missing field", method: "POST", target: "/edge/thing", body: `{}`, header: map[string]string{"Content-Type": "application/json"}, wantStatus: 400, wantMessage: `property "name" is missing`},
		{name: "body unknown field", method: "POST", target: "/edge/thing", body: `{"name":"a","x":1}`, header: map[string]string{"Content-Type": "application/json"}, wantStatus: 400, wantMessage: "request body"},
		{name: "body malformed", method: "POST", target: "/edge/thing", body: `{"name":`, header: map[string]string{"Content-Type": "application/json"}, wantStatus: 400, wantMessage: "request body"},
		{name: "body field out of range", method: "POST", target: "/edge/thing", body: `{"name":"a","size":-1}`, header: map[string]string{"Content-Type": "application/json"}, wantStatus: 400, wantMessage: `field "size"`},
		{name: "body too large", method: "POST", target: "/edge/thing", body: `{"name":"` + strings.Repeat("a", 100) + `"}`, header: map[string]string{"Content-Type": "application/json"}, wantStatus: 413, wantMessage: "larger than"},
		{name: "an operation's own body limit lets a larger file through", method: "POST", target: "/edge/file", body: strings.Repeat("z", 150), header: map[string]string{"Content-Type": "application/octet-stream"}, wantStatus: 200, wantSeen: "upload:/edge/file"},
		{name: "an operation's own body limit bounds it", method: "POST", target: "/edge/file", body: strings.Repeat("z", 250), header: map[string]string{"Content-Type": "application/octet-stream"}, wantStatus: 413, wantMessage: "limit of 200 bytes", wantNone: true},
		{name: "panic is a JSON 500", method: "GET", target: "/edge/boom", wantStatus: 500, wantMessage: "internal error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt, seen := newTestRouter(t)
			req := httptest.NewRequest(tc.method, tc.target, strings.NewReader(tc.body))
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			rt.ServeHTTP(rec, req)
			if rec.Code != tc.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", rec.Code, tc.wantStatus, rec.Body)
			}
			if rec.Header().Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id in response")
			}
			if tc.wantMessage != "" {
				var body struct{ Message string }
				if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
					t.Fatalf("error body is not JSON: %q", rec.Body)
				}
				if !strings.Contains(body.Message, tc.wantMessage) || strings.Contains(body.Message, "\n") {
					t.Errorf("message = %q, want one line containing %q", body.Message, tc.wantMessage)
				}
			}
			if tc.wantSeen != "" && (len(*seen) != 1 || (*seen)[0] != tc.wantSeen) {
				t.Errorf("handler saw %v, want %s", *seen, tc.wantSeen)
			}
			if tc.wantNone && len(*seen) != 0 {
				t.Errorf("handler saw %v, want no handler to run", *seen)
			}
			if tc.wantAllow != "" {
				if got := strings.Join(rec.Header().Values("Allow"), ","); got != tc.wantAllow {
					t.Errorf("Allow = %q, want %q", got, tc.wantAllow)
				}
			}
		})
	}
}

func TestRequestIDEchoed(t *testing.T) {
	rt, _ := newTestRouter(t)
	tests := []struct {
		name string
		sent string
		same bool
	}{
		{name: "client id echoed", sent: "abc-123", same: true},
		{name: "id with spaces replaced", sent: "a b", same: false},
		{name: "missing id generated", sent: "", same: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/edge/asset/x", nil)
			if tc.sent != "" {
				req.Header.Set("X-Request-Id", tc.sent)
			}
			rec := httptest.NewRecorder()
			rt.ServeHTTP(rec, req)
			got := rec.Header().Get("X-Request-Id")
			if got == "" || (got == tc.sent) != tc.same {
				t.Fatalf("X-Request-Id = %q (sent %q)", got, tc.sent)
			}
		})
	}
}

func TestRegisteringRouteOutsideSpecPanics(t *testing.T) {
	rt, _ := newTestRouter(t)
	defer func() {
		if recover() == nil {
			t.Fatal("registering an undeclared route did not panic")
		}
	}()
	rt.Get("/edge/undeclared", func(http.ResponseWriter, *http.Request) {})
}

func TestBodyMustBeOneJSONValue(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		wantStatus int
	}{
		{name: "one value", body: `{"name":"a"}`, wantStatus: 200},
		{name: "trailing whitespace", body: "{\"name\":\"a\"}\n\t ", wantStatus: 200},
		{name: "two documents", body: `{"name":"a"} {"name":"b"}`, wantStatus: 400},
		{name: "trailing garbage", body: `{"name":"a"}x`, wantStatus: 400},
		{name: "truncated", body: `{"name":`, wantStatus: 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt, seen := newTestRouter(t)
			req := httptest.NewRequest("POST", "/edge/thing", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			rt.ServeHTTP(rec, req)
			if rec.Code != tc.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", rec.Code, tc.wantStatus, rec.Body)
			}
			if tc.wantStatus != 200 && len(*seen) != 0 {
				t.Fatal("handler ran for a refused body")
			}
		})
	}
}

type callerKey struct{}

func TestAuthorizeHook(t *testing.T) {
	spec, err := openapi3.NewLoader().LoadFromData([]byte(testSpec))
	if err != nil {
		t.Fatal(err)
	}
	var got []Operation
	rt := New(Options{Spec: spec, WriteError: writeTestError,
		Authorize: func(r *http.Request, op Operation) (context.Context, error) {
			got = append(got, op)
			switch r.Header.Get("X-Test") {
			case "deny":
				return nil, fault.New(fault.Unauthorized, "no entry")
			case "keep":
				return nil, nil
			}
			return context.WithValue(r.Context(), callerKey{}, "alice"), nil
		}})
	var caller any
	rt.Get("/edge/asset/{code}", func(w http.ResponseWriter, r *http.Request) {
		caller = r.Context().Value(callerKey{})
		_, _ = io.WriteString(w, `{}`)
	})
	tests := []struct {
		name       string
		target     string
		header     string
		wantStatus int
		wantCaller any
		wantOp     *Operation
	}{
		{name: "context passed on", target: "/edge/asset/a%2Fb", wantStatus: 200, wantCaller: "alice",
			wantOp: &Operation{ID: "getAsset", PathParams: map[string]string{"code": "a/b"}}},
		{name: "nil context keeps the request's", target: "/edge/asset/x", header: "keep", wantStatus: 200,
			wantOp: &Operation{ID: "getAsset", PathParams: map[string]string{"code": "x"}}},
		{name: "refusal answered before validation", target: "/edge/asset/x?limit=0", header: "deny", wantStatus: 401,
			wantOp: &Operation{ID: "getAsset", PathParams: map[string]string{"code": "x"}}},
		{name: "unknown routes are not authorised", target: "/edge/nothing", header: "deny", wantStatus: 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, caller = nil, nil
			req := httptest.NewRequest("GET", tc.target, nil)
			req.Header.Set("X-Test", tc.header)
			rec := httptest.NewRecorder()
			rt.ServeHTTP(rec, req)
			if rec.Code != tc.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", rec.Code, tc.wantStatus, rec.Body)
			}
			if caller != tc.wantCaller {
				t.Errorf("handler saw caller %v, want %v", caller, tc.wantCaller)
			}
			switch {
			case tc.wantOp == nil && len(got) != 0:
				t.Errorf("Authorize called with %+v, want no call", got)
			case tc.wantOp != nil && (len(got) != 1 || got[0].ID != tc.wantOp.ID || !maps.Equal(got[0].PathParams, tc.wantOp.PathParams)):
				t.Errorf("Authorize called with %+v, want one call with %+v", got, *tc.wantOp)
			}
		})
	}
}

// TestRefusedHook: every request to an operation refused before its
// handler is reported with the operation and the error written — with the
// context Authorize returned along with its refusal — and no other request
// is.
func TestRefusedHook(t *testing.T) {
	spec, err := openapi3.NewLoader().LoadFromData([]byte(testSpec))
	if err != nil {
		t.Fatal(err)
	}
	type report struct {
		op     string
		kind   *fault.Kind
		caller any
	}
	var got []report
	rt := New(Options{Spec: spec, WriteError: writeTestError,
		Authorize: func(r *http.Request, _ Operation) (context.Context, error) {
			ctx := context.WithValue(r.Context(), callerKey{}, "bob")
			if r.Header.Get("X-Test") == "deny" {
				return ctx, fault.New(fault.Forbidden, "not for bob")
			}
			return ctx, nil
		},
		Refused: func(r *http.Request, op Operation, err error) {
			f, _ := fault.As(err)
			got = append(got, report{op: op.ID, kind: f.Kind, caller: r.Context().Value(callerKey{})})
		}})
	rt.Post("/edge/thing", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{}`) })
	tests := []struct {
		name   string
		header string
		ctype  string
		body   string
		status int
		want   *report
	}{
		{name: "answered", body: `{"name":"x"}`, status: 200},
		{name: "refused by Authorize", header: "deny", body: `{"name":"x"}`, status: 403,
			want: &report{op: "createThing", kind: fault.Forbidden, caller: "bob"}},
		{name: "invalid body", body: `{"size":-1}`, status: 400,
			want: &report{op: "createThing", kind: fault.Invalid, caller: "bob"}},
		{name: "not JSON", body: `{"name":`, status: 400,
			want: &report{op: "createThing", kind: fault.Invalid, caller: "bob"}},
		{name: "content type not taken", ctype: "application/xml", body: `<a/>`, status: 415,
			want: &report{op: "createThing", kind: fault.UnsupportedMedia, caller: "bob"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			req := httptest.NewRequest("POST", "/edge/thing", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", cmp.Or(tc.ctype, "application/json"))
			req.Header.Set("X-Test", tc.header)
			rec := httptest.NewRecorder()
			rt.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status = %d, want %d; body %s", rec.Code, tc.status, rec.Body)
			}
			switch {
			case tc.want == nil && len(got) != 0:
				t.Errorf("Refused told %+v, want nothing", got)
			case tc.want != nil && (len(got) != 1 || got[0] != *tc.want):
				t.Errorf("Refused told %+v, want once %+v", got, *tc.want)
			}
		})
	}
}
