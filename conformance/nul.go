package conformance

import (
	"net/http"
	"strings"
	"testing"
)

// TestNULRefused checks that text holding the NUL character (U+0000) is
// refused with 400 wherever a request carries it (path, query, JSON body
// keys and values), whatever the store: PostgreSQL cannot keep it, and a
// gateway on either store must answer the same.
func testNULRefused(t *testing.T) {
	admin := adminToken(t)
	tests := []struct {
		name  string
		req   rawRequest
		field string // what the message must name
	}{
		{name: "category path", req: rawRequest{method: "GET", path: "/edge/category/a%00b"}, field: `path parameter "name"`},
		{name: "item path", req: rawRequest{method: "DELETE", path: "/edge/category/service/na%00me/value"}, field: `path parameter "item"`},
		{name: "item value", req: rawRequest{method: "PUT", path: "/edge/category/service/name", ctype: "application/json",
			body: strings.NewReader(`{"value":"Line\u00004"}`)}, field: `field "value"`},
		{name: "category description", req: rawRequest{method: "POST", path: "/edge/category", ctype: "application/json",
			body: strings.NewReader(`{"key":"` + unique("conf-nul") + `","description":"a\u0000","items":{}}`)}, field: `field "description"`},
		{name: "audit details value", req: rawRequest{method: "POST", path: "/edge/audit", ctype: "application/json",
			body: strings.NewReader(`{"source":"ASTDP","severity":"INFORMATION","details":{"m":["ok","a\u0000"]}}`)}, field: `field "details.m.1"`},
		{name: "audit details key", req: rawRequest{method: "POST", path: "/edge/audit", ctype: "application/json",
			body: strings.NewReader(`{"source":"ASTDP","severity":"INFORMATION","details":{"\u0000":1}}`)}, field: `field "details.\x00"`},
		{name: "asset path", req: rawRequest{method: "GET", path: "/edge/asset/a%00b/timespan"}, field: `path parameter "code"`},
		{name: "own real name", req: rawRequest{method: "PUT", path: "/edge/user", ctype: "application/json",
			body: strings.NewReader(`{"real_name":"x\u0000"}`), headers: map[string]string{"authorization": admin}}, field: `field "real_name"`},
		{name: "user name at login", req: rawRequest{method: "POST", path: "/edge/login", ctype: "application/json",
			body: strings.NewReader(`{"username":"adm\u0000in","password":"x"}`)}, field: `field "username"`},
		{name: "task name query", req: rawRequest{method: "GET", path: "/edge/task?name=a%00b"}, field: `query parameter "name"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := doRaw(t, tc.req)
			msg := checkError(t, r.status, r.body, http.StatusBadRequest)
			if !strings.Contains(msg, tc.field) || !strings.Contains(msg, "NUL") {
				t.Errorf("message %q does not name %s and the NUL character", msg, tc.field)
			}
		})
	}
	t.Run("an escaped backslash is text", func(t *testing.T) {
		// `\\u0000` in JSON is the six characters \u0000, not a NUL.
		r := doRaw(t, rawRequest{method: "POST", path: "/edge/audit", ctype: "application/json",
			body: strings.NewReader(`{"source":"ASTDP","severity":"INFORMATION","details":{"m":"\\u0000"}}`)})
		wantStatus(t, "createAuditEntry", r.status, r.body, http.StatusOK)
	})
}
