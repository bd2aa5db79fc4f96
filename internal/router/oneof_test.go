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

const oneOfSpec = `
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /edge/service:
    post:
      operationId: createService
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf:
                - type: object
                  required: [name, type, enabled]
                  properties:
                    name: {type: string}
                    type: {type: string, pattern: '^(south|north)$'}
                    enabled:
                      oneOf:
                        - {type: boolean}
                        - {type: string, enum: ['true', 'false']}
                - type: object
                  required: [format, name]
                  properties:
                    format: {type: string, enum: [repository]}
                    name: {type: string}
      responses: {"200": {description: ok}}
`

func TestOneOfMessageNamesTheField(t *testing.T) {
	spec, err := openapi3.NewLoader().LoadFromData([]byte(oneOfSpec))
	if err != nil {
		t.Fatal(err)
	}
	rt := New(Options{Spec: spec, WriteError: writeTestError})
	rt.Group(func(r chi.Router) {
		r.Post("/edge/service", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{}`) })
	})
	cases := []struct {
		name        string
		body        string
		wantStatus  int
		wantMessage string
	}{
		{name: "create body", body: `{"name":"a","type":"south","enabled":true}`, wantStatus: 200},
		{name: "install body", body: `{"name":"a","format":"repository"}`, wantStatus: 200},
		{name: "create without type", body: `{"name":"a","enabled":true}`, wantStatus: 400, wantMessage: `field "type": property "type" is missing`},
		{name: "create without enabled", body: `{"name":"a","type":"south"}`, wantStatus: 400, wantMessage: `property "enabled" is missing`},
		{name: "create with a bad type", body: `{"name":"a","type":"up","enabled":true}`, wantStatus: 400, wantMessage: `field "type"`},
		{name: "create with a bad enabled", body: `{"name":"a","type":"south","enabled":"yes"}`, wantStatus: 400, wantMessage: `field "enabled"`},
		{name: "install with a bad format", body: `{"name":"a","format":"disk"}`, wantStatus: 400, wantMessage: `field "format"`},
		{name: "not an object", body: `[1]`, wantStatus: 400, wantMessage: "oneOf"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/edge/service", strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			rt.ServeHTTP(rec, req)
			if rec.Code != c.wantStatus {
				t.Fatalf("status %d, want %d; body %s", rec.Code, c.wantStatus, rec.Body)
			}
			if c.wantMessage == "" {
				return
			}
			var body struct{ Message string }
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(body.Message, c.wantMessage) {
				t.Errorf("message %q, want it to contain %q", body.Message, c.wantMessage)
			}
		})
	}
}
