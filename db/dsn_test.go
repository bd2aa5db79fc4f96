package db

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseDSN(t *testing.T) {
	tests := []struct {
		name        string
		dsn         string
		dataDir     string
		wantDialect Dialect
		wantTarget  string
		wantErr     string
	}{
		{name: "empty uses data dir", dsn: "", dataDir: "/var/lib/edged", wantDialect: SQLite, wantTarget: filepath.Join("/var/lib/edged", "edged.db")},
		{name: "empty without data dir", dsn: "", dataDir: "", wantErr: "data directory"},
		{name: "sqlite absolute", dsn: "sqlite:/data/x.db", wantDialect: SQLite, wantTarget: "/data/x.db"},
		{name: "sqlite relative", dsn: "sqlite:x.db", wantDialect: SQLite, wantTarget: "x.db"},
		{name: "sqlite url absolute", dsn: "sqlite:///data/x.db", wantDialect: SQLite, wantTarget: "/data/x.db"},
		{name: "sqlite url relative", dsn: "sqlite://x.db", wantDialect: SQLite, wantTarget: "x.db"},
		{name: "sqlite memory", dsn: "sqlite::memory:", wantDialect: SQLite, wantTarget: ":memory:"},
		{name: "sqlite no path", dsn: "sqlite:", wantErr: "no path"},
		{name: "sqlite query", dsn: "sqlite:/x.db?mode=ro", wantErr: "must not contain"},
		{name: "sqlite hash allowed", dsn: "sqlite:/tmp/a#01/x.db", wantDialect: SQLite, wantTarget: "/tmp/a#01/x.db"},
		{name: "postgres url", dsn: "postgres://u@h/db?sslmode=disable", wantDialect: Postgres, wantTarget: "postgres://u@h/db?sslmode=disable"},
		{name: "postgresql url", dsn: "postgresql://u@/db?host=/tmp/s", wantDialect: Postgres, wantTarget: "postgresql://u@/db?host=/tmp/s"},
		{name: "key value host", dsn: "host=/tmp/pg port=5432 user=postgres sslmode=disable", wantDialect: Postgres, wantTarget: "host=/tmp/pg port=5432 user=postgres sslmode=disable"},
		{name: "key value dbname", dsn: "dbname=edged", wantDialect: Postgres, wantTarget: "dbname=edged"},
		{name: "mysql rejected", dsn: "mysql://u@h/db", wantErr: "sqlite:PATH"},
		{name: "bare path rejected", dsn: "/data/x.db", wantErr: "postgres://"},
		{name: "file uri rejected", dsn: "file:x.db", wantErr: "unrecognised DSN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dialect, target, err := parseDSN(tt.dsn, tt.dataDir)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseDSN(%q) error = %v, want one containing %q", tt.dsn, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseDSN(%q): %v", tt.dsn, err)
			}
			if dialect != tt.wantDialect || target != tt.wantTarget {
				t.Errorf("parseDSN(%q) = %q, %q; want %q, %q", tt.dsn, dialect, target, tt.wantDialect, tt.wantTarget)
			}
		})
	}
}

func TestLimitOffset(t *testing.T) {
	tests := []struct {
		name        string
		dialect     Dialect
		limit, skip int
		wantSQL     string
		wantArgs    int
		wantErr     bool
	}{
		{name: "none", dialect: SQLite, wantSQL: ""},
		{name: "limit", dialect: Postgres, limit: 5, wantSQL: " LIMIT ?", wantArgs: 1},
		{name: "limit and skip", dialect: SQLite, limit: 5, skip: 2, wantSQL: " LIMIT ? OFFSET ?", wantArgs: 2},
		{name: "skip only sqlite", dialect: SQLite, skip: 2, wantSQL: " LIMIT -1 OFFSET ?", wantArgs: 1},
		{name: "skip only postgres", dialect: Postgres, skip: 2, wantSQL: " OFFSET ?", wantArgs: 1},
		{name: "negative", dialect: SQLite, limit: -1, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &DB{dialect: tt.dialect}
			sql, args, err := d.limitOffset(tt.limit, tt.skip)
			if (err != nil) != tt.wantErr {
				t.Fatalf("limitOffset error = %v, want error %v", err, tt.wantErr)
			}
			if sql != tt.wantSQL || len(args) != tt.wantArgs {
				t.Errorf("limitOffset = %q, %v; want %q with %d args", sql, args, tt.wantSQL, tt.wantArgs)
			}
		})
	}
}
