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
	scenario.Each(t, func(t *testing.T, e *env) {
		// The gateway is shared and its Control takes one request: the
		// first of this test is kept unless an earlier test made one.
		first := e.Control.Requested()
		if first == 0 {
			first = system.Restart
		}
		message := map[system.Action]string{system.Restart: `"Restart in progress"`, system.Shutdown: `"Shutdown in progress"`}[first]
		requested := func(t *testing.T, e *env, _ *httptest.ResponseRecorder) {
			if got := e.Control.Requested(); got != first {
				t.Errorf("requested %v, want %v", got, first)
			}
		}
		prior := e.Control.Requested()
		scenario.Run(t, e, scenario.Concat(
			scenario.Refused("PUT", "/edge/restart", nil, anon, view, dataView),
			scenario.Refused("PUT", "/edge/shutdown", nil, anon, view, dataView),
			[]scn{
				{Name: "refusals request nothing", Method: "GET", URL: "/edge/ping", ExpectedStatus: 200,
					AfterTestFunc: func(t *testing.T, e *env, _ *httptest.ResponseRecorder) {
						if got := e.Control.Requested(); got != prior {
							t.Errorf("a refused call requested %v", got)
						}
					}},
				{Name: "restart", Method: "PUT", URL: "/edge/restart", As: control, ExpectedStatus: 200,
					ExpectedContent: []string{message}, AfterTestFunc: requested},
				{Name: "shutdown after restart keeps the first", Method: "PUT", URL: "/edge/shutdown", As: user, ExpectedStatus: 200,
					ExpectedContent: []string{message}, AfterTestFunc: requested},
				{Name: "shutdown with a body", Method: "PUT", URL: "/edge/shutdown", As: admin, Body: `{"now":true}`, ExpectedStatus: 200},
			}))
	})
}
