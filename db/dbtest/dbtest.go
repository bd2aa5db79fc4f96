// Package dbtest gives tests throwaway databases: a fresh SQLite file in
// t.TempDir() always, and a fresh PostgreSQL database whenever the
// environment variable EDGE_TEST_PG names a server (scripts/with-postgres.sh
// sets it). Every database is migrated and is removed when the test ends.
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/edged/edged/db"
)

// EnvPostgres is the environment variable holding the DSN (URL or lib/pq
// key=value form) of a PostgreSQL server on which tests may create and drop
// databases.
const EnvPostgres = "EDGE_TEST_PG"

// setupTimeout bounds creating, opening and dropping a test database.
const setupTimeout = time.Minute

// Each runs fn as the subtest "sqlite" on a fresh SQLite database and as the
// subtest "postgres" on a fresh PostgreSQL database. The postgres subtest is
// skipped when EDGE_TEST_PG is unset. Failing to set up a database fails the
// subtest.
func Each(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// EachDSN is Each for tests that open the database themselves (for example
// to close and reopen it): fn receives the DSN of a fresh, not yet migrated
// database that is removed when the test ends.
func EachDSN(t *testing.T, fn func(t *testing.T, dsn string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLiteDSN(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, PostgresDSN(t)) })
}

// SQLite opens a fresh, migrated SQLite database in t.TempDir() and closes
// it when the test ends. It fails the test if the database cannot be opened.
func SQLite(t testing.TB) *db.DB {
	t.Helper()
	return open(t, SQLiteDSN(t))
}

// SQLiteDSN returns the DSN of a new SQLite file in t.TempDir().
func SQLiteDSN(t testing.TB) string {
	t.Helper()
	return "sqlite:" + filepath.Join(t.TempDir(), db.DefaultFile)
}

// Postgres opens a fresh, migrated PostgreSQL database (see PostgresDSN)
// and closes it when the test ends. It skips the test when EDGE_TEST_PG is
// unset and fails it if the database cannot be created or opened.
func Postgres(t testing.TB) *db.DB {
	t.Helper()
	return open(t, PostgresDSN(t))
}

// PostgresDSN creates an empty database with a random name on the server
// named by EDGE_TEST_PG and returns its DSN, in the same form as
// EDGE_TEST_PG. The database is dropped WITH (FORCE) when the test ends. It
// skips the test when EDGE_TEST_PG is unset and fails it if the database
// cannot be created.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(EnvPostgres)
	if admin == "" {
		t.Skip(EnvPostgres + " is unset; skipping PostgreSQL (run under scripts/with-postgres.sh)")
	}
	dsn, drop, err := CreatePostgres(admin)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(func() {
		if err := drop(); err != nil {
			t.Errorf("dbtest: %v", err)
		}
	})
	return dsn
}

// CreatePostgres creates an empty database with a random name on the
// server named by the DSN admin and returns its DSN, in the same form as
// admin, and drop, which drops it WITH (FORCE). It is PostgresDSN for
// databases that outlive one test (one per test binary, dropped from
// TestMain).
func CreatePostgres(admin string) (dsn string, drop func() error, err error) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := "edged_test_" + hex.EncodeToString(b[:])
	dsn, err = WithDatabase(admin, name)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", EnvPostgres, err)
	}
	exec := func(stmt string) error {
		ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
		defer cancel()
		c, err := sql.Open("postgres", admin)
		if err != nil {
			return err
		}
		defer func() { _ = c.Close() }()
		_, err = c.ExecContext(ctx, stmt)
		return err
	}
	if err := exec("CREATE DATABASE " + pq.QuoteIdentifier(name)); err != nil {
		return "", nil, fmt.Errorf("create database %s: %w", name, err)
	}
	drop = func() error {
		if err := exec("DROP DATABASE IF EXISTS " + pq.QuoteIdentifier(name) + " WITH (FORCE)"); err != nil {
			return fmt.Errorf("drop database %s: %w", name, err)
		}
		return nil
	}
	return dsn, drop, nil
}

// open opens and migrates dsn and closes it when the test ends.
func open(t testing.TB, dsn string) *db.DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	// Tests and benchmarks of storage logic do not need every commit on
	// the platter; TestOpenDurability checks the levels themselves.
	d, err := db.OpenDurable(ctx, dsn, "", db.Process)
	if err != nil {
		t.Fatalf("dbtest: open %s: %v", dsn, err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("dbtest: close: %v", err)
		}
	})
	return d
}

// kvDBName matches the dbname setting of a lib/pq key=value DSN, with a
// plain or a single-quoted value.
var kvDBName = regexp.MustCompile(`(^|\s)dbname\s*=\s*('(?:[^'\\]|\\.)*'|\S*)`)

// WithDatabase returns dsn (a postgres:// or postgresql:// URL, or a lib/pq
// key=value DSN) with its database name replaced by name, or added when dsn
// names none. It returns an error for a URL it cannot parse.
func WithDatabase(dsn, name string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("parse DSN: %w", err)
		}
		u.Path, u.RawPath = "/"+name, ""
		if q := u.Query(); q.Has("dbname") {
			q.Set("dbname", name)
			u.RawQuery = q.Encode()
		}
		return u.String(), nil
	}
	value := name
	if name == "" || strings.ContainsAny(name, " \t\n\r\f\v'\\") {
		value = "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(name) + "'"
	}
	if kvDBName.MatchString(dsn) {
		return kvDBName.ReplaceAllStringFunc(dsn, func(m string) string {
			lead := m[:len(m)-len(strings.TrimLeft(m, " \t\n\r\f\v"))]
			return lead + "dbname=" + value
		}), nil
	}
	return strings.TrimSpace(dsn + " dbname=" + value), nil
}
