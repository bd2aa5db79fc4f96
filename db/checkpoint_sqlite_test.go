package db

import (
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
	d.ckpt = startCheckpointer(d.r, func(logPages, copied int, err error) {
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
