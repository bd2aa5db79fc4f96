package impl_test

import (
	"strings"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestAuditScenarios: entries raised by clients are validated and read
// back through the filters; paging parameters are checked.
func TestAuditScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		marker := e.Unique("audit")
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "create", Method: "POST", URL: "/edge/audit", As: user,
				Body:           map[string]any{"source": "LOGGN", "severity": "warning", "details": map[string]any{"marker": marker}},
				ExpectedStatus: 200, ExpectedContent: []string{`"source":"LOGGN"`, `"severity":"WARNING"`, marker}},
			{Name: "read back by source and severity", Method: "GET", URL: "/edge/audit?source=LOGGN&severity=WARNING&limit=5", As: view,
				ExpectedStatus: 200, ExpectedContent: []string{marker, `"totalCount":`}},
			{Name: "anonymous reads", Method: "GET", URL: "/edge/audit?skip=1", ExpectedStatus: 200},
			{Name: "create with an unknown source", Method: "POST", URL: "/edge/audit",
				Body: map[string]any{"source": "NOSUCH", "severity": "INFORMATION", "details": map[string]any{}}, ExpectedStatus: 400},
			{Name: "create with an unknown severity", Method: "POST", URL: "/edge/audit",
				Body: map[string]any{"source": "LOGGN", "severity": "LOUD", "details": map[string]any{}}, ExpectedStatus: 400,
				ExpectedContent: []string{"severity"}},
			{Name: "create without severity", Method: "POST", URL: "/edge/audit",
				Body: map[string]any{"source": "LOGGN", "details": map[string]any{}}, ExpectedStatus: 400,
				ExpectedContent: []string{"severity"}},
			{Name: "create with details not an object", Method: "POST", URL: "/edge/audit",
				Body: map[string]any{"source": "LOGGN", "severity": "FAILURE", "details": "text"}, ExpectedStatus: 400},
			{Name: "create with a body over 1 MiB", Method: "POST", URL: "/edge/audit",
				Body:           map[string]any{"source": "LOGGN", "severity": "INFORMATION", "details": map[string]any{"x": strings.Repeat("y", 1<<20)}},
				ExpectedStatus: 413},
			{Name: "create as XML", Method: "POST", URL: "/edge/audit", Body: "<audit/>", Headers: map[string]string{"Content-Type": "application/xml"},
				ExpectedStatus: 415},
			{Name: "create with malformed JSON", Method: "POST", URL: "/edge/audit", Body: `{"source":`, ExpectedStatus: 400},
			{Name: "list with an unknown source", Method: "GET", URL: "/edge/audit?source=NOSUCH", ExpectedStatus: 400},
			{Name: "list with an unknown severity", Method: "GET", URL: "/edge/audit?severity=LOUD", ExpectedStatus: 400},
			{Name: "list with limit 0", Method: "GET", URL: "/edge/audit?limit=0", ExpectedStatus: 400, ExpectedContent: []string{"limit"}},
			{Name: "list with negative skip", Method: "GET", URL: "/edge/audit?skip=-1", ExpectedStatus: 400, ExpectedContent: []string{"skip"}},
			{Name: "log codes", Method: "GET", URL: "/edge/audit/logcode", ExpectedStatus: 200,
				ExpectedContent: []string{`"logCode":[`, `"code":"PURGE"`}},
			{Name: "severities", Method: "GET", URL: "/edge/audit/severity", As: view, ExpectedStatus: 200,
				ExpectedContent: []string{`"name":"FAILURE"`, `"name":"INFORMATION"`}},
		},
			scenario.Refused("POST", "/edge/audit", map[string]any{"source": "LOGGN", "severity": "INFORMATION", "details": map[string]any{}},
				view, dataView),
			scenario.Refused("GET", "/edge/audit", nil, dataView),
		))
	})
}
