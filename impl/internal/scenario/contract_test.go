package scenario

import (
	"net/http/httptest"
	"testing"
)

// TestOperationOf: requests map to the contract's operations as the
// router routes them, literal segments first.
func TestOperationOf(t *testing.T) {
	for _, tt := range []struct{ method, path, want string }{
		{"GET", "/edge/asset/a%2Fb/summary", "getAssetSummary"},
		{"GET", "/edge/asset/a/flow/summary", "getAssetReadingSummary"},
		{"GET", "/edge/asset/timespan", "listAssetTimespans"},
		{"PUT", "/edge/admin/user", "adminUpdateUser"},
		{"PUT", "/edge/admin/7", "adminUpdateUserById"},
		{"PUT", "/edge/7/logout", "logoutUserSessions"},
		{"GET", "/edge/task/latest", "listLatestTasks"},
		{"POST", "/edge/ping", ""},
	} {
		o, ok := operationOf(tt.method, tt.path)
		if o.id != tt.want || ok != (tt.want != "") {
			t.Errorf("%s %s = %q, %v; want %q", tt.method, tt.path, o.id, ok, tt.want)
		}
	}
}

// TestContractStatus: a status the contract does not list for the
// operation is reported.
func TestContractStatus(t *testing.T) {
	for _, tt := range []struct {
		method, path string
		status       int
		want         bool
	}{
		{"GET", "/edge/statistics", 200, true},
		{"GET", "/edge/statistics", 404, false},
		{"GET", "/edge/ping", 403, false},
		{"DELETE", "/edge/task/x", 405, true}, // no operation: the router's answer
	} {
		if _, ok := contractStatus(httptest.NewRequestWithContext(t.Context(), tt.method, tt.path, nil), tt.status); ok != tt.want {
			t.Errorf("%s %s %d listed = %v, want %v", tt.method, tt.path, tt.status, ok, tt.want)
		}
	}
}
