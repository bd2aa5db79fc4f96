package impl_test

import (
	"net/http/httptest"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
	"github.com/edged/edged/internal/system"
)

// TestLifecycleScenarios: shutdown and restart are for editors with a
// token; the first request is carried to the code running the gateway
// (the Env's Control, which nothing acts on) and kept, so a later one
// answers with it.
func TestLifecycleScenarios(t *testing.T) {
	requested := func(want system.Action) func(*testing.T, *env, *httptest.ResponseRecorder) {
		return func(t *testing.T, e *env, _ *httptest.ResponseRecorder) {
			if got := e.Control.Requested(); got != want {
				t.Errorf("requested %v, want %v", got, want)
			}
		}
	}
	scenario.Each(t, func(t *testing.T, e *env) {
		scenario.Run(t, e, scenario.Concat(
			scenario.Refused("PUT", "/edge/restart", nil, anon, view, dataView),
			scenario.Refused("PUT", "/edge/shutdown", nil, anon, view, dataView),
			[]scn{
				{Name: "refusals request nothing", Method: "GET", URL: "/edge/ping", ExpectedStatus: 200,
					AfterTestFunc: requested(0)},
				{Name: "restart", Method: "PUT", URL: "/edge/restart", As: control, ExpectedStatus: 200,
					ExpectedContent: []string{`"Restart in progress"`}, AfterTestFunc: requested(system.Restart)},
				{Name: "shutdown after restart keeps restart", Method: "PUT", URL: "/edge/shutdown", As: user, ExpectedStatus: 200,
					ExpectedContent: []string{`"Restart in progress"`}, AfterTestFunc: requested(system.Restart)},
				{Name: "shutdown with a body", Method: "PUT", URL: "/edge/shutdown", As: admin, Body: `{"now":true}`, ExpectedStatus: 200},
			}))
	})
}
