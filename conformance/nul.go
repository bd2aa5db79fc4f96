package conformance

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
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

// TestInvalidUTF8Refused checks that text that is not UTF-8 is refused with
// 400 wherever a request carries it — a percent-encoded path or query
// parameter, a JSON body's keys and values, a lone UTF-16 surrogate escape
// — whatever the store: PostgreSQL cannot keep it (a 500 before), SQLite
// would, and a body's invalid bytes would otherwise be stored as U+FFFD,
// not as sent. Nothing of a refused request is stored.
func testInvalidUTF8Refused(t *testing.T) {
	marker := unique("conf-utf8")
	tests := []struct {
		name  string
		req   rawRequest
		field string // what the message must name
	}{
		{name: "asset path", req: rawRequest{method: "GET", path: "/edge/asset/%ff%fe"}, field: `path parameter "code"`},
		{name: "asset timespan path", req: rawRequest{method: "GET", path: "/edge/asset/a%c3%28/timespan"}, field: `path parameter "code"`},
		{name: "asset reading path", req: rawRequest{method: "GET", path: "/edge/asset/a/%ed%a0%80/summary"}, field: `path parameter "reading"`},
		{name: "asset purge path", req: rawRequest{method: "DELETE", path: "/edge/asset/%ff"}, field: `path parameter "code"`},
		{name: "category path", req: rawRequest{method: "GET", path: "/edge/category/a%ffb"}, field: `path parameter "name"`},
		{name: "service path", req: rawRequest{method: "DELETE", path: "/edge/service/s%fe"}, field: `path parameter "service_name"`},
		{name: "task name query", req: rawRequest{method: "GET", path: "/edge/task?name=a%ffb"}, field: `query parameter "name"`},
		{name: "audit details value", req: rawRequest{method: "POST", path: "/edge/audit", ctype: "application/json",
			body: strings.NewReader(`{"source":"ASTDP","severity":"INFORMATION","details":{"marker":"` + marker + "\",\"m\":[\"ok\",\"a\xffb\"]}}")}, field: `field "details.m.1"`},
		{name: "audit details key", req: rawRequest{method: "POST", path: "/edge/audit", ctype: "application/json",
			body: strings.NewReader(`{"source":"ASTDP","severity":"INFORMATION","details":{"marker":"` + marker + "\",\"k\xc3\x28\":1}}")}, field: `request body field`},
		{name: "audit details lone surrogate", req: rawRequest{method: "POST", path: "/edge/audit", ctype: "application/json",
			body: strings.NewReader(`{"source":"ASTDP","severity":"INFORMATION","details":{"marker":"` + marker + `","m":"\ud800"}}`)}, field: `field "details.m"`},
		{name: "category description", req: rawRequest{method: "POST", path: "/edge/category", ctype: "application/json",
			body: strings.NewReader(`{"key":"` + unique("conf-utf8") + "\",\"description\":\"caf\xe9\",\"items\":{}}")}, field: `field "description"`},
		{name: "user name at login", req: rawRequest{method: "POST", path: "/edge/login", ctype: "application/json",
			body: strings.NewReader("{\"username\":\"adm\xffin\",\"password\":\"x\"}")}, field: `field "username"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := doRaw(t, tc.req)
			msg := checkError(t, r.status, r.body, http.StatusBadRequest)
			if !strings.Contains(msg, tc.field) || !strings.Contains(msg, "UTF-8") && !strings.Contains(msg, "surrogate") {
				t.Errorf("message %q does not name %s and say why (UTF-8, surrogate)", msg, tc.field)
			}
		})
	}
	t.Run("nothing refused was stored", func(t *testing.T) {
		source := edgeclient.AuditSource("ASTDP")
		list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: &source, Limit: ptr(edgeclient.Limit(100))})
		for _, e := range list.Audit {
			if e.Details["marker"] == marker {
				t.Errorf("a refused audit entry was stored: %v", e.Details)
			}
		}
	})
	t.Run("a surrogate pair is a character", func(t *testing.T) {
		r := doRaw(t, rawRequest{method: "POST", path: "/edge/audit", ctype: "application/json",
			body: strings.NewReader(`{"source":"ASTDP","severity":"INFORMATION","details":{"m":"\ud83d\ude00 caf\u00e9"}}`)})
		wantStatus(t, "createAuditEntry", r.status, r.body, http.StatusOK)
		var e struct{ Details map[string]any }
		must(t, json.Unmarshal(r.body, &e))
		if e.Details["m"] != "😀 café" {
			t.Errorf("stored details.m = %q, want %q", e.Details["m"], "😀 café")
		}
	})
}
