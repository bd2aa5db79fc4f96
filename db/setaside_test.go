package db_test

import (
	"errors"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// failStatisticsInsert makes every insert of statistic key fail, so a
// transaction that writes it must roll back as a whole.
func failStatisticsInsert(t *testing.T, d *db.DB, key string) {
	t.Helper()
	ctx := t.Context()
	var stmts []string
	if d.Dialect() == db.SQLite {
		stmts = []string{`CREATE TRIGGER fail_stat BEFORE INSERT ON statistics WHEN NEW.key = '` + key + `'
			BEGIN SELECT RAISE(ABORT, 'injected failure'); END`}
	} else {
		stmts = []string{
			`CREATE FUNCTION fail_stat() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN IF NEW.key = '` + key + `' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`,
			`CREATE TRIGGER fail_stat BEFORE INSERT ON statistics FOR EACH ROW EXECUTE FUNCTION fail_stat()`,
		}
	}
	for _, s := range stmts {
		if err := d.ExecSQL(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAdvanceStreamCountsWithThePosition: what a north service sent is
// counted in the transaction that moves its position, so the statistic
// always equals what the position says was delivered; a failure changes
// neither.
func TestAdvanceStreamCountsWithThePosition(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		at := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
		for i := 1; i <= 3; i++ {
			if err := d.AdvanceStream(ctx, "up", "Readings sent north by up", db.StreamPosition{TS: at, ID: int64(10 * i), Sent: true}, 10); err != nil {
				t.Fatal(err)
			}
		}
		if s, err := d.GetStatistic(ctx, "up"); err != nil || s.Value != 30 || s.Description != "Readings sent north by up" {
			t.Errorf("statistic after three blocks = %+v, %v; want 30", s, err)
		}
		if p, err := d.GetStreamPosition(ctx, "up"); err != nil || p.ID != 30 {
			t.Errorf("position = %+v, %v; want id 30", p, err)
		}

		failStatisticsInsert(t, d, "down")
		err := d.AdvanceStream(ctx, "down", "", db.StreamPosition{TS: at, ID: 5, Sent: true}, 5)
		if err == nil {
			t.Fatal("AdvanceStream with a failing statistic = nil")
		}
		if _, err := d.GetStreamPosition(ctx, "down"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("position saved although its count failed: %v", err)
		}
	})
}

func TestSetAsideAndResend(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		base := time.Now().UTC().Add(-time.Minute)
		insertReadings(t, d, streamReading("a", 1, base), streamReading("a", 2, base.Add(time.Millisecond)),
			streamReading("b", 3, base.Add(2*time.Millisecond)))
		rows, err := d.ReadStream(ctx, db.StreamPosition{}, 10)
		if err != nil || len(rows) != 3 {
			t.Fatalf("ReadStream = %d rows, %v", len(rows), err)
		}
		if err := d.SetAside(ctx, "up", rows[:2], "answered 400: bad value", db.PositionOf(rows[1]), "Readings set aside by up"); err != nil {
			t.Fatal(err)
		}
		if p, err := d.GetStreamPosition(ctx, "up"); err != nil || p.ID != rows[1].ID {
			t.Errorf("position after setting aside = %+v, %v; want past the readings set aside", p, err)
		}
		if s, err := d.GetStatistic(ctx, db.SetAsideKey("up")); err != nil || s.Value != 2 {
			t.Errorf("%s = %+v, %v; want 2", db.SetAsideKey("up"), s, err)
		}
		list, total, err := d.ListSetAside(ctx, "up", 0, 0)
		if err != nil || total != 2 || len(list) != 2 {
			t.Fatalf("ListSetAside = %d of %d, %v", len(list), total, err)
		}
		first := list[0]
		if first.ReadingID != rows[0].ID || first.AssetCode != "a" || first.Reason != "answered 400: bad value" ||
			!first.UserTS.Equal(rows[0].UserTS) || first.Resend || first.SetAt.IsZero() {
			t.Errorf("entry = %+v, want a copy of reading %+v", first, rows[0])
		}
		if page, total, err := d.ListSetAside(ctx, "up", 1, 1); err != nil || total != 2 || len(page) != 1 || page[0].ID != list[1].ID {
			t.Errorf("ListSetAside page 2 = %+v of %d, %v", page, total, err)
		}
		if none, total, err := d.ListSetAside(ctx, "other", 0, 0); err != nil || total != 0 || none == nil || len(none) != 0 {
			t.Errorf("ListSetAside of another = %v of %d, %v", none, total, err)
		}

		if blk, err := d.ResendBlock(ctx, "up", 10); err != nil || len(blk) != 0 {
			t.Errorf("ResendBlock before a request = %v, %v", blk, err)
		}
		if n, err := d.MarkResend(ctx, "up", []int64{list[1].ID, 999999}); err != nil || n != 1 {
			t.Errorf("MarkResend of one = %d, %v", n, err)
		}
		if n, err := d.MarkResend(ctx, "up", nil); err != nil || n != 2 {
			t.Errorf("MarkResend of all = %d, %v", n, err)
		}
		blk, err := d.ResendBlock(ctx, "up", 10)
		if err != nil || len(blk) != 2 || !blk[0].Resend || blk[0].ID != list[0].ID {
			t.Fatalf("ResendBlock = %+v, %v", blk, err)
		}
		if err := d.Resent(ctx, "up", []int64{blk[0].ID}, []int64{blk[1].ID}, "answered 422", "Readings sent north by up"); err != nil {
			t.Fatal(err)
		}
		if s, err := d.GetStatistic(ctx, "up"); err != nil || s.Value != 1 {
			t.Errorf("sent statistic after a resend = %+v, %v; want 1", s, err)
		}
		left, total, err := d.ListSetAside(ctx, "up", 0, 0)
		if err != nil || total != 1 || left[0].ID != blk[1].ID || left[0].Resend || left[0].Reason != "answered 422" {
			t.Errorf("set aside after the resend = %+v, %v", left, err)
		}
		if n, err := d.DeleteSetAside(ctx, "up", nil); err != nil || n != 1 {
			t.Errorf("DeleteSetAside = %d, %v", n, err)
		}
		if n, err := d.DeleteSetAside(ctx, "up", nil); err != nil || n != 0 {
			t.Errorf("DeleteSetAside of none = %d, %v", n, err)
		}
	})
}

func TestDeleteNorthTaskRemovesWhatItSetAside(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		task := db.Schedule{ID: testScheduleID(2), Name: "to-cloud", ProcessName: db.NorthTaskProcess,
			Type: db.ScheduleInterval, RepeatSeconds: 30, Enabled: true}
		if _, err := d.CreateSchedule(ctx, task); err != nil {
			t.Fatal(err)
		}
		insertReadings(t, d, streamReading("a", 1, time.Now().UTC().Add(-time.Minute)))
		rows, err := d.ReadStream(ctx, db.StreamPosition{}, 10)
		if err != nil || len(rows) != 1 {
			t.Fatalf("ReadStream = %v, %v", rows, err)
		}
		if err := d.SetAside(ctx, "to-cloud", rows, "refused", db.PositionOf(rows[0]), ""); err != nil {
			t.Fatal(err)
		}
		if err := d.DeleteNorthTask(ctx, "to-cloud"); err != nil {
			t.Fatal(err)
		}
		if _, total, err := d.ListSetAside(ctx, "to-cloud", 0, 0); err != nil || total != 0 {
			t.Errorf("set aside after the task was deleted: %d, %v", total, err)
		}
		if _, err := d.GetStatistic(ctx, db.SetAsideKey("to-cloud")); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("set-aside statistic after the task was deleted: %v", err)
		}
	})
}
