package db_test

import (
	"os"
	"path/filepath"
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
