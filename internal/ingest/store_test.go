package ingest

import (
	"context"
	"errors"
	"slices"
	"sync"
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
			submit(t, buf, one("bad", "{\"n\":5,\"v\":\"\xff\"}")),
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
		// The refused group's transaction took its rollups with it: the
		// refused reading's number is in none, the others' are.
		if sums, err := d.AssetSummaries(t.Context(), "bad"); err != nil || len(sums) != 0 {
			t.Errorf("summaries of the refused asset = %+v, %v; want none", sums, err)
		}
		if sum, err := d.ReadingSummary(t.Context(), "other", "v"); err != nil || sum != (db.Summary{Min: 2, Max: 2, Average: 2, Count: 1}) {
			t.Errorf("summary of other = %+v, %v; want the one value 2", sum, err)
		}
	})
}

// recordingStore passes writes on to next, holding the first one at gate
// (after it is written; started is closed when it begins) and recording
// each write's size.
type recordingStore struct {
	next    ReadingStore
	gate    chan struct{}
	started chan struct{}
	once    sync.Once

	mu    sync.Mutex
	sizes []int
}

func (r *recordingStore) InsertReadings(ctx context.Context, rs []db.Reading) error {
	r.mu.Lock()
	if len(r.sizes) == 0 {
		close(r.started)
	}
	r.mu.Unlock()
	err := r.next.InsertReadings(ctx, rs)
	r.mu.Lock()
	r.sizes = append(r.sizes, len(rs))
	r.mu.Unlock()
	r.once.Do(func() { <-r.gate })
	return err
}

// TestGroupCommitKeepsRollups writes submissions that queued behind a
// write as one group on a real database, and checks that the rollups of
// the group's readings (several submissions, assets and minutes in one
// transaction) answer summary and series as a scan of the readings does.
func TestGroupCommitKeepsRollups(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		clk := clock.Real{}
		store := &recordingStore{next: d, gate: make(chan struct{}), started: make(chan struct{})}
		buf := New(Options{Service: "svc", Plugin: "http_south", Store: store,
			Counters: NewCounters(d, nil), Tracker: NewTracker(d, func(context.Context) (string, error) { return "edge", nil }, clk),
			Clock: clk, Limits: DefaultLimits})
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := buf.Close(ctx); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
		m := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
		at := func(asset string, sec int, values string) plugin.Reading {
			return plugin.Reading{Asset: asset, Timestamp: m.Add(time.Duration(sec) * time.Second), Values: []byte(values)}
		}
		first := submit(t, buf, []plugin.Reading{at("pump", 10, `{"v": 0}`)})
		<-store.started // the next submissions queue behind the first write
		group := []plugin.Receipt{
			submit(t, buf, []plugin.Reading{at("pump", 20, `{"v": 1, "w": "x"}`), at("pump", 70, `{"v": 4}`)}),
			submit(t, buf, []plugin.Reading{at("fan", 30, `{"v": -1}`)}),
			submit(t, buf, []plugin.Reading{at("pump", 59, `{"v": 2.5, "u": 3}`)}),
		}
		close(store.gate)
		for i, r := range append([]plugin.Receipt{first}, group...) {
			if err := r.Wait(t.Context()); err != nil {
				t.Fatalf("submission %d: %v", i, err)
			}
		}
		store.mu.Lock()
		sizes := slices.Clone(store.sizes)
		store.mu.Unlock()
		if !slices.Equal(sizes, []int{1, 4}) {
			t.Fatalf("writes of %v readings, want 1 then the group of 4", sizes)
		}
		ctx := t.Context()
		if sum, err := d.ReadingSummary(ctx, "pump", "v"); err != nil || sum != (db.Summary{Min: 0, Max: 4, Average: 7.5 / 4, Count: 4}) {
			t.Errorf("summary of pump v = %+v, %v; want 0..4 averaging 1.875 over 4", sum, err)
		}
		sums, err := d.AssetSummaries(ctx, "pump")
		if err != nil || len(sums) != 2 || sums[0].Datapoint != "u" || sums[1].Datapoint != "v" || sums[1].Count != 4 {
			t.Errorf("summaries of pump = %+v, %v; want u and v", sums, err)
		}
		byMinute, err := d.ReadingSeries(ctx, "pump", "v", db.BucketMinute, db.Window{})
		if err != nil {
			t.Fatal(err)
		}
		want := []db.SeriesPoint{
			{Start: m.Add(time.Minute), Min: 4, Max: 4, Average: 4, Count: 1},
			{Start: m, Min: 0, Max: 2.5, Average: 3.5 / 3, Count: 3},
		}
		if !slices.Equal(byMinute, want) {
			t.Errorf("series of pump v by minute = %+v, want %+v", byMinute, want)
		}
		if sum, err := d.ReadingSummary(ctx, "fan", "v"); err != nil || sum.Count != 1 || sum.Average != -1 {
			t.Errorf("summary of fan v = %+v, %v; want the one value -1", sum, err)
		}
	})
}
