package gen_test

import (
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/edged/edged/gen"
)

// walkSchemas calls fn on every schema of the contract: the components
// and, inside them, properties, items, additional properties and the
// alternatives of oneOf, anyOf and allOf, each once.
func walkSchemas(t *testing.T, fn func(path string, s *openapi3.Schema)) {
	t.Helper()
	spec, err := gen.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[*openapi3.Schema]bool{}
	var walk func(path string, ref *openapi3.SchemaRef)
	walk = func(path string, ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		fn(path, s)
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			walk(path+"."+n, s.Properties[n])
		}
		walk(path+"[]", s.Items)
		walk(path+"{}", s.AdditionalProperties.Schema)
		for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf, s.AllOf} {
			for _, a := range alts {
				walk(path, a)
			}
		}
	}
	names := make([]string, 0, len(spec.Components.Schemas))
	for n := range spec.Components.Schemas {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		walk(n, spec.Components.Schemas[n])
	}
	for n, p := range spec.Components.Parameters {
		walk("parameter "+n, p.Value.Schema)
	}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			for _, p := range append(item.Parameters, op.Parameters...) {
				if p.Value != nil {
					walk(method+" "+path+" "+p.Value.Name, p.Value.Schema)
				}
			}
		}
	}
}

// TestNoPropertiesFoldTogether: generators turn property names into
// identifiers (camelCase, snake_case), so two properties differing only by
// case, `_` or `-` (displayName, display_name) collide in Java ("already
// defined") and Rust (E0124). Other accepted spellings are x-aliases.
func TestNoPropertiesFoldTogether(t *testing.T) {
	fold := strings.NewReplacer("_", "", "-", "")
	walkSchemas(t, func(path string, s *openapi3.Schema) {
		seen := map[string]string{}
		for n := range s.Properties {
			f := strings.ToLower(fold.Replace(n))
			if other, dup := seen[f]; dup {
				t.Errorf("%s: properties %q and %q map to one identifier", path, other, n)
			}
			seen[f] = n
		}
	})
}

// TestIntegersFitTheirType: an integer is either format int64 (counts,
// totals, sizes, ids that can pass 2³¹) or bounded below 2³¹, so that a
// generated client's 32-bit int never overflows on a value the gateway sends.
func TestIntegersFitTheirType(t *testing.T) {
	walkSchemas(t, func(path string, s *openapi3.Schema) {
		if !s.Type.Is("integer") || s.Format == "int64" {
			return
		}
		if s.Max == nil || *s.Max > math.MaxInt32 {
			t.Errorf("%s: an integer without format int64 needs a maximum of at most %d", path, math.MaxInt32)
		}
		if s.Min != nil && *s.Min < math.MinInt32 {
			t.Errorf("%s: an integer without format int64 needs a minimum of at least %d", path, math.MinInt32)
		}
	})
}

// TestNoPrimitiveUnions: a oneOf or anyOf whose alternatives are not all
// objects (a port or "", a boolean or a string) is a union that stock
// generators cannot decode (Java: "2 classes match"; Rust fails on null).
// The SDKs may keep one (x-sdk-schema); the contract leaves the type open
// or uses one type. ControlValue and FleetValue are request-only values
// whose alternatives a generated client builds itself.
func TestNoPrimitiveUnions(t *testing.T) {
	spec, err := gen.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{} // by description: GetSpec loads a fresh copy
	for _, n := range []string{"ControlValue", "FleetValue"} {
		allowed[spec.Components.Schemas[n].Value.Description] = true
	}
	walkSchemas(t, func(path string, s *openapi3.Schema) {
		if allowed[s.Description] {
			return
		}
		for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
			for _, a := range alts {
				if a.Value != nil && !a.Value.Type.Is("object") {
					t.Errorf("%s: a union with a non-object alternative (%v)", path, a.Value.Type)
				}
			}
		}
	})
}

// TestJSONBodiesList415 checks that every operation taking a JSON body
// lists 415: the router refuses any other content type with it (decisions
// §1), and a client generated from the contract should know that answer.
func TestJSONBodiesList415(t *testing.T) {
	spec, err := gen.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value == nil || op.RequestBody.Value.Content.Get("application/json") == nil {
				continue
			}
			if op.Responses.Status(415) == nil {
				t.Errorf("%s %s (%s) takes a JSON body but does not list 415", method, path, op.OperationID)
			}
		}
	}
}
