package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// A commit whose outcome is unknown. On PostgreSQL a COMMIT is a message to
// a server: when the connection breaks after it was sent (the server
// stopped or crashed, the network failed), the client gets an error but
// the server may have applied it. Counting such readings as lost is wrong
// when they were stored, and writing them again (or adding statistics
// again) would count them twice. So InsertReadings and AddStatistics
// record the transaction's id (pg_current_xact_id) just before committing
// (inKnownTx), and a commit that fails returns a CommitUnknownError, whose
// Committed asks the server, once it answers again, what became of that
// transaction (pg_xact_status). SQLite commits in the process: its failed
// commit is never applied.

// postgresXactID returns the id of the current transaction, as text.
const postgresXactID = "SELECT pg_current_xact_id()::text"

// ErrOutcomeUnknown is the error of Committed while the outcome cannot be
// learnt yet: storage does not answer, or the transaction is still being
// ended by the server. Asking again later may tell.
var ErrOutcomeUnknown = errors.New("the outcome of the commit is not known yet")

// ErrOutcomeLost is the error of Committed when the server no longer knows
// the transaction (its id is older than the status it keeps). Asking again
// will not tell.
var ErrOutcomeLost = errors.New("the outcome of the commit is no longer known to the server")

// CommitUnknownError is a failed InsertReadings whose commit may have been
// applied. It wraps the failure (ErrUnavailable, typically), so it is
// handled as that failure; Committed tells what became of the readings.
type CommitUnknownError struct {
	err  error
	d    *DB
	xact string
}

func (e *CommitUnknownError) Error() string {
	return e.err.Error() + " (the commit was sent; its outcome is not known)"
}

func (e *CommitUnknownError) Unwrap() error { return e.err }

// commitFailed is the error of inKnownTx whose commit failed after the
// transaction's id was read; inDoubt turns it into a CommitUnknownError.
type commitFailed struct {
	err  error
	d    *DB
	xact string
}

func (e *commitFailed) Error() string { return e.err.Error() }
func (e *commitFailed) Unwrap() error { return e.err }

// inKnownTx is inTx for PostgreSQL transactions whose lost commit must be
// told apart from a failed one: fn's work is followed by reading the
// transaction's id, and a commit that fails then returns an error that
// inDoubt, applied to the caller's wrapped error, turns into a
// CommitUnknownError.
func (d *DB) inKnownTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	if d.dialect != Postgres {
		return d.inTx(ctx, fn)
	}
	var xact string
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &xact, postgresXactID); err != nil {
			return fmt.Errorf("transaction id: %w", translate(err))
		}
		return nil
	})
	if err != nil && xact != "" {
		return &commitFailed{err: err, d: d, xact: xact}
	}
	return err
}

// inDoubt returns err as a CommitUnknownError when it holds a commit of
// inKnownTx that failed, else unchanged.
func inDoubt(err error) error {
	var cf *commitFailed
	if !errors.As(err, &cf) {
		return err
	}
	return &CommitUnknownError{err: err, d: cf.d, xact: cf.xact}
}

// Committed reports whether the commit was applied: true when the readings
// are stored, false when they are not. While that cannot be learnt yet it
// returns an error wrapping ErrOutcomeUnknown; when it never can,
// ErrOutcomeLost.
func (e *CommitUnknownError) Committed(ctx context.Context) (bool, error) {
	var status sql.NullString
	err := e.d.w.GetContext(ctx, &status, "SELECT pg_xact_status($1::xid8)", e.xact)
	switch {
	case err != nil:
		return false, fmt.Errorf("%w: %w", ErrOutcomeUnknown, err)
	case !status.Valid:
		return false, fmt.Errorf("%w (transaction %s)", ErrOutcomeLost, e.xact)
	}
	switch status.String {
	case "committed":
		return true, nil
	case "aborted":
		return false, nil
	}
	return false, fmt.Errorf("%w: transaction %s is %s", ErrOutcomeUnknown, e.xact, status.String)
}
