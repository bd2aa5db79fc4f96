package conformance

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/edgeclient"
)

// unbuiltCase is a request this version of the gateway does not build: it
// answers 501. Without query and field it is every request of the
// operation; otherwise a request whose query parameter query, or whose JSON
// body field field, equals value (case-insensitively).
type unbuiltCase struct {
	operationID  string
	query, field string
	value        string
}

// unbuilt lists what the gateway the suite starts does not build, as the
// README and the contract say. Any other 501 from that gateway fails the
// test that got it: a regression to "not implemented" must not pass. The
// Makefile's FUZZ_UNBUILT lists the same cases for the fuzzer.
var unbuilt = []unbuiltCase{
	{operationID: "setRepository"},
	{operationID: "listAvailablePackages"},
	{operationID: "updatePackages"},
	{operationID: "createService", query: "action", value: "install"},
	{operationID: "createService", field: "type", value: "notification"},
	{operationID: "createService", field: "type", value: "dispatcher"},
}

// contract maps requests to the operations of the contract the gateway
// under test serves; set before the tests run.
var contract *operationIndex

// isUnbuilt reports whether req, with JSON body body, is one of the
// unbuilt cases.
func isUnbuilt(req *http.Request, body []byte) bool {
	if contract == nil {
		return false
	}
	p := req.URL.EscapedPath()
	if pathPrefix != "" {
		p = strings.TrimPrefix(p, pathPrefix)
	}
	op := contract.match(req.Method, p)
	if op == nil {
		return false
	}
	var fields map[string]any
	_ = json.Unmarshal(body, &fields)
	for _, c := range unbuilt {
		if c.operationID != op.ID {
			continue
		}
		switch {
		case c.query != "":
			if strings.EqualFold(req.URL.Query().Get(c.query), c.value) {
				return true
			}
		case c.field != "":
			if v, ok := fields[c.field].(string); ok && strings.EqualFold(v, c.value) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// checkServerStatus flags an answer of status to req (body: the request's
// JSON body) that no request may get: a 5xx other than 501 (a 500 is a bug
// by definition, a 503 means storage failed under the suite), and, from the
// gateway the suite started, a 501 for anything but an unbuilt case.
// Another implementation may still lack operations: its 501s pass here, and
// the tests that need the operation skip (see skipUnbuilt).
func checkServerStatus(t testing.TB, req *http.Request, reqBody []byte, status int, respBody []byte) {
	t.Helper()
	switch {
	case status == http.StatusNotImplemented:
		if ownGateway && !isUnbuilt(req, reqBody) {
			t.Errorf("%s %s answered 501, but the gateway builds it (only the cases listed in unbuilt are not built); body: %s",
				req.Method, req.URL.RequestURI(), truncate(respBody))
		}
	case status >= 500:
		t.Errorf("%s %s answered %d; a 5xx is a gateway bug; body: %s", req.Method, req.URL.RequestURI(), status, truncate(respBody))
	}
}

// skipUnbuilt ends a test that needs an operation which answered 501:
// against another implementation it skips, against the gateway the suite
// started it fails, since every operation not listed in unbuilt is built.
func skipUnbuilt(t testing.TB, what string) {
	t.Helper()
	if ownGateway {
		t.Fatalf("%s answered 501, but the gateway builds it", what)
	}
	t.Skipf("%s answers 501 (not implemented by this gateway yet), so this case waits for it", what)
}

// TestNotImplementedYet covers the operations the gateway does not build
// yet: each must answer 501 with a JSON message naming the operation, as
// an admin calls it, so that the operation coverage of the suite is
// complete. Whoever builds one replaces its case here with real cases
// (results and every documented error), and removes it from FUZZ_UNBUILT
// in the Makefile.
func TestNotImplementedYet(t *testing.T) {
	admin := apiAs(t, adminToken(t))
	cases := []struct {
		operationID string
		call        func() (int, []byte, error)
	}{
		{operationID: "setRepository", call: func() (int, []byte, error) {
			r, err := admin.SetRepositoryWithResponse(t.Context(), edgeclient.RepositoryRequest{Url: "https://packages.example.org/edged", Version: ptr("latest")})
			if err != nil {
				return 0, nil, err
			}
			return r.StatusCode(), r.Body, nil
		}},
		{operationID: "listAvailablePackages", call: func() (int, []byte, error) {
			r, err := admin.ListAvailablePackagesWithResponse(t.Context())
			if err != nil {
				return 0, nil, err
			}
			return r.StatusCode(), r.Body, nil
		}},
		{operationID: "updatePackages", call: func() (int, []byte, error) {
			r, err := admin.UpdatePackagesWithResponse(t.Context())
			if err != nil {
				return 0, nil, err
			}
			return r.StatusCode(), r.Body, nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.operationID, func(t *testing.T) {
			status, body, err := tc.call()
			must(t, err)
			msg := checkError(t, status, body, http.StatusNotImplemented)
			if !strings.Contains(msg, tc.operationID) {
				t.Errorf("message %q does not name the operation %s", msg, tc.operationID)
			}
		})
	}
}

// TestUnbuiltMatching checks which requests count as unbuilt, so that
// only those may answer 501 from the suite's own gateway (no gateway
// involved).
func TestUnbuiltMatching(t *testing.T) {
	track(t)
	idx, err := parseSpec([]byte(`{"paths": {
		"/edge/repository": {"post": {"operationId": "setRepository"}},
		"/edge/service": {"get": {"operationId": "listServices"}, "post": {"operationId": "createService"}},
		"/edge/asset": {"get": {"operationId": "listAssets"}}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	saved := contract
	contract = idx
	t.Cleanup(func() { contract = saved })
	tests := []struct {
		name   string
		method string
		target string
		body   string
		want   bool
	}{
		{name: "unbuilt operation", method: http.MethodPost, target: "/edge/repository", body: `{"url":"http://x"}`, want: true},
		{name: "built operation", method: http.MethodGet, target: "/edge/asset"},
		{name: "south service", method: http.MethodPost, target: "/edge/service", body: `{"name":"s","type":"south","plugin":"sinusoid","enabled":true}`},
		{name: "north service", method: http.MethodPost, target: "/edge/service", body: `{"name":"n","type":"North","plugin":"http_north","enabled":true}`},
		{name: "notification service", method: http.MethodPost, target: "/edge/service", body: `{"name":"n","type":"Notification","enabled":true}`, want: true},
		{name: "dispatcher service", method: http.MethodPost, target: "/edge/service", body: `{"name":"d","type":"DISPATCHER","enabled":true}`, want: true},
		{name: "install", method: http.MethodPost, target: "/edge/service?action=install", body: `{"format":"repository","name":"p"}`, want: true},
		{name: "service type not a string", method: http.MethodPost, target: "/edge/service", body: `{"type":5}`},
		{name: "body not JSON", method: http.MethodPost, target: "/edge/service", body: `{"type":`},
		{name: "listing services", method: http.MethodGet, target: "/edge/service?action=install"},
		{name: "unknown path", method: http.MethodGet, target: "/edge/nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, "http://gateway"+tt.target, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := isUnbuilt(req, []byte(tt.body)); got != tt.want {
				t.Errorf("isUnbuilt(%s %s %s) = %v, want %v", tt.method, tt.target, tt.body, got, tt.want)
			}
		})
	}
}
