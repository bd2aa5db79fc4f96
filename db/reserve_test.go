package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	sqlite3 "modernc.org/sqlite/lib"
)

// codeError is a driver error reporting a SQLite result code, as
// modernc's *sqlite.Error does.
type codeError int

func (c codeError) Error() string { return fmt.Sprintf("sqlite error (%d)", int(c)) }
func (c codeError) Code() int     { return int(c) }

func TestTrackerFullDisk(t *testing.T) {
	t.Parallel()
	freeing := context.WithValue(context.Background(), freeingKey{}, true)
	plain := context.Background()
	for _, tc := range []struct {
		name     string
		reserved bool
		err      error
		wantFull bool
	}{
		{name: "sqlite full with a reserve", reserved: true, err: codeError(sqlite3.SQLITE_FULL), wantFull: true},
		{name: "ENOSPC with a reserve", reserved: true, err: fmt.Errorf("write: %w", syscall.ENOSPC), wantFull: true},
		{name: "sqlite full without a reserve", reserved: false, err: codeError(sqlite3.SQLITE_FULL)},
		{name: "I/O error with a reserve", reserved: true, err: codeError(sqlite3.SQLITE_IOERR)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := &tracker{writes: true, reserved: tc.reserved}
			if err := tr.fail(tc.err); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("fail = %v, want ErrUnavailable", err)
			}
			if tr.isFull() != tc.wantFull {
				t.Fatalf("isFull = %v, want %v", tr.isFull(), tc.wantFull)
			}
			if !tc.wantFull {
				if err := tr.refuse(plain); err != nil {
					t.Errorf("refuse outside a full disk = %v", err)
				}
				tr.wrote()
				if !tr.health().Available {
					t.Error("a write did not end an outage other than a full disk")
				}
				return
			}
			// A small write that still fits does not end a full disk.
			tr.wrote()
			if h := tr.health(); h.Available {
				t.Error("a successful write ended the full disk")
			}
			if err := tr.refuse(plain); !errors.Is(err, ErrUnavailable) || !errors.Is(err, errDiskFull) {
				t.Errorf("refuse a write = %v, want ErrUnavailable for the full disk", err)
			}
			if err := tr.refuse(freeing); err != nil {
				t.Errorf("refuse a deletion of readings = %v, want nil", err)
			}
			for query, refused := range map[string]bool{
				"SELECT 1": false, "  pragma wal_checkpoint(TRUNCATE)": false, "(SELECT 1)": false,
				"INSERT INTO audit_log VALUES (1)": true, "UPDATE statistics SET value = 1": true, "DELETE FROM readings": true,
			} {
				if err := tr.refuseQuery(plain, query); (err != nil) != refused {
					t.Errorf("refuseQuery(%q) = %v, want refused %v", query, err, refused)
				}
			}
			// An I/O error meanwhile does not turn the full disk into
			// an outage any write ends.
			_ = tr.fail(codeError(sqlite3.SQLITE_IOERR))
			if !tr.isFull() {
				t.Error("a later error ended the full state")
			}
			since := tr.health().Since
			tr.endFull()
			if tr.isFull() || tr.health().Available || !tr.health().Since.Equal(since) {
				t.Errorf("after endFull: full %v, health %+v; want an outage since %v any write ends", tr.isFull(), tr.health(), since)
			}
			tr.wrote()
			if !tr.health().Available {
				t.Error("a write after endFull did not end the outage")
			}
		})
	}
}

func TestReserve(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := newReserve(filepath.Join(dir, "edged.db"))
	if !r.inPlace() {
		t.Skip("the temporary directory has no room for a reserve")
	}
	fi, err := os.Stat(filepath.Join(dir, "edged.db-reserve"))
	if err != nil || fi.Size() != ReserveSize {
		t.Fatalf("reserve file: %v, %v; want %d bytes", fi, err, ReserveSize)
	}
	if !r.release() || r.inPlace() {
		t.Fatal("release did not release the reserve")
	}
	if _, err := os.Stat(r.path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the reserve file is still there: %v", err)
	}
	if r.release() {
		t.Error("a second release reported a reserve")
	}
	if !r.make() || !r.inPlace() {
		t.Fatal("make did not make the reserve again")
	}
	// A reserve left by an earlier run is taken as it is.
	if again := newReserve(filepath.Join(dir, "edged.db")); !again.inPlace() {
		t.Error("an existing reserve file was not recognised")
	}
}
