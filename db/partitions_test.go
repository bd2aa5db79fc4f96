package db_test

import (
	"slices"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// partitionScenario fills a PostgreSQL database whose day partitions go
// back three days:
//
//	A: 30 readings of "a", ingested three days ago, sensor times t0+0s..t0+290s (10 s apart)
//	B: 10 readings of "b", ingested three days ago, sensor times t0+0s..t0+90s
//	C: 12 readings of "a", ingested two days ago, sensor times t0+290s..t0+400s:
//	   the minute t0+4m is shared with A, across two partitions
//	D: 1 reading of "a" ingested now, sensor time t0+1h
//
// and returns the partition of three days ago and the stored readings of
// A in insertion order.
func partitionScenario(t *testing.T, d *db.DB) (string, []stored) {
	t.Helper()
	ctx := t.Context()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	day0, day1 := today.AddDate(0, 0, -3), today.AddDate(0, 0, -2)
	if err := d.EnsurePartitionsAt(ctx, day0); err != nil { // day0 and day1
		t.Fatal(err)
	}
	stamp := func(rs []db.Reading, ts time.Time) []db.Reading {
		for i := range rs {
			rs[i].TS = ts
		}
		return rs
	}
	insertReadings(t, d, stamp(numbered("a", t0, 10*time.Second, 30), day0.Add(time.Hour))...)
	insertReadings(t, d, stamp(numbered("b", t0, 10*time.Second, 10), day0.Add(2*time.Hour))...)
	insertReadings(t, d, stamp(numbered("a", t0.Add(290*time.Second), 10*time.Second, 12), day1.Add(time.Hour))...)
	insertReadings(t, d, reading("a", t0.Add(time.Hour), `{"v": 1}`))
	var a []stored
	if err := d.SelectSQL(ctx, &a, `SELECT id, asset_code FROM readings WHERE ts = ? ORDER BY id`, day0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	return "readings_p" + day0.Format("20060102"), a
}

// countIn returns how many readings the partition holds.
func countIn(t *testing.T, d *db.DB, partition string) int {
	t.Helper()
	var n []int
	if err := d.SelectSQL(t.Context(), &n, `SELECT COUNT(*) FROM `+partition); err != nil {
		t.Fatal(err)
	}
	return n[0]
}

func TestPurgeDropsWholePartitions(t *testing.T) {
	tests := []struct {
		name     string
		north    int // with retain: the scenario's A reading sent up to (index), -1 for no north
		policy   db.PurgePolicy
		want     db.PurgeResult
		dropped  bool // the oldest day partition is gone
		leftInP0 int  // else: readings left in it
	}{
		{name: "age: a day wholly older goes, the rest row by row", north: -1,
			policy:  db.PurgePolicy{Before: t0.Add(295 * time.Second)},
			want:    db.PurgeResult{Removed: 41, UnsentRemoved: 41, Retained: 12},
			dropped: true},
		{name: "age: a day with a newer reading stays", north: -1,
			policy: db.PurgePolicy{Before: t0.Add(285 * time.Second)},
			want:   db.PurgeResult{Removed: 39, UnsentRemoved: 39, Retained: 14}, leftInP0: 1},
		{name: "age keeping unsent: the day is not all sent", north: 9,
			policy: db.PurgePolicy{Before: t0.Add(time.Hour), Retain: db.RetainUnsentAll},
			want:   db.PurgeResult{Removed: 10, UnsentRemoved: 0, Retained: 43}, leftInP0: 30},
		{name: "size: the oldest day goes whole", north: -1,
			policy:  db.PurgePolicy{MaxRows: 13},
			want:    db.PurgeResult{Removed: 40, UnsentRemoved: 40, Retained: 13},
			dropped: true},
		{name: "size: the oldest day and a row of the next", north: -1,
			policy:  db.PurgePolicy{MaxRows: 12},
			want:    db.PurgeResult{Removed: 41, UnsentRemoved: 41, Retained: 12},
			dropped: true},
		{name: "size: not the whole day", north: -1,
			policy: db.PurgePolicy{MaxRows: 14},
			want:   db.PurgeResult{Removed: 39, UnsentRemoved: 39, Retained: 14}, leftInP0: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := dbtest.Postgres(t)
			ctx := t.Context()
			p0, a := partitionScenario(t, d)
			if tc.north >= 0 {
				if err := d.ExecSQL(ctx, `INSERT INTO stream_positions (name, last_ts, last_id, updated_at)
					SELECT 'north', ts, id, ts FROM readings WHERE id = ?`, a[tc.north].ID); err != nil {
					t.Fatal(err)
				}
			}
			got, err := d.PurgeReadingsInBlocks(ctx, tc.policy, 5)
			if err != nil || got != tc.want {
				t.Fatalf("PurgeReadings(%+v) = %+v, %v; want %+v", tc.policy, got, err, tc.want)
			}
			parts, err := d.Partitions(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if gone := !slices.Contains(parts, p0); gone != tc.dropped {
				t.Fatalf("partition %s dropped = %v, want %v (partitions %v)", p0, gone, tc.dropped, parts)
			}
			if !tc.dropped {
				if n := countIn(t, d, p0); n != tc.leftInP0 {
					t.Errorf("%s holds %d readings, want %d", p0, n, tc.leftInP0)
				}
			}
			wantAssetsExact(t, d, countedAssets(t, d))
			wantRollupsExact(t, d, db.Window{}, db.Window{From: t0.Add(4 * time.Minute), To: t0.Add(6 * time.Minute)})
		})
	}
}

func TestPurgeDropsEmptyPastPartitions(t *testing.T) {
	d := dbtest.Postgres(t)
	ctx := t.Context()
	old := time.Now().UTC().AddDate(0, 0, -10)
	if err := d.EnsurePartitionsAt(ctx, old); err != nil {
		t.Fatal(err)
	}
	before, err := d.Partitions(ctx)
	if err != nil || len(before) != 4 {
		t.Fatalf("partitions = %v, %v; want 4 (two old, today, tomorrow)", before, err)
	}
	insertReadings(t, d, numbered("x", t0, time.Second, 3)...)
	res, err := d.PurgeReadings(ctx, db.PurgePolicy{Before: t0})
	if err != nil || res != (db.PurgeResult{Retained: 3}) {
		t.Fatalf("PurgeReadings = %+v, %v; want nothing removed, 3 retained", res, err)
	}
	after, err := d.Partitions(ctx)
	if err != nil || !slices.Equal(after, before[2:]) {
		t.Errorf("partitions after the purge = %v, %v; want %v", after, err, before[2:])
	}
}

// TestInsertGoesToTodaysPartition checks that Open attached today's and
// tomorrow's partitions and that ingest lands in today's.
func TestInsertGoesToTodaysPartition(t *testing.T) {
	d := dbtest.Postgres(t)
	today := time.Now().UTC()
	parts, err := d.Partitions(t.Context())
	want := []string{"readings_p" + today.Format("20060102"), "readings_p" + today.AddDate(0, 0, 1).Format("20060102")}
	if err != nil || !slices.Equal(parts, want) {
		t.Fatalf("partitions after Open = %v, %v; want %v", parts, err, want)
	}
	insertReadings(t, d, numbered("x", t0, time.Second, 3)...)
	if n := countIn(t, d, want[0]); n != 3 {
		t.Errorf("today's partition holds %d readings, want 3", n)
	}
	if n := countIn(t, d, "readings_default"); n != 0 {
		t.Errorf("the default partition holds %d readings, want 0", n)
	}
}
