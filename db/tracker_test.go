package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestTrackAsset(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		first := time.Date(2024, 5, 1, 10, 15, 42, 123456000, time.UTC)
		ev := db.TrackingEvent{Asset: "bar/one", Event: db.EventIngest, Service: "http", Plugin: "http_south", Edge: "Line 4", TS: first}

		steps := []struct {
			name      string
			deprecate bool
			want      db.TrackOutcome
		}{
			{name: "first sighting creates", want: db.TrackCreated},
			{name: "second sighting is known", want: db.TrackKnown},
			{name: "sighting after deprecation clears it", deprecate: true, want: db.TrackUndeprecated},
			{name: "then known again", want: db.TrackKnown},
		}
		for i, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				if s.deprecate {
					if _, err := d.DeprecateTrackingEvent(ctx, ev.Service, ev.Asset, ev.Event); err != nil {
						t.Fatalf("DeprecateTrackingEvent: %v", err)
					}
				}
				sighting := ev
				if i > 0 { // later sightings carry another time and edge, which must not be stored
					sighting.TS, sighting.Edge = first.Add(time.Hour), "renamed"
				}
				got, err := d.TrackAsset(ctx, sighting)
				if err != nil {
					t.Fatalf("TrackAsset: %v", err)
				}
				if got != s.want {
					t.Errorf("TrackAsset = %v, want %v", got, s.want)
				}
				list, err := d.ListTrackingEvents(ctx, db.TrackingFilter{})
				if err != nil || len(list) != 1 {
					t.Fatalf("ListTrackingEvents = %+v, %v; want 1 event", list, err)
				}
				e := list[0]
				if !e.DeprecatedTS.IsZero() {
					t.Errorf("event still deprecated: %+v", e)
				}
				if e.Edge != "Line 4" || !e.TS.Equal(first) || e.Plugin != "http_south" || e.Asset != "bar/one" {
					t.Errorf("event = %+v, want the first sighting's edge and time", e)
				}
			})
		}

		if _, err := d.TrackAsset(ctx, db.TrackingEvent{Asset: "x", Event: "Sent", Service: "s", Plugin: "p"}); err == nil {
			t.Error("TrackAsset with an unknown event kind succeeded")
		}
	})
}

func TestTrackAssetConcurrent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		var wg sync.WaitGroup
		results := make(chan db.TrackOutcome, 8)
		for range 8 {
			wg.Go(func() {
				out, err := d.TrackAsset(ctx, db.TrackingEvent{Asset: "a", Event: db.EventIngest, Service: "s", Plugin: "p"})
				if err != nil {
					t.Errorf("TrackAsset: %v", err)
				}
				results <- out
			})
		}
		wg.Wait()
		close(results)
		created := 0
		for r := range results {
			if r == db.TrackCreated {
				created++
			}
		}
		list, err := d.ListTrackingEvents(ctx, db.TrackingFilter{})
		if err != nil || len(list) != 1 {
			t.Errorf("ListTrackingEvents = %+v, %v; want exactly 1 event", list, err)
		}
		if created < 1 {
			t.Errorf("no call reported TrackCreated")
		}
	})
}

func TestListTrackingEvents(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
		events := []db.TrackingEvent{
			{Asset: "a", Event: db.EventIngest, Service: "s1", Plugin: "sinusoid"},
			{Asset: "b", Event: db.EventIngest, Service: "s1", Plugin: "sinusoid"},
			{Asset: "a", Event: db.EventEgress, Service: "n1", Plugin: "http_north"},
			{Asset: "a", Event: db.EventIngest, Service: "s2", Plugin: "http_south"},
		}
		for i, e := range events {
			e.TS = base.Add(time.Duration(i) * time.Second)
			if _, err := d.TrackAsset(ctx, e); err != nil {
				t.Fatalf("TrackAsset: %v", err)
			}
		}
		cases := []struct {
			name string
			f    db.TrackingFilter
			want []string // service/asset/event in first-tracked order
		}{
			{name: "all", want: []string{"s1/a/Ingest", "s1/b/Ingest", "n1/a/Egress", "s2/a/Ingest"}},
			{name: "asset", f: db.TrackingFilter{Asset: "a"}, want: []string{"s1/a/Ingest", "n1/a/Egress", "s2/a/Ingest"}},
			{name: "event", f: db.TrackingFilter{Event: db.EventIngest}, want: []string{"s1/a/Ingest", "s1/b/Ingest", "s2/a/Ingest"}},
			{name: "service", f: db.TrackingFilter{Service: "s1"}, want: []string{"s1/a/Ingest", "s1/b/Ingest"}},
			{name: "all three", f: db.TrackingFilter{Asset: "a", Event: db.EventIngest, Service: "s2"}, want: []string{"s2/a/Ingest"}},
			{name: "no match", f: db.TrackingFilter{Service: "nope"}, want: []string{}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				list, err := d.ListTrackingEvents(ctx, c.f)
				if err != nil {
					t.Fatalf("ListTrackingEvents: %v", err)
				}
				got := []string{}
				for _, e := range list {
					got = append(got, e.Service+"/"+e.Asset+"/"+e.Event)
				}
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Errorf("got %v, want %v", got, c.want)
				}
			})
		}
	})
}

func TestDeprecateTrackingEvent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if _, err := d.TrackAsset(ctx, db.TrackingEvent{Asset: "a", Event: db.EventIngest, Service: "s", Plugin: "p"}); err != nil {
			t.Fatalf("TrackAsset: %v", err)
		}
		cases := []struct {
			name                  string
			service, asset, event string
			want                  error
		}{
			{name: "unknown service", service: "x", asset: "a", event: db.EventIngest, want: db.ErrNotFound},
			{name: "unknown event kind for the asset", service: "s", asset: "a", event: db.EventEgress, want: db.ErrNotFound},
			{name: "deprecate", service: "s", asset: "a", event: db.EventIngest},
			{name: "already deprecated", service: "s", asset: "a", event: db.EventIngest, want: db.ErrConflict},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				at, err := d.DeprecateTrackingEvent(ctx, c.service, c.asset, c.event)
				if c.want != nil {
					if !errors.Is(err, c.want) {
						t.Errorf("DeprecateTrackingEvent = %v, want %v", err, c.want)
					}
					return
				}
				if err != nil {
					t.Fatalf("DeprecateTrackingEvent: %v", err)
				}
				list, err := d.ListTrackingEvents(ctx, db.TrackingFilter{Service: c.service})
				if err != nil || len(list) != 1 || !list[0].DeprecatedTS.Equal(at) {
					t.Errorf("after deprecation = %+v, %v; want deprecated at %v", list, err, at)
				}
			})
		}
	})
}

func TestPluginData(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		steps := []struct {
			name string
			run  func() error
			want error
			data string // expected stored data afterwards; "" means none
		}{
			{name: "get none", run: func() error { _, err := d.GetPluginData(ctx, "sine", "sine"); return err }, want: db.ErrNotFound},
			{name: "delete none", run: func() error { return d.DeletePluginData(ctx, "sine", "sine") }, want: db.ErrNotFound},
			{name: "insert", run: func() error { return d.InsertPluginData(ctx, "sine", "sine", json.RawMessage(`{"step": 1}`)) }, data: `{"step": 1}`},
			{name: "insert again conflicts", run: func() error { return d.InsertPluginData(ctx, "sine", "sine", json.RawMessage(`{"step": 2}`)) }, want: db.ErrConflict, data: `{"step": 1}`},
			{name: "save replaces", run: func() error { return d.SavePluginData(ctx, "sine", "sine", json.RawMessage(`[1, "two", null]`)) }, data: `[1, "two", null]`},
			{name: "save a scalar", run: func() error { return d.SavePluginData(ctx, "sine", "sine", json.RawMessage(`42`)) }, data: `42`},
			{name: "delete", run: func() error { return d.DeletePluginData(ctx, "sine", "sine") }},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				if err := s.run(); !errors.Is(err, s.want) || (s.want == nil && err != nil) {
					t.Fatalf("err = %v, want %v", err, s.want)
				}
				got, err := d.GetPluginData(ctx, "sine", "sine")
				if s.data == "" {
					if !errors.Is(err, db.ErrNotFound) {
						t.Errorf("GetPluginData = %s, %v; want ErrNotFound", got, err)
					}
					return
				}
				if err != nil || !jsonEqual(t, got, []byte(s.data)) {
					t.Errorf("GetPluginData = %s, %v; want %s", got, err, s.data)
				}
			})
		}
		// Data of another plugin instance of the same service is separate.
		if err := d.InsertPluginData(ctx, "sine", "filter1", json.RawMessage(`{}`)); err != nil {
			t.Errorf("InsertPluginData of another instance: %v", err)
		}
	})
}

// insertTracked is one of the two ways the writer stores a batch with its
// first sightings.
type insertTracked func(ctx context.Context, d *db.DB, rs []db.Reading, track []db.TrackingEvent) error

var insertsTracked = []struct {
	name   string
	insert insertTracked
}{
	{name: "deferred", insert: func(ctx context.Context, d *db.DB, rs []db.Reading, track []db.TrackingEvent) error {
		wait, err := d.InsertReadingsTracked(ctx, rs, track)
		if err == nil && wait != nil {
			err = wait(ctx)
		}
		return err
	}},
	{name: "durable", insert: func(ctx context.Context, d *db.DB, rs []db.Reading, track []db.TrackingEvent) error {
		return d.InsertReadingsDurable(ctx, rs, track)
	}},
}

// TestInsertReadingsTracked checks that first sightings recorded with a
// batch of readings, by InsertReadingsTracked and by InsertReadingsDurable,
// behave as TrackAsset one by one (new stored, deprecated cleared with its
// first time and edge kept, live left alone), commit with the readings,
// and are not stored when the readings are not.
func TestInsertReadingsTracked(t *testing.T) {
	for _, v := range insertsTracked {
		t.Run(v.name, func(t *testing.T) { testInsertReadingsTracked(t, v.insert) })
	}
}

func testInsertReadingsTracked(t *testing.T, insert insertTracked) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		first := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
		ev := func(asset string, ts time.Time, edge string) db.TrackingEvent {
			return db.TrackingEvent{Asset: asset, Event: db.EventIngest, Service: "s", Plugin: "p", Edge: edge, TS: ts}
		}
		if _, err := d.TrackAsset(ctx, ev("live", first, "old")); err != nil {
			t.Fatal(err)
		}
		if _, err := d.TrackAsset(ctx, ev("gone", first, "old")); err != nil {
			t.Fatal(err)
		}
		if _, err := d.DeprecateTrackingEvent(ctx, "s", "gone", db.EventIngest); err != nil {
			t.Fatal(err)
		}
		later := first.Add(time.Hour)
		var rs []db.Reading
		var track []db.TrackingEvent
		for _, a := range []string{"new-b", "live", "gone", "new-a"} {
			rs = append(rs, db.Reading{AssetCode: a, Reading: json.RawMessage(`{"v":1}`), UserTS: later})
			track = append(track, ev(a, later, "new"))
		}
		if err := insert(ctx, d, rs, track); err != nil {
			t.Fatalf("insert: %v", err)
		}
		list, err := d.ListTrackingEvents(ctx, db.TrackingFilter{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]db.TrackingEvent{}
		for _, e := range list {
			got[e.Asset] = e
		}
		cases := []struct {
			name, asset, edge string
			ts                time.Time
		}{
			{name: "new asset stored", asset: "new-a", edge: "new", ts: later},
			{name: "second new asset stored", asset: "new-b", edge: "new", ts: later},
			{name: "live event left alone", asset: "live", edge: "old", ts: first},
			{name: "deprecated event cleared, first sighting kept", asset: "gone", edge: "old", ts: first},
		}
		if len(list) != len(cases) {
			t.Fatalf("ListTrackingEvents = %+v, want %d events", list, len(cases))
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e, ok := got[c.asset]
				if !ok {
					t.Fatalf("no event for %q", c.asset)
				}
				if e.Edge != c.edge || !e.TS.Equal(c.ts) || !e.DeprecatedTS.IsZero() {
					t.Errorf("event = %+v, want edge %q, time %v, not deprecated", e, c.edge, c.ts)
				}
			})
		}
		t.Run("a failed insert stores no sighting", func(t *testing.T) {
			bad := []db.Reading{{AssetCode: "never", Reading: json.RawMessage(`{}`)}, {AssetCode: ""}}
			if err := insert(ctx, d, bad, []db.TrackingEvent{ev("never", later, "x")}); err == nil {
				t.Fatal("insert with an empty asset code succeeded")
			}
			bad = []db.Reading{{AssetCode: "never", Reading: json.RawMessage(`{}`)}}
			invalid := []db.TrackingEvent{ev("never", later, "x"), {Asset: "never", Event: "Bogus", Service: "s", Plugin: "p"}}
			if err := insert(ctx, d, bad, invalid); err == nil {
				t.Fatal("insert with an invalid event kind succeeded")
			}
			if l, err := d.ListTrackingEvents(ctx, db.TrackingFilter{Asset: "never"}); err != nil || len(l) != 0 {
				t.Errorf("events of a failed insert = %+v, %v; want none", l, err)
			}
			if _, err := d.AssetTimespan(ctx, "never"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("readings of a failed insert: timespan error %v, want not found", err)
			}
		})
	})
}
