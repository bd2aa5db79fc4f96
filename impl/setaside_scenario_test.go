package impl_test

import (
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestSetAsideScenarios: the readings a north destination refused, of a
// north task that has none yet, and of names that are not north.
func TestSetAsideScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		name := e.Unique("sa")
		e.Call(t, "POST", "/edge/scheduled/task", map[string]any{"name": name, "plugin": "http_north", "enabled": false, "repeat": 60},
			admin, 200, nil)
		t.Cleanup(func() { e.Do(t, "DELETE", "/edge/service/"+name, nil, admin, nil) })
		base := "/edge/north/" + name + "/setaside"
		unknown := "/edge/north/" + e.Unique("none") + "/setaside"
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "list", Method: "GET", URL: base + "?limit=5", As: view, ExpectedStatus: 200,
				ExpectedContent: []string{`"total":0`, `"readings":[]`}},
			{Name: "list of an unknown north", Method: "GET", URL: unknown, ExpectedStatus: 404},
			{Name: "list with limit 0", Method: "GET", URL: base + "?limit=0", ExpectedStatus: 400, ExpectedContent: []string{"limit"}},
			{Name: "resend all", Method: "PUT", URL: base + "/resend", As: user, Body: `{}`, ExpectedStatus: 200,
				ExpectedContent: []string{`"count":0`}},
			{Name: "resend some", Method: "PUT", URL: base + "/resend", Body: map[string]any{"ids": []int{1, 2}}, ExpectedStatus: 200},
			{Name: "resend ids not numbers", Method: "PUT", URL: base + "/resend", Body: map[string]any{"ids": []string{"a"}}, ExpectedStatus: 400},
			{Name: "resend of an unknown north", Method: "PUT", URL: unknown + "/resend", Body: `{}`, ExpectedStatus: 404},
			{Name: "delete", Method: "DELETE", URL: base + "?id=1&id=2", ExpectedStatus: 200, ExpectedContent: []string{`"count":0`}},
			{Name: "delete with an id not a number", Method: "DELETE", URL: base + "?id=x", ExpectedStatus: 400},
			{Name: "delete of an unknown north", Method: "DELETE", URL: unknown, ExpectedStatus: 404},
		},
			scenario.Refused("PUT", base+"/resend", `{}`, view, dataView),
			scenario.Refused("DELETE", base, nil, view, dataView),
			scenario.Refused("GET", base, nil, dataView),
		))
	})
}
