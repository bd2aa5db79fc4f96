package router

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/edged/edged/internal/fault"
)

// Extensions of a request body's top-level properties naming wire forms
// the gateway accepts beside the one the schema states. The schema keeps a
// single form, so every generator builds a client from it; the gateway
// still takes what the specification it follows allows.
const (
	// aliasesExtension lists other names of the property
	// (`x-aliases: [display_name]` on displayName).
	aliasesExtension = "x-aliases"
	// booleanStringsExtension, true on a boolean property, lets the
	// strings "true" and "false" stand for the booleans.
	booleanStringsExtension = "x-boolean-strings"
)

// wireForms rewrites a JSON request body's other wire forms into the one
// its schema states, before the body is validated: an alias becomes the
// property it names, and a boolean spelled as a string becomes a boolean.
type wireForms struct {
	aliases  map[string]string // alias → property
	booleans []string          // properties taking "true"/"false"
}

// newWireForms collects the wire forms of op's JSON body: the top-level
// properties of its schema and of the alternatives of a oneOf, anyOf or
// allOf there.
func newWireForms(op *openapi3.Operation) wireForms {
	var w wireForms
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return w
	}
	mt := op.RequestBody.Value.Content.Get(mediaJSON)
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return w
	}
	schemas := []*openapi3.Schema{mt.Schema.Value}
	for _, alts := range []openapi3.SchemaRefs{mt.Schema.Value.OneOf, mt.Schema.Value.AnyOf, mt.Schema.Value.AllOf} {
		for _, a := range alts {
			if a.Value != nil {
				schemas = append(schemas, a.Value)
			}
		}
	}
	for _, s := range schemas {
		for name, p := range s.Properties {
			if p.Value == nil {
				continue
			}
			if list, ok := p.Value.Extensions[aliasesExtension].([]any); ok {
				for _, a := range list {
					if alias, ok := a.(string); ok {
						if w.aliases == nil {
							w.aliases = map[string]string{}
						}
						w.aliases[alias] = name
					}
				}
			}
			if on, ok := p.Value.Extensions[booleanStringsExtension].(bool); ok && on && !slices.Contains(w.booleans, name) {
				w.booleans = append(w.booleans, name)
			}
		}
	}
	return w
}

// rewrite applies the wire forms to r's body, a JSON object, and puts the
// body back. A body that is no JSON object is left to the validator. An
// alias given beside its property with a different value is 400.
func (w wireForms) rewrite(r *http.Request) error {
	if (len(w.aliases) == 0 && len(w.booleans) == 0) || r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return RequestFault(err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil //nolint:nilerr // not a JSON object: the validator refuses it next
	}
	changed := false
	for alias, name := range w.aliases {
		v, ok := obj[alias]
		if !ok {
			continue
		}
		if cur, both := obj[name]; both && !sameJSON(cur, v) {
			return fault.New(fault.Invalid, "request body fields %q and %q differ: give one of them", name, alias)
		}
		obj[name] = v
		delete(obj, alias)
		changed = true
	}
	for _, name := range w.booleans {
		var s string
		if v, ok := obj[name]; ok && json.Unmarshal(v, &s) == nil && (s == "true" || s == "false") {
			obj[name] = json.RawMessage(s)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "request body could not be re-encoded")
	}
	r.Body = io.NopCloser(bytes.NewReader(out))
	r.ContentLength = int64(len(out))
	return nil
}

// sameJSON reports whether a and b encode the same JSON value.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
