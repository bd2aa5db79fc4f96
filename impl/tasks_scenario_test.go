package impl_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/impl/internal/scenario"
)

// TestTasksScenarios: task executions listed, filtered and read, and the
// cancel rules (404 unknown, 409 not running).
func TestTasksScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		name := e.Unique("task")
		id := uuid.NewString()
		code := 0
		start := time.Now().UTC().Add(-time.Minute)
		if err := e.Gateway.Store().InsertTask(t.Context(), db.Task{ID: id, Name: name, ProcessName: "purge", State: db.TaskComplete,
			StartTime: start, EndTime: start.Add(time.Second), ExitCode: &code}); err != nil {
			t.Fatal(err)
		}
		unknown := "/edge/task/" + uuid.NewString()
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "list", Method: "GET", URL: "/edge/task?limit=100", As: view, ExpectedStatus: 200, ExpectedContent: []string{`"tasks":[`}},
			{Name: "list by name and state", Method: "GET", URL: "/edge/task?name=" + name + "&state=complete", ExpectedStatus: 200,
				ExpectedContent: []string{`"id":"` + id + `"`, `"state":"Complete"`, `"exitCode":0`, `"endTime":"`}},
			{Name: "list of no match", Method: "GET", URL: "/edge/task?name=" + e.Unique("none"), ExpectedStatus: 200,
				ExpectedContent: []string{`{"tasks":[]}`}},
			{Name: "list with an unknown state", Method: "GET", URL: "/edge/task?state=sleeping", ExpectedStatus: 400},
			{Name: "list with limit 0", Method: "GET", URL: "/edge/task?limit=0", ExpectedStatus: 400},
			{Name: "latest", Method: "GET", URL: "/edge/task/latest?name=" + name, ExpectedStatus: 200, ExpectedContent: []string{id}},
			{Name: "latest with negative skip", Method: "GET", URL: "/edge/task/latest?skip=-1", ExpectedStatus: 400},
			{Name: "get", Method: "GET", URL: "/edge/task/" + id, ExpectedStatus: 200, ExpectedContent: []string{`"processName":"purge"`}},
			{Name: "get an unknown id", Method: "GET", URL: unknown, ExpectedStatus: 404},
			{Name: "get an id not a UUID", Method: "GET", URL: "/edge/task/17", ExpectedStatus: 400},
			{Name: "cancel a finished task", Method: "PUT", URL: "/edge/task/" + id + "/cancel", As: user, ExpectedStatus: 409,
				ExpectedContent: []string{"not running"}},
			{Name: "cancel an unknown task", Method: "PUT", URL: unknown + "/cancel", ExpectedStatus: 404},
		},
			scenario.Refused("PUT", "/edge/task/"+id+"/cancel", nil, view, dataView),
			scenario.Refused("GET", "/edge/task", nil, dataView),
		))
	})
}
