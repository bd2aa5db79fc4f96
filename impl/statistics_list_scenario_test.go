package impl_test

import (
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestStatisticsListScenarios: the statistics, sorted by key, for every
// role.
func TestStatisticsListScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		scenario.Run(t, e, []scn{
			{Name: "anonymous", Method: "GET", URL: "/edge/statistics", ExpectedStatus: 200,
				ExpectedContent: []string{`"key":"READINGS"`, `"key":"PURGED"`, `"description"`}},
			{Name: "data-view", Method: "GET", URL: "/edge/statistics", As: dataView, ExpectedStatus: 200},
			{Name: "view", Method: "GET", URL: "/edge/statistics", As: view, ExpectedStatus: 200},
		})
	})
}
