package db_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// streamReading is a reading of asset with value i stored at ts.
func streamReading(asset string, i int, ts time.Time) db.Reading {
	return db.Reading{AssetCode: asset, Reading: []byte(fmt.Sprintf(`{"i":%d}`, i)), TS: ts,
		UserTS: time.Date(2020, 1, 1, 0, 0, i, 0, time.UTC)}
}

// streamValues returns the "i" values of rs, in order.
func streamValues(t *testing.T, rs []db.Reading) []int {
	t.Helper()
	out := make([]int, len(rs))
	for k, r := range rs {
		var v struct{ I int }
		if err := json.Unmarshal(r.Reading, &v); err != nil {
			t.Fatalf("reading %s: %v", r.Reading, err)
		}
		out[k] = v.I
	}
	return out
}

func TestReadStream(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		base := time.Now().UTC().Add(-time.Hour).Truncate(time.Microsecond)
		// Two batches: the second is stamped earlier than the first, and
		// one batch holds two readings with the same ts.
		if err := d.InsertReadings(ctx, []db.Reading{
			streamReading("b", 3, base.Add(2*time.Second)), streamReading("a", 4, base.Add(2*time.Second)),
		}); err != nil {
			t.Fatal(err)
		}
		if err := d.InsertReadings(ctx, []db.Reading{
			streamReading("a", 1, base), streamReading("a", 2, base.Add(time.Second)),
		}); err != nil {
			t.Fatal(err)
		}
		all, err := d.ReadStream(ctx, db.StreamPosition{}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(streamValues(t, all)); got != "[1 2 3 4]" {
			t.Fatalf("stream = %v, want ordered by (ts, id)", got)
		}
		if all[2].ID > all[3].ID || !all[0].UserTS.Equal(time.Date(2020, 1, 1, 0, 0, 1, 0, time.UTC)) || all[0].AssetCode != "a" {
			t.Errorf("first reading = %+v", all[0])
		}

		tests := []struct {
			name  string
			after db.StreamPosition
			limit int
			want  string
		}{
			{name: "from the start, limited", after: db.StreamPosition{}, limit: 2, want: "[1 2]"},
			{name: "after the first", after: db.PositionOf(all[0]), limit: 10, want: "[2 3 4]"},
			{name: "between two readings of one ts", after: db.PositionOf(all[2]), limit: 10, want: "[4]"},
			{name: "after the last", after: db.PositionOf(all[3]), limit: 10, want: "[]"},
			{name: "no limit", after: db.StreamPosition{}, limit: 0, want: "[]"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				got, err := d.ReadStream(ctx, tc.after, tc.limit)
				if err != nil {
					t.Fatal(err)
				}
				if s := fmt.Sprint(streamValues(t, got)); s != tc.want {
					t.Errorf("ReadStream = %s, want %s", s, tc.want)
				}
			})
		}
	})
}

// TestReadStreamLateCommit is the case the stream fence exists for: a batch
// stamped before a reader read past its time, committed after, must land
// after the reader's position rather than behind it.
func TestReadStreamLateCommit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		now := time.Now().UTC().Truncate(time.Microsecond)
		if err := d.InsertReadings(ctx, []db.Reading{streamReading("a", 1, now)}); err != nil {
			t.Fatal(err)
		}
		rs, err := d.ReadStream(ctx, db.StreamPosition{}, 10)
		if err != nil || len(rs) != 1 {
			t.Fatalf("ReadStream = %v, %v", rs, err)
		}
		pos := db.PositionOf(rs[0])
		// Stamped an hour ago (a slow writer, or the clock stepping back),
		// committed now.
		committed := d.ReadingsCommitted()
		if err := d.InsertReadings(ctx, []db.Reading{streamReading("a", 2, now.Add(-time.Hour))}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-committed:
		default:
			t.Error("ReadingsCommitted was not closed by a commit")
		}
		rs, err = d.ReadStream(ctx, pos, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(streamValues(t, rs)); got != "[2]" {
			t.Fatalf("after the position: %s, want the late reading", got)
		}
		if rs[0].TS.Before(pos.TS) {
			t.Errorf("late reading's ts %v is before the position %v", rs[0].TS, pos.TS)
		}
	})
}

func TestStreamPositions(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if _, err := d.GetStreamPosition(ctx, "up"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("GetStreamPosition of none = %v, want ErrNotFound", err)
		}
		if err := d.CreateStreamPosition(ctx, "up"); err != nil {
			t.Fatal(err)
		}
		if p, err := d.GetStreamPosition(ctx, "up"); err != nil || p.Sent {
			t.Fatalf("new position = %+v, %v; want nothing sent", p, err)
		}
		at := time.Date(2024, 5, 1, 10, 15, 42, 123456789, time.UTC)
		if err := d.SaveStreamPosition(ctx, "up", db.StreamPosition{TS: at, ID: 42, Sent: true}); err != nil {
			t.Fatal(err)
		}
		want := db.StreamPosition{TS: at.Truncate(time.Microsecond), ID: 42, Sent: true}
		if p, err := d.GetStreamPosition(ctx, "up"); err != nil || !p.TS.Equal(want.TS) || p.ID != want.ID || !p.Sent {
			t.Fatalf("saved position = %+v, %v; want %+v", p, err, want)
		}
		if err := d.CreateStreamPosition(ctx, "up"); err != nil {
			t.Fatal(err)
		}
		if p, _ := d.GetStreamPosition(ctx, "up"); !p.Sent || p.ID != 42 {
			t.Errorf("CreateStreamPosition reset an existing position to %+v", p)
		}
		if err := d.SaveStreamPosition(ctx, "other", db.StreamPosition{}); err != nil {
			t.Fatal(err)
		}
		if p, err := d.GetStreamPosition(ctx, "other"); err != nil || p.Sent {
			t.Errorf("position saved as nothing sent = %+v, %v", p, err)
		}
		for range 2 { // removing none is no error
			if err := d.DeleteStreamPosition(ctx, "up"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.GetStreamPosition(ctx, "up"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("deleted position: %v, want ErrNotFound", err)
		}
	})
}

func TestDeleteNorthTask(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		north := db.Schedule{ID: testScheduleID(1), Name: "up", ProcessName: "north_C", Type: db.ScheduleStartup, Enabled: true}
		if _, err := d.CreateService(ctx, db.Service{Name: "up", Type: db.ServiceNorth, Plugin: "http_north"}, north); err != nil {
			t.Fatal(err)
		}
		task := db.Schedule{ID: testScheduleID(2), Name: "to-cloud", ProcessName: db.NorthTaskProcess,
			Type: db.ScheduleInterval, RepeatSeconds: 30, Enabled: true}
		if _, err := d.CreateSchedule(ctx, task); err != nil {
			t.Fatal(err)
		}
		other := db.Schedule{ID: testScheduleID(3), Name: "purge", ProcessName: "purge", Type: db.ScheduleInterval, RepeatSeconds: 600}
		if _, err := d.CreateSchedule(ctx, other); err != nil {
			t.Fatal(err)
		}
		if err := d.AddStatistics(ctx, map[string]int64{"up": 5, "to-cloud": 7, "purge": 100, "READINGS": 1000}); err != nil {
			t.Fatal(err)
		}
		if err := d.CreateStreamPosition(ctx, "to-cloud"); err != nil {
			t.Fatal(err)
		}

		if err := d.DeleteNorthTask(ctx, "purge"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("DeleteNorthTask of another process's schedule = %v, want ErrNotFound", err)
		}
		if err := d.DeleteNorthTask(ctx, "to-cloud"); err != nil {
			t.Fatal(err)
		}
		if _, err := d.GetScheduleByName(ctx, "to-cloud"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("task schedule after delete: %v", err)
		}
		if _, err := d.GetStreamPosition(ctx, "to-cloud"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("task position after delete: %v", err)
		}
		if _, err := d.GetStatistic(ctx, "to-cloud"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("task statistic after delete: %v", err)
		}
		if s, err := d.GetStatistic(ctx, "up"); err != nil || s.Value != 5 {
			t.Errorf("the north service's statistic after deleting the task = %+v, %v; want it kept", s, err)
		}
		if err := d.DeleteNorthTask(ctx, "to-cloud"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("second DeleteNorthTask = %v, want ErrNotFound", err)
		}
	})
}

func TestReadStreamUsesTheIndex(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		base := time.Now().UTC().Add(-time.Hour)
		var rs []db.Reading
		for i := range 50 {
			rs = append(rs, streamReading("a", i, base.Add(time.Duration(i)*time.Millisecond)))
		}
		if err := d.InsertReadings(ctx, rs); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name  string
			after db.StreamPosition
		}{
			{name: "from the start"},
			{name: "after a position", after: db.StreamPosition{TS: base, ID: 3, Sent: true}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				plan, err := d.ExplainReadStream(ctx, tc.after, 100)
				if err != nil {
					t.Fatal(err)
				}
				wantIndexPlan(t, plan, "readings_ts_id_idx")
			})
		}
	})
}
