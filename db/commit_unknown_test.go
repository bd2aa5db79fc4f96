package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// openThroughDropper opens a PostgreSQL database through a proxy that can
// lose the answer to a COMMIT.
func openThroughDropper(t *testing.T) (*db.DB, *dbtest.CommitDropper) {
	t.Helper()
	drop, dsn := dbtest.NewCommitDropper(t, dbtest.PostgresDSN(t))
	d, err := db.Open(t.Context(), dsn, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d, drop
}

// outcome asks err's CommitUnknownError until the server tells (a dropped
// COMMIT stays "in progress" until the server notices the connection is
// gone).
func outcome(t *testing.T, err error) bool {
	t.Helper()
	var doubt *db.CommitUnknownError
	if !errors.As(err, &doubt) {
		t.Fatalf("error = %v, want a CommitUnknownError", err)
	}
	if !errors.Is(err, db.ErrUnavailable) {
		t.Errorf("error = %v, want it to wrap ErrUnavailable", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		stored, err := doubt.Committed(t.Context())
		if err == nil {
			return stored
		}
		if !errors.Is(err, db.ErrOutcomeUnknown) || time.Now().After(deadline) {
			t.Fatalf("Committed = %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLostCommitOutcome loses the answer to the COMMIT of InsertReadings
// and of AddStatistics, once after the server applied it and once before
// it got it: the error says the outcome is unknown, and asking tells what
// is stored.
func TestLostCommitOutcome(t *testing.T) {
	for _, tc := range []struct {
		name    string
		applied bool
	}{
		{name: "applied", applied: true},
		{name: "never applied", applied: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, drop := openThroughDropper(t)
			ctx := t.Context()
			rs := []db.Reading{
				{AssetCode: "lost", Reading: json.RawMessage(`{"v":1}`)},
				{AssetCode: "lost", Reading: json.RawMessage(`{"v":2}`)},
			}
			drop.Arm(tc.applied)
			err := d.InsertReadings(ctx, rs)
			if err == nil {
				t.Fatal("InsertReadings succeeded although its COMMIT's answer was lost")
			}
			if got := outcome(t, err); got != tc.applied {
				t.Errorf("Committed = %v, want %v", got, tc.applied)
			}
			assets, err := d.ListAssets(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var stored int64
			for _, a := range assets {
				stored += a.Count
			}
			if want := map[bool]int64{true: 2, false: 0}[tc.applied]; stored != want {
				t.Errorf("%d readings stored, want %d", stored, want)
			}

			if err := d.AddStatistics(ctx, map[string]int64{"LOST": 5}); err != nil {
				t.Fatal(err)
			}
			drop.Arm(tc.applied)
			err = d.AddStatistics(ctx, map[string]int64{"LOST": 3})
			if err == nil {
				t.Fatal("AddStatistics succeeded although its COMMIT's answer was lost")
			}
			if got := outcome(t, err); got != tc.applied {
				t.Errorf("Committed = %v, want %v", got, tc.applied)
			}
			stats, err := d.ListStatistics(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range stats {
				if want := map[bool]int64{true: 8, false: 5}[tc.applied]; s.Key == "LOST" && s.Value != want {
					t.Errorf("LOST = %d, want %d", s.Value, want)
				}
			}
		})
	}
}

// TestFailedCommitIsNotInDoubt: a transaction that fails before its COMMIT
// was sent is simply failed, and SQLite's commits are never in doubt.
func TestFailedCommitIsNotInDoubt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		err := d.InsertReadings(context.Background(), []db.Reading{{AssetCode: "x", Reading: json.RawMessage(`{"k":"\u0000"}`)}})
		if err == nil {
			if d.Dialect() == db.SQLite {
				return // SQLite stores it; nothing failed
			}
			t.Fatal("PostgreSQL stored a NUL")
		}
		var doubt *db.CommitUnknownError
		if errors.As(err, &doubt) {
			t.Errorf("a refused insert is in doubt: %v", err)
		}
	})
}
