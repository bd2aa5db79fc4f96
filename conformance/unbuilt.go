package conformance

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
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
// Every operation of the contract is built: the list is empty, and every
// 501 fails.
var unbuilt []unbuiltCase

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
// JSON body) that no request may get: a 5xx other than 501 and 502 (a 500 is a bug
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
	case status == http.StatusBadGateway:
		// An upstream failed (the package repository); the operations
		// that reach one document it.
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
