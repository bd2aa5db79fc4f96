package conformance

import (
	"net/http"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// testControlRefusalsAudited checks that control writes and operations
// refused before any dispatcher sees them are audited like those it
// refuses: CTLWR or CTLOP, FAILURE, naming the caller and the reason —
// refused for the caller's role (403 for a logged-in viewer, 401 for an
// anonymous caller, who needs a token), for an invalid body (400), and because no dispatcher service
// runs (409).
func testControlRefusalsAudited(t *testing.T) {
	adminTok := adminToken(t)
	admin := apiAs(t, adminTok)
	viewerUser, pw := newUser(t, adminTok, 3, "")
	viewer := apiAs(t, loginUser(t, viewerUser.UserName, pw).Token)
	adminName := "admin"
	service := unique("conf-ctl")

	// newest returns the newest audit entry of source.
	newest := func(t *testing.T, source edgeclient.AuditSource) edgeclient.AuditEntry {
		t.Helper()
		list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(source), Limit: ptr(1)})
		if len(list.Audit) == 0 {
			t.Fatalf("no %s audit entry", source)
		}
		return list.Audit[0]
	}
	cases := []struct {
		name   string
		source edgeclient.AuditSource
		send   func(t *testing.T) (int, []byte)
		status int
		caller string
		reason string // a part of the audited reason
	}{
		{name: "write by a viewer", source: edgeclient.CTLWR, status: http.StatusForbidden, caller: viewerUser.UserName, reason: "role",
			send: func(t *testing.T) (int, []byte) {
				r := controlWrite(t, viewer, edgeclient.ControlDestinationService, service, map[string]any{"x": 1.0})
				return r.StatusCode(), r.Body
			}},
		{name: "write by an anonymous caller", source: edgeclient.CTLWR, status: http.StatusUnauthorized, caller: "anonymous", reason: "roles",
			send: func(t *testing.T) (int, []byte) {
				r := controlWrite(t, apiAnonymous(t), edgeclient.ControlDestinationService, service, map[string]any{"x": 1.0})
				return r.StatusCode(), r.Body
			}},
		{name: "operation by a viewer", source: edgeclient.CTLOP, status: http.StatusForbidden, caller: viewerUser.UserName, reason: "role",
			send: func(t *testing.T) (int, []byte) {
				r, err := viewer.ControlOperationWithResponse(t.Context(), edgeclient.ControlOperationRequest{
					Destination: edgeclient.ControlDestinationService, Name: &service, Operation: "Reset"})
				must(t, err)
				return r.StatusCode(), r.Body
			}},
		{name: "write with an invalid body", source: edgeclient.CTLWR, status: http.StatusBadRequest, caller: adminName, reason: "destination",
			send: func(t *testing.T) (int, []byte) {
				r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/control/write", ctype: "application/json",
					headers: map[string]string{"Authorization": adminTok}, body: strings.NewReader(`{"destination":7,"values":{"x":1}}`)})
				return r.status, r.body
			}},
		{name: "operation with a body that is not JSON", source: edgeclient.CTLOP, status: http.StatusBadRequest, caller: adminName, reason: "JSON",
			send: func(t *testing.T) (int, []byte) {
				r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/control/operation", ctype: "application/json",
					headers: map[string]string{"Authorization": adminTok}, body: strings.NewReader(`{"destination":`)})
				return r.status, r.body
			}},
		{name: "write without a dispatcher", source: edgeclient.CTLWR, status: http.StatusConflict, caller: adminName, reason: "no dispatcher service is running",
			send: func(t *testing.T) (int, []byte) {
				r := controlWrite(t, admin, edgeclient.ControlDestinationService, service, map[string]any{"x": 1.0})
				return r.StatusCode(), r.Body
			}},
		{name: "operation without a dispatcher", source: edgeclient.CTLOP, status: http.StatusConflict, caller: adminName, reason: "no dispatcher service is running",
			send: func(t *testing.T) (int, []byte) {
				r, err := admin.ControlOperationWithResponse(t.Context(), edgeclient.ControlOperationRequest{
					Destination: edgeclient.ControlDestinationService, Name: &service, Operation: "Reset"})
				must(t, err)
				return r.StatusCode(), r.Body
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := auditCount(t, tc.source)
			status, body := tc.send(t)
			msg := checkError(t, status, body, tc.status)
			if n := auditCount(t, tc.source); n != before+1 {
				t.Fatalf("%s entries: %d before the refused call, %d after; want one more", tc.source, before, n)
			}
			e := newest(t, tc.source)
			d := e.Details
			if e.Severity != edgeclient.FAILURE || d["caller"] != tc.caller || d["outcome"] != "refused" {
				t.Errorf("%s entry = %s %v; want FAILURE, caller %q, outcome refused", tc.source, e.Severity, d, tc.caller)
			}
			reason, _ := d["error"].(string)
			if reason != msg || !strings.Contains(reason, tc.reason) {
				t.Errorf("audited reason %q; want the answer's message %q, naming %q", reason, msg, tc.reason)
			}
		})
	}
}
