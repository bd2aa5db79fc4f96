package impl_test

import (
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestPluginDataScenarios: a sinusoid service's persisted data: none
// while it first runs, writes refused while it runs (409), its state
// persisted when it stops, and the rules of the calls while it is stopped.
func TestPluginDataScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		name := e.Unique("pd")
		createSouth(t, e, name, "sinusoid", true, map[string]string{"assetName": e.Unique("pd-wave")})
		svc := "/edge/service/" + url.PathEscape(name)
		data := svc + "/plugin/" + url.PathEscape(name) + "/data"
		schedule := func(enabled bool) func(*testing.T, *env) {
			return func(t *testing.T, e *env) { setSchedule(t, e, name, enabled) }
		}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "persistent plugins", Method: "GET", URL: svc + "/persist", ExpectedStatus: 200,
				ExpectedContent: []string{`"persistent":["` + name + `"]`}},
			{Name: "persistent plugins of an unknown service", Method: "GET", URL: "/edge/service/" + e.Unique("none") + "/persist",
				ExpectedStatus: 404},
			{Name: "get before any stop", Method: "GET", URL: data, ExpectedStatus: 404},
			{Name: "post while running", Method: "POST", URL: data, Body: map[string]any{"data": map[string]int{"step": 1}}, ExpectedStatus: 409},
			{Name: "delete while running", Method: "DELETE", URL: data, ExpectedStatus: 409},
			{Name: "get after the service stopped", BeforeTestFunc: schedule(false), Method: "GET", URL: data, As: view, ExpectedStatus: 200,
				ExpectedContent: []string{`"data":`}},
			{Name: "post over existing data", Method: "POST", URL: data, Body: map[string]any{"data": map[string]int{"step": 1}}, ExpectedStatus: 409},
			{Name: "delete", Method: "DELETE", URL: data, As: user, ExpectedStatus: 200},
			{Name: "delete again", Method: "DELETE", URL: data, ExpectedStatus: 404},
			{Name: "post without data", Method: "POST", URL: data, Body: `{}`, ExpectedStatus: 400, ExpectedContent: []string{"data"}},
			{Name: "post malformed JSON", Method: "POST", URL: data, Body: `{"data":`, ExpectedStatus: 400},
			{Name: "post", Method: "POST", URL: data, Body: map[string]any{"data": map[string]any{"step": 90, "note": "from the API"}},
				ExpectedStatus: 200},
			{Name: "get posted", Method: "GET", URL: data, ExpectedStatus: 200, ExpectedContent: []string{`"data":{"note":"from the API","step":90}`}},
			{Name: "unknown plugin instance", Method: "GET", URL: svc + "/plugin/" + e.Unique("nope") + "/data", ExpectedStatus: 404},
			{Name: "post for an unknown service", Method: "POST", URL: "/edge/service/" + e.Unique("none") + "/plugin/x/data",
				Body: map[string]any{"data": map[string]int{"step": 1}}, ExpectedStatus: 404},
			{Name: "running again reads the posted data", BeforeTestFunc: schedule(true), Method: "GET", URL: data, ExpectedStatus: 200,
				ExpectedContent: []string{`"step":90`},
				AfterTestFunc: func(t *testing.T, e *env, _ *httptest.ResponseRecorder) {
					eventually(t, e, "/edge/south", `"status":"running"`)
				}},
		},
			scenario.Refused("POST", data, map[string]any{"data": map[string]int{"step": 1}}, view, dataView),
			scenario.Refused("DELETE", data, nil, view, dataView),
			scenario.Refused("GET", data, nil, dataView),
		))
	})
}
