package conformance

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// TestUnknownRoute checks that paths outside the contract are 404 JSON.
func testUnknownRoute(t *testing.T) {
	cases := []struct {
		name   string
		method string
		path   string
	}{
		{name: "unknown edge path", method: http.MethodGet, path: "/edge/nothing-here"},
		{name: "outside /edge", method: http.MethodGet, path: "/nothing-here"},
		{name: "root", method: http.MethodGet, path: "/"},
		{name: "too deep under category", method: http.MethodGet, path: "/edge/category/rest_api/httpPort/value/extra"},
		{name: "unknown path with POST", method: http.MethodPost, path: "/edge/nothing-here"},
		{name: "ping with trailing segment", method: http.MethodGet, path: "/edge/ping/extra"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: tc.method, path: tc.path})
			checkError(t, r.status, r.body, http.StatusNotFound)
		})
	}
}

// TestMethodNotAllowed checks that a wrong method on a known path is 405
// JSON with an Allow header listing the path's methods.
func testMethodNotAllowed(t *testing.T) {
	cases := []struct {
		method string
		path   string
		allow  []string
	}{
		{method: http.MethodPost, path: "/edge/ping", allow: []string{"GET"}},
		{method: http.MethodDelete, path: "/edge/ping", allow: []string{"GET"}},
		{method: http.MethodDelete, path: "/edge/audit", allow: []string{"GET", "POST"}},
		{method: http.MethodPut, path: "/edge/category", allow: []string{"GET", "POST"}},
		{method: http.MethodPost, path: "/edge/category/rest_api", allow: []string{"GET", "PUT"}},
		{method: http.MethodPatch, path: "/edge/category/rest_api/httpPort", allow: []string{"GET", "PUT"}},
		{method: http.MethodGet, path: "/edge/category/rest_api/httpPort/value", allow: []string{"DELETE"}},
		{method: http.MethodPost, path: "/edge/statistics", allow: []string{"GET"}},
		{method: http.MethodDelete, path: "/edge/task", allow: []string{"GET"}},
		{method: http.MethodGet, path: "/edge/shutdown", allow: []string{"PUT"}},
		// A fixed path segment is never taken for a parameter of a
		// neighbouring path (/edge/schedule/{schedule_id}, /edge/asset/{code}).
		{method: http.MethodGet, path: "/edge/schedule/enable", allow: []string{"PUT"}},
		{method: http.MethodGet, path: "/edge/schedule/disable", allow: []string{"PUT"}},
		{method: http.MethodDelete, path: "/edge/asset/timespan", allow: []string{"GET"}},
		{method: http.MethodDelete, path: "/edge/task/latest", allow: []string{"GET"}},
		{method: http.MethodPut, path: "/edge/asset/logout", allow: []string{"GET", "DELETE"}},
	}
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: tc.method, path: tc.path})
			checkError(t, r.status, r.body, http.StatusMethodNotAllowed)
			var got []string
			for _, h := range r.header.Values("Allow") {
				for m := range strings.SplitSeq(h, ",") {
					if m = strings.TrimSpace(m); m != "" {
						got = append(got, strings.ToUpper(m))
					}
				}
			}
			if len(got) == 0 {
				t.Fatalf("no Allow header")
			}
			for _, m := range tc.allow {
				if !slices.Contains(got, m) {
					t.Errorf("Allow %v lacks %s", got, m)
				}
			}
			for _, m := range got {
				if !slices.Contains(tc.allow, m) && m != "HEAD" && m != "OPTIONS" {
					t.Errorf("Allow %v names %s, which the path does not offer (want %v)", got, m, tc.allow)
				}
			}
		})
	}
}

// hideLength wraps a reader so that net/http cannot know the length and
// sends the body chunked.
type hideLength struct{ r io.Reader }

func (h hideLength) Read(p []byte) (int, error) { return h.r.Read(p) }

// TestBodyTooLarge sends bodies over 1 MiB to every body-taking operation.
func testBodyTooLarge(t *testing.T) {
	big := func(prefix, suffix string) []byte {
		var b bytes.Buffer
		b.WriteString(prefix)
		b.WriteString(strings.Repeat("x", 1100*1024))
		b.WriteString(suffix)
		return b.Bytes()
	}
	key := unique("conf-big")
	createCategory(t, edgeTextCategory(key))
	cases := []struct {
		name    string
		method  string
		path    string
		body    []byte
		chunked bool
	}{
		{name: "createAuditEntry", method: http.MethodPost, path: "/edge/audit",
			body: big(`{"source":"LOGGN","severity":"INFORMATION","details":{"pad":"`, `"}}`)},
		{name: "createAuditEntry chunked", method: http.MethodPost, path: "/edge/audit", chunked: true,
			body: big(`{"source":"LOGGN","severity":"INFORMATION","details":{"pad":"`, `"}}`)},
		{name: "createCategory", method: http.MethodPost, path: "/edge/category",
			body: big(`{"key":"`+key+`-2","description":"`, `"}`)},
		{name: "setCategoryItem", method: http.MethodPut, path: "/edge/category/" + key + "/text",
			body: big(`{"value":"`, `"}`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader = bytes.NewReader(tc.body)
			if tc.chunked {
				body = hideLength{body}
			}
			r := doRaw(t, rawRequest{method: tc.method, path: tc.path, body: body, ctype: "application/json"})
			checkError(t, r.status, r.body, http.StatusRequestEntityTooLarge)
		})
	}
	if v := getItem(t, key, "text").Value; v != "short" {
		t.Errorf("text item = %.40q… after a refused write, want short", v)
	}
	wantNoCategory(t, key+"-2")

	t.Run("just under 1 MiB is accepted", func(t *testing.T) {
		value := strings.Repeat("y", 1000*1024)
		r := doRaw(t, rawRequest{method: http.MethodPut, path: "/edge/category/" + key + "/text", ctype: "application/json",
			body: strings.NewReader(`{"value":"` + value + `"}`)})
		wantStatus(t, "PUT ~1000 KiB", r.status, r.body, http.StatusOK)
	})
}

// TestMalformedBodies sends bodies that are not the JSON the operation
// takes. Each target has a valid body, from which the broken ones derive,
// so only the defect named by the case is wrong.
func testMalformedBodies(t *testing.T) {
	key := unique("conf-malformed")
	createCategory(t, edgeTextCategory(key))
	targets := []struct {
		name   string
		method string
		path   string
		valid  string
	}{
		{name: "createAuditEntry", method: http.MethodPost, path: "/edge/audit",
			valid: `{"source": "LOGGN", "severity": "INFORMATION", "details": {"marker": "` + key + `"}}`},
		{name: "createCategory", method: http.MethodPost, path: "/edge/category",
			valid: `{"key": "` + key + `-new", "description": "x"}`},
		{name: "setCategoryItem", method: http.MethodPut, path: "/edge/category/" + key + "/text",
			valid: `{"value": "changed"}`},
	}
	bodies := []struct {
		name  string
		body  func(valid string) string
		ctype string
		want  int // 0: 400
	}{
		{name: "truncated JSON", body: func(v string) string { return v[:len(v)-1] }, ctype: "application/json"},
		{name: "not JSON", body: func(string) string { return "hello" }, ctype: "application/json"},
		{name: "trailing garbage", body: func(v string) string { return v + " {}" }, ctype: "application/json"},
		{name: "two documents", body: func(v string) string { return v + v }, ctype: "application/json"},
		{name: "JSON null", body: func(string) string { return "null" }, ctype: "application/json"},
		{name: "JSON array", body: func(v string) string { return "[" + v + "]" }, ctype: "application/json"},
		{name: "empty", body: func(string) string { return "" }, ctype: "application/json"},
		{name: "form-encoded, not JSON", body: func(string) string { return "value=changed" }, ctype: "application/x-www-form-urlencoded"},
		{name: "plain text, not JSON", body: func(string) string { return "value: changed" }, ctype: "text/plain"},
		{name: "no content type, not JSON", body: func(string) string { return "value changed" }},
		{name: "XML content type", body: func(v string) string { return v }, ctype: "application/xml", want: http.StatusUnsupportedMediaType},
		{name: "JSON-like content type", body: func(v string) string { return v }, ctype: "application/merge-patch+json", want: http.StatusUnsupportedMediaType},
	}
	for _, tg := range targets {
		for _, b := range bodies {
			t.Run(tg.name+"/"+b.name, func(t *testing.T) {
				r := doRaw(t, rawRequest{method: tg.method, path: tg.path, body: strings.NewReader(b.body(tg.valid)), ctype: b.ctype})
				want := b.want
				if want == 0 {
					want = http.StatusBadRequest
				}
				checkError(t, r.status, r.body, want)
			})
		}
	}
	if v := getItem(t, key, "text").Value; v != "short" {
		t.Errorf("text item = %q after refused writes, want short", v)
	}
	wantNoCategory(t, key+"-new")
	for _, e := range listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(edgeclient.LOGGN), Limit: ptr(100)}).Audit {
		if e.Details["marker"] == key {
			t.Errorf("a refused audit entry was stored: %s", jsonString(e))
		}
	}

	t.Run("valid bodies are accepted", func(t *testing.T) {
		for _, tg := range targets {
			r := doRaw(t, rawRequest{method: tg.method, path: tg.path, body: strings.NewReader(tg.valid), ctype: "application/json; charset=utf-8"})
			if r.status != http.StatusOK {
				t.Errorf("%s with its valid body: status %d, want 200; body: %s", tg.name, r.status, truncate(r.body))
			}
		}
	})
}

// TestRequestID checks that every response carries X-Request-Id: the
// client's own when sent, a fresh one otherwise.
func testRequestID(t *testing.T) {
	cases := []struct {
		name   string
		method string
		path   string
	}{
		{name: "ok", method: http.MethodGet, path: "/edge/ping"},
		{name: "bad request", method: http.MethodGet, path: "/edge/audit?limit=0"},
		{name: "not found", method: http.MethodGet, path: "/edge/nothing-here"},
		{name: "method not allowed", method: http.MethodPost, path: "/edge/ping"},
		{name: "not implemented", method: http.MethodGet, path: "/edge/task"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := unique("conf-req")
			r := doRaw(t, rawRequest{method: tc.method, path: tc.path, headers: map[string]string{"X-Request-Id": id}})
			if got := r.header.Get("X-Request-Id"); got != id {
				t.Errorf("sent X-Request-Id %q, got back %q", id, got)
			}
			r1 := doRaw(t, rawRequest{method: tc.method, path: tc.path})
			r2 := doRaw(t, rawRequest{method: tc.method, path: tc.path})
			id1, id2 := r1.header.Get("X-Request-Id"), r2.header.Get("X-Request-Id")
			if id1 == "" || id2 == "" {
				t.Fatalf("no X-Request-Id generated: %q, %q", id1, id2)
			}
			if id1 == id2 {
				t.Errorf("two requests got the same generated X-Request-Id %q", id1)
			}
		})
	}
}
