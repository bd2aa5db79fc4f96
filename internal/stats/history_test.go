package stats

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

var base = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// interval is a fake STATISTICS category.
type interval string

func (i interval) Value(_ context.Context, key, item string) (string, error) {
	if key != configmgr.CategoryStatistics || item != configmgr.ItemStatisticsInterval {
		return "", fault.New(fault.NotFound, "no %s/%s", key, item)
	}
	return string(i), nil
}

// historyFixture has snapshots at base, +1 min, +2 min and +3 min: READINGS
// grew by 60, 30 and 90, PURGED by 0, 10 and 0; the clock is at +3 min.
func historyFixture(t *testing.T) (*History, *clock.Fake, *db.DB) {
	t.Helper()
	d := dbtest.SQLite(t)
	clk := clock.NewFake(base)
	var pending map[string]int64
	h := NewHistory(HistoryOptions{Store: d, Config: interval("15"), Clock: clk, Flush: func(ctx context.Context) error {
		err := d.AddStatistics(ctx, pending)
		pending = nil
		return err
	}})
	if err := d.EnsureStatistics(t.Context(), Fixed()...); err != nil {
		t.Fatal(err)
	}
	for i, add := range []map[string]int64{nil, {Readings: 60}, {Readings: 30, Purged: 10}, {Readings: 90}} {
		if i > 0 {
			clk.Advance(time.Minute)
		}
		pending = add // counted in memory; Collect flushes them first
		if err := h.Collect(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	return h, clk, d
}

func TestHistoryEntries(t *testing.T) {
	h, _, _ := historyFixture(t)
	n, snaps, err := h.Entries(t.Context(), 2)
	if err != nil || n != 15 || len(snaps) != 2 {
		t.Fatalf("Entries(2) = %d, %d snapshots, %v; want interval 15 and 2", n, len(snaps), err)
	}
	if !snaps[0].TS.Equal(base.Add(3*time.Minute)) || snaps[0].Deltas[Readings] != 90 || snaps[1].Deltas[Purged] != 10 {
		t.Errorf("newest snapshots = %+v", snaps)
	}
	if len(snaps[0].Deltas) != len(Fixed()) {
		t.Errorf("a snapshot holds %d statistics, want every one (%d)", len(snaps[0].Deltas), len(Fixed()))
	}
	if _, _, err := h.Entries(t.Context(), 0); !errors.Is(err, fault.Invalid) {
		t.Errorf("Entries(0) = %v, want Invalid", err)
	}
}

func TestHistoryInterval(t *testing.T) {
	tests := []struct {
		name  string
		value string
		want  int
	}{
		{name: "configured", value: "1", want: 1},
		{name: "not a number falls back", value: "x", want: DefaultInterval},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHistory(HistoryOptions{Config: interval(tc.value)})
			if got, err := h.Interval(t.Context()); err != nil || got != tc.want {
				t.Errorf("Interval = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestRates(t *testing.T) {
	h, _, _ := historyFixture(t)
	tests := []struct {
		name       string
		statistics string
		periods    string
		want       map[string]map[int]float64
		wantErr    *fault.Kind
		wantMsg    string
	}{
		{name: "one minute holds the newest snapshot", statistics: "READINGS", periods: "1",
			want: map[string]map[int]float64{Readings: {1: 90}}},
		{name: "several periods and statistics", statistics: "READINGS, PURGED", periods: "2,3,60",
			want: map[string]map[int]float64{Readings: {2: 60, 3: 60, 60: 3}, Purged: {2: 5, 3: 10.0 / 3, 60: 10.0 / 60}}},
		{name: "repeats count once", statistics: "PURGED,PURGED", periods: "1,1",
			want: map[string]map[int]float64{Purged: {1: 0}}},
		{name: "unknown statistic", statistics: "READINGS,nobody", periods: "1", wantErr: fault.NotFound, wantMsg: "nobody"},
		{name: "no statistic", statistics: " , ", periods: "1", wantErr: fault.Invalid, wantMsg: "statistics"},
		{name: "no period", statistics: "READINGS", periods: "", wantErr: fault.Invalid, wantMsg: "periods"},
		{name: "period zero", statistics: "READINGS", periods: "0", wantErr: fault.Invalid, wantMsg: `"0"`},
		{name: "period not a number", statistics: "READINGS", periods: "1,x", wantErr: fault.Invalid, wantMsg: `"x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := h.Rates(t.Context(), tc.statistics, tc.periods)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantMsg) {
					t.Errorf("Rates = %v, %v; want %v naming %s", got, err, tc.wantErr, tc.wantMsg)
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("Rates = %v, %v; want %v", got, err, tc.want)
			}
			for k, w := range tc.want {
				if !maps.EqualFunc(got[k], w, func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }) {
					t.Errorf("rates of %s = %v, want %v", k, got[k], w)
				}
			}
		})
	}
}
