package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
)

// failures counts the storage errors of this process (see Failures).
var failures atomic.Uint64

// Failures returns how many storage operations of this process failed
// with an error other than a missing row, a conflict or a cancelled
// request: the driver or the database itself failed (connection lost,
// disk full, locked too long, a deadline passed). It only grows.
func Failures() uint64 { return failures.Load() }

// translate maps a driver error to this package's sentinels, once, at the
// boundary: no rows becomes ErrNotFound, a unique or foreign-key violation
// ErrConflict (the driver's text is kept in the message, not in the chain).
// Any other error, nil included, is returned unchanged.
func translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return ErrNotFound
	case isUniqueViolation(err), isForeignKeyViolation(err):
		// Only the sentinel is wrapped: callers must not depend on driver
		// error types, which differ between the dialects.
		return fmt.Errorf("%w: %v", ErrConflict, err) //nolint:errorlint // see above
	case errors.Is(err, context.Canceled):
		// The caller gave up; storage did not fail.
		return err
	}
	failures.Add(1)
	return err
}

// isUniqueViolation reports whether err is a unique or primary-key
// violation of either dialect.
func isUniqueViolation(err error) bool {
	return sqliteUniqueViolation(err) || postgresUniqueViolation(err)
}

// isForeignKeyViolation reports whether err is a foreign-key violation of
// either dialect.
func isForeignKeyViolation(err error) bool {
	return sqliteForeignKeyViolation(err) || postgresForeignKeyViolation(err)
}
