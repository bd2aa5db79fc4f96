package db

import (
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteCode returns the extended result code of a modernc SQLite error
// (*sqlite.Error, or any error in the chain reporting a result code the
// same way), or 0.
func sqliteCode(err error) int {
	var se interface{ Code() int }
	if errors.As(err, &se) {
		return se.Code()
	}
	return 0
}

var _ interface{ Code() int } = (*sqlite.Error)(nil)

func sqliteUniqueViolation(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return true
	}
	return false
}

func sqliteForeignKeyViolation(err error) bool {
	return sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}

// sqliteUnavailable reports whether err is a SQLite error meaning the
// database cannot be used now: busy or locked beyond the busy timeout, out
// of memory, read-only (the file or its directory lost write permission),
// an I/O error, a full disk, or a file that cannot be opened.
func sqliteUnavailable(err error) bool {
	switch sqliteCode(err) & 0xff { // the primary result code
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_READONLY,
		sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN:
		return true
	}
	return false
}

// sqliteDataException reports a value SQLite refuses: too big, or failing
// a CHECK or NOT NULL constraint.
func sqliteDataException(err error) bool {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_TOOBIG, sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL:
		return true
	}
	return false
}

// sqliteFull reports SQLite's "database or disk is full".
func sqliteFull(err error) bool {
	return sqliteCode(err)&0xff == sqlite3.SQLITE_FULL
}
