package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// TestPingFields checks that ping answers every required field of the Ping
// schema with its JSON type, and sensible values.
func testPingFields(t *testing.T) {
	resp, err := api(t).PingWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "ping", resp.StatusCode(), resp.Body, http.StatusOK)

	var raw map[string]any
	if err := json.Unmarshal(resp.Body, &raw); err != nil {
		t.Fatalf("ping body is not a JSON object: %v; body: %s", err, truncate(resp.Body))
	}
	isBool := func(v any) bool { _, ok := v.(bool); return ok }
	isString := func(v any) bool { _, ok := v.(string); return ok }
	isNumber := func(v any) bool { f, ok := v.(float64); return ok && f >= 0 }
	isCount := func(v any) bool { f, ok := v.(float64); return ok && f >= 0 && f == math.Trunc(f) }
	isStrings := func(v any) bool {
		a, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range a {
			if !isString(e) {
				return false
			}
		}
		return true
	}
	fields := []struct {
		name   string
		want   string
		valid  func(any) bool
		strict bool // beyond the specification's "a value seen", "appears in some responses"
	}{
		{name: "uptime", want: "number ≥ 0", valid: isNumber},
		{name: "dataRead", want: "integer ≥ 0", valid: isCount},
		{name: "dataSent", want: "integer ≥ 0", valid: isCount},
		{name: "dataPurged", want: "integer ≥ 0", valid: isCount},
		{name: "authenticationOptional", want: "boolean", valid: isBool},
		{name: "serviceName", want: "string", valid: isString},
		{name: "hostName", want: "string", valid: isString},
		{name: "ipAddresses", want: "array of strings", valid: isStrings},
		{name: "health", want: "green, amber or red", valid: func(v any) bool { return slices.Contains([]any{"green", "amber", "red"}, v) }, strict: true},
		{name: "safeMode", want: "boolean", valid: isBool},
		{name: "version", want: "non-empty string", valid: func(v any) bool { s, ok := v.(string); return ok && s != "" }, strict: true},
	}
	for _, f := range fields {
		t.Run(f.name, func(t *testing.T) {
			if f.strict {
				strictCase(t)
			}
			v, ok := raw[f.name]
			if !ok {
				t.Fatalf("ping has no field %q; body: %s", f.name, resp.Body)
			}
			if !f.valid(v) {
				t.Errorf("ping %s = %s, want %s", f.name, jsonString(v), f.want)
			}
		})
	}

	p := resp.JSON200
	if p == nil {
		t.Fatalf("ping: SDK did not decode the body: %s", resp.Body)
	}
	if p.Uptime <= 0 {
		t.Errorf("uptime = %v, want > 0", p.Uptime)
	}
	if ownGateway && !p.SafeMode {
		// A gateway the suite started is in its default state.
		if p.Health != edgeclient.Green && p.Health != "green" {
			t.Errorf("health = %q, want green", p.Health)
		}
		if p.SafeMode {
			t.Errorf("safeMode = true, want false (not started with --safe-mode)")
		}
	}
	auth := getItem(t, "rest_api", "authentication")
	if want := auth.Value == "optional"; p.AuthenticationOptional != want {
		t.Errorf("authenticationOptional = %v, but rest_api.authentication is %q", p.AuthenticationOptional, auth.Value)
	}
	strictCheck(t, "serviceName is service.name", func(t *testing.T) {
		name := getItem(t, "service", "name")
		if p.ServiceName != name.Value {
			t.Errorf("serviceName = %q, but service.name is %q", p.ServiceName, name.Value)
		}
	})
}

// TestPingServiceName checks that ping's serviceName follows the config item
// service/name through a change and a reset.
func testPingServiceName(t *testing.T) {
	orig := getItem(t, "service", "name")
	if ownGateway && orig.Value != "Edge Gateway" {
		t.Errorf("service.name = %q on a fresh gateway, want the default %q", orig.Value, "Edge Gateway")
	}
	t.Cleanup(func() {
		// Put back whatever was there, so that a gateway shared with other
		// users is left as found.
		restoreItem(t, "service", "name", orig.Value)
	})

	ping := func() string {
		t.Helper()
		resp, err := api(t).PingWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "ping", resp.StatusCode(), resp.Body, http.StatusOK)
		return resp.JSON200.ServiceName
	}

	name := unique("conf-gateway")
	if got := setItem(t, "service", "name", name); got.Value != name {
		t.Errorf("setCategoryItem service/name answered value %q, want %q", got.Value, name)
	}
	if got := ping(); got != name {
		t.Errorf("after setting service/name to %q, ping serviceName = %q", name, got)
	}

	reset := resetItem(t, "service", "name")
	want := ""
	if reset.Default != nil {
		want = *reset.Default
	}
	if ownGateway && want != "Edge Gateway" {
		t.Errorf("service/name default = %q, want %q", want, "Edge Gateway")
	}
	if reset.Value != want {
		t.Errorf("after reset service/name = %q, want its default %q", reset.Value, want)
	}
	if got := ping(); got != want {
		t.Errorf("after resetting service/name, ping serviceName = %q, want %q", got, want)
	}
}

// TestPingServiceDescription changes service.description and finds it in
// ping, then resets it.
func testPingServiceDescription(t *testing.T) {
	orig := getItem(t, "service", "description")
	t.Cleanup(func() { restoreItem(t, "service", "description", orig.Value) })
	ping := func() string {
		t.Helper()
		resp, err := api(t).PingWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "ping", resp.StatusCode(), resp.Body, http.StatusOK)
		return resp.JSON200.ServiceDescription
	}
	if got := ping(); got != orig.Value {
		t.Errorf("ping serviceDescription = %q, want service.description %q", got, orig.Value)
	}
	text := unique("Packaging line 4")
	setItem(t, "service", "description", text)
	if got := ping(); got != text {
		t.Errorf("after setting service.description to %q, ping serviceDescription = %q", text, got)
	}
	reset := resetItem(t, "service", "description")
	if got := ping(); got != reset.Value {
		t.Errorf("after resetting service.description, ping serviceDescription = %q, want %q", got, reset.Value)
	}
}

// ---- shutdown, restart and safe mode, on gateways the tests start ----

// ownGatewayAt starts a gateway of its own on a fresh SQLite data
// directory for the test and returns it with the directory; it is stopped
// with SIGTERM at the end unless the test marks it exited.
func ownGatewayAt(t *testing.T) (*gateway, string, *bool) {
	t.Helper()
	return ownGatewayOn(t, "")
}

// ownGatewayOn is ownGatewayAt on the database dbURL ("" SQLite in the
// data directory).
func ownGatewayOn(t *testing.T, dbURL string) (*gateway, string, *bool) {
	t.Helper()
	if !ownGateway {
		t.Skip("needs a gateway binary the suite built itself; testing an external gateway (-url / EDGE_URL)")
	}
	dir := filepath.Join(t.TempDir(), "data")
	gw, err := startGateway(gatewayBinary, dir, dbURL)
	if err != nil {
		t.Fatalf("start a gateway: %v", err)
	}
	exited := new(bool)
	t.Cleanup(func() {
		if !*exited {
			if err := gw.stop(); err != nil {
				gw.dumpLog()
				t.Errorf("stop the gateway: %v", err)
			}
		}
	})
	return gw, dir, exited
}

// sourceCount returns the number of audit entries of source at url, or
// false while the gateway does not answer (it is restarting).
func sourceCount(url string, source edgeclient.AuditSource) (int, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/edge/audit?limit=1&source="+string(source), nil)
	if err != nil {
		return 0, false
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, false
	}
	defer func() { _ = resp.Body.Close() }()
	var list edgeclient.AuditList
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&list) != nil {
		return 0, false
	}
	return list.TotalCount, true
}

// lifecycleSources returns the START and FSTOP entries at c, newest first.
func lifecycleSources(t testing.TB, c *edgeclient.ClientWithResponses) []edgeclient.AuditSource {
	t.Helper()
	resp, err := c.ListAuditEntriesWithResponse(t.Context(), &edgeclient.ListAuditEntriesParams{Limit: ptr(10000)})
	must(t, err)
	wantStatus(t, "listAuditEntries", resp.StatusCode(), resp.Body, http.StatusOK)
	var out []edgeclient.AuditSource
	for _, e := range resp.JSON200.Audit {
		if e.Source == edgeclient.START || e.Source == edgeclient.FSTOP {
			out = append(out, e.Source)
		}
	}
	return out
}

// TestRestartOperation restarts a gateway through the API: it answers
// first, comes back in the same process with its uptime from zero, its
// data kept and its south service running again.
func testRestartOperation(t *testing.T) {
	gw, _, _ := ownGatewayAt(t)
	// Shutdown and restart need a token in every mode.
	c := apiAsAt(t, gw.url, loginAt(t, gw.url, "admin", adminPassword).Token)
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	name := unique("conf-restart")
	createSouth(t, c, southDef{name: name, plugin: "http_south", enabled: true, config: map[string]string{"port": strconv.Itoa(port)}})
	host, asset := gatewayHost(t, gw.url), unique("conf-restart")
	if status, body, err := postIngest(t.Context(), host, port, "sensor-reading", readingsBody(asset, 6, time.Now())); err != nil || status != http.StatusOK {
		t.Fatalf("ingest before the restart: %d %s %v", status, body, err)
	}
	starts, ok := sourceCount(gw.url, edgeclient.START)
	if !ok {
		t.Fatal("audit not readable")
	}

	asked := time.Now()
	resp, err := c.RestartWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "restart", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil || resp.JSON200.Message == "" {
		t.Errorf("restart answered %s, want {\"message\": ...}", resp.Body)
	}
	eventually(t, 30*time.Second, "the restart (a new START entry)", func() bool {
		n, ok := sourceCount(gw.url, edgeclient.START)
		return ok && n == starts+1
	})
	select {
	case err := <-gw.done:
		t.Fatalf("the gateway process exited on restart: %v", err)
	default:
	}

	t.Run("uptime from zero", func(t *testing.T) {
		p, err := c.PingWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "ping", p.StatusCode(), p.Body, http.StatusOK)
		if up, since := float64(p.JSON200.Uptime), time.Since(asked).Seconds(); up <= 0 || up > since {
			t.Errorf("uptime = %v s after the restart, want > 0 and ≤ %.2f s (the time since it was asked for)", up, since)
		}
	})
	t.Run("audit FSTOP then START", func(t *testing.T) {
		got := lifecycleSources(t, c)
		want := []edgeclient.AuditSource{edgeclient.START, edgeclient.FSTOP, edgeclient.START}
		if jsonString(got) != jsonString(want) {
			t.Errorf("START/FSTOP entries newest first = %v, want %v", got, want)
		}
	})
	t.Run("data kept", func(t *testing.T) {
		counts, ok := assetCounts(t, c)
		if ok && counts[asset] != 6 {
			t.Errorf("%s holds %d readings after the restart, want 6", asset, counts[asset])
		}
	})
	t.Run("service running again", func(t *testing.T) {
		eventually(t, 15*time.Second, "the south service running after the restart", func() bool {
			r := southRecord(t, c, name)
			return r != nil && southStatus(t, r) == string(edgeclient.ServiceStatusRunning)
		})
		// Running is the service's state; its listener may bind a moment
		// later, so a refused connection is tried again.
		var status int
		var body []byte
		var err error
		eventually(t, 15*time.Second, "ingest accepted after the restart", func() bool {
			status, body, err = postIngest(t.Context(), host, port, "sensor-reading", readingsBody(asset, 1, time.Now()))
			return !errors.Is(err, syscall.ECONNREFUSED)
		})
		if err != nil || status != http.StatusOK {
			t.Errorf("ingest after the restart: %d %s %v", status, body, err)
		}
	})
}

// TestShutdownOperation shuts a gateway down through the API: it answers,
// the process exits with status 0, and a new start on the same data finds
// FSTOP in the audit trail and the data written before.
func testShutdownOperation(t *testing.T) {
	gw, dir, exited := ownGatewayAt(t)
	// Shutdown and restart need a token in every mode.
	c := apiAsAt(t, gw.url, loginAt(t, gw.url, "admin", adminPassword).Token)
	marker := unique("conf-before-shutdown")
	cr, err := c.CreateAuditEntryWithResponse(t.Context(), edgeclient.AuditEntryCreate{Source: edgeclient.LOGGN,
		Severity: string(edgeclient.INFORMATION), Details: map[string]any{"marker": marker}})
	must(t, err)
	wantStatus(t, "createAuditEntry", cr.StatusCode(), cr.Body, http.StatusOK)

	resp, err := c.ShutdownWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "shutdown", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil || resp.JSON200.Message == "" {
		t.Errorf("shutdown answered %s, want {\"message\": ...}", resp.Body)
	}
	select {
	case err := <-gw.done:
		*exited = true
		if err != nil {
			gw.dumpLog()
			t.Fatalf("the gateway exited with %v, want status 0", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the gateway did not exit within 30 s of the shutdown")
	}

	gw2, err := startGateway(gatewayBinary, dir, "")
	if err != nil {
		t.Fatalf("start again on the same data: %v", err)
	}
	t.Cleanup(func() {
		if err := gw2.stop(); err != nil {
			t.Errorf("stop the second gateway: %v", err)
		}
	})
	c2 := apiAt(t, gw2.url)
	if got, want := lifecycleSources(t, c2), []edgeclient.AuditSource{edgeclient.START, edgeclient.FSTOP, edgeclient.START}; jsonString(got) != jsonString(want) {
		t.Errorf("START/FSTOP entries newest first = %v, want %v", got, want)
	}
	found := false
	for _, e := range listAuditAt(t, c2, edgeclient.LOGGN) {
		found = found || e.Details["marker"] == marker
	}
	if !found {
		t.Errorf("the audit entry written before the shutdown is gone")
	}
}

// listAuditAt lists the audit entries of source at c.
func listAuditAt(t testing.TB, c *edgeclient.ClientWithResponses, source edgeclient.AuditSource) []edgeclient.AuditEntry {
	t.Helper()
	resp, err := c.ListAuditEntriesWithResponse(t.Context(), &edgeclient.ListAuditEntriesParams{Source: &source, Limit: ptr(10000)})
	must(t, err)
	wantStatus(t, "listAuditEntries", resp.StatusCode(), resp.Body, http.StatusOK)
	return resp.JSON200.Audit
}

// TestSafeMode starts a gateway with --safe-mode (EDGE_SAFE_MODE): ping
// says so, its schedules exist but no task runs, also with the stats
// collection interval at one second, and a restart keeps it in safe mode.
func testSafeMode(t *testing.T) {
	t.Setenv("EDGE_SAFE_MODE", "true")
	gw, _, _ := ownGatewayAt(t)
	// Shutdown and restart need a token in every mode.
	c := apiAsAt(t, gw.url, loginAt(t, gw.url, "admin", adminPassword).Token)
	safe := func(t *testing.T) {
		t.Helper()
		p, err := c.PingWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "ping", p.StatusCode(), p.Body, http.StatusOK)
		if !p.JSON200.SafeMode {
			t.Errorf("ping safeMode = false on a gateway started with --safe-mode")
		}
	}
	safe(t)

	sr, err := c.ListSchedulesWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listSchedules", sr.StatusCode(), sr.Body, http.StatusOK)
	var names []string
	for _, s := range sr.JSON200.Schedules {
		names = append(names, s.Name)
	}
	for _, want := range []string{"purge", "purge system", "stats collection"} {
		if !slices.Contains(names, want) {
			t.Errorf("schedules = %v, want %q among them", names, want)
		}
	}

	r, err := c.SetCategoryItemWithResponse(t.Context(), "STATISTICS", "interval", edgeclient.SetCategoryItemJSONRequestBody{Value: "1"})
	must(t, err)
	wantStatus(t, "set STATISTICS.interval", r.StatusCode(), r.Body, http.StatusOK)
	// Three intervals: a running scheduler would have started tasks.
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
		if got := listTasks(t, c, edgeclient.ListTasksParams{}); len(got) != 0 {
			t.Fatalf("a task ran in safe mode: %s", jsonString(got))
		}
	}

	resp, err := c.RestartWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "restart", resp.StatusCode(), resp.Body, http.StatusOK)
	eventually(t, 30*time.Second, "the restart (a second START entry)", func() bool {
		n, ok := sourceCount(gw.url, edgeclient.START)
		return ok && n == 2
	})
	t.Run("still in safe mode after a restart", safe)
}
