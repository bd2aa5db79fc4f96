package impl_test

import (
	"net/url"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestAssetsScenarios: buffered readings, their windows, summaries and
// series, purges, percent-encoded codes and who may read them (not view).
func TestAssetsScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		code := e.Unique("pump") + "/a 50%"
		e.InsertReadings(t, code,
			map[string]any{"flow": 1.5, "state": "on"},
			map[string]any{"flow": 2.5, "state": "off"},
			map[string]any{"flow": 5, "state": "on", `a"b`: 7, "a.b": 8, "$.c[0]": 9})
		a := "/edge/asset/" + url.PathEscape(code) // the slash travels as %2F, the percent as %25
		unknown := "/edge/asset/" + url.PathEscape(e.Unique("none"))
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "list", Method: "GET", URL: "/edge/asset", As: dataView, ExpectedStatus: 200,
				ExpectedContent: []string{`"count":3`}},
			{Name: "timespans", Method: "GET", URL: "/edge/asset/timespan", ExpectedStatus: 200, ExpectedContent: []string{`"oldest"`}},
			{Name: "readings newest first", Method: "GET", URL: a + "?limit=2", ExpectedStatus: 200,
				ExpectedContent: []string{`"flow":5`, `"flow":2.5`}, NotExpectedContent: []string{`"flow":1.5`}},
			{Name: "readings skip", Method: "GET", URL: a + "?limit=1&skip=2", ExpectedStatus: 200, ExpectedContent: []string{`"flow":1.5`}},
			{Name: "readings in a window", Method: "GET", URL: a + "?minutes=10", ExpectedStatus: 200, ExpectedContent: []string{`"flow":1.5`}},
			{Name: "readings of an unknown asset", Method: "GET", URL: unknown, ExpectedStatus: 200, ExpectedContent: []string{`[]`}},
			{Name: "two windows", Method: "GET", URL: a + "?seconds=5&minutes=1", ExpectedStatus: 400},
			{Name: "window with limit", Method: "GET", URL: a + "?seconds=5&limit=1", ExpectedStatus: 400},
			{Name: "previous without window", Method: "GET", URL: a + "?previous=5", ExpectedStatus: 400, ExpectedContent: []string{"previous"}},
			{Name: "limit 0", Method: "GET", URL: a + "?limit=0", ExpectedStatus: 400, ExpectedContent: []string{"limit"}},
			{Name: "seconds 0", Method: "GET", URL: a + "?seconds=0", ExpectedStatus: 400},
			{Name: "timespan", Method: "GET", URL: a + "/timespan", ExpectedStatus: 200, ExpectedContent: []string{`"newest"`}},
			{Name: "timespan of an unknown asset", Method: "GET", URL: unknown + "/timespan", ExpectedStatus: 404},
			{Name: "values of a key", Method: "GET", URL: a + "/flow?limit=1", ExpectedStatus: 200, ExpectedContent: []string{`"flow":5`}},
			{Name: "summary", Method: "GET", URL: a + "/summary", ExpectedStatus: 200,
				ExpectedContent: []string{`"flow":{`, `"min":1.5`, `"max":5`, `"average":3`}, NotExpectedContent: []string{`"state"`}},
			{Name: "summary of an unknown asset", Method: "GET", URL: unknown + "/summary", ExpectedStatus: 404},
			{Name: "key summary", Method: "GET", URL: a + "/flow/summary", ExpectedStatus: 200, ExpectedContent: []string{`"max":5`}},
			{Name: "key summary without numbers", Method: "GET", URL: a + "/state/summary", ExpectedStatus: 404},
			{Name: "a key with a quote", Method: "GET", URL: a + "/a%22b/summary", ExpectedStatus: 200, ExpectedContent: []string{`{"a\"b":{"average":7`}},
			{Name: "a key with a dot", Method: "GET", URL: a + "/a.b", ExpectedStatus: 200, ExpectedContent: []string{`"a.b":8`}},
			{Name: "a key like a JSON path", Method: "GET", URL: a + "/$.c%5B0%5D/series", ExpectedStatus: 200, ExpectedContent: []string{`"max":9`}},
			{Name: "skip past every reading", Method: "GET", URL: a + "?skip=9223372036854775807", ExpectedStatus: 200, ExpectedContent: []string{`[]`}},
			{Name: "the longest window", Method: "GET", URL: a + "?hours=9223372036854775807", ExpectedStatus: 200, ExpectedContent: []string{`"flow":1.5`}},
			{Name: "series", Method: "GET", URL: a + "/flow/series?group=minutes", ExpectedStatus: 200, ExpectedContent: []string{`"average"`}},
			{Name: "series with an unknown group", Method: "GET", URL: a + "/flow/series?group=days", ExpectedStatus: 400},
			{Name: "purge an unknown asset", Method: "DELETE", URL: unknown, As: user, ExpectedStatus: 200, ExpectedContent: []string{`"purged":0`}},
			{Name: "purge", Method: "DELETE", URL: a, ExpectedStatus: 200, ExpectedContent: []string{`"purged":3`}},
			{Name: "purged readings are gone", Method: "GET", URL: a, ExpectedStatus: 200, ExpectedContent: []string{`[]`}},
			{Name: "purge all", Method: "DELETE", URL: "/edge/asset", As: control, ExpectedStatus: 200, ExpectedContent: []string{`"purged":`}},
		},
			scenario.Refused("GET", "/edge/asset", nil, view),
			scenario.Refused("GET", a+"/summary", nil, view),
			scenario.Refused("DELETE", a, nil, view, dataView),
			scenario.Refused("DELETE", "/edge/asset", nil, view, dataView),
		))
	})
}
