package router

import (
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/edged/edged/internal/fault"
)

// TestWireFormsRewrite turns a body's other wire forms (x-aliases,
// x-boolean-strings) into the one the schema states.
func TestWireFormsRewrite(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData([]byte(`
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /x:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                displayName: {type: string, x-aliases: [display_name]}
                enabled: {type: boolean, x-boolean-strings: true}
      responses:
        '200': {description: ok}
`))
	if err != nil {
		t.Fatal(err)
	}
	forms := newWireForms(doc.Paths.Value("/x").Post)
	for _, tc := range []struct {
		name, in, want string
		invalid        bool
	}{
		{name: "alias", in: `{"display_name":"Pumps"}`, want: `{"displayName":"Pumps"}`},
		{name: "both alike", in: `{"displayName":"Pumps","display_name":"Pumps"}`, want: `{"displayName":"Pumps"}`},
		{name: "both differ", in: `{"displayName":"A","display_name":"B"}`, invalid: true},
		{name: "string true", in: `{"enabled":"true"}`, want: `{"enabled":true}`},
		{name: "string false", in: `{"enabled":"false"}`, want: `{"enabled":false}`},
		{name: "other string kept for the validator", in: `{"enabled":"yes"}`, want: `{"enabled":"yes"}`},
		{name: "boolean kept", in: `{"enabled":true}`, want: `{"enabled":true}`},
		{name: "not an object", in: `[1]`, want: `[1]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/x", strings.NewReader(tc.in))
			err := forms.rewrite(r)
			if tc.invalid {
				if !errors.Is(err, fault.Invalid) || !strings.Contains(err.Error(), "display_name") {
					t.Fatalf("err = %v, want an Invalid fault naming display_name", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(r.Body)
			if string(got) != tc.want {
				t.Errorf("body %s, want %s", got, tc.want)
			}
		})
	}
}
