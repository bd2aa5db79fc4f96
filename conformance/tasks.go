package conformance

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// ---- task helpers ----

// eventTime is the wire form of task, audit and history times.
var eventTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$`)

// eventually polls cond every 50 ms until it holds, and fails the test
// when limit passes first. A black-box gateway gives no other signal that
// its scheduler has acted, so polling is the only way to observe it.
func eventually(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not happen within %s", what, limit)
		}
		time.Sleep(50 * time.Millisecond) // polling the gateway, not synchronising on time
	}
}

// listTasks lists tasks through the SDK and fails the test unless 200.
func listTasks(t testing.TB, c *edgeclient.ClientWithResponses, p edgeclient.ListTasksParams) []edgeclient.Task {
	t.Helper()
	resp, err := c.ListTasksWithResponse(t.Context(), &p)
	must(t, err)
	wantStatus(t, "listTasks", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listTasks: no JSON body: %s", truncate(resp.Body))
	}
	wantTaskTimes(t, "listTasks", resp.Body)
	return resp.JSON200.Tasks
}

// latestTasks lists the latest task per name and fails the test unless 200.
func latestTasks(t testing.TB, c *edgeclient.ClientWithResponses, p edgeclient.ListLatestTasksParams) []edgeclient.Task {
	t.Helper()
	resp, err := c.ListLatestTasksWithResponse(t.Context(), &p)
	must(t, err)
	wantStatus(t, "listLatestTasks", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listLatestTasks: no JSON body: %s", truncate(resp.Body))
	}
	wantTaskTimes(t, "listLatestTasks", resp.Body)
	return resp.JSON200.Tasks
}

// taskIDs returns the ids of the tasks named name, newest first.
func taskIDs(t testing.TB, c *edgeclient.ClientWithResponses, name string) []string {
	t.Helper()
	var out []string
	for _, tk := range listTasks(t, c, edgeclient.ListTasksParams{Name: &name, Limit: ptr(10000)}) {
		out = append(out, tk.Id.String())
	}
	return out
}

// newCompleteTask waits until a task named name that is not in before has
// completed, and returns it.
func newCompleteTask(t testing.TB, c *edgeclient.ClientWithResponses, name string, before []string, limit time.Duration) edgeclient.Task {
	t.Helper()
	var found edgeclient.Task
	eventually(t, limit, "a new complete "+name+" task", func() bool {
		for _, tk := range listTasks(t, c, edgeclient.ListTasksParams{Name: &name, Limit: ptr(20)}) {
			if !slices.Contains(before, tk.Id.String()) && tk.State == edgeclient.TaskStateComplete {
				found = tk
				return true
			}
		}
		return false
	})
	return found
}

// fastStats sets STATISTICS.interval to 1 second for the test, so the
// stats collection task runs every second, and restores it at the end.
func fastStats(t testing.TB) {
	t.Helper()
	orig := getItem(t, "STATISTICS", "interval").Value
	t.Cleanup(func() { restoreItem(t, "STATISTICS", "interval", orig) })
	setItem(t, "STATISTICS", "interval", "1")
}

// wantTaskTimes fails the test unless the start and end times of the tasks
// in body are written as the contract says.
func wantTaskTimes(t testing.TB, what string, body []byte) {
	t.Helper()
	wantTimestamps(t, what, body, eventTime, "startTime")
	wantTimestamps(t, what, body, eventTime, "endTime")
}

// checkTaskShape checks the fields of a task every answer must get right.
func checkTaskShape(t testing.TB, tk edgeclient.Task) {
	t.Helper()
	if tk.StartTime.IsZero() {
		t.Errorf("task %s has no startTime", tk.Id)
	}
	if tk.Pid <= 0 {
		t.Errorf("task %s pid = %d, want the gateway's process id", tk.Id, tk.Pid)
	}
	switch tk.State {
	case edgeclient.TaskStateRunning:
		if tk.EndTime != nil || tk.ExitCode != nil {
			t.Errorf("running task %s has endTime %v / exitCode %v", tk.Id, tk.EndTime, tk.ExitCode)
		}
	case edgeclient.TaskStateComplete:
		if tk.EndTime == nil || tk.EndTime.Before(tk.StartTime.Time) {
			t.Errorf("complete task %s endTime = %v, want a time at or after %s", tk.Id, tk.EndTime, tk.StartTime)
		}
		if tk.ExitCode == nil {
			t.Errorf("complete task %s has no exitCode", tk.Id)
		}
	case edgeclient.TaskStateCancelled, edgeclient.TaskStateInterrupted:
		if tk.EndTime == nil || tk.ExitCode != nil {
			t.Errorf("%s task %s endTime %v exitCode %v; want an end time and no exit code", tk.State, tk.Id, tk.EndTime, tk.ExitCode)
		}
	default:
		t.Errorf("task %s state %q is not a task state", tk.Id, tk.State)
	}
}

// TestStatsCollectionTask speeds the stats collection schedule up and
// checks that its runs show in the task list, the latest list and one by
// one, with state, times and pid.
func testStatsCollectionTask(t *testing.T) {
	c := api(t)
	const name = "stats collection"
	before := taskIDs(t, c, name)
	fastStats(t)
	tk := newCompleteTask(t, c, name, before, 15*time.Second)
	checkTaskShape(t, tk)
	if tk.ProcessName != "stats collector" || *tk.ExitCode != 0 || tk.Reason != "" {
		t.Errorf("stats collection task = %s; want process stats collector, exit code 0, no reason", jsonString(tk))
	}

	t.Run("get", func(t *testing.T) {
		resp, err := c.GetTaskWithResponse(t.Context(), tk.Id)
		must(t, err)
		wantStatus(t, "getTask", resp.StatusCode(), resp.Body, http.StatusOK)
		wantTaskTimes(t, "getTask", resp.Body)
		if !jsonEqual(t, resp.JSON200, tk) {
			t.Errorf("getTask = %s, the list said %s", resp.Body, jsonString(tk))
		}
	})

	t.Run("latest", func(t *testing.T) {
		got := latestTasks(t, c, edgeclient.ListLatestTasksParams{Name: ptr(name)})
		if len(got) != 1 || got[0].Name != name || got[0].StartTime.Before(tk.StartTime.Time) {
			t.Fatalf("latest %s tasks = %s; want one, started at or after %s", name, jsonString(got), tk.StartTime)
		}
		checkTaskShape(t, got[0])
		all := latestTasks(t, c, edgeclient.ListLatestTasksParams{Limit: ptr(10000)})
		seen := map[string]bool{}
		for _, x := range all {
			if seen[x.Name] {
				t.Errorf("latest tasks list %q twice", x.Name)
			}
			seen[x.Name] = true
		}
		if !seen[name] {
			t.Errorf("latest tasks without a filter do not list %q", name)
		}
	})

	t.Run("filters", func(t *testing.T) {
		filters := []struct {
			name  string
			p     edgeclient.ListTasksParams
			check func(tk edgeclient.Task) bool
		}{
			{name: "name in another case", p: edgeclient.ListTasksParams{Name: ptr("STATS Collection")},
				check: func(x edgeclient.Task) bool { return x.Name == name }},
			{name: "state in lower case", p: edgeclient.ListTasksParams{Name: ptr(name), State: ptr("complete")},
				check: func(x edgeclient.Task) bool { return x.State == edgeclient.TaskStateComplete }},
		}
		for _, f := range filters {
			t.Run(f.name, func(t *testing.T) {
				got := listTasks(t, c, f.p)
				if len(got) == 0 {
					t.Fatal("no task matches")
				}
				for _, x := range got {
					if !f.check(x) {
						t.Errorf("task %s does not match the filter", jsonString(x))
					}
				}
				for i := 1; i < len(got); i++ {
					if got[i].StartTime.After(got[i-1].StartTime.Time) {
						t.Errorf("tasks are not newest first: %s before %s", got[i-1].StartTime, got[i].StartTime)
					}
				}
			})
		}
		if got := listTasks(t, c, edgeclient.ListTasksParams{Name: ptr(unique("conf-no-task"))}); len(got) != 0 {
			t.Errorf("tasks of an unknown name = %s, want []", jsonString(got))
		}
		r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/task?name=" + url.QueryEscape(unique("conf-no-task"))})
		if string(r.body) != `{"tasks":[]}`+"\n" && string(r.body) != `{"tasks":[]}` {
			t.Errorf("no match answered %s, want {\"tasks\": []}", r.body)
		}
	})

	t.Run("paging", func(t *testing.T) {
		eventually(t, 15*time.Second, "three stats collection tasks", func() bool {
			return len(listTasks(t, c, edgeclient.ListTasksParams{Name: ptr(name), Limit: ptr(3)})) == 3
		})
		page := listTasks(t, c, edgeclient.ListTasksParams{Name: ptr(name), Limit: ptr(3)})
		next := listTasks(t, c, edgeclient.ListTasksParams{Name: ptr(name), Limit: ptr(1), Skip: ptr(2)})
		if len(next) != 1 || next[0].StartTime.After(page[1].StartTime.Time) {
			t.Errorf("limit=1&skip=2 = %s; want one task no newer than the page's second, %s", jsonString(next), page[1].StartTime)
		}
	})
}

// TestTaskErrors checks the documented errors of the task operations.
func testTaskErrors(t *testing.T) {
	c := api(t)
	before := taskIDs(t, c, "stats collection")
	fastStats(t)
	done := newCompleteTask(t, c, "stats collection", before, 15*time.Second)
	tests := []struct {
		name   string
		method string
		path   string
		status int
		names  string // the message names it
	}{
		{name: "unknown state", method: http.MethodGet, path: "/edge/task?state=finished", status: 400, names: "finished"},
		{name: "unknown state, latest", method: http.MethodGet, path: "/edge/task/latest?state=done", status: 400, names: "done"},
		{name: "limit 0", method: http.MethodGet, path: "/edge/task?limit=0", status: 400, names: "limit"},
		{name: "limit not a number", method: http.MethodGet, path: "/edge/task/latest?limit=ten", status: 400, names: "limit"},
		{name: "negative skip", method: http.MethodGet, path: "/edge/task?skip=-1", status: 400, names: "skip"},
		{name: "id not a uuid", method: http.MethodGet, path: "/edge/task/not-a-uuid", status: 400, names: "id"},
		{name: "unknown task", method: http.MethodGet, path: "/edge/task/" + randomUUID(), status: 404},
		{name: "cancel unknown task", method: http.MethodPut, path: "/edge/task/" + randomUUID() + "/cancel", status: 404},
		{name: "cancel id not a uuid", method: http.MethodPut, path: "/edge/task/x/cancel", status: 400, names: "id"},
		{name: "cancel a complete task", method: http.MethodPut, path: "/edge/task/" + done.Id.String() + "/cancel", status: 409, names: done.Id.String()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: tc.method, path: tc.path})
			msg := checkError(t, r.status, r.body, tc.status)
			if tc.names != "" && !strings.Contains(msg, tc.names) {
				t.Errorf("message %q does not name %q", msg, tc.names)
			}
		})
	}
	// The refused cancel changed nothing.
	resp, err := c.GetTaskWithResponse(t.Context(), done.Id)
	must(t, err)
	if resp.JSON200 == nil || resp.JSON200.State != edgeclient.TaskStateComplete {
		t.Errorf("task %s after a refused cancel: %s", done.Id, resp.Body)
	}
}

// TestPurgeByAge ingests readings sensor-stamped three hours, two hours
// and minutes ago, sets PURGE_READ.age to one hour, runs the purge
// schedule (disabling and enabling an INTERVAL schedule runs it at once)
// and checks that exactly the readings older than an hour went, that the
// run is a task and that it is audited and counted.
func testPurgeByAge(t *testing.T) {
	if !ownGateway {
		t.Skip("a purge by a one-hour age would destroy older data of a gateway the suite did not start")
	}
	c := api(t)
	_, port := newHTTPSouth(t, c, nil)
	host := gatewayHost(t, baseURL)
	now := time.Now().UTC()
	old, mixed, fresh := unique("conf-purge-old"), unique("conf-purge-mixed"), unique("conf-purge-new")
	t.Cleanup(func() {
		for _, a := range []string{old, mixed, fresh} {
			purgeAssetQuietly(a)
		}
	})
	for _, post := range []struct {
		asset string
		n     int
		start time.Time
	}{
		{asset: old, n: 5, start: now.Add(-3 * time.Hour)},
		{asset: mixed, n: 3, start: now.Add(-2 * time.Hour)},
		{asset: mixed, n: 2, start: now.Add(-5 * time.Minute)},
		{asset: fresh, n: 4, start: now.Add(-10 * time.Minute)},
	} {
		status, body, err := postIngest(t.Context(), host, port, "sensor-reading", readingsBody(post.asset, post.n, post.start))
		if err != nil || status != http.StatusOK {
			t.Fatalf("ingest %s: %d %s %v", post.asset, status, body, err)
		}
	}
	if got := assetCount(t, mixed); got != 5 {
		t.Fatalf("%s holds %d readings before the purge, want 5", mixed, got)
	}
	purgedBefore := dataPurged(t)

	for item, value := range map[string]string{"age": "1", "retainUnsent": "purge unsent"} {
		orig := getItem(t, "PURGE_READ", item).Value
		t.Cleanup(func() { restoreItem(t, "PURGE_READ", item, orig) })
		setItem(t, "PURGE_READ", item, value)
	}
	before := taskIDs(t, c, "purge")
	t.Cleanup(func() {
		body := edgeclient.ScheduleSelector{ScheduleName: ptr("purge")}
		if r, err := c.EnableScheduleByNameWithResponse(context.Background(), body); err != nil || r.StatusCode() != http.StatusOK {
			t.Errorf("re-enable the purge schedule: %v", err)
		}
	})
	setSchedule(t, c, "purge", false)
	setSchedule(t, c, "purge", true)
	run := newCompleteTask(t, c, "purge", before, 15*time.Second)
	checkTaskShape(t, run)
	if run.ProcessName != "purge" || *run.ExitCode != 0 {
		t.Errorf("purge task = %s; want process purge, exit code 0", jsonString(run))
	}

	t.Run("exactly the old readings went", func(t *testing.T) {
		if got := assetCount(t, old); got != -1 {
			t.Errorf("%s (3 hours old) still holds %d readings", old, got)
		}
		if got := assetCount(t, mixed); got != 2 {
			t.Errorf("%s holds %d readings, want the 2 of the last hour", mixed, got)
		}
		if got := assetCount(t, fresh); got != 4 {
			t.Errorf("%s holds %d readings, want all 4", fresh, got)
		}
		var span struct {
			Oldest string `json:"oldest"` // as sent, not parsed
		}
		getJSON(t, assetPath(mixed, "timespan"), &span)
		if want := now.Add(-5 * time.Minute).Format(readingLayout); span.Oldest != want {
			t.Errorf("%s oldest reading after the purge = %s, want %s", mixed, span.Oldest, want)
		}
	})

	t.Run("audited and counted", func(t *testing.T) {
		var entry *edgeclient.AuditEntry
		list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(edgeclient.PURGE), Limit: ptr(50)})
		for i, e := range list.Audit {
			if !e.Timestamp.Before(run.StartTime.Time) && !e.Timestamp.After(run.EndTime.Time) {
				entry = &list.Audit[i]
				break
			}
		}
		if entry == nil {
			t.Fatalf("no PURGE audit entry between the task's start %s and end %s", run.StartTime, *run.EndTime)
		}
		num := func(k string) float64 {
			v, ok := entry.Details[k].(float64)
			if !ok {
				t.Errorf("PURGE details %s = %v, want a number", k, entry.Details[k])
			}
			return v
		}
		removed, unsent, retained := num("rowsRemoved"), num("unsentRowsRemoved"), num("rowsRetained")
		if removed < 8 || unsent > removed || retained < 6 {
			t.Errorf("PURGE details = %s; want rowsRemoved ≥ 8 (ours), unsentRowsRemoved ≤ rowsRemoved, rowsRetained ≥ 6 (ours)", jsonString(entry.Details))
		}
		if got := dataPurged(t) - purgedBefore; got < 8 || float64(got) < removed {
			t.Errorf("PURGED grew by %d, want at least the %v removed", got, removed)
		}
	})
}

// TestTaskPidIsTheGateway checks that a task's pid is the gateway's own
// process id: tasks run inside the gateway process.
func testTaskPidIsTheGateway(t *testing.T) {
	needOwnGateway(t, "compares with the process id of the gateway it started")
	fastStats(t)
	c := api(t)
	var tasks []edgeclient.Task
	eventually(t, 15*time.Second, "a task", func() bool {
		tasks = listTasks(t, c, edgeclient.ListTasksParams{})
		return len(tasks) > 0
	})
	tasks = append(tasks, latestTasks(t, c, edgeclient.ListLatestTasksParams{})...)
	for _, tk := range tasks {
		if tk.Pid != ownGatewayPID {
			t.Errorf("task %s (%s) pid = %d, want the gateway's process id %d", tk.Id, tk.Name, tk.Pid, ownGatewayPID)
		}
	}
}
