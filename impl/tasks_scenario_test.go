package impl_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/impl/internal/scenario"
)

// TestTasksScenarios: task executions listed, filtered and read, and the
// cancel rules (404 unknown, 409 not running).
func TestTasksScenarios(t *testing.T) {
	// A north task whose destination never answers runs until it is
	// cancelled.
	hang := make(chan struct{})
	destination := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(destination.Close)
	t.Cleanup(func() { close(hang) })
	scenario.Each(t, func(t *testing.T, e *env) {
		name := e.Unique("task")
		running := e.Unique("task-hang")
		e.InsertReadings(t, e.Unique("task-asset"), map[string]any{"v": 1})
		e.Call(t, "POST", "/edge/scheduled/task", map[string]any{"name": running, "plugin": "http_north", "enabled": true, "repeat": 1,
			"config": map[string]any{"url": map[string]string{"value": destination.URL + "/sensor-reading"}}}, admin, 200, nil)
		t.Cleanup(func() { e.Do(t, "DELETE", "/edge/service/"+running, nil, admin, nil) })
		eventually(t, e, "/edge/task?state=running&name="+running, `"state":"Running"`)
		var runningTasks struct {
			Tasks []struct {
				ID string `json:"id"`
			} `json:"tasks"`
		}
		e.Call(t, "GET", "/edge/task?state=running&name="+running, nil, admin, 200, &runningTasks)
		runningID := runningTasks.Tasks[0].ID
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
			{Name: "cancel a running task", Method: "PUT", URL: "/edge/task/" + runningID + "/cancel", As: control, ExpectedStatus: 200,
				ExpectedContent: []string{`"message":"Task cancelled successfully"`, runningID}},
			{Name: "a cancelled task", Method: "GET", URL: "/edge/task/" + runningID, ExpectedStatus: 200, ExpectedContent: []string{`"state":"Cancelled"`}},
			{Name: "cancel a cancelled task", Method: "PUT", URL: "/edge/task/" + runningID + "/cancel", ExpectedStatus: 409},
			{Name: "cancel an unknown task", Method: "PUT", URL: unknown + "/cancel", ExpectedStatus: 404},
		},
			scenario.Refused("PUT", "/edge/task/"+id+"/cancel", nil, view, dataView),
			scenario.Refused("GET", "/edge/task", nil, dataView),
		))
	})
}
