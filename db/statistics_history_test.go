package db_test

import (
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// collect takes a snapshot at at and fails the test on error.
func collect(t *testing.T, d *db.DB, at time.Time, wantRows int) {
	t.Helper()
	n, err := d.CollectStatistics(t.Context(), at)
	if err != nil || n != wantRows {
		t.Fatalf("CollectStatistics = %d, %v; want %d rows", n, err, wantRows)
	}
}

func TestStatisticsHistory(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if got, err := d.StatisticsHistory(ctx, 20); err != nil || got == nil || len(got) != 0 {
			t.Fatalf("StatisticsHistory on an empty database = %v, %v; want empty, non-nil", got, err)
		}
		base := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
		// A seeded value is a baseline, not activity.
		if err := d.EnsureStatistics(ctx, db.Statistic{Key: "READINGS", Value: 100}, db.Statistic{Key: "PURGED"}); err != nil {
			t.Fatal(err)
		}
		collect(t, d, base, 2)
		if err := d.AddStatistics(ctx, map[string]int64{"READINGS": 15, "sine-Ingest": 15}); err != nil {
			t.Fatal(err)
		}
		collect(t, d, base.Add(15*time.Second), 3)
		if err := d.AddStatistics(ctx, map[string]int64{"READINGS": 5, "PURGED": 7}); err != nil {
			t.Fatal(err)
		}
		collect(t, d, base.Add(30*time.Second), 3)
		collect(t, d, base.Add(45*time.Second), 3)

		want := []db.HistorySnapshot{
			{TS: base.Add(45 * time.Second), Deltas: map[string]int64{"READINGS": 0, "PURGED": 0, "sine-Ingest": 0}},
			{TS: base.Add(30 * time.Second), Deltas: map[string]int64{"READINGS": 5, "PURGED": 7, "sine-Ingest": 0}},
			{TS: base.Add(15 * time.Second), Deltas: map[string]int64{"READINGS": 15, "PURGED": 0, "sine-Ingest": 15}},
			{TS: base, Deltas: map[string]int64{"READINGS": 0, "PURGED": 0}},
		}
		limits := []struct {
			name  string
			limit int
			want  []db.HistorySnapshot
		}{
			{name: "all", limit: 0, want: want},
			{name: "newest two", limit: 2, want: want[:2]},
			{name: "more than there are", limit: 20, want: want},
		}
		for _, l := range limits {
			t.Run(l.name, func(t *testing.T) {
				got, err := d.StatisticsHistory(ctx, l.limit)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(l.want) {
					t.Fatalf("StatisticsHistory(%d) = %d snapshots %v, want %d", l.limit, len(got), got, len(l.want))
				}
				for i := range got {
					if !got[i].TS.Equal(l.want[i].TS) || !maps.Equal(got[i].Deltas, l.want[i].Deltas) {
						t.Errorf("snapshot %d = %v %v, want %v %v", i, got[i].TS, got[i].Deltas, l.want[i].TS, l.want[i].Deltas)
					}
				}
			})
		}

		sums := []struct {
			name  string
			keys  []string
			since time.Time
			want  map[string]int64
		}{
			{name: "after the first snapshot", keys: []string{"READINGS", "PURGED"}, since: base,
				want: map[string]int64{"READINGS": 20, "PURGED": 7}},
			{name: "exclusive bound", keys: []string{"READINGS"}, since: base.Add(15 * time.Second),
				want: map[string]int64{"READINGS": 5}},
			{name: "a key without history", keys: []string{"nobody", "sine-Ingest"}, since: base.Add(-time.Hour),
				want: map[string]int64{"nobody": 0, "sine-Ingest": 15}},
			{name: "nothing since", keys: []string{"READINGS"}, since: base.Add(time.Hour), want: map[string]int64{"READINGS": 0}},
		}
		for _, s := range sums {
			t.Run("sums "+s.name, func(t *testing.T) {
				got, err := d.StatisticsDeltaSums(ctx, s.keys, s.since)
				if err != nil || !maps.Equal(got, s.want) {
					t.Errorf("StatisticsDeltaSums = %v, %v; want %v", got, err, s.want)
				}
			})
		}

		t.Run("delete before", func(t *testing.T) {
			n, err := d.DeleteStatisticsHistory(ctx, base.Add(30*time.Second))
			if err != nil || n != 5 {
				t.Fatalf("DeleteStatisticsHistory = %d, %v; want 5 rows (two snapshots)", n, err)
			}
			got, _ := d.StatisticsHistory(ctx, 0)
			if len(got) != 2 || !got[1].TS.Equal(base.Add(30*time.Second)) {
				t.Errorf("history left = %v, want the snapshots at +30s and +45s", got)
			}
		})
	})
}

// TestCollectStatisticsLosesNoCount runs snapshots while counters are
// added: the deltas of all snapshots must add up to every count added.
func TestCollectStatisticsLosesNoCount(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		const adders, adds = 4, 50
		base := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
		var wg sync.WaitGroup
		errs := make(chan error, adders+1)
		for range adders {
			wg.Go(func() {
				for range adds {
					if err := d.AddStatistics(ctx, map[string]int64{"A": 1, "B": 2}); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Go(func() {
			for i := range 30 {
				if _, err := d.CollectStatistics(ctx, base.Add(time.Duration(i)*time.Second)); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		collect(t, d, base.Add(time.Hour), 2)
		sums, err := d.StatisticsDeltaSums(ctx, []string{"A", "B"}, base.Add(-time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int64{"A": adders * adds, "B": 2 * adders * adds}; !maps.Equal(sums, want) {
			t.Errorf("history deltas add up to %v, want %v", sums, want)
		}
	})
}
