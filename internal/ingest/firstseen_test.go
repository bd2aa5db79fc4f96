package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
)

// trackCounting is a *db.DB counting the transactions the tracker and the
// writer make.
type trackCounting struct {
	*db.DB
	tracks, inserts atomic.Int64
}

func (c *trackCounting) TrackAsset(ctx context.Context, e db.TrackingEvent) (db.TrackOutcome, error) {
	c.tracks.Add(1)
	return c.DB.TrackAsset(ctx, e)
}

func (c *trackCounting) InsertReadingsTracked(ctx context.Context, rs []db.Reading, track []db.TrackingEvent) (func(context.Context) error, error) {
	c.inserts.Add(1)
	return c.DB.InsertReadingsTracked(ctx, rs, track)
}

func (c *trackCounting) InsertReadingsDurable(ctx context.Context, rs []db.Reading, track []db.TrackingEvent) error {
	c.inserts.Add(1)
	return c.DB.InsertReadingsDurable(ctx, rs, track)
}

// TestFirstSightingsInTheBatch checks that a submission of readings of
// assets never seen records their tracking events in the readings' own
// transaction: one write for the batch, no transaction per asset, every
// event stored, and later sightings write nothing.
func TestFirstSightingsInTheBatch(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		store := &trackCounting{DB: d}
		clk := clock.Real{}
		buf := New(Options{Service: "svc", Plugin: "http_south", Store: store, Counters: NewCounters(d, nil),
			Tracker: NewTracker(store, func(context.Context) (string, error) { return "Line 4", nil }, clk),
			Clock:   clk, Limits: DefaultLimits})
		t.Cleanup(func() { _ = buf.Close(context.Background()) })
		submit := func(rs []plugin.Reading) {
			t.Helper()
			r, err := buf.Submit(rs)
			if err == nil {
				err = r.Wait(t.Context())
			}
			if err != nil {
				t.Fatalf("Submit: %v", err)
			}
		}
		rs := make([]plugin.Reading, 100)
		for k := range rs {
			rs[k] = plugin.Reading{Asset: fmt.Sprintf("a%03d", k), Timestamp: epoch, Values: json.RawMessage(`{"v": 1}`)}
		}
		submit(rs)
		if n := store.tracks.Load(); n != 0 {
			t.Errorf("TrackAsset called %d times for a batch of first sightings, want 0 (they go with the readings)", n)
		}
		if n := store.inserts.Load(); n != 1 {
			t.Errorf("writes = %d, want 1", n)
		}
		events, err := d.ListTrackingEvents(t.Context(), db.TrackingFilter{Service: "svc"})
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != 100 {
			t.Fatalf("tracking events = %d, want 100", len(events))
		}
		for _, e := range events {
			if e.Event != db.EventIngest || e.Plugin != "http_south" || e.Edge != "Line 4" {
				t.Errorf("event %+v, want Ingest by http_south on Line 4", e)
			}
		}
		submit(rs)
		if n := store.tracks.Load(); n != 0 {
			t.Errorf("TrackAsset called %d times for known assets, want 0", n)
		}
	})
}
