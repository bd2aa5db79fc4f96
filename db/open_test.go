package db_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// open opens dsn and fails the test on error; the caller closes it.
func open(t *testing.T, dsn string) *db.DB {
	t.Helper()
	d, err := db.Open(t.Context(), dsn, "")
	if err != nil {
		t.Fatalf("Open(%q): %v", dsn, err)
	}
	return d
}

// closeDB closes d and fails the test on error.
func closeDB(t *testing.T, d *db.DB) {
	t.Helper()
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// schemaVersion returns the migration version and dirty flag recorded in d.
func schemaVersion(t *testing.T, d *db.DB) (int64, bool) {
	t.Helper()
	var rows []struct {
		Version int64 `db:"version"`
		Dirty   bool  `db:"dirty"`
	}
	if err := d.SelectSQL(t.Context(), &rows, "SELECT version, dirty FROM schema_migrations"); err != nil {
		t.Fatalf("read schema_migrations: %v", err)
	}
	if len(rows) != 1 {
		t.Fatalf("schema_migrations has %d rows, want 1", len(rows))
	}
	return rows[0].Version, rows[0].Dirty
}

// wantSchemaVersion is the newest migration's version: the highest number
// among the up migrations shipped (numbers may leave gaps for migrations of
// other lines of work).
var wantSchemaVersion = func() int64 {
	ups, err := filepath.Glob(filepath.Join("migrations", "sqlite", "*.up.sql"))
	if err != nil || len(ups) == 0 {
		panic(fmt.Sprintf("no migrations found: %v", err))
	}
	var newest int64
	for _, up := range ups {
		prefix, _, _ := strings.Cut(filepath.Base(up), "_")
		v, err := strconv.ParseInt(prefix, 10, 64)
		if err != nil {
			panic(fmt.Sprintf("migration %s: %v", up, err))
		}
		newest = max(newest, v)
	}
	return newest
}()

func TestMigrationsAppliedAndIdempotentOnReopen(t *testing.T) {
	dbtest.EachDSN(t, func(t *testing.T, dsn string) {
		d := open(t, dsn)
		if v, dirty := schemaVersion(t, d); v != wantSchemaVersion || dirty {
			t.Fatalf("after first open: version %d dirty %v, want %d clean", v, dirty, wantSchemaVersion)
		}
		if err := d.Ping(t.Context()); err != nil {
			t.Fatalf("Ping: %v", err)
		}
		if _, _, err := d.SaveCategory(t.Context(), "General", func(cur db.Category, _ bool) (db.Category, error) {
			cur.Description = "kept across reopen"
			return cur, nil
		}); err != nil {
			t.Fatalf("SaveCategory: %v", err)
		}
		closeDB(t, d)

		for i := range 2 {
			d = open(t, dsn)
			if v, dirty := schemaVersion(t, d); v != wantSchemaVersion || dirty {
				t.Errorf("reopen %d: version %d dirty %v, want %d clean", i+1, v, dirty, wantSchemaVersion)
			}
			c, err := d.GetCategory(t.Context(), "General")
			if err != nil || c.Description != "kept across reopen" {
				t.Errorf("reopen %d: GetCategory = %+v, %v", i+1, c, err)
			}
			closeDB(t, d)
		}
	})
}

func TestMigrationsDownAndUp(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if err := d.MigrateDown(ctx); err != nil {
			t.Fatalf("MigrateDown: %v", err)
		}
		var tables []string
		q := map[db.Dialect]string{
			db.SQLite:   "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migrations', 'sqlite_sequence')",
			db.Postgres: "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'",
		}[d.Dialect()]
		if err := d.SelectSQL(ctx, &tables, q); err != nil {
			t.Fatalf("list tables: %v", err)
		}
		if len(tables) != 0 {
			t.Errorf("tables left after down migration: %v", tables)
		}
		if err := d.MigrateUp(ctx); err != nil {
			t.Fatalf("MigrateUp: %v", err)
		}
		if v, dirty := schemaVersion(t, d); v != wantSchemaVersion || dirty {
			t.Errorf("after down and up: version %d dirty %v, want %d clean", v, dirty, wantSchemaVersion)
		}
		var roles []string
		if err := d.SelectSQL(ctx, &roles, "SELECT name FROM roles ORDER BY id"); err != nil || len(roles) != 5 {
			t.Errorf("roles after down and up = %v, %v; want 5", roles, err)
		}
	})
}

// TestTimeStorage pins the stored time format: integer microseconds since
// the epoch in SQLite, timestamptz in PostgreSQL.
func TestTimeStorage(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		e, err := d.InsertAudit(t.Context(), db.AuditEntry{
			Timestamp: time.Date(2026, 5, 6, 7, 8, 9, 987654000, time.UTC), Source: "START", Severity: "SUCCESS",
		})
		if err != nil {
			t.Fatalf("InsertAudit: %v", err)
		}
		q := map[db.Dialect]string{
			db.SQLite:   "SELECT ts FROM audit_log WHERE id = ? AND typeof(ts) = 'integer'",
			db.Postgres: "SELECT (extract(epoch FROM ts) * 1000000)::bigint FROM audit_log WHERE id = ? AND pg_typeof(ts) = 'timestamptz'::regtype",
		}[d.Dialect()]
		var got []int64
		if err := d.SelectSQL(t.Context(), &got, q, e.ID); err != nil {
			t.Fatalf("select ts: %v", err)
		}
		if want := e.Timestamp.UnixMicro(); len(got) != 1 || got[0] != want {
			t.Errorf("stored ts = %v, want [%d]", got, want)
		}
	})
}

func TestDialect(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		want := db.Dialect(strings.TrimPrefix(t.Name(), "TestDialect/"))
		if got := d.Dialect(); got != want {
			t.Errorf("Dialect() = %q, want %q", got, want)
		}
	})
}

func TestSeededRoles(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		type role struct {
			ID          int64  `db:"id"`
			Name        string `db:"name"`
			Description string `db:"description"`
		}
		var got []role
		if err := d.SelectSQL(t.Context(), &got, "SELECT id, name, description FROM roles ORDER BY id"); err != nil {
			t.Fatalf("select roles: %v", err)
		}
		want := []struct {
			id   int64
			name string
		}{{1, "admin"}, {2, "user"}, {3, "view"}, {4, "data-view"}, {5, "control"}}
		if len(got) != len(want) {
			t.Fatalf("got %d roles %+v, want %d", len(got), got, len(want))
		}
		for i, w := range want {
			if got[i].ID != w.id || got[i].Name != w.name || got[i].Description == "" {
				t.Errorf("role %d = %+v, want id %d name %q with a description", i, got[i], w.id, w.name)
			}
		}
	})
}

func TestUserConstraints(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		const insert = "INSERT INTO users (username, password_hash, role_id, access_method, created_at) VALUES (?, 'x', ?, ?, ?)"
		ctx := t.Context()
		if err := d.ExecSQL(ctx, insert, "Alice", 2, "any", time.Now()); err != nil {
			t.Fatalf("insert Alice: %v", err)
		}
		tests := []struct {
			name     string
			username string
			roleID   int
			access   string
			wantErr  error // nil: must succeed
		}{
			{name: "same name", username: "Alice", roleID: 2, access: "any", wantErr: db.ErrConflict},
			{name: "differs only in case", username: "aLICE", roleID: 1, access: "pwd", wantErr: db.ErrConflict},
			{name: "unknown role", username: "carol", roleID: 99, access: "any", wantErr: db.ErrConflict},
			{name: "other name", username: "bob", roleID: 5, access: "cert"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := d.ExecSQL(ctx, insert, tt.username, tt.roleID, tt.access, time.Now())
				if tt.wantErr == nil && err != nil {
					t.Fatalf("insert %q: %v", tt.username, err)
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Fatalf("insert %q: error %v, want %v", tt.username, err, tt.wantErr)
				}
			})
		}
		t.Run("bad access method is not a conflict", func(t *testing.T) {
			err := d.ExecSQL(ctx, insert, "dave", 2, "kerberos", time.Now())
			if err == nil || errors.Is(err, db.ErrConflict) || errors.Is(err, db.ErrNotFound) {
				t.Fatalf("insert with access_method kerberos: error %v, want an untranslated CHECK violation", err)
			}
		})
	})
}

func TestOpenDefaultCreatesDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "edged")
	d, err := db.Open(t.Context(), "", dir)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer closeDB(t, d)
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatalf("data dir: %v", err)
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		t.Errorf("data dir mode %v, want 0700", perm)
	}
	if _, err := os.Stat(filepath.Join(dir, db.DefaultFile)); err != nil {
		t.Errorf("database file: %v", err)
	}
	if d.Dialect() != db.SQLite {
		t.Errorf("Dialect() = %q, want sqlite", d.Dialect())
	}
}

// TestSQLiteFilesPrivate checks that the database and its WAL files are
// readable by the owner only, also when the process umask would allow more,
// and that wider modes left by an earlier version are tightened at open.
func TestSQLiteFilesPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	file := filepath.Join(dir, db.DefaultFile)
	companions := []string{file, file + "-wal", file + "-shm"}
	wantModes := func(t *testing.T, what string) {
		t.Helper()
		for p, want := range map[string]os.FileMode{dir: 0o700, file: 0o600, file + "-wal": 0o600, file + "-shm": 0o600} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Errorf("%s: %v", what, err)
				continue
			}
			if got := fi.Mode().Perm(); got != want {
				t.Errorf("%s: %s has mode %v, want %v", what, filepath.Base(p), got, want)
			}
		}
	}
	write := func(t *testing.T, d *db.DB) {
		t.Helper()
		if _, err := d.InsertAudit(t.Context(), db.AuditEntry{Source: "START", Severity: "INFORMATION"}); err != nil {
			t.Fatal(err)
		}
	}
	d, err := db.Open(t.Context(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	write(t, d) // the -wal and -shm files exist while the database is open
	wantModes(t, "new database")
	closeDB(t, d)

	// A database an older version left readable by everyone, in a
	// directory everyone may enter.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range companions {
		if err := os.Chmod(p, 0o644); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
	d, err = db.Open(t.Context(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB(t, d)
	write(t, d)
	wantModes(t, "reopened database")

	t.Run("sqlite DSN", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "other.db")
		d := open(t, "sqlite:"+path)
		defer closeDB(t, d)
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("mode %v, want 0600", got)
		}
	})
}

func TestOpenErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	tests := []struct {
		name    string
		dsn     string
		wantErr string
	}{
		{name: "unknown scheme", dsn: "mysql://u@h/x", wantErr: "unrecognised DSN"},
		{name: "missing directory", dsn: "sqlite:" + filepath.Join(t.TempDir(), "no", "such", "x.db"), wantErr: "open sqlite"},
		{name: "postgres unreachable", dsn: "host=" + t.TempDir() + " port=1 user=x dbname=x sslmode=disable", wantErr: "open postgres"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := db.Open(ctx, tt.dsn, t.TempDir())
			if err == nil {
				_ = d.Close()
				t.Fatalf("Open(%q) succeeded, want an error", tt.dsn)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Open(%q) error %q, want it to contain %q", tt.dsn, err, tt.wantErr)
			}
		})
	}
}

func TestOpenMemory(t *testing.T) {
	d := open(t, "sqlite::memory:")
	defer closeDB(t, d)
	if err := d.AddStatistics(t.Context(), map[string]int64{"READINGS": 3}); err != nil {
		t.Fatalf("AddStatistics: %v", err)
	}
	if s, err := d.GetStatistic(t.Context(), "READINGS"); err != nil || s.Value != 3 {
		t.Errorf("GetStatistic = %+v, %v; want value 3", s, err)
	}
}

// TestMigrationKeepsReadings migrates a database that a gateway of
// schema version 6 (before the rollups and the partitions) filled with
// readings: they stay, with their ids, rollups are
// built for them at the next Open, and new readings get ids above every
// id used before, purged ones included.
func TestMigrationKeepsReadings(t *testing.T) {
	dbtest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := t.Context()
		d := open(t, dsn)
		if err := d.MigrateTo(ctx, 6); err != nil {
			t.Fatalf("migrate to version 6: %v", err)
		}
		docs := []string{`{"v": 1, "w": "x"}`, `{"v": 1.7e308}`, `{"v": 1.7e308, "u": -3}`, `{"v": 1e400}`, `{}`}
		for i := range 300 {
			code := []string{"m1", "m/2"}[i%2]
			ts := t0.Add(time.Duration(i) * 7 * time.Second)
			if err := d.ExecSQL(ctx, `INSERT INTO readings (asset_code, reading, user_ts, ts) VALUES (?, ?, ?, ?)`,
				code, docs[i%len(docs)], ts, ts); err != nil {
				t.Fatal(err)
			}
		}
		// The newest ids were purged: they are not to be used again.
		var used []int64
		if err := d.SelectSQL(ctx, &used, `SELECT MAX(id) FROM readings`); err != nil {
			t.Fatal(err)
		}
		if err := d.ExecSQL(ctx, `DELETE FROM readings WHERE id > ?`, used[0]-10); err != nil {
			t.Fatal(err)
		}
		if err := d.ExecSQL(ctx, `INSERT INTO asset_counts (asset_code, count, oldest_user_ts, newest_user_ts)
			SELECT asset_code, COUNT(*), MIN(user_ts), MAX(user_ts) FROM readings GROUP BY asset_code`); err != nil {
			t.Fatal(err)
		}
		before := scanAllRows(t, d)
		closeDB(t, d)

		d = open(t, dsn)
		defer closeDB(t, d)
		if v, dirty := schemaVersion(t, d); v != wantSchemaVersion || dirty {
			t.Fatalf("after reopening: version %d dirty %v, want %d clean", v, dirty, wantSchemaVersion)
		}
		after := scanReadings(t, d)
		if len(after) != 290 || len(after) != len(before) {
			t.Fatalf("%d readings after the migration, %d before; want 290", len(after), len(before))
		}
		var pending []int
		if err := d.SelectSQL(ctx, &pending, `SELECT COUNT(*) FROM rollup_rebuilds`); err != nil || pending[0] != 0 {
			t.Errorf("rollup_rebuilds holds %v, %v; want none left", pending, err)
		}
		wantAssetsExact(t, d, countedAssets(t, d))
		wantRollupsExact(t, d, db.Window{Limit: 5}, db.Window{From: t0.Add(90 * time.Second), To: t0.Add(20 * time.Minute)})
		insertReadings(t, d, reading("m1", t0, `{"v": 2}`))
		var maxID []int64
		if err := d.SelectSQL(ctx, &maxID, `SELECT MAX(id) FROM readings`); err != nil || maxID[0] <= used[0] {
			t.Errorf("a new reading got id %v, %v; want above %d, the highest id ever used", maxID, err, used[0])
		}
	})
}
