package impl_test

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestServicesScenarios: creating, listing and deleting services, with the
// create body's rules (decisions §8) and who may call what.
func TestServicesScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		name := e.Unique("svc")
		badCfg := e.Unique("svc-bad")
		sine := func(n string, enabled any) map[string]any {
			return map[string]any{"name": n, "type": "south", "plugin": "sinusoid", "enabled": enabled}
		}
		absent := func(n string) func(*testing.T, *env, *httptest.ResponseRecorder) {
			return func(t *testing.T, e *env, _ *httptest.ResponseRecorder) {
				if rec := e.Do(t, "GET", "/edge/service", nil, admin, nil); strings.Contains(rec.Body.String(), `"`+n+`"`) {
					t.Errorf("service %s exists after a refused create", n)
				}
			}
		}
		t.Cleanup(func() { e.Do(t, "DELETE", "/edge/service/"+url.PathEscape(name), nil, admin, nil) })
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "create", Method: "POST", URL: "/edge/service", As: user, Body: sine(name, "false"), ExpectedStatus: 200,
				ExpectedContent: []string{`"name":"` + name + `"`, `"id":"`, "created"}},
			{Name: "create a duplicate", Method: "POST", URL: "/edge/service", Body: sine(name, false), ExpectedStatus: 409},
			{Name: "create without name", Method: "POST", URL: "/edge/service",
				Body: map[string]any{"type": "south", "plugin": "sinusoid", "enabled": false}, ExpectedStatus: 400, ExpectedContent: []string{"name"}},
			{Name: "create without type", Method: "POST", URL: "/edge/service",
				Body: map[string]any{"name": e.Unique("svc"), "plugin": "sinusoid", "enabled": false}, ExpectedStatus: 400, ExpectedContent: []string{"type"}},
			{Name: "create without enabled", Method: "POST", URL: "/edge/service",
				Body: map[string]any{"name": e.Unique("svc"), "type": "south", "plugin": "sinusoid"}, ExpectedStatus: 400, ExpectedContent: []string{"enabled"}},
			{Name: "create with enabled maybe", Method: "POST", URL: "/edge/service", Body: sine(e.Unique("svc"), "maybe"), ExpectedStatus: 400},
			{Name: "create with an unknown plugin", Method: "POST", URL: "/edge/service",
				Body: map[string]any{"name": e.Unique("svc"), "type": "south", "plugin": "no-such-plugin", "enabled": false}, ExpectedStatus: 404},
			{Name: "create with a control character", Method: "POST", URL: "/edge/service", Body: sine("bad\x01name", false), ExpectedStatus: 400},
			{Name: "create with a leading space", Method: "POST", URL: "/edge/service", Body: sine(" "+e.Unique("svc"), false), ExpectedStatus: 400},
			{Name: "create with an invalid config value", Method: "POST", URL: "/edge/service",
				Body: map[string]any{"name": badCfg, "type": "south", "plugin": "sinusoid", "enabled": false,
					"config": map[string]any{"dataPointsPerSec": map[string]string{"value": "many"}}},
				ExpectedStatus: 400, ExpectedContent: []string{"dataPointsPerSec"}, AfterTestFunc: absent(badCfg)},
			{Name: "create with malformed JSON", Method: "POST", URL: "/edge/service", Body: `{"name":`, ExpectedStatus: 400},
			{Name: "list", Method: "GET", URL: "/edge/service", ExpectedStatus: 200,
				ExpectedContent: []string{`"name":"` + name + `"`, `"name":"Edge Core"`}},
			{Name: "list by type", Method: "GET", URL: "/edge/service?type=core", As: view, ExpectedStatus: 200,
				ExpectedContent: []string{`"Edge Core"`}, NotExpectedContent: []string{name}},
			{Name: "south", Method: "GET", URL: "/edge/south", ExpectedStatus: 200,
				ExpectedContent: []string{`"name":"` + name + `"`, `"schedule_enabled":false`}},
			{Name: "installed", Method: "GET", URL: "/edge/service/installed", ExpectedStatus: 200, ExpectedContent: []string{`"services":[`}},
			{Name: "delete the core", Method: "DELETE", URL: "/edge/service/Edge%20Core", As: admin, ExpectedStatus: 400},
			{Name: "delete", Method: "DELETE", URL: "/edge/service/" + url.PathEscape(name), As: control, ExpectedStatus: 200},
			{Name: "delete again", Method: "DELETE", URL: "/edge/service/" + url.PathEscape(name), ExpectedStatus: 404},
		},
			scenario.Refused("POST", "/edge/service", sine(e.Unique("svc"), false), view, dataView),
			scenario.Refused("POST", "/edge/service?action=install", map[string]string{"format": "repository", "name": "edged-south-x"},
				anon, user, control),
			scenario.Refused("DELETE", "/edge/service/"+url.PathEscape(name), nil, view, dataView),
			scenario.Refused("GET", "/edge/south", nil, dataView),
		))
	})
}
