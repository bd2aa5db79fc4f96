package router

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

const bodySpec = `
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /edge/thing:
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}}}
      responses: {"200": {description: ok}}
  /edge/login:
    post:
      operationId: login
      requestBody:
        content:
          application/json:
            schema: {type: object, required: [username], properties: {username: {type: string}}}
          text/plain:
            schema: {type: string}
      responses: {"200": {description: ok}}
  /edge/ping:
    get:
      operationId: ping
      responses: {"200": {description: ok}}
`

// TestBodyContentTypes checks which request content types a JSON
// operation takes (decisions §1) and what the handler then sees.
func TestBodyContentTypes(t *testing.T) {
	spec, err := openapi3.NewLoader().LoadFromData([]byte(bodySpec))
	if err != nil {
		t.Fatal(err)
	}
	rt := New(Options{Spec: spec, WriteError: writeTestError})
	var gotType, gotBody string
	echo := func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotType, gotBody = r.Header.Get("Content-Type"), string(b)
		_, _ = io.WriteString(w, `{}`)
	}
	rt.Post("/edge/thing", echo)
	rt.Post("/edge/login", echo)
	rt.Get("/edge/ping", echo)

	const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
	tests := []struct {
		name     string
		method   string
		path     string
		ctype    string // "" sends none
		body     string
		want     int
		wantType string // the content type the handler sees, when 200
	}{
		{name: "json", path: "/edge/thing", ctype: "application/json", body: `{"name":"a"}`, want: 200, wantType: "application/json"},
		{name: "json with charset", path: "/edge/thing", ctype: "application/json; charset=utf-8", body: `{"name":"a"}`, want: 200, wantType: "application/json; charset=utf-8"},
		{name: "no content type", path: "/edge/thing", body: `{"name":"a"}`, want: 200, wantType: "application/json"},
		{name: "text/plain", path: "/edge/thing", ctype: "text/plain;charset=UTF-8", body: `{"name":"a"}`, want: 200, wantType: "application/json"},
		{name: "form-encoded (curl -d)", path: "/edge/thing", ctype: "application/x-www-form-urlencoded", body: `{"name":"a"}`, want: 200, wantType: "application/json"},
		{name: "no content type, not JSON", path: "/edge/thing", body: `name=a`, want: 400},
		{name: "form-encoded, not JSON", path: "/edge/thing", ctype: "application/x-www-form-urlencoded", body: `name=a`, want: 400},
		{name: "text/plain, trailing data", path: "/edge/thing", ctype: "text/plain", body: `{"name":"a"} {}`, want: 400},
		{name: "lenient type still validated", path: "/edge/thing", body: `{"size":1}`, want: 400},
		{name: "xml", path: "/edge/thing", ctype: "application/xml", body: `<name>a</name>`, want: 415},
		{name: "json-like suffix", path: "/edge/thing", ctype: "application/merge-patch+json", body: `{"name":"a"}`, want: 415},
		{name: "multipart", path: "/edge/thing", ctype: "multipart/form-data; boundary=x", body: `--x--`, want: 415},
		{name: "malformed content type", path: "/edge/thing", ctype: "application/", body: `{"name":"a"}`, want: 415},
		{name: "login json", path: "/edge/login", ctype: "application/json", body: `{"username":"a"}`, want: 200, wantType: "application/json"},
		{name: "login json as text/plain", path: "/edge/login", ctype: "text/plain", body: `{"username":"a"}`, want: 200, wantType: "application/json"},
		{name: "login json without type", path: "/edge/login", body: `{"username":"a"}`, want: 200, wantType: "application/json"},
		{name: "login PEM as text/plain", path: "/edge/login", ctype: "text/plain", body: pem, want: 200, wantType: "text/plain"},
		{name: "login PEM without type", path: "/edge/login", body: pem, want: 200, wantType: "text/plain"},
		{name: "login PEM form-encoded (curl --data-binary)", path: "/edge/login", ctype: "application/x-www-form-urlencoded", body: pem, want: 200, wantType: "text/plain"},
		{name: "login without body", path: "/edge/login", want: 200},
		{name: "login xml", path: "/edge/login", ctype: "application/xml", body: `<a/>`, want: 415},
		{name: "no body operation ignores the type", method: "GET", path: "/edge/ping", ctype: "application/xml", want: 200, wantType: "application/xml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gotType, gotBody = "", ""
			method := tc.method
			if method == "" {
				method = "POST"
			}
			var body io.Reader = http.NoBody
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req := httptest.NewRequest(method, tc.path, body)
			if tc.ctype != "" {
				req.Header.Set("Content-Type", tc.ctype)
			}
			rec := httptest.NewRecorder()
			rt.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tc.want, rec.Body)
			}
			if tc.want != 200 {
				return
			}
			if gotType != tc.wantType {
				t.Errorf("handler saw Content-Type %q, want %q", gotType, tc.wantType)
			}
			if gotBody != tc.body {
				t.Errorf("handler saw body %q, want %q", gotBody, tc.body)
			}
		})
	}
}
