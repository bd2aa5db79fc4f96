package db_test

import (
	"context"
	"database/sql"
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// rawCount returns how many rows of code the readings table holds, swept
// or not.
func rawCount(t *testing.T, d *db.DB, code string) int64 {
	t.Helper()
	var n []int64
	if err := d.SelectSQL(t.Context(), &n, `SELECT COUNT(*) FROM readings WHERE asset_code = ?`, code); err != nil {
		t.Fatalf("count rows: %v", err)
	}
	return n[0]
}

// countOf returns code's count in ListAssets (0 when it is not listed).
func countOf(t *testing.T, d *db.DB, code string) int64 {
	t.Helper()
	for _, a := range listAssets(t, d) {
		if a.AssetCode == code {
			return a.Count
		}
	}
	return 0
}

// TestDeleteAssetTakesEffectAtOnce deletes an asset holding many readings
// while readings of it and of another asset keep arriving, with the sweep
// of its rows held back: the deletion takes effect in its transaction
// (count, summaries, series, readings and the north stream exclude what it
// covers, readings of the asset stored after it are kept and counted), a
// purge by size in the meantime keeps the counts exact, and after the
// sweep the rows are gone and everything still agrees.
func TestDeleteAssetTakesEffectAtOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		d.StopSweeper()
		for m := range 4 {
			insertReadings(t, d, denseReadings("big", t0.Add(time.Duration(m)*time.Minute), m*1000, 1500)...)
		}
		insertReadings(t, d, denseReadings("other", t0, 0, 300)...)
		if err := d.CreateStreamPosition(ctx, "north"); err != nil {
			t.Fatal(err)
		}

		var wg sync.WaitGroup
		arrived := make(chan struct{})
		deleted := make(chan struct{})
		var afterDelete int64 // readings of big inserted once the deletion returned
		wg.Go(func() {
			for i := range 30 {
				// Late readings of both assets, in the minutes being deleted.
				at := t0.Add(time.Duration(i%4) * time.Minute)
				rs := append(denseReadings("big", at, 9000+i*10, 10), denseReadings("other", at, 9000+i*10, 10)...)
				done := false
				select {
				case <-deleted:
					done = true
				default:
				}
				if err := d.InsertReadings(ctx, rs); err != nil {
					t.Errorf("insert during the deletion: %v", err)
					return
				}
				if done {
					afterDelete += 10
				}
				if i == 5 {
					close(arrived)
				}
			}
		})
		<-arrived
		removed, err := d.PurgeAssetReadings(ctx, "big")
		close(deleted)
		wg.Wait()
		if err != nil {
			t.Fatalf("PurgeAssetReadings: %v", err)
		}
		if removed < 6000 {
			t.Errorf("PurgeAssetReadings removed %d, want at least the 6000 stored before", removed)
		}
		pending, err := d.PendingDeletions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := pending["big"]; !ok {
			t.Fatalf("pending deletions = %v, want big's while its sweep is held back", pending)
		}
		left := countOf(t, d, "big")
		if left < afterDelete || left > 300 {
			t.Errorf("big counts %d readings after the deletion, want between %d (stored after it) and 300", left, afterDelete)
		}
		if raw := rawCount(t, d, "big"); raw <= left {
			t.Fatalf("big has %d rows, want the deleted ones still there (the sweep is held back)", raw)
		}
		got, err := d.AssetReadings(ctx, "big", db.Window{})
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(got)) != left {
			t.Errorf("AssetReadings(big) gave %d readings, its count is %d", len(got), left)
		}
		for _, r := range got {
			if r.ID <= pending["big"] {
				t.Errorf("AssetReadings(big) gave reading %d, which the deletion covers (up to %d)", r.ID, pending["big"])
			}
		}
		// The north stream from the start sends none of the deleted readings.
		var streamed int64
		for after := (db.StreamPosition{}); ; {
			rs, err := d.ReadStream(ctx, after, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) == 0 {
				break
			}
			for _, r := range rs {
				if r.AssetCode == "big" {
					streamed++
					if r.ID <= pending["big"] {
						t.Errorf("ReadStream sent reading %d of big, which the deletion covers", r.ID)
					}
				}
			}
			last := rs[len(rs)-1]
			after = db.StreamPosition{Sent: true, TS: last.TS, ID: last.ID}
		}
		if streamed != left {
			t.Errorf("ReadStream sent %d readings of big, want its %d", streamed, left)
		}
		lags, err := d.StreamLags(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := left + countOf(t, d, "other"); lags["north"] != want {
			t.Errorf("StreamLags = %v, want north %d behind (nothing sent, the deleted readings left out)", lags, want)
		}
		window := db.Window{From: t0, To: t0.Add(3*time.Minute + 30*time.Second)}
		wantRollupsExact(t, d, db.Window{}, window)
		wantAssetsExact(t, d, countedAssets(t, d))

		// A purge by size while the rows are still there counts only the
		// readings the gateway holds.
		total := left + countOf(t, d, "other")
		res, err := d.PurgeReadings(ctx, db.PurgePolicy{MaxRows: total - 100})
		if err != nil {
			t.Fatalf("PurgeReadings: %v", err)
		}
		if res.Removed != 100 || res.Retained != total-100 {
			t.Errorf("PurgeReadings = %+v, want 100 removed and %d retained", res, total-100)
		}
		wantRollupsExact(t, d, db.Window{}, window)
		wantAssetsExact(t, d, countedAssets(t, d))

		if err := d.SweepDeletions(ctx, 700); err != nil {
			t.Fatalf("SweepDeletions: %v", err)
		}
		if pending, err := d.PendingDeletions(ctx); err != nil || len(pending) != 0 {
			t.Errorf("pending deletions after the sweep = %v, %v; want none", pending, err)
		}
		if raw, n := rawCount(t, d, "big"), countOf(t, d, "big"); raw != n {
			t.Errorf("big has %d rows after the sweep, its count is %d", raw, n)
		}
		wantRollupsExact(t, d, db.Window{}, window)
		wantAssetsExact(t, d, countedAssets(t, d))
	})
}

// TestDeleteAssetSweepResumes stops a sweep part way with the database
// closed and checks that opening it again finishes the sweep.
func TestDeleteAssetSweepResumes(t *testing.T) {
	dbtest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := t.Context()
		open := func() *db.DB {
			d, err := db.OpenDurable(ctx, dsn, "", db.Process)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			return d
		}
		d := open()
		d.StopSweeper()
		for m := range 5 {
			insertReadings(t, d, denseReadings("big", t0.Add(time.Duration(m)*time.Minute), m*1000, 1000)...)
		}
		insertReadings(t, d, denseReadings("other", t0, 0, 100)...)
		if n, err := d.PurgeAssetReadings(ctx, "big"); err != nil || n != 5000 {
			t.Fatalf("PurgeAssetReadings = %d, %v; want 5000", n, err)
		}
		insertReadings(t, d, denseReadings("big", t0.Add(time.Minute), 7000, 20)...) // kept
		sctx, stop := context.WithCancel(ctx)
		d.OnSweepStep(stop) // the gateway stops after the sweep's first step
		if err := d.SweepDeletions(sctx, 600); !errors.Is(err, context.Canceled) {
			t.Fatalf("SweepDeletions stopped after a step = %v, want context.Canceled", err)
		}
		if raw := rawCount(t, d, "big"); raw >= 5020 || raw <= 20 {
			t.Fatalf("big has %d rows after one step of the sweep, want some of the 5000 deleted gone and some left", raw)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}

		d = open()
		defer func() {
			if err := d.Close(); err != nil {
				t.Error(err)
			}
		}()
		for deadline := time.Now().Add(time.Minute); ; {
			pending, err := d.PendingDeletions(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(pending) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the sweep left %v pending a minute after the database was opened again", pending)
			}
			time.Sleep(10 * time.Millisecond) // polling the sweeper's progress
		}
		if raw := rawCount(t, d, "big"); raw != 20 {
			t.Errorf("big has %d rows after the sweep, want the 20 stored after the deletion", raw)
		}
		wantAssetsExact(t, d, countedAssets(t, d))
		if n := countOf(t, d, "big"); n != 20 {
			t.Errorf("big counts %d readings, want 20", n)
		}
		wantRollupsExact(t, d, db.Window{})
	})
}

// TestPurgeAllKeepsIDsGrowing empties the buffer (while a deletion of an
// asset is still being swept) and checks that everything derived from the
// readings is empty with it and that later readings get higher ids, so a
// north position taken before still orders them after what it sent.
func TestPurgeAllKeepsIDsGrowing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		d.StopSweeper()
		insertReadings(t, d, denseReadings("a", t0, 0, 3000)...)
		insertReadings(t, d, denseReadings("b", t0, 0, 2000)...)
		before, err := d.ReadStream(ctx, db.StreamPosition{}, 100000)
		if err != nil || len(before) != 5000 {
			t.Fatalf("ReadStream = %d readings, %v; want 5000", len(before), err)
		}
		maxID := before[len(before)-1].ID
		if _, err := d.PurgeAssetReadings(ctx, "b"); err != nil {
			t.Fatal(err)
		}
		n, err := d.PurgeAllReadings(ctx)
		if err != nil || n != 3000 {
			t.Fatalf("PurgeAllReadings = %d, %v; want the 3000 readings of a", n, err)
		}
		if raw := rawCount(t, d, "a") + rawCount(t, d, "b"); raw != 0 {
			t.Errorf("%d rows left after emptying the buffer", raw)
		}
		if pending, err := d.PendingDeletions(ctx); err != nil || len(pending) != 0 {
			t.Errorf("pending deletions after emptying the buffer = %v, %v; want none", pending, err)
		}
		wantAssetsExact(t, d, nil)
		wantRollupsExact(t, d)
		var rollups []int
		if err := d.SelectSQL(ctx, &rollups, `SELECT 1 FROM reading_rollups`); err != nil || len(rollups) != 0 {
			t.Errorf("%d rollup rows left after emptying the buffer (%v)", len(rollups), err)
		}

		insertReadings(t, d, denseReadings("a", t0, 0, 10)...)
		after, err := d.ReadStream(ctx, db.StreamPosition{}, 100)
		if err != nil || len(after) != 10 {
			t.Fatalf("ReadStream = %d readings, %v; want 10", len(after), err)
		}
		if after[0].ID <= maxID {
			t.Errorf("a reading stored after emptying the buffer has id %d, not above the %d stored before", after[0].ID, maxID)
		}
		wantAssetsExact(t, d, countedAssets(t, d))
		wantRollupsExact(t, d, db.Window{})
	})
}

// TestDeleteAssetDropsItsPartitions deletes an asset on PostgreSQL that
// had a past day's partition to itself: the sweep drops that partition
// whole and deletes the asset's rows elsewhere, keeping a partition that
// holds another asset's readings.
func TestDeleteAssetDropsItsPartitions(t *testing.T) {
	d := dbtest.Postgres(t)
	ctx := t.Context()
	d.StopSweeper()
	day0, _ := partitionScenario(t, d) // day0: a and b; the day after: a alone
	day1 := "readings_p" + time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -2).Format("20060102")
	// The day before day0 holds c, deleted, and a reading of c stored
	// after the deletion: it stays.
	dayC := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -4)
	if err := d.EnsurePartitionsAt(ctx, dayC); err != nil {
		t.Fatal(err)
	}
	old := numbered("c", t0, time.Second, 20)
	for i := range old {
		old[i].TS = dayC.Add(time.Hour)
	}
	insertReadings(t, d, old...)
	if n, err := d.PurgeAssetReadings(ctx, "c"); err != nil || n != 20 {
		t.Fatalf("PurgeAssetReadings(c) = %d, %v; want 20", n, err)
	}
	later := reading("c", t0.Add(time.Hour), `{"v": 5}`)
	later.TS = dayC.Add(2 * time.Hour)
	insertReadings(t, d, later)
	if n, err := d.PurgeAssetReadings(ctx, "a"); err != nil || n != 43 {
		t.Fatalf("PurgeAssetReadings(a) = %d, %v; want 43", n, err)
	}
	if err := d.SweepDeletions(ctx, 5); err != nil {
		t.Fatalf("SweepDeletions: %v", err)
	}
	parts, err := d.Partitions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	partC := "readings_p" + dayC.Format("20060102")
	if slices.Contains(parts, day1) || !slices.Contains(parts, day0) || !slices.Contains(parts, partC) {
		t.Errorf("partitions after the sweep = %v, want %s dropped (only a's deleted readings) and %s (b's) and %s (c's later one) kept",
			parts, day1, day0, partC)
	}
	if n := countIn(t, d, partC); n != 1 {
		t.Errorf("%s holds %d readings, want c's one stored after its deletion", partC, n)
	}
	if raw := rawCount(t, d, "a"); raw != 0 {
		t.Errorf("a has %d rows after the sweep", raw)
	}
	if n := countIn(t, d, day0); n != 10 {
		t.Errorf("%s holds %d readings, want b's 10", day0, n)
	}
	wantAssetsExact(t, d, countedAssets(t, d))
	wantRollupsExact(t, d, db.Window{})
}

// TestPurgeLocksReadingsFirst holds the lock a deletion of an asset takes
// on readings (SHARE, see DeleteAsset) while a purge by age runs on
// PostgreSQL: the purge step must wait for it before it locks the asset's
// count row, which the deletion takes next. A step that locked the count
// row first and then waited for readings would deadlock with the deletion,
// and PostgreSQL would abort one of them.
func TestPurgeLocksReadingsFirst(t *testing.T) {
	dsn := dbtest.PostgresDSN(t)
	ctx := t.Context()
	d, err := db.OpenDurable(ctx, dsn, "", db.Process)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = d.Close() }()
	insertReadings(t, d, numbered("a", t0, time.Second, 20)...)
	insertReadings(t, d, numbered("b", t0.Add(2*time.Hour), time.Second, 5)...)
	other, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Close() }()
	deletion, err := other.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = deletion.Rollback() }()
	if _, err := deletion.ExecContext(ctx, `LOCK TABLE readings IN SHARE MODE`); err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		res db.PurgeResult
		err error
	}
	purged := make(chan outcome, 1)
	go func() {
		res, err := d.PurgeReadings(ctx, db.PurgePolicy{Before: t0.Add(time.Hour)})
		purged <- outcome{res, err}
	}()
	// Wait until the purge waits for a lock on readings.
	waitingQ := `SELECT COUNT(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		WHERE NOT l.granted AND c.relname = 'readings'`
	for deadline := time.Now().Add(time.Minute); ; {
		var waiting int
		if err := deletion.QueryRowContext(ctx, waitingQ).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		select {
		case o := <-purged:
			t.Fatalf("the purge ended (%+v, %v) while a deletion held readings", o.res, o.err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the purge never waited for the deletion's lock on readings")
		}
		runtime.Gosched()
	}
	if _, err := deletion.ExecContext(ctx, `SELECT count FROM asset_counts WHERE asset_code = 'a' FOR UPDATE NOWAIT`); err != nil {
		t.Errorf("the deletion cannot lock a's count row while the purge waits: %v", err)
	}
	if err := deletion.Commit(); err != nil {
		t.Fatal(err)
	}
	o := <-purged
	if o.err != nil || o.res.Removed != 20 {
		t.Fatalf("PurgeReadings = %+v, %v; want 20 removed", o.res, o.err)
	}
	wantAssetsExact(t, d, countedAssets(t, d))
	wantRollupsExact(t, d, db.Window{})
}
