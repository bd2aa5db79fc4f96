package db_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lib/pq"
	"github.com/lib/pq/pqerror"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestUnavailableClassification(t *testing.T) {
	t.Parallel()
	dial := &net.OpError{Op: "dial", Net: "unix", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{name: "nil", err: nil, want: false},
		{name: "no rows", err: sql.ErrNoRows, want: false},
		{name: "bad connection", err: driver.ErrBadConn, want: true},
		{name: "dial refused", err: fmt.Errorf("open: %w", dial), want: true},
		{name: "connection reset", err: syscall.ECONNRESET, want: true},
		{name: "disk full errno", err: fmt.Errorf("write: %w", syscall.ENOSPC), want: true},
		{name: "unexpected EOF", err: io.ErrUnexpectedEOF, want: true},
		{name: "context cancelled", err: fmt.Errorf("dial: %w", context.Canceled), want: false},
		{name: "context deadline on a dial", err: &net.OpError{Op: "dial", Err: context.DeadlineExceeded}, want: false},
		{name: "postgres admin shutdown", err: &pq.Error{Code: pqerror.AdminShutdown}, want: true},
		{name: "postgres starting up", err: &pq.Error{Code: pqerror.CannotConnectNow}, want: true},
		{name: "postgres disk full", err: &pq.Error{Code: pqerror.DiskFull}, want: true},
		{name: "postgres too many connections", err: &pq.Error{Code: "53300"}, want: true},
		{name: "postgres connection failure", err: &pq.Error{Code: "08006"}, want: true},
		{name: "postgres read-only", err: &pq.Error{Code: pqerror.ReadOnlySQLTransaction}, want: true},
		{name: "postgres unique violation", err: &pq.Error{Code: pqerror.UniqueViolation}, want: false},
		{name: "postgres bad encoding", err: &pq.Error{Code: "22021"}, want: false},
		{name: "postgres query cancelled", err: &pq.Error{Code: pqerror.QueryCanceled}, want: false},
		{name: "sqlite busy", err: sqliteError(t, sqlite3.SQLITE_BUSY), want: true},
		{name: "sqlite full", err: sqliteError(t, sqlite3.SQLITE_FULL), want: true},
		{name: "sqlite I/O error (extended)", err: sqliteError(t, sqlite3.SQLITE_IOERR_WRITE), want: true},
		{name: "sqlite constraint", err: sqliteError(t, sqlite3.SQLITE_CONSTRAINT_UNIQUE), want: false},
		{name: "sqlite interrupted", err: sqliteError(t, sqlite3.SQLITE_INTERRUPT), want: false},
		// A value the database refuses is the data's fault (ErrInvalidData,
		// 400), never an outage.
		{name: "sqlite too big", err: sqliteError(t, sqlite3.SQLITE_TOOBIG), want: false},
		{name: "sqlite check constraint", err: sqliteError(t, sqlite3.SQLITE_CONSTRAINT_CHECK), want: false},
		{name: "sqlite not null", err: sqliteError(t, sqlite3.SQLITE_CONSTRAINT_NOTNULL), want: false},
		{name: "postgres numeric out of range", err: &pq.Error{Code: "22003"}, want: false},
		{name: "postgres invalid JSON", err: &pq.Error{Code: "22P02"}, want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := db.Unavailable(tc.err); got != tc.want {
				t.Errorf("unavailable(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

// sqliteError returns a real modernc SQLite error with result code code,
// made by the driver itself: a *sqlite.Error cannot be built outside it.
func sqliteError(t *testing.T, code int) error {
	t.Helper()
	c, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	// RAISE cannot choose a result code; a failing query can, through
	// the code the test wants, so match on the code of a real error.
	var se *sqlite.Error
	switch code {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE:
		_, _ = c.Exec(`CREATE TABLE t (k INTEGER PRIMARY KEY, v UNIQUE)`)
		_, _ = c.Exec(`INSERT INTO t (v) VALUES (1)`)
		_, err = c.Exec(`INSERT INTO t (v) VALUES (1)`)
	default:
		return fakeSQLiteError{code: code}
	}
	if !errors.As(err, &se) || se.Code() != code {
		t.Fatalf("could not make SQLite error %d: %v", code, err)
	}
	return err
}

// fakeSQLiteError stands for SQLite result codes no query can provoke at
// will; the classifier reads them through Code() like *sqlite.Error's.
type fakeSQLiteError struct{ code int }

func (e fakeSQLiteError) Error() string { return fmt.Sprintf("sqlite error %d", e.code) }
func (e fakeSQLiteError) Code() int     { return e.code }

// TestOutagePostgres stops a throwaway PostgreSQL server under an open
// database: every call fails with ErrUnavailable and Health turns
// unavailable; after the server is back, Probe succeeds, Health is
// available again and the calls work, with nothing else done.
func TestOutagePostgres(t *testing.T) {
	cluster := dbtest.NewCluster(t)
	ctx := t.Context()
	d, err := db.Open(ctx, cluster.DSN(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	if _, err := d.InsertAudit(ctx, db.AuditEntry{Source: "START", Severity: "INFORMATION"}); err != nil {
		t.Fatal(err)
	}
	if h := d.Health(); !h.Available {
		t.Fatalf("Health before the outage = %+v", h)
	}

	cluster.Stop(t, "fast")
	checkUnavailable(t, d)
	if h := d.Health(); h.Available || h.Since.IsZero() || h.Cause == "" {
		t.Errorf("Health during the outage = %+v, want unavailable with its start and cause", h)
	}
	if err := d.Probe(ctx); !errors.Is(err, db.ErrUnavailable) {
		t.Errorf("Probe during the outage = %v, want ErrUnavailable", err)
	}

	cluster.Start(t)
	if err := d.Probe(ctx); err != nil {
		t.Fatalf("Probe after the outage = %v", err)
	}
	if h := d.Health(); !h.Available {
		t.Errorf("Health after a successful probe = %+v", h)
	}
	if _, n, err := d.ListAudit(ctx, db.AuditFilter{}); err != nil || n != 1 {
		t.Errorf("ListAudit after the outage = %d, %v; want the one entry", n, err)
	}
}

// TestOutageSQLiteLocked holds SQLite's write lock from another connection
// beyond the busy timeout: a write fails with ErrUnavailable and Health
// turns unavailable; once the lock is released, Probe brings it back.
func TestOutageSQLiteLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "edged.db")
	ctx := t.Context()
	d, err := db.Open(ctx, "sqlite:"+path, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })

	other, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Close() })
	lock, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	_, err = d.InsertAudit(ctx, db.AuditEntry{Source: "START", Severity: "INFORMATION"})
	if !errors.Is(err, db.ErrUnavailable) {
		t.Fatalf("InsertAudit while another process holds the write lock = %v, want ErrUnavailable", err)
	}
	if h := d.Health(); h.Available {
		t.Errorf("Health while locked = %+v, want unavailable", h)
	}
	if _, err := lock.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	_ = lock.Close()
	if err := d.Probe(ctx); err != nil {
		t.Fatalf("Probe after the lock was released = %v", err)
	}
	if h := d.Health(); !h.Available {
		t.Errorf("Health after a successful probe = %+v", h)
	}
}

// checkUnavailable calls a read, a write and a transaction of d and wants
// each to fail with ErrUnavailable.
func checkUnavailable(t *testing.T, d *db.DB) {
	t.Helper()
	ctx := t.Context()
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"read", func() error { _, _, err := d.ListAudit(ctx, db.AuditFilter{}); return err }},
		{"write", func() error {
			_, err := d.InsertAudit(ctx, db.AuditEntry{Source: "START", Severity: "INFORMATION"})
			return err
		}},
		{"transaction", func() error { return d.AddStatistics(ctx, map[string]int64{"READINGS": 1}) }},
		{"ping", func() error { return d.Ping(ctx) }},
	} {
		if err := c.call(); !errors.Is(err, db.ErrUnavailable) {
			t.Errorf("%s during the outage = %v, want ErrUnavailable", c.name, err)
		}
	}
}
