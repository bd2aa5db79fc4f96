package impl_test

import (
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
			{Name: "wrong method", Method: "POST", URL: "/edge/ping", ExpectedStatus: 405},
		})
	})
}
