package impl_test

import (
	"net/url"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestTrackingScenarios: the Ingest event a running south service records,
// its filters, and deprecation (404 unknown, 409 twice).
func TestTrackingScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		name, asset := e.Unique("trk"), e.Unique("trk-wave")
		createSouth(t, e, name, "sinusoid", true, map[string]string{"assetName": asset})
		list := "/edge/track?service=" + url.QueryEscape(name)
		eventually(t, e, list, `"asset":"`+asset+`"`)
		event := "/edge/track/service/" + url.PathEscape(name) + "/asset/" + url.PathEscape(asset) + "/event/Ingest"
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "list by service", Method: "GET", URL: list, As: view, ExpectedStatus: 200,
				ExpectedContent: []string{`"event":"Ingest"`, `"plugin":"sinusoid"`, `"service":"` + name + `"`}},
			{Name: "list by asset and event", Method: "GET", URL: "/edge/track?event=Ingest&asset=" + url.QueryEscape(asset), ExpectedStatus: 200,
				ExpectedContent: []string{name}},
			{Name: "list with an unknown event type", Method: "GET", URL: "/edge/track?event=Explode", ExpectedStatus: 400},
			{Name: "list of nothing", Method: "GET", URL: "/edge/track?service=" + e.Unique("none"), ExpectedStatus: 200,
				ExpectedContent: []string{`"track":[]`}},
			{Name: "deprecate", Method: "PUT", URL: event, As: user, ExpectedStatus: 200, ExpectedContent: []string{"deprecated"}},
			{Name: "deprecated shows", Method: "GET", URL: list, ExpectedStatus: 200, ExpectedContent: []string{`"deprecatedTimestamp":"2`}},
			{Name: "deprecate twice", Method: "PUT", URL: event, ExpectedStatus: 409},
			{Name: "deprecate an unknown asset", Method: "PUT",
				URL: "/edge/track/service/" + url.PathEscape(name) + "/asset/" + e.Unique("none") + "/event/Ingest", ExpectedStatus: 404},
			{Name: "deprecate an unknown event type", Method: "PUT",
				URL: "/edge/track/service/" + url.PathEscape(name) + "/asset/" + url.PathEscape(asset) + "/event/Explode", ExpectedStatus: 400},
		},
			scenario.Refused("PUT", event, nil, view, dataView),
			scenario.Refused("GET", list, nil, dataView),
		))
	})
}
