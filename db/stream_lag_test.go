package db_test

import (
	"maps"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestStreamLags(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		base := time.Now().UTC().Add(-time.Hour).Truncate(time.Microsecond)
		// Two readings share a ts, so the position's id decides.
		if err := d.InsertReadings(ctx, []db.Reading{
			streamReading("a", 1, base), streamReading("a", 2, base.Add(time.Second)),
			streamReading("b", 3, base.Add(time.Second)), streamReading("a", 4, base.Add(2*time.Second)),
		}); err != nil {
			t.Fatal(err)
		}
		all, err := d.ReadStream(ctx, db.StreamPosition{}, 10)
		if err != nil || len(all) != 4 {
			t.Fatalf("stream = %d readings, %v", len(all), err)
		}
		if got, err := d.StreamLags(ctx); err != nil || len(got) != 0 {
			t.Fatalf("lags without streams = %v, %v; want none", got, err)
		}
		for name, pos := range map[string]db.StreamPosition{
			"caught-up": db.PositionOf(all[3]),
			"same-ts":   db.PositionOf(all[1]), // the third has the same ts, a higher id
			"first":     db.PositionOf(all[0]),
		} {
			if err := d.SaveStreamPosition(ctx, name, pos); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.CreateStreamPosition(ctx, "nothing-sent"); err != nil {
			t.Fatal(err)
		}
		got, err := d.StreamLags(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"caught-up": 0, "same-ts": 2, "first": 3, "nothing-sent": 4}
		if !maps.Equal(got, want) {
			t.Errorf("lags = %v, want %v", got, want)
		}
	})
}
