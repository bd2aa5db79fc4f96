package impl_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
	"github.com/edged/edged/internal/system"
)

// TestBackupScenarios: a backup made, listed, downloaded, uploaded again,
// restored (which asks the gateway to restart: the Env's Control receives
// it) and deleted, with the 400s, 404s and 409s of each call and the
// admin-only rights. It runs on a gateway of its own: a restore asks for a
// restart.
func TestBackupScenarios(t *testing.T) {
	scenario.EachFresh(t, func(t *testing.T, e *env) {
		var made struct {
			ID int64 `json:"id"`
		}
		e.Call(t, "POST", "/edge/backup", nil, admin, 200, &made)
		one := fmt.Sprintf("/edge/backup/%d", made.ID)
		eventually(t, e, one, `"status":"COMPLETED"`)
		dl := e.Do(t, "GET", one+"/download", nil, admin, nil)
		if dl.Code != 200 || dl.Body.Len() == 0 {
			t.Fatalf("download: %d, %d bytes", dl.Code, dl.Body.Len())
		}
		archive := dl.Body.Bytes()
		octets := map[string]string{"Content-Type": "application/octet-stream"}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "list", Method: "GET", URL: "/edge/backup?status=completed&limit=5", As: admin, ExpectedStatus: 200,
				ExpectedContent: []string{fmt.Sprintf(`"id":%d`, made.ID)}},
			{Name: "list with an unknown status", Method: "GET", URL: "/edge/backup?status=lost", As: admin, ExpectedStatus: 400,
				ExpectedContent: []string{"lost"}},
			{Name: "list with limit 0", Method: "GET", URL: "/edge/backup?limit=0", As: admin, ExpectedStatus: 400},
			{Name: "statuses", Method: "GET", URL: "/edge/backup/status", ExpectedStatus: 200, ExpectedContent: []string{`"name":"COMPLETED"`}},
			{Name: "get", Method: "GET", URL: one, As: admin, ExpectedStatus: 200, ExpectedContent: []string{`"size":`}},
			{Name: "get an unknown backup", Method: "GET", URL: "/edge/backup/999999", As: admin, ExpectedStatus: 404},
			{Name: "get an id not a number", Method: "GET", URL: "/edge/backup/latest", As: admin, ExpectedStatus: 400},
			{Name: "download", Method: "GET", URL: one + "/download", As: admin, ExpectedStatus: 200,
				AfterTestFunc: func(t *testing.T, _ *env, res *httptest.ResponseRecorder) {
					if cd := res.Header().Get("Content-Disposition"); !strings.Contains(cd, "attachment") {
						t.Errorf("Content-Disposition %q", cd)
					}
				}},
			{Name: "download an unknown backup", Method: "GET", URL: "/edge/backup/999999/download", As: admin, ExpectedStatus: 404},
			{Name: "upload", Method: "POST", URL: "/edge/backup/upload", As: admin, Body: archive, Headers: octets, ExpectedStatus: 200,
				ExpectedContent: []string{`"status":"COMPLETED"`},
				AfterTestFunc: scenario.Decode(func(t *testing.T, e *env, b struct {
					ID int64 `json:"id"`
				}) {
					if b.ID == made.ID {
						t.Errorf("the upload has the id %d of the backup it copies", b.ID)
					}
				})},
			{Name: "upload what is not a backup", Method: "POST", URL: "/edge/backup/upload", As: admin, Body: "not a backup", Headers: octets,
				ExpectedStatus: 400},
			{Name: "upload nothing", Method: "POST", URL: "/edge/backup/upload", As: admin, Body: "", Headers: octets, ExpectedStatus: 400},
			{Name: "restore an unknown backup", Method: "PUT", URL: "/edge/backup/999999/restore", As: admin, ExpectedStatus: 404},
			{Name: "restore", Method: "PUT", URL: one + "/restore", As: admin, ExpectedStatus: 200, ExpectedContent: []string{"restarts"},
				AfterTestFunc: func(t *testing.T, e *env, _ *httptest.ResponseRecorder) {
					if got := e.Control.Requested(); got != system.Restart {
						t.Errorf("requested %v, want a restart", got)
					}
				}},
			{Name: "restore while a restart is pending", Method: "PUT", URL: one + "/restore", As: admin, ExpectedStatus: 409},
			{Name: "delete", Method: "DELETE", URL: one, As: admin, ExpectedStatus: 200},
			{Name: "delete again", Method: "DELETE", URL: one, As: admin, ExpectedStatus: 404},
		},
			scenario.Refused("POST", "/edge/backup", nil, anon, user, control),
			scenario.Refused("GET", "/edge/backup", nil, anon, user, view),
			scenario.Refused("GET", one, nil, user),
			scenario.Refused("GET", one+"/download", nil, anon, control),
			scenario.Refused("PUT", one+"/restore", nil, anon, user),
			scenario.Refused("DELETE", one, nil, anon, user),
			scenario.Refused("POST", "/edge/backup/upload", "x", anon, user),
		))
	})
}
