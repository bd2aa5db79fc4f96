package impl_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestLogsScenarios: the gateway's own log lines, filtered and paged, for
// admins and the control role only.
func TestLogsScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		since := url.QueryEscape(time.Now().UTC().Add(-time.Hour).Format(time.RFC3339))
		until := url.QueryEscape(time.Now().UTC().Add(-2 * time.Hour).Format(time.RFC3339))
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "lines", Method: "GET", URL: "/edge/syslog?limit=500", As: admin, ExpectedStatus: 200,
				ExpectedContent: []string{`"count":`, `"source":"core"`, "authentication is optional"}},
			{Name: "warnings of the core", Method: "GET", URL: "/edge/syslog?level=warning&source=core", As: control, ExpectedStatus: 200,
				ExpectedContent: []string{`"level":"warning"`}, NotExpectedContent: []string{`"level":"info"`}},
			{Name: "since", Method: "GET", URL: "/edge/syslog?since=" + since, As: admin, ExpectedStatus: 200},
			{Name: "unknown level", Method: "GET", URL: "/edge/syslog?level=loud", As: admin, ExpectedStatus: 400},
			{Name: "since not a time", Method: "GET", URL: "/edge/syslog?since=yesterday", As: admin, ExpectedStatus: 400,
				ExpectedContent: []string{"since"}},
			{Name: "since after until", Method: "GET", URL: "/edge/syslog?since=" + since + "&until=" + until, As: admin, ExpectedStatus: 400,
				ExpectedContent: []string{"after"}},
			{Name: "limit 0", Method: "GET", URL: "/edge/syslog?limit=0", As: admin, ExpectedStatus: 400},
		},
			scenario.Refused("GET", "/edge/syslog", nil, anon, user, view, dataView),
		))
	})
}
