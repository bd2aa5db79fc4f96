package impl_test

import (
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestFleetScenarios: the configuration document exported, planned and
// applied (admin only), and the documents plan and apply refuse.
func TestFleetScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		cat := e.Unique("fleet")
		e.Call(t, "POST", "/edge/category", map[string]any{"key": cat, "description": "fleet", "items": map[string]any{
			"line": map[string]any{"description": "line", "type": "integer", "default": "1", "maximum": "9"}}}, admin, 200, nil)
		doc := func(line any) map[string]any {
			return map[string]any{"version": 1, "categories": []any{map[string]any{"name": cat, "items": map[string]any{"line": line}}}}
		}
		refused := func(name string, body any, msg string) []scn {
			var out []scn
			for _, verb := range []string{"plan", "apply"} {
				out = append(out, scn{Name: verb + " " + name, Method: "POST", URL: "/edge/config/" + verb, As: admin, Body: body,
					ExpectedStatus: 400, ExpectedContent: []string{msg}})
			}
			return out
		}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "export", Method: "GET", URL: "/edge/config/export", As: admin, ExpectedStatus: 200,
				ExpectedContent: []string{`"version":1`, `"name":"` + cat + `"`, `"name":"scenario-view"`}, NotExpectedContent: []string{"$2a$"}},
			{Name: "plan", Method: "POST", URL: "/edge/config/plan", As: admin, Body: doc("4"), ExpectedStatus: 200,
				ExpectedContent: []string{`"action":"change"`, `"change":1`}},
			{Name: "plan wrote nothing", Method: "GET", URL: "/edge/category/" + cat + "/line", ExpectedStatus: 200,
				ExpectedContent: []string{`"value":"1"`}},
			{Name: "apply", Method: "POST", URL: "/edge/config/apply", As: admin, Body: doc("4"), ExpectedStatus: 200,
				ExpectedContent: []string{`"action":"change"`}},
			{Name: "applied", Method: "GET", URL: "/edge/category/" + cat + "/line", ExpectedStatus: 200, ExpectedContent: []string{`"value":"4"`}},
			{Name: "apply again changes nothing", Method: "POST", URL: "/edge/config/apply", As: admin, Body: doc("4"), ExpectedStatus: 200,
				ExpectedContent: []string{`"changes":[]`}},
			{Name: "plan malformed JSON", Method: "POST", URL: "/edge/config/plan", As: admin, Body: `{"version":`, ExpectedStatus: 400},
		},
			refused("unresolved secret", doc(map[string]any{"fromEnv": "LINE"}), "not resolved"),
			refused("other version", map[string]any{"version": 2}, "version"),
			refused("unknown item", map[string]any{"version": 1, "categories": []any{map[string]any{"name": cat, "items": map[string]any{"nope": "1"}}}}, "nope"),
			refused("invalid value", doc("ten"), "line"),
			refused("value out of range", doc("10"), "line"),
			refused("unknown role", map[string]any{"version": 1, "users": []any{map[string]any{"name": "admin", "role": "boss"}}}, "boss"),
			scenario.Refused("GET", "/edge/config/export", nil, anon, user, control, view, dataView),
			scenario.Refused("POST", "/edge/config/plan", doc("4"), anon, user, view),
			scenario.Refused("POST", "/edge/config/apply", doc("5"), anon, user, control),
		))
	})
}
