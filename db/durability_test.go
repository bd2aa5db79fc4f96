package db_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// TestOpenDurability checks that each durability level sets what makes a
// commit survive what it promises, on every pool: SQLite's synchronous
// (2 = FULL, 1 = NORMAL) and PostgreSQL's synchronous_commit.
func TestOpenDurability(t *testing.T) {
	tests := []struct {
		level      db.Durability
		sqlite, pg string
	}{
		{level: db.Power, sqlite: "2", pg: "on"},
		{level: db.Process, sqlite: "1", pg: "off"},
	}
	for _, tc := range tests {
		t.Run(string(tc.level), func(t *testing.T) {
			t.Run("sqlite", func(t *testing.T) {
				// A data directory that does not exist yet, as at a first
				// start: it is created (and, for Power, its parent synced).
				dir := filepath.Join(t.TempDir(), "data", "nested")
				d, err := db.OpenDurable(t.Context(), "", dir, tc.level)
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = d.Close() }()
				w, r, err := d.Settings(t.Context(), "PRAGMA synchronous")
				if err != nil || w != tc.sqlite || r != tc.sqlite {
					t.Errorf("synchronous = %q (writer), %q (readers), %v; want %q", w, r, err, tc.sqlite)
				}
				if _, err := os.Stat(filepath.Join(dir, db.DefaultFile)); err != nil {
					t.Errorf("database file: %v", err)
				}
			})
			t.Run("postgres", func(t *testing.T) {
				dsn := dbtest.PostgresDSN(t)
				d, err := db.OpenDurable(t.Context(), dsn, "", tc.level)
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = d.Close() }()
				w, _, err := d.Settings(t.Context(), "SHOW synchronous_commit")
				if err != nil || w != tc.pg {
					t.Errorf("synchronous_commit = %q, %v; want %q", w, err, tc.pg)
				}
			})
		})
	}
	if _, err := db.ParseDurability("fsync"); err == nil {
		t.Error(`ParseDurability("fsync") = nil`)
	}
	if _, err := db.OpenDurable(t.Context(), "", t.TempDir(), "maybe"); err == nil {
		t.Error("OpenDurable with an unknown level = nil")
	}
}

// TestInsertReadingsDeferred checks the readings' commits that wait for
// their sync afterwards: at durability power on SQLite there is something
// to wait for, and the write connection syncs every other commit again
// afterwards; elsewhere there is nothing to wait for. Many writers waiting
// at once share syncs and none hangs. (That a waited-for commit survives a
// power cut is what internal/crashfs's TestPowerLoss shows.)
func TestInsertReadingsDeferred(t *testing.T) {
	tests := []struct {
		name     string
		level    db.Durability
		dsn      func(t *testing.T) string
		wantWait bool
	}{
		{name: "sqlite power", level: db.Power, dsn: func(*testing.T) string { return "" }, wantWait: true},
		{name: "sqlite process", level: db.Process, dsn: func(*testing.T) string { return "" }},
		{name: "postgres power", level: db.Power, dsn: func(t *testing.T) string { return dbtest.PostgresDSN(t) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := db.OpenDurable(t.Context(), tc.dsn(t), t.TempDir(), tc.level)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = d.Close() }()
			ctx := t.Context()
			const writers, each = 8, 20
			var wg sync.WaitGroup
			errs := make(chan error, writers*each)
			waits := make(chan bool, writers*each)
			for w := range writers {
				wg.Go(func() {
					for i := range each {
						r := db.Reading{AssetCode: "deferred", Reading: json.RawMessage(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i))}
						wait, err := d.InsertReadingsDeferred(ctx, []db.Reading{r})
						if err == nil && wait != nil {
							err = wait(ctx)
						}
						errs <- err
						waits <- wait != nil
					}
				})
			}
			wg.Wait()
			close(errs)
			close(waits)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			for got := range waits {
				if got != tc.wantWait {
					t.Fatalf("something to wait for = %v, want %v", got, tc.wantWait)
				}
			}
			rs, err := d.AssetReadings(ctx, "deferred", db.Window{Limit: 1000})
			if err != nil || len(rs) != writers*each {
				t.Errorf("stored %d readings, %v; want %d", len(rs), err, writers*each)
			}
			if tc.level == db.Power && tc.wantWait {
				if w, _, err := d.Settings(ctx, "PRAGMA synchronous"); err != nil || w != "2" {
					t.Errorf("synchronous of the write connection after relaxed commits = %q, %v; want 2 (FULL)", w, err)
				}
			}
		})
	}
}
