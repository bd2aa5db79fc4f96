package conformance

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// auditTimestamp is the Timestamp schema: UTC with milliseconds.
var auditTimestamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$`)

// specTimestamp is the specification's timestamp: an optional fraction of 3
// or 6 digits.
var specTimestamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6})?$`)

// createAudit posts an entry and fails the test unless it is stored.
func createAudit(t testing.TB, body edgeclient.AuditEntryCreate) *edgeclient.AuditEntry {
	t.Helper()
	got, _ := createAuditRaw(t, body)
	return got
}

// createAuditRaw is createAudit that also returns the answer as sent, for
// checks of its timestamp's form.
func createAuditRaw(t testing.TB, body edgeclient.AuditEntryCreate) (*edgeclient.AuditEntry, []byte) {
	t.Helper()
	resp, err := api(t).CreateAuditEntryWithResponse(t.Context(), body)
	must(t, err)
	wantStatus(t, "createAuditEntry", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("createAuditEntry: no JSON body: %s", truncate(resp.Body))
	}
	wantTimestamps(t, "createAuditEntry", resp.Body, specTimestamp)
	return resp.JSON200, resp.Body
}

// TestAuditCreate posts entries and finds each, as stored, first in the list
// filtered by its source.
func testAuditCreate(t *testing.T) {
	cases := []struct {
		name         string
		source       edgeclient.AuditSource
		severity     string
		details      map[string]any
		wantSeverity edgeclient.AuditSeverity
		strict       bool // severity not in upper case
	}{
		{
			name:         "lower-case severity is stored upper case",
			source:       edgeclient.LOGGN,
			severity:     "warning",
			details:      map[string]any{"marker": unique("conf-audit")},
			wantSeverity: edgeclient.WARNING,
			strict:       true,
		},
		{
			name:         "mixed-case severity",
			source:       edgeclient.NTFSN,
			severity:     "Failure",
			details:      map[string]any{"marker": unique("conf-audit")},
			wantSeverity: edgeclient.FAILURE,
			strict:       true,
		},
		{
			name:     "nested details round-trip",
			source:   edgeclient.BKEXC,
			severity: "SUCCESS",
			details: map[string]any{
				"marker":  unique("conf-audit"),
				"count":   3,
				"ratio":   0.25,
				"ok":      true,
				"missing": nil,
				"text":    "naïve \"quoted\" / ünïcødé",
				"nested":  map[string]any{"list": []any{1, "two", false, map[string]any{"deep": "yes"}}},
			},
			wantSeverity: edgeclient.SUCCESS,
		},
		{
			name:         "empty details read back as an empty object",
			source:       edgeclient.STRMN,
			severity:     "INFORMATION",
			details:      map[string]any{},
			wantSeverity: edgeclient.INFORMATION,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.strict {
				strictCase(t)
			}
			body := edgeclient.AuditEntryCreate{Source: tc.source, Severity: tc.severity, Details: tc.details}
			wantDetails := tc.details
			before := auditCount(t, tc.source)

			got, raw := createAuditRaw(t, body)
			strictCheck(t, "timestamp with milliseconds in the createAuditEntry answer", func(t *testing.T) {
				wantTimestamps(t, "createAuditEntry", raw, auditTimestamp)
			})
			check := func(where string, e edgeclient.AuditEntry) {
				t.Helper()
				if e.Source != tc.source {
					t.Errorf("%s: source = %q, want %q", where, e.Source, tc.source)
				}
				if e.Severity != tc.wantSeverity {
					t.Errorf("%s: severity = %q, want %q", where, e.Severity, tc.wantSeverity)
				}
				if e.Details == nil {
					t.Errorf("%s: details is null or absent, want %s", where, jsonString(wantDetails))
				} else if !jsonEqual(t, e.Details, wantDetails) {
					t.Errorf("%s: details = %s, want %s", where, jsonString(e.Details), jsonString(wantDetails))
				}
			}
			check("createAuditEntry answer", *got)

			list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(tc.source), Limit: ptr(5)})
			if len(list.Audit) == 0 {
				t.Fatalf("listAuditEntries source=%s is empty after the create", tc.source)
			}
			check("first entry of listAuditEntries source="+string(tc.source), list.Audit[0])
			if !list.Audit[0].Timestamp.Equal(got.Timestamp.Time) {
				t.Errorf("listed timestamp %q differs from the create answer %q", list.Audit[0].Timestamp, got.Timestamp)
			}
			if list.TotalCount != before+1 {
				t.Errorf("totalCount for source=%s went from %d to %d, want +1", tc.source, before, list.TotalCount)
			}
		})
	}
}

// TestAuditListFilters checks the source and severity filters, severity
// case-insensitively.
func testAuditListFilters(t *testing.T) {
	marker := unique("conf-filter")
	createAudit(t, edgeclient.AuditEntryCreate{Source: edgeclient.NTFCL, Severity: "FAILURE", Details: map[string]any{"marker": marker, "n": 1}})
	createAudit(t, edgeclient.AuditEntryCreate{Source: edgeclient.NTFCL, Severity: "WARNING", Details: map[string]any{"marker": marker, "n": 2}})

	cases := []struct {
		name         string
		source       *edgeclient.AuditSource
		severity     *string
		wantSource   edgeclient.AuditSource   // "" = any
		wantSeverity edgeclient.AuditSeverity // "" = any
		wantFirstN   float64                  // 0 = not checked
		strict       bool                     // severity not in upper case; START written at start
	}{
		{name: "source only", source: ptr(edgeclient.NTFCL), wantSource: edgeclient.NTFCL, wantFirstN: 2},
		{name: "source and upper-case severity", source: ptr(edgeclient.NTFCL), severity: ptr("FAILURE"), wantSource: edgeclient.NTFCL, wantSeverity: edgeclient.FAILURE, wantFirstN: 1},
		{name: "source and lower-case severity", source: ptr(edgeclient.NTFCL), severity: ptr("failure"), wantSource: edgeclient.NTFCL, wantSeverity: edgeclient.FAILURE, wantFirstN: 1, strict: true},
		{name: "source and mixed-case severity", source: ptr(edgeclient.NTFCL), severity: ptr("wArNiNg"), wantSource: edgeclient.NTFCL, wantSeverity: edgeclient.WARNING, wantFirstN: 2, strict: true},
		{name: "severity only", severity: ptr("INFORMATION"), wantSeverity: edgeclient.INFORMATION},
		{name: "system source START", source: ptr(edgeclient.START), wantSource: edgeclient.START, strict: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.strict {
				strictCase(t)
			}
			list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: tc.source, Severity: tc.severity, Limit: ptr(100)})
			if len(list.Audit) == 0 {
				t.Fatalf("no entries match")
			}
			if list.TotalCount < len(list.Audit) {
				t.Errorf("totalCount %d < %d entries returned", list.TotalCount, len(list.Audit))
			}
			for i, e := range list.Audit {
				if tc.wantSource != "" && e.Source != tc.wantSource {
					t.Errorf("entry %d has source %q, want only %q", i, e.Source, tc.wantSource)
				}
				if tc.wantSeverity != "" && e.Severity != tc.wantSeverity {
					t.Errorf("entry %d has severity %q, want only %q", i, e.Severity, tc.wantSeverity)
				}
			}
			for i := 1; i < len(list.Audit); i++ {
				if list.Audit[i-1].Timestamp.Before(list.Audit[i].Timestamp.Time) {
					t.Errorf("entries %d (%s) and %d (%s) are not newest first", i-1, list.Audit[i-1].Timestamp, i, list.Audit[i].Timestamp)
					break
				}
			}
			if tc.wantFirstN != 0 {
				first := list.Audit[0].Details
				if first["marker"] != marker || first["n"] != tc.wantFirstN {
					t.Errorf("first entry details = %s, want marker %s n %v", jsonString(first), marker, tc.wantFirstN)
				}
			}
		})
	}
}

// TestAuditPaging pages through entries of one source with limit and skip.
func testAuditPaging(t *testing.T) {
	const n = 5
	source := edgeclient.ESSRT
	marker := unique("conf-page")
	for i := range n {
		createAudit(t, edgeclient.AuditEntryCreate{Source: source, Severity: "INFORMATION", Details: map[string]any{"marker": marker, "i": i}})
	}

	// Newest first: entry n-1 is on top.
	var seen []float64
	total := -1
	for skip := 0; skip < n; skip += 2 {
		list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: &source, Limit: ptr(2), Skip: ptr(skip)})
		if len(list.Audit) > 2 {
			t.Errorf("limit=2 skip=%d returned %d entries", skip, len(list.Audit))
		}
		if list.TotalCount < n || list.TotalCount < skip+len(list.Audit) {
			t.Errorf("limit=2 skip=%d: totalCount %d, want ≥ %d and ≥ skip+returned", skip, list.TotalCount, n)
		}
		if total >= 0 && list.TotalCount != total {
			t.Errorf("totalCount changed between pages: %d then %d", total, list.TotalCount)
		}
		total = list.TotalCount
		for _, e := range list.Audit {
			if e.Details["marker"] == marker {
				seen = append(seen, e.Details["i"].(float64))
			} else {
				seen = append(seen, -1)
			}
		}
	}
	want := []float64{4, 3, 2, 1, 0}
	if jsonString(seen[:min(len(seen), n)]) != jsonString(want) {
		t.Errorf("pages of 2 gave entries %v (index in details, -1 = foreign), want %v", seen, want)
	}

	t.Run("default limit is 20", func(t *testing.T) {
		strictCase(t)
		list := listAudit(t, edgeclient.ListAuditEntriesParams{})
		if want := min(20, list.TotalCount); len(list.Audit) != want {
			t.Errorf("no limit: %d entries, want %d (totalCount %d)", len(list.Audit), want, list.TotalCount)
		}
	})
	t.Run("skip past the end", func(t *testing.T) {
		strictCase(t)
		list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: &source, Skip: ptr(total + 10)})
		if len(list.Audit) != 0 {
			t.Errorf("skip beyond totalCount returned %d entries", len(list.Audit))
		}
		if list.Audit == nil {
			t.Errorf("audit is null, want []")
		}
		if list.TotalCount != total {
			t.Errorf("totalCount = %d, want %d regardless of skip", list.TotalCount, total)
		}
	})
	t.Run("limit 10000 is allowed", func(t *testing.T) {
		strictCase(t)
		list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: &source, Limit: ptr(10000)})
		if len(list.Audit) != min(total, 10000) {
			t.Errorf("limit=10000 returned %d entries, want %d", len(list.Audit), min(total, 10000))
		}
	})
}

// TestAuditCreateErrors posts invalid entries: each is 400 and none is stored.
func testAuditCreateErrors(t *testing.T) {
	marker := unique("conf-bad")
	m := `{"marker":"` + marker + `"}`
	cases := []struct {
		name  string
		body  string
		ctype string
		want  int
		names string // the message must mention this ("" = not checked)
	}{
		{name: "unknown source", body: `{"source":"XXXXX","severity":"INFORMATION","details":` + m + `}`, want: 400, names: "source"},
		{name: "lower-case source", body: `{"source":"loggn","severity":"INFORMATION","details":` + m + `}`, want: 400, names: "source"},
		{name: "source not a string", body: `{"source":5,"severity":"INFORMATION","details":` + m + `}`, want: 400, names: "source"},
		{name: "missing source", body: `{"severity":"INFORMATION","details":` + m + `}`, want: 400, names: "source"},
		{name: "unknown severity", body: `{"source":"LOGGN","severity":"CRITICAL","details":` + m + `}`, want: 400, names: "severity"},
		{name: "empty severity", body: `{"source":"LOGGN","severity":"","details":` + m + `}`, want: 400, names: "severity"},
		{name: "missing severity", body: `{"source":"LOGGN","details":` + m + `}`, want: 400, names: "severity"},
		{name: "missing details", body: `{"source":"LOGGN","severity":"INFORMATION"}`, want: 400, names: "details"},
		{name: "details null", body: `{"source":"LOGGN","severity":"INFORMATION","details":null}`, want: 400, names: "details"},
		{name: "details a string", body: `{"source":"LOGGN","severity":"INFORMATION","details":"` + marker + `"}`, want: 400, names: "details"},
		{name: "details an array", body: `{"source":"LOGGN","severity":"INFORMATION","details":["` + marker + `"]}`, want: 400, names: "details"},
		{name: "details a number", body: `{"source":"LOGGN","severity":"INFORMATION","details":42}`, want: 400, names: "details"},
		{name: "unknown field", body: `{"source":"LOGGN","severity":"INFORMATION","details":` + m + `,"timestamp":"2024-01-01 00:00:00.000"}`, want: 400, names: "timestamp"},
		{name: "malformed JSON", body: `{"source":"LOGGN","severity":"INFORMATION","details":` + m, want: 400},
		{name: "body not an object", body: `["LOGGN","INFORMATION"]`, want: 400},
		{name: "empty body", body: ``, want: 400},
		{name: "unsupported content type", body: `{"source":"LOGGN","severity":"INFORMATION","details":` + m + `}`, ctype: "application/xml", want: 415},
		{name: "plain text, not JSON", body: `source=LOGGN`, ctype: "text/plain", want: 400},
	}
	before := auditCount(t, edgeclient.LOGGN)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctype := tc.ctype
			if ctype == "" {
				ctype = "application/json"
			}
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/audit", body: strings.NewReader(tc.body), ctype: ctype})
			msg := checkError(t, r.status, r.body, tc.want)
			if tc.names != "" && !strings.Contains(msg, tc.names) {
				t.Errorf("message %q does not name %q", msg, tc.names)
			}
		})
	}
	if after := auditCount(t, edgeclient.LOGGN); after != before {
		t.Errorf("LOGGN totalCount went from %d to %d although every create was refused", before, after)
	}
	for _, e := range listAudit(t, edgeclient.ListAuditEntriesParams{Limit: ptr(200)}).Audit {
		if strings.Contains(jsonString(e.Details), marker) {
			t.Errorf("a refused entry was stored: %s", jsonString(e))
		}
	}
}

// TestAuditListErrors sends invalid query parameters: each is 400 with a
// message naming the parameter.
func testAuditListErrors(t *testing.T) {
	cases := []struct {
		name  string
		query string
		param string
	}{
		{name: "limit zero", query: "limit=0", param: "limit"},
		{name: "limit negative", query: "limit=-5", param: "limit"},
		{name: "limit above 10000", query: "limit=10001", param: "limit"},
		{name: "limit not a number", query: "limit=abc", param: "limit"},
		{name: "limit fractional", query: "limit=1.5", param: "limit"},
		{name: "skip negative", query: "skip=-1", param: "skip"},
		{name: "skip not a number", query: "skip=ten", param: "skip"},
		{name: "unknown source", query: "source=XXXXX", param: "source"},
		{name: "unknown severity", query: "severity=CRITICAL", param: "severity"},
		{name: "unknown lower-case severity", query: "severity=bogus", param: "severity"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/audit?" + tc.query})
			msg := checkError(t, r.status, r.body, http.StatusBadRequest)
			if !strings.Contains(msg, tc.param) {
				t.Errorf("message %q does not name the parameter %q", msg, tc.param)
			}
		})
	}
	t.Run("SDK unknown severity filter", func(t *testing.T) {
		resp, err := api(t).ListAuditEntriesWithResponse(t.Context(), &edgeclient.ListAuditEntriesParams{Severity: ptr("loud")})
		must(t, err)
		checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
		if resp.JSON400 == nil {
			t.Errorf("SDK did not decode the 400 body")
		}
	})
	t.Run("SDK limit above maximum", func(t *testing.T) {
		resp, err := api(t).ListAuditEntriesWithResponse(t.Context(), &edgeclient.ListAuditEntriesParams{Limit: ptr(10001)})
		must(t, err)
		msg := checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
		if !strings.Contains(msg, "limit") {
			t.Errorf("message %q does not name limit", msg)
		}
	})
	// The boundaries are accepted.
	for _, q := range []string{"limit=1", "limit=10000", "skip=0", "limit=1&skip=" + strconv.Itoa(1<<20)} {
		t.Run("accepted "+q, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/audit?" + q})
			if r.status != http.StatusOK {
				t.Errorf("GET /edge/audit?%s: status %d, want 200; body: %s", q, r.status, truncate(r.body))
			}
		})
	}
}

// TestAuditCodesAndSeverities reads the lists of source codes and
// severities: every code the contract names, with a meaning; the four
// severities with their indexes.
func testAuditCodesAndSeverities(t *testing.T) {
	codes, err := api(t).ListAuditLogCodesWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listAuditLogCodes", codes.StatusCode(), codes.Body, http.StatusOK)
	seen := map[edgeclient.AuditSource]bool{}
	for _, c := range codes.JSON200.LogCode {
		if seen[c.Code] {
			t.Errorf("code %s listed twice", c.Code)
		}
		seen[c.Code] = true
		if strings.TrimSpace(c.Description) == "" {
			t.Errorf("code %s has no description", c.Code)
		}
	}
	for _, c := range []edgeclient.AuditSource{edgeclient.PURGE, edgeclient.CONCH, edgeclient.CONAD, edgeclient.START, edgeclient.FSTOP, edgeclient.ESSTP, edgeclient.LOGFL} {
		if !seen[c] {
			t.Errorf("code %s is not listed", c)
		}
	}
	if codes.JSON200.LogCode[0].Code != edgeclient.PURGE {
		t.Errorf("first code %s, want PURGE (the specification's order)", codes.JSON200.LogCode[0].Code)
	}

	sev, err := api(t).ListAuditSeveritiesWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listAuditSeverities", sev.StatusCode(), sev.Body, http.StatusOK)
	want := []edgeclient.AuditSeverityLevel{{Index: 0, Name: edgeclient.SUCCESS}, {Index: 1, Name: edgeclient.FAILURE},
		{Index: 2, Name: edgeclient.WARNING}, {Index: 4, Name: edgeclient.INFORMATION}}
	if !jsonEqual(t, sev.JSON200.LogSeverity, want) {
		t.Errorf("severities %s, want %s", jsonString(sev.JSON200.LogSeverity), jsonString(want))
	}
}
