package impl_test

import (
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestConfigScenarios: categories created and merged, items read, set by
// type and attributes, reset, the category tree, and the admin-only
// categories.
func TestConfigScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		key, child := e.Unique("cat"), e.Unique("cat-child")
		c := "/edge/category/" + key
		def := func(k string) map[string]any {
			return map[string]any{"key": k, "description": "scenario category", "items": map[string]any{
				"level": map[string]any{"description": "a level", "type": "integer", "default": "5", "minimum": "0", "maximum": "10"},
				"mode":  map[string]any{"description": "a mode", "type": "enumeration", "default": "auto", "options": []string{"auto", "manual"}},
				"fixed": map[string]any{"description": "fixed", "type": "string", "default": "x", "readonly": "true"},
			}}
		}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "create", Method: "POST", URL: "/edge/category", As: user, Body: def(key), ExpectedStatus: 200,
				ExpectedContent: []string{`"key":"` + key + `"`, `"level":{`, `"value":"5"`}},
			{Name: "create a child", Method: "POST", URL: "/edge/category", Body: map[string]any{"key": child, "description": "child",
				"value": map[string]any{"a": map[string]any{"description": "a", "type": "boolean", "default": "true"}}}, ExpectedStatus: 200},
			{Name: "merge keeps values and adds items", Method: "POST", URL: "/edge/category",
				Body: map[string]any{"key": key, "description": "scenario category", "items": map[string]any{
					"extra": map[string]any{"description": "extra", "type": "string", "default": "e"}}},
				ExpectedStatus: 200, ExpectedContent: []string{`"extra":{`, `"level":{`}},
			{Name: "create with both display names differing", Method: "POST", URL: "/edge/category",
				Body: map[string]any{"key": e.Unique("cat"), "description": "d", "displayName": "A", "display_name": "B"}, ExpectedStatus: 400},
			{Name: "create with an item in items and value", Method: "POST", URL: "/edge/category",
				Body: map[string]any{"key": e.Unique("cat"), "description": "d",
					"items": map[string]any{"a": map[string]any{"description": "a", "type": "string", "default": ""}},
					"value": map[string]any{"a": map[string]any{"description": "a", "type": "string", "default": ""}}}, ExpectedStatus: 400},
			{Name: "create with an unknown item type", Method: "POST", URL: "/edge/category",
				Body: map[string]any{"key": e.Unique("cat"), "description": "d",
					"items": map[string]any{"a": map[string]any{"description": "a", "type": "colour", "default": "red"}}}, ExpectedStatus: 400},
			{Name: "create with a default out of range", Method: "POST", URL: "/edge/category",
				Body: map[string]any{"key": e.Unique("cat"), "description": "d",
					"items": map[string]any{"a": map[string]any{"description": "a", "type": "integer", "default": "50", "maximum": "10"}}},
				ExpectedStatus: 400},
			{Name: "create without key", Method: "POST", URL: "/edge/category", Body: map[string]any{"description": "d"}, ExpectedStatus: 400,
				ExpectedContent: []string{"key"}},
			{Name: "create without a body", Method: "POST", URL: "/edge/category", ExpectedStatus: 400},
			{Name: "list", Method: "GET", URL: "/edge/category", As: view, ExpectedStatus: 200, ExpectedContent: []string{`"key":"` + key + `"`}},
			{Name: "get", Method: "GET", URL: c, ExpectedStatus: 200, ExpectedContent: []string{`"mode":{`, `"options":["auto","manual"]`}},
			{Name: "get an unknown category", Method: "GET", URL: "/edge/category/" + e.Unique("none"), ExpectedStatus: 404},
			{Name: "get an item", Method: "GET", URL: c + "/level", ExpectedStatus: 200, ExpectedContent: []string{`"type":"integer"`}},
			{Name: "get an unknown item", Method: "GET", URL: c + "/nope", ExpectedStatus: 404},
			{Name: "set an item", Method: "PUT", URL: c + "/level", As: control, Body: map[string]string{"value": "7"}, ExpectedStatus: 200,
				ExpectedContent: []string{`"value":"7"`}},
			{Name: "set an item above its maximum", Method: "PUT", URL: c + "/level", Body: map[string]string{"value": "11"}, ExpectedStatus: 400,
				ExpectedContent: []string{"level"}},
			{Name: "set an integer to text", Method: "PUT", URL: c + "/level", Body: map[string]string{"value": "seven"}, ExpectedStatus: 400},
			{Name: "set an option not offered", Method: "PUT", URL: c + "/mode", Body: map[string]string{"value": "turbo"}, ExpectedStatus: 400},
			{Name: "set a readonly item", Method: "PUT", URL: c + "/fixed", Body: map[string]string{"value": "y"}, ExpectedStatus: 400},
			{Name: "set an unknown item", Method: "PUT", URL: c + "/nope", Body: map[string]string{"value": "1"}, ExpectedStatus: 404},
			{Name: "set an item of an unknown category", Method: "PUT", URL: "/edge/category/" + e.Unique("none") + "/level",
				Body: map[string]string{"value": "1"}, ExpectedStatus: 404},
			{Name: "set an item without value", Method: "PUT", URL: c + "/level", Body: `{}`, ExpectedStatus: 400},
			{Name: "set several items", Method: "PUT", URL: c, Body: map[string]string{"level": "3", "mode": "manual"}, ExpectedStatus: 200,
				ExpectedContent: []string{`"value":"manual"`}},
			{Name: "set several items, one invalid, none written", Method: "PUT", URL: c, Body: map[string]string{"level": "2", "mode": "turbo"},
				ExpectedStatus: 400},
			{Name: "reset an item", Method: "DELETE", URL: c + "/level/value", ExpectedStatus: 200, ExpectedContent: []string{`"value":"5"`}},
			{Name: "reset an unknown item", Method: "DELETE", URL: c + "/nope/value", ExpectedStatus: 404},
			{Name: "add a child", Method: "POST", URL: c + "/children", Body: map[string]any{"children": []string{child}}, ExpectedStatus: 200,
				ExpectedContent: []string{child}},
			{Name: "children", Method: "GET", URL: c + "/children", ExpectedStatus: 200, ExpectedContent: []string{child}},
			{Name: "parent", Method: "GET", URL: "/edge/category/" + child + "/parent", ExpectedStatus: 200, ExpectedContent: []string{key}},
			{Name: "add an unknown child", Method: "POST", URL: c + "/children", Body: map[string]any{"children": []string{e.Unique("none")}},
				ExpectedStatus: 404},
			{Name: "add itself as child", Method: "POST", URL: c + "/children", Body: map[string]any{"children": []string{key}},
				ExpectedStatus: 409, ExpectedContent: []string{"ancestors"}},
			{Name: "add children without the list", Method: "POST", URL: c + "/children", Body: `{}`, ExpectedStatus: 400},
			{Name: "remove the child", Method: "DELETE", URL: c + "/children/" + child, ExpectedStatus: 200},
			{Name: "remove a child that is not one", Method: "DELETE", URL: c + "/children/" + child, ExpectedStatus: 404},
			{Name: "children of an unknown category", Method: "GET", URL: "/edge/category/" + e.Unique("none") + "/children", ExpectedStatus: 404},
			{Name: "parent of an unknown category", Method: "GET", URL: "/edge/category/" + e.Unique("none") + "/parent", ExpectedStatus: 404},
			{Name: "admin sets rest_api", Method: "PUT", URL: "/edge/category/rest_api/allowPing", As: admin, Body: map[string]string{"value": "true"},
				ExpectedStatus: 200},
		},
			scenario.Refused("PUT", "/edge/category/rest_api/allowPing", map[string]string{"value": "true"}, anon, user, control, view),
			scenario.Refused("PUT", "/edge/category/REST_API/allowPing", map[string]string{"value": "true"}, user),
			scenario.Refused("PUT", "/edge/category/password/length", map[string]string{"value": "9"}, user),
			scenario.Refused("DELETE", "/edge/category/rest_api/allowPing/value", nil, anon, user),
			scenario.Refused("POST", "/edge/category", map[string]any{"key": "rest_api", "description": "d"}, anon, control),
			scenario.Refused("PUT", c+"/level", map[string]string{"value": "1"}, view, dataView),
			scenario.Refused("GET", c, nil, dataView),
		))
	})
}
