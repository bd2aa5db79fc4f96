package conformance

import (
	"net/http"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// TestRestartPersistence runs a second gateway on its own SQLite store,
// changes configuration, stops it with SIGTERM, starts it again on the same
// data directory and checks that the configuration persisted and the audit
// trail holds START, FSTOP, START in that order.
func testRestartPersistence(t *testing.T) {
	needOwnGateway(t, "a binary it built, to run a second gateway")
	dataDir := filepath.Join(t.TempDir(), "data")

	gw, err := startGateway(gatewayBinary, dataDir, "")
	if err != nil {
		t.Fatalf("start the first run: %v", err)
	}
	running := gw
	t.Cleanup(func() {
		if running != nil {
			if err := running.stop(); err != nil {
				t.Errorf("stop the gateway: %v", err)
			}
		}
	})
	stop := func(t *testing.T) {
		t.Helper()
		g := running
		running = nil
		if err := g.stop(); err != nil {
			g.dumpLog()
			t.Fatalf("SIGTERM did not end the gateway cleanly: %v", err)
		}
	}

	c := apiAt(t, gw.url)
	key := unique("conf-persist")
	name := unique("conf-instance")

	resp, err := c.CreateCategoryWithResponse(t.Context(), edgeclient.CategoryCreate{Key: key, Description: ptr("persistence"),
		Items: &map[string]edgeclient.ConfigItemDefinition{"interval": def(edgeclient.Integer, "10")}})
	must(t, err)
	wantStatus(t, "createCategory", resp.StatusCode(), resp.Body, http.StatusOK)
	for _, set := range []struct{ key, item, value string }{
		{key: key, item: "interval", value: "42"},
		{key: "service", item: "name", value: name},
	} {
		r, err := c.SetCategoryItemWithResponse(t.Context(), set.key, set.item, edgeclient.SetCategoryItemJSONRequestBody{Value: set.value})
		must(t, err)
		wantStatus(t, "setCategoryItem "+set.key+"/"+set.item, r.StatusCode(), r.Body, http.StatusOK)
	}
	stop(t)

	restarted := time.Now()
	gw2, err := startGateway(gatewayBinary, dataDir, "")
	if err != nil {
		t.Fatalf("start the second run on the same data directory: %v", err)
	}
	running = gw2
	c = apiAt(t, gw2.url)

	t.Run("configuration persisted", func(t *testing.T) {
		r, err := c.GetCategoryItemWithResponse(t.Context(), key, "interval")
		must(t, err)
		wantStatus(t, "getCategoryItem", r.StatusCode(), r.Body, http.StatusOK)
		if r.JSON200.Value != "42" {
			t.Errorf("%s/interval = %q after restart, want 42", key, r.JSON200.Value)
		}
		p, err := c.PingWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "ping", p.StatusCode(), p.Body, http.StatusOK)
		if p.JSON200.ServiceName != name {
			t.Errorf("ping serviceName = %q after restart, want %q", p.JSON200.ServiceName, name)
		}
	})

	t.Run("category created once", func(t *testing.T) {
		source := edgeclient.CONAD
		r, err := c.ListAuditEntriesWithResponse(t.Context(), &edgeclient.ListAuditEntriesParams{Source: &source, Limit: ptr(10000)})
		must(t, err)
		wantStatus(t, "listAuditEntries", r.StatusCode(), r.Body, http.StatusOK)
		seen := map[string]int{}
		for _, e := range r.JSON200.Audit {
			for _, s := range stringValues(e.Details) {
				seen[s]++
			}
		}
		if seen[key] != 1 {
			t.Errorf("%d CONAD entries name %q, want 1", seen[key], key)
		}
		if seen["rest_api"] != 1 {
			t.Errorf("%d CONAD entries name rest_api after a restart, want 1 (seeding happens once)", seen["rest_api"])
		}
	})

	t.Run("audit trail START FSTOP START", func(t *testing.T) {
		r, err := c.ListAuditEntriesWithResponse(t.Context(), &edgeclient.ListAuditEntriesParams{Limit: ptr(10000)})
		must(t, err)
		wantStatus(t, "listAuditEntries", r.StatusCode(), r.Body, http.StatusOK)
		var seq []edgeclient.AuditEntry // newest first
		var at []int                    // their positions in the list
		for i, e := range r.JSON200.Audit {
			if e.Source == edgeclient.START || e.Source == edgeclient.FSTOP {
				seq = append(seq, e)
				at = append(at, i)
			}
		}
		var sources []edgeclient.AuditSource
		for _, e := range seq {
			sources = append(sources, e.Source)
		}
		want := []edgeclient.AuditSource{edgeclient.START, edgeclient.FSTOP, edgeclient.START}
		if jsonString(sources) != jsonString(want) {
			t.Fatalf("START/FSTOP entries newest first = %v, want %v", sources, want)
		}
		if seq[2].Timestamp.After(seq[1].Timestamp.Time) || seq[1].Timestamp.After(seq[0].Timestamp.Time) {
			t.Errorf("timestamps out of order: START %s, FSTOP %s, START %s", seq[2].Timestamp, seq[1].Timestamp, seq[0].Timestamp)
		}
		// The change made in the first run lies between its START and FSTOP.
		conch := slices.IndexFunc(r.JSON200.Audit, func(e edgeclient.AuditEntry) bool {
			return e.Source == edgeclient.CONCH && e.Details["category"] == key
		})
		if conch < 0 {
			t.Errorf("no CONCH entry for %s after restart", key)
		} else if conch <= at[1] || conch >= at[2] {
			t.Errorf("the CONCH entry for %s is at position %d, want between FSTOP (%d) and the first START (%d)", key, conch, at[1], at[2])
		}
	})

	t.Run("uptime restarted", func(t *testing.T) {
		p, err := c.PingWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "ping", p.StatusCode(), p.Body, http.StatusOK)
		since := time.Since(restarted).Seconds()
		if up := float64(p.JSON200.Uptime); up <= 0 || up > since+1 {
			t.Errorf("uptime = %v s, want > 0 and ≤ %.1f s (the time since the second start)", up, since)
		}
	})

	t.Run("second stop is clean too", func(t *testing.T) {
		stop(t)
	})
}
