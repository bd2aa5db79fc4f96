package conformance

import (
	"net/http"
	"slices"
	"testing"
)

// TestCoverageMatching checks how the coverage report maps requests to
// the operations of a spec (no gateway involved).
func TestCoverageMatching(t *testing.T) {
	track(t)
	idx, err := parseSpec([]byte(`{"paths": {
		"/edge/task": {"get": {"operationId": "listTasks"}},
		"/edge/task/latest": {"get": {"operationId": "listLatestTasks"}},
		"/edge/task/{id}": {"get": {"operationId": "getTask"}, "parameters": []},
		"/edge/task/{id}/cancel": {"put": {"operationId": "cancelTask"}},
		"/edge/asset/{code}": {"get": {"operationId": "getAssetReadings"}},
		"/edge/asset/{code}/{reading}": {"get": {"operationId": "getAssetReadingValues"}},
		"/edge/asset/{code}/timespan": {"get": {"operationId": "getAssetTimespan"}},
		"/edge/{user_id}/logout": {"put": {"operationId": "logoutUserSessions"}}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		method string
		path   string
		want   string // "" is no operation
	}{
		{name: "literal path", method: http.MethodGet, path: "/edge/task", want: "listTasks"},
		{name: "literal beats parameter", method: http.MethodGet, path: "/edge/task/latest", want: "listLatestTasks"},
		{name: "parameter", method: http.MethodGet, path: "/edge/task/42", want: "getTask"},
		{name: "parameter then literal", method: http.MethodPut, path: "/edge/task/42/cancel", want: "cancelTask"},
		{name: "encoded slash stays in its segment", method: http.MethodGet, path: "/edge/asset/a%2Fb", want: "getAssetReadings"},
		{name: "encoded slashes in two segments", method: http.MethodGet, path: "/edge/asset/a%2Fb/x%2Fy", want: "getAssetReadingValues"},
		{name: "literal in the last segment wins", method: http.MethodGet, path: "/edge/asset/a%2Fb/timespan", want: "getAssetTimespan"},
		{name: "encoded literal", method: http.MethodGet, path: "/edge/asset/a/%74imespan", want: "getAssetTimespan"},
		{name: "first literal decides", method: http.MethodPut, path: "/edge/task/logout", want: ""},
		{name: "parameter at the root", method: http.MethodPut, path: "/edge/7/logout", want: "logoutUserSessions"},
		{name: "wrong method", method: http.MethodDelete, path: "/edge/task", want: ""},
		{name: "too deep", method: http.MethodGet, path: "/edge/task/1/2/3", want: ""},
		{name: "empty parameter", method: http.MethodGet, path: "/edge/task/", want: ""},
		{name: "unknown", method: http.MethodGet, path: "/nothing", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			track(t)
			got := ""
			if op := idx.match(tc.method, tc.path); op != nil {
				got = op.ID
			}
			if got != tc.want {
				t.Errorf("%s %s matched %q, want %q", tc.method, tc.path, got, tc.want)
			}
		})
	}

	t.Run("report", func(t *testing.T) {
		track(t)
		cov := coverageOf(idx, []call{
			{method: "GET", path: "/edge/task", status: 200},
			{method: "GET", path: "/edge/task", status: 400},
			{method: "GET", path: "/edge/task", status: 200},
			{method: "GET", path: "/edge/task/latest", status: 200},
			{method: "DELETE", path: "/edge/task", status: 405},
		})
		if cov.Exercised != 2 || cov.Total != 8 {
			t.Errorf("exercised %d of %d, want 2 of 8", cov.Exercised, cov.Total)
		}
		for _, op := range cov.Operations {
			if op.ID == "listTasks" && (op.Calls != 3 || !slices.Equal(op.Statuses, []int{200, 400})) {
				t.Errorf("listTasks: %d calls, statuses %v; want 3 calls, [200 400]", op.Calls, op.Statuses)
			}
		}
		wantMissing := []string{"cancelTask", "getAssetReadingValues", "getAssetReadings", "getAssetTimespan", "getTask", "logoutUserSessions"}
		if !slices.Equal(cov.Missing, wantMissing) {
			t.Errorf("missing %v, want %v", cov.Missing, wantMissing)
		}
		if len(cov.Unmatched) != 1 || cov.Unmatched[0] != (unmatchedCalls{Method: "DELETE", Path: "/edge/task", Calls: 1}) {
			t.Errorf("unmatched %+v, want DELETE /edge/task once", cov.Unmatched)
		}
	})
}
