package db_test

import (
	"errors"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestDeleteAudit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
		for i := range 12 {
			if _, err := d.InsertAudit(ctx, db.AuditEntry{Timestamp: base.Add(time.Duration(i) * time.Hour),
				Source: "START", Severity: "INFORMATION"}); err != nil {
				t.Fatal(err)
			}
		}
		n, err := d.DeleteAudit(ctx, base.Add(7*time.Hour))
		if err != nil || n != 7 {
			t.Fatalf("DeleteAudit = %d, %v; want 7", n, err)
		}
		left, total, err := d.ListAudit(ctx, db.AuditFilter{})
		if err != nil || total != 5 || !left[len(left)-1].Timestamp.Equal(base.Add(7*time.Hour)) {
			t.Errorf("audit left: %d entries, oldest %v, %v; want 5 from +7h", total, left[len(left)-1].Timestamp, err)
		}
		if n, err := d.DeleteAudit(ctx, base); err != nil || n != 0 {
			t.Errorf("DeleteAudit of nothing = %d, %v", n, err)
		}
	})
}

// TestDeleteInBlocks checks the block loop of the retention purges on
// block boundaries.
func TestDeleteInBlocks(t *testing.T) {
	tests := []struct {
		name  string
		rows  int
		block int
	}{
		{name: "fewer than a block", rows: 3, block: 5},
		{name: "exactly one block", rows: 5, block: 5},
		{name: "several blocks and a rest", rows: 12, block: 5},
		{name: "nothing", rows: 0, block: 5},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				at := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
				for range tc.rows {
					if err := d.ExecSQL(ctx, `INSERT INTO statistics_history (key, value, history_ts) VALUES ('k', 1, ?)`, at); err != nil {
						t.Fatal(err)
					}
				}
				// One newer row that must stay.
				if err := d.ExecSQL(ctx, `INSERT INTO statistics_history (key, value, history_ts) VALUES ('k', 1, ?)`, at.Add(time.Hour)); err != nil {
					t.Fatal(err)
				}
				n, err := d.DeleteInBlocks(ctx, "statistics_history", "history_ts < ?", []any{at.Add(time.Minute)}, tc.block)
				if err != nil || n != int64(tc.rows) {
					t.Fatalf("deleted %d, %v; want %d", n, err, tc.rows)
				}
				got, err := d.StatisticsHistory(ctx, 0)
				if err != nil || len(got) != 1 {
					t.Fatalf("history left = %v, %v; want the newer snapshot", got, err)
				}
				if _, err := d.DeleteStatisticsHistory(ctx, at.Add(2*time.Hour)); err != nil {
					t.Fatal(err)
				}
			})
		}
	})
}

func TestUpdateSchedule(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		created, err := d.CreateSchedule(ctx, db.Schedule{ID: testScheduleID(1), Name: "stats collection",
			ProcessName: "stats collector", Type: db.ScheduleInterval, RepeatSeconds: 15, Exclusive: true, Enabled: false})
		if err != nil {
			t.Fatal(err)
		}
		tod, day := 3600, 2
		steps := []struct {
			name        string
			in          db.Schedule
			wantChanged bool
		}{
			{name: "same timing changes nothing", in: created},
			{name: "new repeat", in: func() db.Schedule { s := created; s.RepeatSeconds = 1; return s }(), wantChanged: true},
			{name: "timed with a day", in: func() db.Schedule {
				s := created
				s.Type, s.RepeatSeconds, s.TimeOfDay, s.Day, s.Exclusive = db.ScheduleTimed, 0, &tod, &day, false
				return s
			}(), wantChanged: true},
			{name: "name and enabled are not updated", in: func() db.Schedule {
				s := created
				s.Type, s.RepeatSeconds, s.TimeOfDay, s.Day, s.Exclusive = db.ScheduleTimed, 0, &tod, &day, false
				s.Name, s.Enabled = "renamed", true
				return s
			}()},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				got, changed, err := d.UpdateSchedule(ctx, s.in)
				if err != nil || changed != s.wantChanged {
					t.Fatalf("UpdateSchedule = %v, %v; want changed %v", changed, err, s.wantChanged)
				}
				stored, err := d.GetSchedule(ctx, created.ID)
				if err != nil {
					t.Fatal(err)
				}
				if stored.Name != "stats collection" || stored.Enabled || stored.Type != s.in.Type ||
					stored.RepeatSeconds != s.in.RepeatSeconds || stored.Exclusive != s.in.Exclusive {
					t.Errorf("stored %+v after updating to %+v", stored, s.in)
				}
				if got.Type != stored.Type || got.RepeatSeconds != stored.RepeatSeconds || !got.UpdatedAt.Equal(stored.UpdatedAt) {
					t.Errorf("UpdateSchedule returned %+v, stored %+v", got, stored)
				}
			})
		}
		if _, _, err := d.UpdateSchedule(ctx, db.Schedule{ID: testScheduleID(9), Name: "x", ProcessName: "x", Type: db.ScheduleManual}); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("UpdateSchedule unknown = %v, want ErrNotFound", err)
		}
		if _, _, err := d.UpdateSchedule(ctx, db.Schedule{ID: created.ID, ProcessName: "x", Type: "WEEKLY"}); err == nil {
			t.Error("UpdateSchedule with an unknown type succeeded")
		}
	})
}
