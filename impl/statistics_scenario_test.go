package impl_test

import (
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestStatisticsScenarios: history paging and rates, with their 400s and
// the 404 of an unknown statistic.
func TestStatisticsScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		scenario.Run(t, e, []scn{
			{Name: "history", Method: "GET", URL: "/edge/statistics/history?limit=1", As: dataView, ExpectedStatus: 200,
				ExpectedContent: []string{`"interval":15`, `"statistics":[`}},
			{Name: "history limit 0", Method: "GET", URL: "/edge/statistics/history?limit=0", ExpectedStatus: 400,
				ExpectedContent: []string{"limit"}},
			{Name: "history limit not a number", Method: "GET", URL: "/edge/statistics/history?limit=ten", ExpectedStatus: 400,
				ExpectedContent: []string{"limit"}},
			{Name: "history limit too large", Method: "GET", URL: "/edge/statistics/history?limit=10001", ExpectedStatus: 400},
			{Name: "rate", Method: "GET", URL: "/edge/statistics/rate?statistics=READINGS,PURGED&periods=1,5", ExpectedStatus: 200,
				ExpectedContent: []string{`"rates":{`, `"READINGS":{"1":`, `"5":`}},
			{Name: "rate without periods", Method: "GET", URL: "/edge/statistics/rate?statistics=READINGS", ExpectedStatus: 400,
				ExpectedContent: []string{"periods"}},
			{Name: "rate without statistics", Method: "GET", URL: "/edge/statistics/rate?periods=1", ExpectedStatus: 400,
				ExpectedContent: []string{"statistics"}},
			{Name: "rate of an unknown statistic", Method: "GET", URL: "/edge/statistics/rate?statistics=NO_SUCH_STAT&periods=1",
				ExpectedStatus: 404, ExpectedContent: []string{"NO_SUCH_STAT"}},
			{Name: "rate period not a number", Method: "GET", URL: "/edge/statistics/rate?statistics=READINGS&periods=x",
				ExpectedStatus: 400},
			{Name: "rate period zero", Method: "GET", URL: "/edge/statistics/rate?statistics=READINGS&periods=0",
				ExpectedStatus: 400},
		})
	})
}
