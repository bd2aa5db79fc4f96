package conformance

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// logTimestamp is the form of a log line's timestamp: UTC, milliseconds.
var logTimestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$`)

// listLogs calls GET /edge/syslog with params and fails the test unless it
// answers 200.
func listLogs(t testing.TB, c *edgeclient.ClientWithResponses, params edgeclient.ListLogEntriesParams) *edgeclient.LogList {
	t.Helper()
	resp, err := c.ListLogEntriesWithResponse(context.Background(), &params)
	must(t, err)
	wantStatus(t, "listLogEntries", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listLogEntries: no JSON body: %s", truncate(resp.Body))
	}
	return resp.JSON200
}

// TestLogsServiceWarning: a north service whose destination is down logs a
// warning; the logs call filtered by that service and by level warning
// finds it, with the service as source, and the filters keep other lines
// out: another source, a higher level, a window before it.
func testLogsServiceWarning(t *testing.T) {
	needsLocalGateway(t)
	start := time.Now().UTC().Add(-time.Minute)
	dest := newDestination(t)
	dest.set(func(d *destination) { d.down = true })
	c := apiAs(t, adminToken(t)) // the log is for admin and control only
	feed := httpSouth(t, c)
	asset, name := unique("conf-logs"), unique("conf-logs")
	createNorthWith(t, c, name, map[string]string{"url": dest.url(), "maxRetryInterval": "1"})
	status, b, err := postIngest(t.Context(), gatewayHost(t, baseURL), feed, "sensor-reading",
		flaggedBody(asset, 0, 3, func(int) bool { return false }))
	if err != nil || status != http.StatusOK {
		t.Fatalf("post readings: %d %s %v", status, b, err)
	}
	warning := edgeclient.LogLevelWarning
	filter := edgeclient.ListLogEntriesParams{Source: ptr(name), Level: &warning, Limit: ptr(100)}
	var found *edgeclient.LogEntry
	eventually(t, 30*time.Second, "the north service's warning in the logs call", func() bool {
		for _, e := range listLogs(t, c, filter).Logs {
			if strings.Contains(e.Message, "unreachable") {
				found = &e
				return true
			}
		}
		return false
	})
	if found.Source != name || found.Level != edgeclient.LogLevelWarning || !logTimestamp.MatchString(found.Timestamp) ||
		found.Attrs["url"] != dest.url() {
		t.Errorf("the warning = %+v; want source %s, level warning, a millisecond timestamp and the url among its attrs", *found, name)
	}
	all := listLogs(t, c, filter)
	if all.Count < len(all.Logs) || len(all.Logs) == 0 {
		t.Errorf("count %d for %d lines", all.Count, len(all.Logs))
	}
	for _, e := range all.Logs {
		if e.Source != name || (e.Level != edgeclient.LogLevelWarning && e.Level != edgeclient.LogLevelError) {
			t.Errorf("filtered by %s and warning, got %+v", name, e)
		}
	}

	since := start.Format("2006-01-02 15:04:05.000")
	other := listLogs(t, c, edgeclient.ListLogEntriesParams{Source: ptr(unique("no-such-service")), Since: &since})
	errorsOnly := listLogs(t, c, edgeclient.ListLogEntriesParams{Source: ptr(name), Level: ptr(edgeclient.LogLevelError), Limit: ptr(100)})
	before := listLogs(t, c, edgeclient.ListLogEntriesParams{Source: ptr(name), Until: &since})
	window := listLogs(t, c, edgeclient.ListLogEntriesParams{Source: ptr(name), Level: &warning, Since: &since, Limit: ptr(100)})
	if other.Count != 0 || len(other.Logs) != 0 {
		t.Errorf("another source's lines: %+v", other)
	}
	for _, e := range errorsOnly.Logs {
		if e.Level != edgeclient.LogLevelError {
			t.Errorf("level error gave %+v", e)
		}
	}
	if before.Count != 0 {
		t.Errorf("lines of %s before the test started: %+v", name, before)
	}
	if window.Count != all.Count {
		t.Errorf("since the test started: %d lines, want the %d of the service", window.Count, all.Count)
	}
	// paging: skip 1, limit 1 is one line of the same set, not the newest
	if all.Count >= 2 {
		second := listLogs(t, c, edgeclient.ListLogEntriesParams{Source: ptr(name), Level: &warning, Skip: ptr(1), Limit: ptr(1)})
		if len(second.Logs) != 1 || second.Count < all.Count || second.Logs[0].Source != name {
			t.Errorf("skip 1 limit 1 = %+v; want one line of %s and a count of at least %d", second, name, all.Count)
		}
	}
}

// TestLogsErrors: invalid filters are 400 with a message naming them.
func testLogsErrors(t *testing.T) {
	c := apiAs(t, adminToken(t))
	tests := []struct {
		name   string
		params edgeclient.ListLogEntriesParams
	}{
		{"unknown level", edgeclient.ListLogEntriesParams{Level: ptr(edgeclient.LogLevel("loud"))}},
		{"limit 0", edgeclient.ListLogEntriesParams{Limit: ptr(0)}},
		{"limit 10001", edgeclient.ListLogEntriesParams{Limit: ptr(10001)}},
		{"negative skip", edgeclient.ListLogEntriesParams{Skip: ptr(-1)}},
		{"since not a time", edgeclient.ListLogEntriesParams{Since: ptr("yesterday")}},
		{"until not a time", edgeclient.ListLogEntriesParams{Until: ptr("2024-05-01 25:00:00")}},
		{"since after until", edgeclient.ListLogEntriesParams{Since: ptr("2024-05-02 00:00:00"), Until: ptr("2024-05-01 00:00:00")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := c.ListLogEntriesWithResponse(t.Context(), &tc.params)
			must(t, err)
			checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
		})
	}
}

// TestLogsRights: the admin and control roles read the log; user, view
// and data-view are 403, a caller without a token is 401 in either mode.
func testLogsRights(t *testing.T) {
	admin := adminToken(t)
	tests := []struct {
		name   string
		role   int // 0: no token
		status int
	}{
		{"admin", 1, http.StatusOK},
		{"user", 2, http.StatusForbidden},
		{"view", 3, http.StatusForbidden},
		{"data-view", 4, http.StatusForbidden},
		{"control", 5, http.StatusOK},
		{"anonymous", 0, http.StatusUnauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c *edgeclient.ClientWithResponses
			switch tc.role {
			case 0:
				c = apiAnonymous(t)
			case 1:
				c = apiAs(t, admin)
			default:
				u, password := newUser(t, admin, tc.role, "")
				c = apiAs(t, loginUser(t, u.UserName, password).Token)
			}
			resp, err := c.ListLogEntriesWithResponse(t.Context(), &edgeclient.ListLogEntriesParams{Limit: ptr(1)})
			must(t, err)
			if tc.status != http.StatusOK {
				checkError(t, resp.StatusCode(), resp.Body, tc.status)
				return
			}
			wantStatus(t, "listLogEntries as "+tc.name, resp.StatusCode(), resp.Body, http.StatusOK)
			if resp.JSON200 == nil || resp.JSON200.Count < 1 || len(resp.JSON200.Logs) != 1 {
				t.Errorf("answer %s; want one line of the gateway's log", truncate(resp.Body))
			}
		})
	}
}
