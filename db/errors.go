package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"syscall"
)

// failures counts the failed storage calls of this process (see
// Failures).
var failures struct{ unavailable, other atomic.Uint64 }

// ErrorCounts are the storage calls of this process that failed, each
// driver call counted once, since the process started; they only grow.
type ErrorCounts struct {
	// Unavailable counts the calls that found storage unavailable (see
	// ErrUnavailable): what the API answers with 503.
	Unavailable uint64
	// Other counts the calls the database or its driver failed for any
	// other reason: a deadline passed, a query the database refused. A
	// missing row, a conflict, a value the database cannot store and a
	// call the caller cancelled are answers, not failures, and are not
	// counted.
	Other uint64
}

// Failures returns how many storage calls of this process failed.
func Failures() ErrorCounts {
	return ErrorCounts{Unavailable: failures.unavailable.Load(), Other: failures.other.Load()}
}

// countFailure counts the failed driver call that returned err (see
// ErrorCounts); outage says whether it found storage unavailable.
func countFailure(err error, outage bool) {
	switch {
	case err == nil:
	case outage:
		failures.unavailable.Add(1)
	case errors.Is(err, context.Canceled), errors.Is(err, driver.ErrSkip), errors.Is(err, driver.ErrRemoveArgument),
		isUniqueViolation(err), isForeignKeyViolation(err), isDataException(err):
	default:
		failures.other.Add(1)
	}
}

// translate maps a driver error to this package's sentinels, once, at the
// boundary: no rows becomes ErrNotFound, a unique or foreign-key violation
// ErrConflict, a value the database cannot store ErrInvalidData (the
// driver's text is kept in the message, not in the chain).
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
	case isDataException(err):
		return fmt.Errorf("%w: %v", ErrInvalidData, err) //nolint:errorlint // as for ErrConflict
	}
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

// unavailable reports whether err means storage cannot be used right now
// (see ErrUnavailable): a connection that could not be made or broke, a
// server shutting down or starting up, a full or failing disk, a database
// locked beyond the busy timeout. A cancelled or expired context is the
// caller's doing, never an outage; nor is any error about the data or the
// query.
func unavailable(err error) bool {
	switch {
	case err == nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return false
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EIO), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return true
	}
	return sqliteUnavailable(err) || postgresUnavailable(err)
}

// isDataException reports whether err is the database refusing a value
// itself, in either dialect.
func isDataException(err error) bool {
	return sqliteDataException(err) || postgresDataException(err)
}
