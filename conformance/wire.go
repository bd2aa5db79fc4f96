package conformance

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// TestLenientContentTypes sends JSON bodies the way real clients do without
// saying they are JSON: no Content-Type (curl -d with -H ”), text/plain
// (browsers' simple requests), form-encoded (curl -d). Each is taken as
// JSON.
func testLenientContentTypes(t *testing.T) {
	for _, ctype := range []string{"", "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded"} {
		name := ctype
		if name == "" {
			name = "no content type"
		}
		t.Run(name, func(t *testing.T) {
			marker := unique("conf-lenient")
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/audit", ctype: ctype,
				body: strings.NewReader(`{"source":"LOGGN","severity":"INFORMATION","details":{"marker":"` + marker + `"}}`)})
			wantStatus(t, "createAuditEntry", r.status, r.body, http.StatusOK)
			list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(edgeclient.LOGGN), Limit: ptr(20)})
			found := false
			for _, e := range list.Audit {
				found = found || e.Details["marker"] == marker
			}
			if !found {
				t.Errorf("the entry posted as %q is not in the audit trail", name)
			}
		})
	}
	t.Run("set an item as text/plain", func(t *testing.T) {
		key := unique("conf-lenient")
		createCategory(t, edgeTextCategory(key))
		r := doRaw(t, rawRequest{method: http.MethodPut, path: "/edge/category/" + url.PathEscape(key) + "/text", ctype: "text/plain",
			body: strings.NewReader(`{"value":"plain"}`)})
		wantStatus(t, "setCategoryItem", r.status, r.body, http.StatusOK)
		if v := getItem(t, key, "text").Value; v != "plain" {
			t.Errorf("text = %q, want plain", v)
		}
	})
	t.Run("login with JSON as text/plain", func(t *testing.T) {
		if !ownGateway && externalAdminPassword == "" {
			t.Skip("the admin password of the external gateway is unknown; pass -admin-password or set EDGE_ADMIN_PASSWORD")
		}
		body := `{"username":"admin","password":` + jsonString(adminPass()) + `}`
		r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/login", ctype: "text/plain", body: strings.NewReader(body), anonymous: true})
		wantStatus(t, "login", r.status, r.body, http.StatusOK)
	})
	t.Run("login with a malformed PEM as text/plain", func(t *testing.T) {
		r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/login", ctype: "text/plain",
			body: strings.NewReader("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"), anonymous: true})
		// A body with the PEM header that holds no certificate is a wrong
		// credential, as the contract says: 401.
		checkError(t, r.status, r.body, http.StatusUnauthorized)
	})
}

// preflight sends a CORS preflight for method on path from origin and
// records it; it returns the status and headers (the answer has no body).
func preflight(t *testing.T, path, origin, method string) (int, http.Header) {
	t.Helper()
	track(t)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodOptions, baseURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", method)
	req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("OPTIONS %s: %v", path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	calls.add(req, resp.StatusCode)
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header
}

// TestCORS allows an origin in rest_api.allowedOrigins and checks the
// preflight and actual answers browsers need, for it and for another
// origin.
func testCORS(t *testing.T) {
	admin := adminToken(t)
	allowed := "https://hmi-" + unique("c") + ".example"
	changeItemAs(t, admin, "rest_api", "allowedOrigins", "https://other.example, "+allowed)

	t.Run("preflight from the allowed origin", func(t *testing.T) {
		status, h := preflight(t, "/edge/category/service/name", allowed, http.MethodPut)
		if status != http.StatusNoContent {
			t.Fatalf("status %d, want 204", status)
		}
		want := map[string]string{"Access-Control-Allow-Origin": allowed, "Access-Control-Max-Age": "600"}
		for k, v := range want {
			if got := h.Get(k); got != v {
				t.Errorf("%s = %q, want %q", k, got, v)
			}
		}
		methods := strings.ToUpper(h.Get("Access-Control-Allow-Methods"))
		if !strings.Contains(methods, "PUT") || !strings.Contains(methods, "GET") || strings.Contains(methods, "POST") {
			t.Errorf("Access-Control-Allow-Methods = %q, want the path's methods GET and PUT", methods)
		}
		headers := strings.ToLower(h.Get("Access-Control-Allow-Headers"))
		for _, h := range []string{"authorization", "content-type"} {
			if !strings.Contains(headers, h) {
				t.Errorf("Access-Control-Allow-Headers = %q lacks %s", headers, h)
			}
		}
	})
	t.Run("preflight from another origin", func(t *testing.T) {
		status, h := preflight(t, "/edge/category/service/name", "https://evil.example", http.MethodPut)
		if status != http.StatusForbidden {
			t.Errorf("status %d, want 403", status)
		}
		if v := h.Get("Access-Control-Allow-Origin"); v != "" {
			t.Errorf("Access-Control-Allow-Origin = %q, want none", v)
		}
	})
	t.Run("answer to the allowed origin", func(t *testing.T) {
		r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/ping", headers: map[string]string{"Origin": allowed}})
		wantStatus(t, "ping", r.status, r.body, http.StatusOK)
		if v := r.header.Get("Access-Control-Allow-Origin"); v != allowed {
			t.Errorf("Access-Control-Allow-Origin = %q, want %q", v, allowed)
		}
		if v := r.header.Get("Access-Control-Expose-Headers"); !strings.Contains(v, "X-Request-Id") {
			t.Errorf("Access-Control-Expose-Headers = %q, want X-Request-Id exposed", v)
		}
	})
	t.Run("answer to another origin", func(t *testing.T) {
		r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/ping", headers: map[string]string{"Origin": "https://evil.example"}})
		wantStatus(t, "ping", r.status, r.body, http.StatusOK)
		if v := r.header.Get("Access-Control-Allow-Origin"); v != "" {
			t.Errorf("Access-Control-Allow-Origin = %q, want none", v)
		}
	})
	t.Run("any origin", func(t *testing.T) {
		changeItemAs(t, admin, "rest_api", "allowedOrigins", "*")
		status, h := preflight(t, "/edge/audit", "https://anyone.example", http.MethodPost)
		if status != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("status %d, Access-Control-Allow-Origin %q; want 204 and *", status, h.Get("Access-Control-Allow-Origin"))
		}
	})
}
