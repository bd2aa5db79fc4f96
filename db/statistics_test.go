package db_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// listStatistics returns all statistics and fails the test on error.
func listStatistics(t *testing.T, d *db.DB) []db.Statistic {
	t.Helper()
	got, err := d.ListStatistics(t.Context())
	if err != nil {
		t.Fatalf("ListStatistics: %v", err)
	}
	return got
}

func TestStatistics(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if got := listStatistics(t, d); got == nil || len(got) != 0 {
			t.Fatalf("ListStatistics on empty database = %v, want empty non-nil", got)
		}

		steps := []struct {
			name   string
			ensure []db.Statistic
			add    map[string]int64
			want   []db.Statistic
		}{
			{
				name: "ensure creates",
				ensure: []db.Statistic{
					{Key: "READINGS", Description: "Readings received", Value: 0},
					{Key: "BUFFERED", Description: "Readings currently in the buffer", Value: 7},
					{Key: "PURGED", Description: "Readings removed by purge"},
				},
				want: []db.Statistic{
					{Key: "BUFFERED", Description: "Readings currently in the buffer", Value: 7},
					{Key: "PURGED", Description: "Readings removed by purge"},
					{Key: "READINGS", Description: "Readings received"},
				},
			},
			{
				name: "ensure again leaves rows untouched and adds missing",
				ensure: []db.Statistic{
					{Key: "READINGS", Description: "changed", Value: 100},
					{Key: "BUFFERED", Description: "changed", Value: 1},
					{Key: "DISCARDED", Description: "Readings discarded", Value: 2},
					{Key: "DISCARDED", Description: "duplicate in one call", Value: 3},
				},
				want: []db.Statistic{
					{Key: "BUFFERED", Description: "Readings currently in the buffer", Value: 7},
					{Key: "DISCARDED", Description: "Readings discarded", Value: 2},
					{Key: "PURGED", Description: "Readings removed by purge"},
					{Key: "READINGS", Description: "Readings received"},
				},
			},
			{
				name: "add deltas and create missing keys",
				add:  map[string]int64{"READINGS": 10, "BUFFERED": -3, "sinusoid": 10, "sine-Ingest": 10},
				want: []db.Statistic{
					{Key: "BUFFERED", Description: "Readings currently in the buffer", Value: 4},
					{Key: "DISCARDED", Description: "Readings discarded", Value: 2},
					{Key: "PURGED", Description: "Readings removed by purge"},
					{Key: "READINGS", Description: "Readings received", Value: 10},
					{Key: "sine-Ingest", Value: 10},
					{Key: "sinusoid", Value: 10},
				},
			},
			{
				name: "add again accumulates",
				add:  map[string]int64{"READINGS": 5, "sinusoid": 5, "PURGED": 0},
				want: []db.Statistic{
					{Key: "BUFFERED", Description: "Readings currently in the buffer", Value: 4},
					{Key: "DISCARDED", Description: "Readings discarded", Value: 2},
					{Key: "PURGED", Description: "Readings removed by purge"},
					{Key: "READINGS", Description: "Readings received", Value: 15},
					{Key: "sine-Ingest", Value: 10},
					{Key: "sinusoid", Value: 15},
				},
			},
			{
				name: "nothing to do",
				want: nil, // unchanged; checked below
			},
		}
		var last []db.Statistic
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				if err := d.EnsureStatistics(ctx, st.ensure...); err != nil {
					t.Fatalf("EnsureStatistics: %v", err)
				}
				if err := d.AddStatistics(ctx, st.add); err != nil {
					t.Fatalf("AddStatistics: %v", err)
				}
				want := st.want
				if want == nil {
					want = last
				}
				if got := listStatistics(t, d); !slices.Equal(got, want) {
					t.Errorf("ListStatistics =\n%v\nwant (sorted by key)\n%v", got, want)
				}
				last = want
			})
		}

		t.Run("get", func(t *testing.T) {
			s, err := d.GetStatistic(ctx, "READINGS")
			if err != nil || s != (db.Statistic{Key: "READINGS", Description: "Readings received", Value: 15}) {
				t.Errorf("GetStatistic(READINGS) = %+v, %v", s, err)
			}
			if s, err := d.GetStatistic(ctx, "readings"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("GetStatistic(readings) = %+v, %v; want ErrNotFound", s, err)
			}
		})
		t.Run("empty key", func(t *testing.T) {
			if err := d.AddStatistics(ctx, map[string]int64{"": 1, "READINGS": 1}); err == nil {
				t.Error("AddStatistics with an empty key succeeded, want an error")
			}
			if s, _ := d.GetStatistic(ctx, "READINGS"); s.Value != 15 {
				t.Errorf("READINGS = %d after failed flush, want 15 (all or nothing)", s.Value)
			}
		})
	})
}

func TestAddStatisticsConcurrent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		const workers, rounds = 8, 10
		var wg sync.WaitGroup
		errs := make(chan error, workers*rounds)
		for w := range workers {
			wg.Go(func() {
				for range rounds {
					// Overlapping keys in different map orders: flushes must
					// neither deadlock nor lose increments.
					deltas := map[string]int64{"READINGS": 1, "a": 1, "b": 1, "z": 1}
					if w%2 == 0 {
						deltas["own"] = 1
					}
					errs <- d.AddStatistics(t.Context(), deltas)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("AddStatistics: %v", err)
			}
		}
		want := []db.Statistic{
			{Key: "READINGS", Value: workers * rounds},
			{Key: "a", Value: workers * rounds},
			{Key: "b", Value: workers * rounds},
			{Key: "own", Value: workers / 2 * rounds},
			{Key: "z", Value: workers * rounds},
		}
		if got := listStatistics(t, d); !slices.Equal(got, want) {
			t.Errorf("ListStatistics = %v, want %v", got, want)
		}
	})
}

func TestStatisticsManyKeys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		// More keys than one multi-row statement holds.
		const n = 1234
		stats := make([]db.Statistic, n)
		deltas := make(map[string]int64, n)
		for i := range stats {
			k := "asset-" + string(rune('a'+i%26)) + "-" + strconv.Itoa(i)
			stats[i] = db.Statistic{Key: k, Value: int64(i)}
			deltas[k] = 1
		}
		if err := d.EnsureStatistics(t.Context(), stats...); err != nil {
			t.Fatalf("EnsureStatistics: %v", err)
		}
		if err := d.AddStatistics(t.Context(), deltas); err != nil {
			t.Fatalf("AddStatistics: %v", err)
		}
		got := listStatistics(t, d)
		if len(got) != n {
			t.Fatalf("got %d statistics, want %d", len(got), n)
		}
		var sum int64
		for _, s := range got {
			sum += s.Value
		}
		if want := int64(n*(n-1)/2 + n); sum != want {
			t.Errorf("sum of values = %d, want %d", sum, want)
		}
		if !slices.IsSortedFunc(got, func(a, b db.Statistic) int { return strings.Compare(a.Key, b.Key) }) {
			t.Error("statistics not sorted by key")
		}
	})
}
