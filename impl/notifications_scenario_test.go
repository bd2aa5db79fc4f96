package impl_test

import (
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestNotificationsScenarios: the notification calls of a gateway without
// a notification service: what needs its plugins answers 409, unknown
// instances and channels 404, invalid bodies 400, and writes need an
// editor.
func TestNotificationsScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		name := e.Unique("ntf")
		unknown := "/edge/notification/" + e.Unique("none")
		create := func(n, typ string) map[string]any {
			return map[string]any{"name": n, "rule": "threshold", "channel": "log", "notification_type": typ}
		}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "plugins without the service", Method: "GET", URL: "/edge/notification/plugin", ExpectedStatus: 409,
				ExpectedContent: []string{"notification service"}},
			{Name: "types", Method: "GET", URL: "/edge/notification/type", As: view, ExpectedStatus: 200,
				ExpectedContent: []string{`"notification_type":["one shot","retriggered","toggled"]`}},
			{Name: "list", Method: "GET", URL: "/edge/notification", ExpectedStatus: 200, ExpectedContent: []string{`"notifications":[`}},
			{Name: "create without the service", Method: "POST", URL: "/edge/notification", As: user, Body: create(name, "one shot"),
				ExpectedStatus: 409},
			{Name: "create with an unknown type", Method: "POST", URL: "/edge/notification", Body: create(name, "sometimes"), ExpectedStatus: 400},
			{Name: "create without a rule", Method: "POST", URL: "/edge/notification",
				Body: map[string]any{"name": name, "channel": "log", "notification_type": "toggled"}, ExpectedStatus: 400,
				ExpectedContent: []string{"rule"}},
			{Name: "create with a negative retrigger time", Method: "POST", URL: "/edge/notification",
				Body:           map[string]any{"name": name, "rule": "threshold", "channel": "log", "notification_type": "toggled", "retrigger_time": -1},
				ExpectedStatus: 400},
			{Name: "get an unknown instance", Method: "GET", URL: unknown, ExpectedStatus: 404},
			{Name: "update an unknown instance", Method: "PUT", URL: unknown, Body: map[string]any{"description": "x"}, ExpectedStatus: 404},
			{Name: "update with an unknown type", Method: "PUT", URL: unknown, Body: map[string]any{"notification_type": "sometimes"},
				ExpectedStatus: 400},
			{Name: "delete an unknown instance", Method: "DELETE", URL: unknown, ExpectedStatus: 404},
			{Name: "channels of an unknown instance", Method: "GET", URL: unknown + "/delivery", ExpectedStatus: 404},
			{Name: "add a channel to an unknown instance", Method: "POST", URL: unknown + "/delivery",
				Body: map[string]any{"name": "second", "plugin": "log"}, ExpectedStatus: 404},
			{Name: "add a channel without plugin", Method: "POST", URL: unknown + "/delivery", Body: map[string]any{"name": "second"},
				ExpectedStatus: 400},
			{Name: "get a channel of an unknown instance", Method: "GET", URL: unknown + "/delivery/second", ExpectedStatus: 404},
			{Name: "delete a channel of an unknown instance", Method: "DELETE", URL: unknown + "/delivery/second", ExpectedStatus: 404},
		},
			scenario.Refused("POST", "/edge/notification", create(e.Unique("ntf"), "one shot"), view, dataView),
			scenario.Refused("PUT", unknown, map[string]any{"description": "x"}, view, dataView),
			scenario.Refused("DELETE", unknown, nil, view, dataView),
			scenario.Refused("POST", unknown+"/delivery", map[string]any{"name": "second", "plugin": "log"}, view, dataView),
			scenario.Refused("DELETE", unknown+"/delivery/second", nil, view, dataView),
			scenario.Refused("GET", "/edge/notification", nil, dataView),
		))
	})
}
