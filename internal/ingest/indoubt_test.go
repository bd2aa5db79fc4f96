package ingest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/stats"
)

// TestLostCommitIsCountedOnce writes a submission to PostgreSQL through a
// proxy that loses the answer to its COMMIT, after the server applied it
// and before: the producer is told the readings were not stored (it may
// send them again), and once the buffer learnt the outcome the readings
// count as buffered when they are stored and as discarded when they are
// not — never discarded though stored.
func TestLostCommitIsCountedOnce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		applied bool
	}{
		{name: "applied", applied: true},
		{name: "never applied", applied: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			drop, dsn := dbtest.NewCommitDropper(t, dbtest.PostgresDSN(t))
			d, err := db.Open(t.Context(), dsn, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = d.Close() })
			clk := clock.Real{}
			counters := NewCounters(d, nil)
			buf := New(Options{Service: "svc", Plugin: "http_south", Store: d, Counters: counters,
				Tracker: NewTracker(d, func(context.Context) (string, error) { return "edge", nil }, clk),
				Clock:   clk, Limits: DefaultLimits})
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				_ = buf.Close(ctx)
			})

			drop.Arm(tc.applied)
			receipt, err := buf.Submit(readings("lost", 7))
			if err != nil {
				t.Fatal(err)
			}
			if err := receipt.Wait(t.Context()); !errors.Is(err, db.ErrUnavailable) {
				t.Fatalf("Wait = %v, want ErrUnavailable: the producer must not take the readings as stored", err)
			}
			want, other := stats.Buffered, stats.Discarded
			if !tc.applied {
				want, other = other, want
			}
			deadline := time.Now().Add(30 * time.Second)
			for counters.Value(want) != 7 {
				if time.Now().After(deadline) {
					t.Fatalf("%s = %d, %s = %d; want %s 7 once the outcome is learnt",
						want, counters.Value(want), other, counters.Value(other), want)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if n := counters.Value(other); n != 0 {
				t.Errorf("%s = %d, want 0", other, n)
			}
			if tc.applied && counters.Value("lost") != 7 {
				t.Errorf("statistic lost = %d, want 7", counters.Value("lost"))
			}
			assets, err := d.ListAssets(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			var stored int64
			for _, a := range assets {
				stored += a.Count
			}
			if stored != counters.Value(stats.Buffered) {
				t.Errorf("%d readings stored, BUFFERED %d", stored, counters.Value(stats.Buffered))
			}
		})
	}
}

// TestLostStatisticsFlushIsCountedOnce loses the answer to a flush's
// COMMIT: the next flush learns whether it was applied, so the counts
// reach storage exactly once either way.
func TestLostStatisticsFlushIsCountedOnce(t *testing.T) {
	for _, applied := range []bool{true, false} {
		t.Run(map[bool]string{true: "applied", false: "never applied"}[applied], func(t *testing.T) {
			drop, dsn := dbtest.NewCommitDropper(t, dbtest.PostgresDSN(t))
			d, err := db.Open(t.Context(), dsn, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = d.Close() })
			c := NewCounters(d, nil)
			c.Add("KEPT", "a statistic", 5)
			if err := c.Flush(t.Context()); err != nil {
				t.Fatal(err)
			}
			c.Add("KEPT", "a statistic", 3)
			drop.Arm(applied)
			if err := c.Flush(t.Context()); err == nil {
				t.Fatal("Flush succeeded although its COMMIT's answer was lost")
			}
			if got := c.Total("KEPT"); got != 8 {
				t.Errorf("Total while the flush is in doubt = %d, want 8", got)
			}
			deadline := time.Now().Add(30 * time.Second)
			for {
				err := c.Flush(t.Context())
				if err == nil {
					break
				}
				if !errors.Is(err, db.ErrOutcomeUnknown) || time.Now().After(deadline) {
					t.Fatalf("Flush after the lost commit = %v", err)
				}
				time.Sleep(20 * time.Millisecond)
			}
			all, err := d.ListStatistics(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range all {
				if s.Key == "KEPT" && s.Value != 8 {
					t.Errorf("KEPT = %d in storage, want 8 (5 + 3, once)", s.Value)
				}
			}
			if got := c.Total("KEPT"); got != 8 {
				t.Errorf("Total = %d, want 8", got)
			}
		})
	}
}
