package impl_test

import (
	"net/http/httptest"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestSchedulesScenarios: listing, reading and enabling/disabling
// schedules by name and id, with the selector body's rules.
func TestSchedulesScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		name := e.Unique("sch")
		var created struct {
			ID string `json:"id"`
		}
		e.Call(t, "POST", "/edge/scheduled/task", map[string]any{"name": name, "plugin": "http_north", "enabled": false, "repeat": 60},
			admin, 200, &created)
		t.Cleanup(func() { e.Do(t, "DELETE", "/edge/service/"+name, nil, admin, nil) })
		id := "/edge/schedule/" + created.ID
		unknown := "/edge/schedule/00000000-0000-4000-8000-000000000000"
		enabled := func(want string) func(*testing.T, *env, *httptest.ResponseRecorder) {
			return func(t *testing.T, e *env, _ *httptest.ResponseRecorder) {
				eventually(t, e, id, `"enabled":`+want)
			}
		}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "list", Method: "GET", URL: "/edge/schedule", As: view, ExpectedStatus: 200,
				ExpectedContent: []string{`"name":"purge"`, `"name":"` + name + `"`}},
			{Name: "get", Method: "GET", URL: id, ExpectedStatus: 200,
				ExpectedContent: []string{`"type":"INTERVAL"`, `"repeat":60`, `"enabled":false`}},
			{Name: "get an unknown id", Method: "GET", URL: unknown, ExpectedStatus: 404},
			{Name: "get an id not a UUID", Method: "GET", URL: "/edge/schedule/42", ExpectedStatus: 400},
			{Name: "enable by name", Method: "PUT", URL: "/edge/schedule/enable", As: user, Body: map[string]string{"schedule_name": name},
				ExpectedStatus: 200, ExpectedContent: []string{`"status":true`, `"scheduleId":"` + created.ID + `"`}, AfterTestFunc: enabled("true")},
			{Name: "disable by name", Method: "PUT", URL: "/edge/schedule/disable", Body: map[string]string{"schedule_name": name},
				ExpectedStatus: 200, AfterTestFunc: enabled("false")},
			{Name: "enable by id in the body", Method: "PUT", URL: "/edge/schedule/enable", Body: map[string]string{"schedule_id": created.ID},
				ExpectedStatus: 200, AfterTestFunc: enabled("true")},
			{Name: "disable by id", Method: "PUT", URL: id + "/disable", As: control, ExpectedStatus: 200, AfterTestFunc: enabled("false")},
			{Name: "enable by id", Method: "PUT", URL: id + "/enable", ExpectedStatus: 200},
			{Name: "disable again by id", Method: "PUT", URL: id + "/disable", ExpectedStatus: 200},
			{Name: "enable an unknown name", Method: "PUT", URL: "/edge/schedule/enable", Body: map[string]string{"schedule_name": e.Unique("none")},
				ExpectedStatus: 404},
			{Name: "enable an unknown id", Method: "PUT", URL: unknown + "/enable", ExpectedStatus: 404},
			{Name: "disable by both name and id", Method: "PUT", URL: "/edge/schedule/disable",
				Body: map[string]string{"schedule_name": name, "schedule_id": created.ID}, ExpectedStatus: 400},
			{Name: "disable with an empty body", Method: "PUT", URL: "/edge/schedule/disable", Body: `{}`, ExpectedStatus: 400},
			{Name: "disable with an id not a UUID", Method: "PUT", URL: "/edge/schedule/disable", Body: map[string]string{"schedule_id": "x"},
				ExpectedStatus: 400},
		},
			scenario.Refused("PUT", "/edge/schedule/enable", map[string]string{"schedule_name": name}, view, dataView),
			scenario.Refused("PUT", id+"/disable", nil, view, dataView),
			scenario.Refused("GET", "/edge/schedule", nil, dataView),
		))
	})
}
