package router

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
)

const nulSpec = `
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /edge/note/{name}:
    parameters:
      - {name: name, in: path, required: true, schema: {type: string}}
    put:
      operationId: putNote
      parameters:
        - {name: tag, in: query, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {type: object, additionalProperties: true}
      responses: {"200": {description: ok}}
`

func TestNULRefused(t *testing.T) {
	spec, err := openapi3.NewLoader().LoadFromData([]byte(nulSpec))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		target      string
		body        string
		wantStatus  int
		wantMessage string // substring of the JSON message
	}{
		{name: "path parameter", target: "/edge/note/a%00b", body: `{}`, wantStatus: 400, wantMessage: `path parameter "name" contains a NUL character`},
		{name: "query parameter", target: "/edge/note/a?tag=x%00", body: `{}`, wantStatus: 400, wantMessage: `query parameter "tag" contains a NUL character`},
		{name: "undeclared query parameter is not judged", target: "/edge/note/a?other=%00", body: `{}`, wantStatus: 200},
		{name: "body value", target: "/edge/note/a", body: `{"text":"a\u0000b"}`, wantStatus: 400, wantMessage: `request body field "text" contains a NUL character`},
		{name: "body key", target: "/edge/note/a", body: `{"a\u0000":1}`, wantStatus: 400, wantMessage: `request body field "a\x00" contains`},
		{name: "nested in an array", target: "/edge/note/a", body: `{"list":[{"ok":"x"},{"bad":["y","\u0000"]}]}`, wantStatus: 400, wantMessage: `field "list.1.bad.1"`},
		{name: "first field in key order", target: "/edge/note/a", body: `{"z":"\u0000","a":"\u0000"}`, wantStatus: 400, wantMessage: `field "a"`},
		{name: "escaped backslash is text", target: "/edge/note/a", body: `{"text":"\\u0000"}`, wantStatus: 200},
		{name: "other control characters pass", target: "/edge/note/a", body: `{"text":"a\u0001\tb"}`, wantStatus: 200},
		{name: "path parameter not UTF-8", target: "/edge/note/%ff%fe", body: `{}`, wantStatus: 400, wantMessage: `path parameter "name" is not valid UTF-8`},
		{name: "query parameter not UTF-8", target: "/edge/note/a?tag=%c3%28", body: `{}`, wantStatus: 400, wantMessage: `query parameter "tag" is not valid UTF-8`},
		{name: "body value not UTF-8", target: "/edge/note/a", body: "{\"ok\":\"x\",\"details\":{\"m\":[\"a\",\"b\xffc\"]}}", wantStatus: 400, wantMessage: `request body field "details.m.1" is not valid UTF-8`},
		{name: "body key not UTF-8", target: "/edge/note/a", body: "{\"k\xc3\x28\":1}", wantStatus: 400, wantMessage: `is not valid UTF-8`},
		{name: "encoded surrogate in the body", target: "/edge/note/a", body: "{\"t\":\"\xed\xa0\x80\"}", wantStatus: 400, wantMessage: `request body field "t" is not valid UTF-8`},
		{name: "lone surrogate escape", target: "/edge/note/a", body: `{"t":["\ud800"]}`, wantStatus: 400, wantMessage: `request body field "t.0" holds a lone UTF-16 surrogate escape`},
		{name: "lone low surrogate escape in a key", target: "/edge/note/a", body: `{"\udfff":1}`, wantStatus: 400, wantMessage: `lone UTF-16 surrogate escape`},
		{name: "surrogate pair is a character", target: "/edge/note/a", body: `{"t":"\ud83d\ude00"}`, wantStatus: 200},
		{name: "invalid UTF-8 beside a duplicate name", target: "/edge/note/a", body: "{\"a\":\"\xff\",\"a\":1}", wantStatus: 400, wantMessage: `field "a" is not valid UTF-8`},
		{name: "no NUL", target: "/edge/note/caf%C3%A9?tag=x", body: `{"text":"café"}`, wantStatus: 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := New(Options{Spec: spec, WriteError: writeTestError})
			var handled string
			rt.Group(func(r chi.Router) {
				r.Put("/edge/note/{name}", func(w http.ResponseWriter, r *http.Request) {
					b, _ := io.ReadAll(r.Body)
					handled = string(b)
					_, _ = io.WriteString(w, `{}`)
				})
			})
			req := httptest.NewRequest(http.MethodPut, tc.target, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			rt.ServeHTTP(rec, req)
			if rec.Code != tc.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", rec.Code, tc.wantStatus, rec.Body)
			}
			if tc.wantStatus == http.StatusOK {
				var sent, got any
				if json.Unmarshal([]byte(tc.body), &sent) != nil || json.Unmarshal([]byte(handled), &got) != nil || !jsonSame(sent, got) {
					t.Errorf("the handler read %q, want the body sent, %q", handled, tc.body)
				}
				return
			}
			if handled != "" {
				t.Errorf("the handler ran for a refused request")
			}
			var body struct{ Message string }
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("error body is not JSON: %q", rec.Body)
			}
			if !strings.Contains(body.Message, tc.wantMessage) {
				t.Errorf("message = %q, want it to contain %q", body.Message, tc.wantMessage)
			}
		})
	}
}

func jsonSame(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
