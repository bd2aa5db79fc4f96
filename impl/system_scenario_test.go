package impl_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestSystemScenarios: ping answers every role and anonymous callers
// (scrape rule), with the instance's identity and health.
func TestSystemScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		scenario.Run(t, e, []scn{
			{Name: "anonymous", Method: "GET", URL: "/edge/ping", ExpectedStatus: 200,
				ExpectedContent: []string{`"health":"green"`, `"version":"scenario"`, `"authenticationOptional":true`, `"serviceName":"Edge Gateway"`}},
			{Name: "data-view", Method: "GET", URL: "/edge/ping", As: dataView, ExpectedStatus: 200},
			{Name: "admin", Method: "GET", URL: "/edge/ping", As: admin, ExpectedStatus: 200, ExpectedContent: []string{`"safeMode":false`}},
			{Name: "invalid token is ignored while allowPing", Method: "GET", URL: "/edge/ping",
				Headers: map[string]string{"Authorization": "not-a-token"}, ExpectedStatus: 200},
			{Name: "invalid token elsewhere", Method: "GET", URL: "/edge/statistics",
				Headers: map[string]string{"Authorization": "not-a-token"}, ExpectedStatus: 401},
			{Name: "wrong method", Method: "POST", URL: "/edge/ping", ExpectedStatus: 405,
				AfterTestFunc: func(t *testing.T, _ *env, res *httptest.ResponseRecorder) {
					if allow := res.Header().Get("Allow"); !strings.Contains(allow, "GET") {
						t.Errorf("Allow %q", allow)
					}
				}},
			{Name: "the client's request id is echoed", Method: "GET", URL: "/edge/ping", Headers: map[string]string{"X-Request-Id": "scenario-42"},
				ExpectedStatus: 200, AfterTestFunc: func(t *testing.T, _ *env, res *httptest.ResponseRecorder) {
					if id := res.Header().Get("X-Request-Id"); id != "scenario-42" {
						t.Errorf("X-Request-Id %q", id)
					}
				}},
		})
	})
}
