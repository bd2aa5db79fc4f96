package ingest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
)

// TestRefusedSubmissionSparesItsGroup writes a group of three submissions
// to a real database, the middle one holding a value PostgreSQL refuses
// (invalid UTF-8): only that one fails, with ErrRefused, and the others are
// stored and acknowledged.
func TestRefusedSubmissionSparesItsGroup(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		if d.Dialect() == db.SQLite {
			t.Skip("SQLite stores any text, so no value makes it refuse a reading; TestRefusedGroupIsRetriedOneByOne injects the refusal")
		}
		clk := clock.Real{}
		gate := make(chan struct{})
		counters := NewCounters(d, nil)
		buf := New(Options{Service: "svc", Plugin: "http_south", Store: &gatedStore{next: d, gate: gate},
			Counters: counters, Tracker: NewTracker(d, func(context.Context) (string, error) { return "edge", nil }, clk),
			Clock: clk, Limits: DefaultLimits})
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := buf.Close(ctx); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
		at := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
		one := func(asset, values string) []plugin.Reading {
			return []plugin.Reading{{Asset: asset, Timestamp: at, Values: []byte(values)}}
		}
		first := submit(t, buf, one("first", `{"v":0}`))
		// The first write waits at the gate: the next three queue and go
		// in one transaction.
		group := []plugin.Receipt{
			submit(t, buf, one("good", `{"v":1}`)),
			submit(t, buf, one("bad", "{\"v\":\"\xff\"}")),
			submit(t, buf, one("other", `{"v":2}`)),
		}
		close(gate)
		if err := first.Wait(t.Context()); err != nil {
			t.Fatal(err)
		}
		for i, r := range group {
			err := r.Wait(t.Context())
			if i == 1 {
				if !errors.Is(err, plugin.ErrRefused) {
					t.Errorf("the bad submission: %v, want ErrRefused", err)
				}
			} else if err != nil {
				t.Errorf("submission %d: %v, want it stored", i, err)
			}
		}
		assets, err := d.ListAssets(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range assets {
			got = append(got, a.AssetCode)
		}
		if len(got) != 3 || got[0] != "first" || got[1] != "good" || got[2] != "other" {
			t.Errorf("stored assets %v, want first, good, other", got)
		}
	})
}
