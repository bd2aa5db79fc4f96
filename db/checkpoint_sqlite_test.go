package db

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestCheckpointsLeaveTheWriter checks that the write connection never
// checkpoints and that the checkpointer copies the log into the database
// file after a write.
func TestCheckpointsLeaveTheWriter(t *testing.T) {
	ctx := t.Context()
	d, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), DefaultFile), "")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = d.Close() }()
	var auto int
	if err := d.w.GetContext(ctx, &auto, "PRAGMA wal_autocheckpoint"); err != nil || auto != 0 {
		t.Fatalf("writer's wal_autocheckpoint = %d, %v; want 0", auto, err)
	}

	type outcome struct{ logPages, copied int }
	ran := make(chan outcome, 16)
	d.ckpt.close()
	d.ckpt = startCheckpointer(d.r, d.w, func(logPages, copied int, err error) {
		if err != nil {
			t.Errorf("checkpoint: %v", err)
		}
		select {
		case ran <- outcome{logPages, copied}:
		default:
		}
	})
	rs := make([]Reading, 500)
	for i := range rs {
		rs[i] = Reading{AssetCode: "ck", UserTS: time.Unix(int64(i), 0), Reading: []byte(`{"v": 1}`)}
	}
	if err := d.InsertReadings(ctx, rs); err != nil {
		t.Fatal(err)
	}
	for o := range ran {
		if o.logPages > 0 && o.copied == o.logPages {
			return // the insert's pages are in the database file
		}
	}
}

// TestLogStartsOverUnderSteadyWrites checks that the log is reused from its
// start while commits never pause: a checkpoint from a read connection
// cannot catch up with them, so the checkpointer catches up on the write
// connection once the log holds catchUpPages. Without that, every
// checkpoint finds a longer log than the last, and the file grows with
// every commit.
func TestLogStartsOverUnderSteadyWrites(t *testing.T) {
	ctx := t.Context()
	d, err := Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), DefaultFile), "")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = d.Close() }()

	logs := make(chan int, 64)
	d.ckpt.close()
	d.ckpt = startCheckpointer(d.r, d.w, func(logPages, _ int, err error) {
		if err != nil && !errors.Is(err, context.Canceled) { // canceled: the test ended
			t.Errorf("checkpoint: %v", err)
		}
		select {
		case logs <- logPages:
		default:
		}
	})
	stop := make(chan struct{})
	wrote := make(chan error, 1)
	go func() { // single-reading commits, back to back, until the test ends
		r := []Reading{{AssetCode: "steady", Reading: []byte(`{"v": 1, "w": 2.5}`)}}
		for i := 0; ; i++ {
			select {
			case <-stop:
				wrote <- nil
				return
			default:
			}
			r[0].UserTS = time.Unix(int64(i), 0)
			if err := d.InsertReadings(ctx, r); err != nil {
				wrote <- err
				return
			}
		}
	}()
	defer func() {
		close(stop)
		if err := <-wrote; err != nil {
			t.Errorf("insert: %v", err)
		}
	}()
	largest := 0
	timeout := time.After(time.Minute)
	for {
		select {
		case n := <-logs:
			if largest >= catchUpPages && n < largest {
				return // the log started over while commits went on
			}
			largest = max(largest, n)
		case <-timeout:
			t.Fatalf("the log never started over while commits went on: it grew to %d pages", largest)
		}
	}
}
