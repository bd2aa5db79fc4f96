package north

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/httpnorth"
	"github.com/edged/edged/internal/plugin/httpsouth"
)

// codeOf returns a code of n characters that compression barely shortens.
func codeOf(n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	r := rand.New(rand.NewPCG(7, 8))
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

// TestChainSetsAsideAReadingTheDestinationRefuses is a chain of two
// gateways, as in a scale-out: gateway A (SQLite) holds readings whose
// asset codes are longer than the gateway takes today, stored before
// ingest refused them; its http_north sends to gateway B's http_south (on
// each store). B refuses those readings (400), so A sets them aside after
// rejectAfter refusals and everything else reaches B, in order.
func TestChainSetsAsideAReadingTheDestinationRefuses(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, b *db.DB) {
		clk := clock.Real{}
		env := plugin.Env{Service: "in", Clock: clk}

		// Gateway B: http_south over an ingest buffer (its handler alone:
		// the plugin opens no port of its own here).
		south, err := httpsouth.Definition().New(env, plugin.Config{"port": "6683", "uri": "sensor-reading", "assetNamePrefix": ""})
		if err != nil {
			t.Fatal(err)
		}
		buf := ingest.New(ingest.Options{Service: "in", Plugin: httpsouth.Name, Store: b, Counters: ingest.NewCounters(b, nil),
			Tracker: ingest.NewTracker(b, func(context.Context) (string, error) { return "B", nil }, clk), Clock: clk,
			Limits: ingest.DefaultLimits})
		t.Cleanup(func() { _ = buf.Close(context.Background()) })
		srv := httptest.NewServer(south.(*httpsouth.HTTPSouth).Handler(buf))
		t.Cleanup(srv.Close)

		// Gateway A: readings stored before the limit, one of them with
		// a code of 300 characters, one of 2,800.
		a := dbtest.SQLite(t)
		long := []string{strings.Repeat("L", 300), codeOf(2800)}
		var rs []db.Reading
		for i := range 6 {
			code := "chain-ok"
			switch i {
			case 1:
				code = long[0]
			case 4:
				code = long[1]
			}
			rs = append(rs, db.Reading{AssetCode: code, Reading: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)),
				UserTS: time.Date(2024, 1, 1, 0, 0, i, 0, time.UTC)})
		}
		if err := a.InsertReadings(t.Context(), rs); err != nil {
			t.Fatal(err)
		}
		out, err := httpnorth.New(plugin.NorthEnv{Env: plugin.Env{Service: "up", Clock: clk}}, plugin.Config{
			httpnorth.ItemURL: srv.URL + "/sensor-reading", httpnorth.ItemBlockSize: "500", httpnorth.ItemTimeout: "10",
			httpnorth.ItemMaxRetryInterval: "1", httpnorth.ItemRejectAfter: "2"}, srv.Client())
		if err != nil {
			t.Fatal(err)
		}
		s := &Stream{Name: "up", Plugin: httpnorth.Name, Out: out, Store: a}

		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		for {
			read, _, err := s.Step(ctx)
			if err != nil {
				t.Fatalf("Step: %v (the chain is stuck)", err)
			}
			if read == 0 {
				break
			}
		}

		got, err := b.AssetReadings(t.Context(), "chain-ok", db.Window{})
		if err != nil {
			t.Fatal(err)
		}
		var is []int
		for _, r := range slices.Backward(got) {
			var v struct{ I int }
			if err := json.Unmarshal(r.Reading, &v); err != nil {
				t.Fatal(err)
			}
			is = append(is, v.I)
		}
		if !slices.Equal(is, []int{0, 2, 3, 5}) {
			t.Errorf("B holds readings %v of chain-ok, want 0, 2, 3, 5", is)
		}
		assets, err := b.ListAssets(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(assets) != 1 {
			t.Errorf("B holds the assets %d, want chain-ok alone", len(assets))
		}
		aside, total, err := a.ListSetAside(t.Context(), "up", 0, 0)
		if err != nil || total != 2 {
			t.Fatalf("A set aside %d readings (%v), want the 2 with long codes", total, err)
		}
		for i, e := range aside {
			if !slices.Contains(long, e.AssetCode) || !strings.Contains(e.Reason, "400") || !strings.Contains(e.Reason, "characters") {
				t.Errorf("set-aside entry %d = %.60q, reason %q; want a long code refused with 400 naming its length", i, e.AssetCode, e.Reason)
			}
		}
	})
}
