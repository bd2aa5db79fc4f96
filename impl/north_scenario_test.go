package impl_test

import (
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestNorthScenarios: north tasks created from the API (body rules, 404 of
// an unknown plugin, 409 of a taken name) and the north listing.
func TestNorthScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		name := e.Unique("nt")
		task := func(n string, enabled any) map[string]any {
			return map[string]any{"name": n, "plugin": "http_north", "enabled": enabled, "repeat": 30,
				"config": map[string]any{"url": map[string]string{"value": "http://127.0.0.1:9/sensor-reading"}}}
		}
		t.Cleanup(func() { e.Do(t, "DELETE", "/edge/service/"+name, nil, admin, nil) })
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "create", Method: "POST", URL: "/edge/scheduled/task", As: control, Body: task(name, "false"), ExpectedStatus: 200,
				ExpectedContent: []string{`"name":"` + name + `"`, `"id":"`}},
			{Name: "list", Method: "GET", URL: "/edge/north", As: view, ExpectedStatus: 200,
				ExpectedContent: []string{`"name":"` + name + `"`, `"repeat":30`}},
			{Name: "create a duplicate", Method: "POST", URL: "/edge/scheduled/task", Body: task(name, false), ExpectedStatus: 409},
			{Name: "create with enabled maybe", Method: "POST", URL: "/edge/scheduled/task", Body: task(e.Unique("nt"), "maybe"),
				ExpectedStatus: 400, ExpectedContent: []string{"enabled"}},
			{Name: "create with an unknown plugin", Method: "POST", URL: "/edge/scheduled/task",
				Body: map[string]any{"name": e.Unique("nt"), "plugin": "no-such-north", "enabled": false, "repeat": 30}, ExpectedStatus: 404},
			{Name: "create without name", Method: "POST", URL: "/edge/scheduled/task",
				Body: map[string]any{"plugin": "http_north", "enabled": false, "repeat": 30}, ExpectedStatus: 400, ExpectedContent: []string{"name"}},
			{Name: "create with repeat 0", Method: "POST", URL: "/edge/scheduled/task",
				Body: map[string]any{"name": e.Unique("nt"), "plugin": "http_north", "enabled": false, "repeat": 0}, ExpectedStatus: 400,
				ExpectedContent: []string{"repeat"}},
			{Name: "create with an invalid config item", Method: "POST", URL: "/edge/scheduled/task",
				Body: map[string]any{"name": e.Unique("nt"), "plugin": "http_north", "enabled": false, "repeat": 30,
					"config": map[string]any{"url": map[string]string{"value": "not a url"}}}, ExpectedStatus: 400},
		},
			scenario.Refused("POST", "/edge/scheduled/task", task(e.Unique("nt"), false), view, dataView),
			scenario.Refused("GET", "/edge/north", nil, dataView),
		))
	})
}
