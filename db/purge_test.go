package db_test

import (
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// stored is a reading as stored: its id and ingest time, which north
// stream positions refer to.
type stored struct {
	ID   int64  `db:"id"`
	Code string `db:"asset_code"`
}

// purgeScenario fills an empty buffer with three batches, each stamped
// with its own ingest time:
//
//	a0..a5  asset "a", sensor times t0+0s..t0+5s    (ingest time T+1s)
//	b0..b3  asset "b", sensor times t0+10s..t0+13s  (ingest time T+2s)
//	c0..c3  asset "a", sensor times t0+1h..t0+1h+3s (ingest time T+3s)
//
// and returns the stored readings in insertion order (14 of them) and the
// ingest time of each batch.
func purgeScenario(t *testing.T, d *db.DB) ([]stored, [3]time.Time) {
	t.Helper()
	ingest := time.Date(2024, 6, 1, 8, 0, 0, 0, time.UTC)
	batches := [3]time.Time{ingest.Add(time.Second), ingest.Add(2 * time.Second), ingest.Add(3 * time.Second)}
	stamp := func(rs []db.Reading, ts time.Time) []db.Reading {
		for i := range rs {
			rs[i].TS = ts
		}
		return rs
	}
	insertReadings(t, d, stamp(numbered("a", t0, time.Second, 6), batches[0])...)
	insertReadings(t, d, stamp(numbered("b", t0.Add(10*time.Second), time.Second, 4), batches[1])...)
	insertReadings(t, d, stamp(numbered("a", t0.Add(time.Hour), time.Second, 4), batches[2])...)
	var rows []stored
	if err := d.SelectSQL(t.Context(), &rows, `SELECT id, asset_code FROM readings ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 14 {
		t.Fatalf("scenario stored %d readings, want 14", len(rows))
	}
	return rows, batches
}

// position is a north destination's stream position for the test: sent
// up to reading index at (of the scenario), or nothing when at < 0.
type position struct {
	name string
	at   int
}

func TestPurgeReadingsPolicies(t *testing.T) {
	far := t0.Add(24 * time.Hour)
	tests := []struct {
		name      string
		positions []position
		policy    db.PurgePolicy
		want      db.PurgeResult
		gone      []int // scenario indexes removed
	}{
		{name: "no limits", policy: db.PurgePolicy{}, want: db.PurgeResult{Retained: 14}},
		{name: "age", policy: db.PurgePolicy{Before: t0.Add(12 * time.Second)},
			want: db.PurgeResult{Removed: 8, UnsentRemoved: 8, Retained: 6}, gone: []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{name: "age bound is exclusive", policy: db.PurgePolicy{Before: t0.Add(3 * time.Second)},
			want: db.PurgeResult{Removed: 3, UnsentRemoved: 3, Retained: 11}, gone: []int{0, 1, 2}},
		{name: "size removes the oldest inserted", policy: db.PurgePolicy{MaxRows: 5},
			want: db.PurgeResult{Removed: 9, UnsentRemoved: 9, Retained: 5}, gone: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{name: "size already met", policy: db.PurgePolicy{MaxRows: 14}, want: db.PurgeResult{Retained: 14}},
		{name: "age then size", policy: db.PurgePolicy{Before: t0.Add(3 * time.Second), MaxRows: 10},
			want: db.PurgeResult{Removed: 4, UnsentRemoved: 4, Retained: 10}, gone: []int{0, 1, 2, 3}},
		{name: "retain unsent to any without north keeps all", policy: db.PurgePolicy{Before: far, Retain: db.RetainUnsentAny},
			want: db.PurgeResult{Retained: 14}},
		{name: "retain unsent to all without north keeps all", policy: db.PurgePolicy{MaxRows: 1, Retain: db.RetainUnsentAll},
			want: db.PurgeResult{Retained: 14}},
		{name: "retain all while one destination sent nothing",
			positions: []position{{"north A", 9}, {"north B", -1}},
			policy:    db.PurgePolicy{Before: far, Retain: db.RetainUnsentAll}, want: db.PurgeResult{Retained: 14}},
		{name: "retain any purges what one destination sent",
			positions: []position{{"north A", 9}, {"north B", -1}},
			policy:    db.PurgePolicy{Before: far, Retain: db.RetainUnsentAny},
			want:      db.PurgeResult{Removed: 10, UnsentRemoved: 10, Retained: 4}, gone: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{name: "retain all purges what every destination sent",
			positions: []position{{"north A", 7}, {"north B", 9}},
			policy:    db.PurgePolicy{Before: far, Retain: db.RetainUnsentAll},
			want:      db.PurgeResult{Removed: 8, Retained: 6}, gone: []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{name: "retain any by size within one batch",
			positions: []position{{"north A", 2}, {"north B", 4}},
			policy:    db.PurgePolicy{MaxRows: 1, Retain: db.RetainUnsentAny},
			want:      db.PurgeResult{Removed: 5, UnsentRemoved: 2, Retained: 9}, gone: []int{0, 1, 2, 3, 4}},
		{name: "purge unsent counts the unsent removed",
			positions: []position{{"north A", 7}, {"north B", 9}},
			policy:    db.PurgePolicy{MaxRows: 3},
			want:      db.PurgeResult{Removed: 11, UnsentRemoved: 3, Retained: 3}, gone: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := d.PurgeAllReadings(ctx); err != nil {
					t.Fatal(err)
				}
				if err := d.ExecSQL(ctx, `DELETE FROM stream_positions`); err != nil {
					t.Fatal(err)
				}
				rows, batches := purgeScenario(t, d)
				for _, p := range tc.positions {
					var ts any
					var id int64
					if p.at >= 0 {
						ts, id = batches[batchOf(p.at)], rows[p.at].ID
					}
					if err := d.ExecSQL(ctx, `INSERT INTO stream_positions (name, last_ts, last_id, updated_at) VALUES (?, ?, ?, ?)`,
						p.name, ts, id, batches[2]); err != nil {
						t.Fatal(err)
					}
				}
				got, err := d.PurgeReadingsInBlocks(ctx, tc.policy, 3)
				if err != nil || got != tc.want {
					t.Fatalf("PurgeReadings(%+v) = %+v, %v; want %+v", tc.policy, got, err, tc.want)
				}
				var left []stored
				if err := d.SelectSQL(ctx, &left, `SELECT id, asset_code FROM readings ORDER BY id`); err != nil {
					t.Fatal(err)
				}
				var want []stored
				for i, r := range rows {
					if !containsInt(tc.gone, i) {
						want = append(want, r)
					}
				}
				if len(left) != len(want) {
					t.Fatalf("readings left = %v, want %v", left, want)
				}
				for i := range left {
					if left[i] != want[i] {
						t.Fatalf("readings left = %v, want %v", left, want)
					}
				}
				wantAssetsExact(t, d, countedAssets(t, d))
				wantRollupsExact(t, d)
			})
		}
	})
}

// batchOf returns the scenario batch of reading index i.
func batchOf(i int) int {
	switch {
	case i < 6:
		return 0
	case i < 10:
		return 1
	}
	return 2
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestPurgeReadingsWhileIngesting purges by size while readings keep
// arriving: counts stay exact and readings inserted during the run stay.
func TestPurgeReadingsWhileIngesting(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		insertReadings(t, d, numbered("busy", t0, time.Millisecond, 300)...)
		insertReadings(t, d, numbered("other", t0, time.Millisecond, 100)...)
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		var res db.PurgeResult
		wg.Go(func() {
			for b := range 30 {
				base := t0.Add(time.Duration(b+1) * time.Second)
				if err := d.InsertReadings(ctx, numbered("busy", base, time.Millisecond, 10)); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Go(func() {
			var err error
			if res, err = d.PurgeReadingsInBlocks(ctx, db.PurgePolicy{Before: t0.Add(200 * time.Millisecond), MaxRows: 50}, 17); err != nil {
				errs <- err
			}
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		// The run's snapshot is taken when it starts, after an unknown
		// number of the concurrent batches: it removes at least the 350
		// pre-existing readings over the size limit, and never goes below
		// the limit of 50 of the 700 readings there are in the end.
		if res.Removed < 350 || res.Removed > 650 || res.UnsentRemoved != res.Removed {
			t.Errorf("PurgeReadings removed %+v; want 350..650, all unsent", res)
		}
		wantAssetsExact(t, d, countedAssets(t, d))
		wantRollupsExact(t, d)
		var total int64
		for _, a := range listAssets(t, d) {
			total += a.Count
		}
		if total != 400+300-res.Removed {
			t.Errorf("%d readings left, want %d", total, 400+300-res.Removed)
		}
	})
}
