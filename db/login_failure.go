package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// LoginPolicy says how failed logins lock a client address out of an
// account.
type LoginPolicy struct {
	// LockFor receives the count of consecutive failures, the attempt
	// being counted included, and returns how long the address is then
	// locked out (0: not locked).
	LockFor func(failures int) time.Duration
	// ForgetAfter is how long a record of failures is kept after the
	// address's last attempt: older ones count as none.
	ForgetAfter time.Duration
}

// LoginAttempt is what counting one login attempt found.
type LoginAttempt struct {
	// Refused is true when the address was locked out of the account
	// before this attempt: the attempt was not counted, and its
	// password must not be checked.
	Refused bool
	// Failures is the number of consecutive failures of the address on
	// the account, this attempt included: an attempt counts as failed
	// until ClearLoginFailures says otherwise.
	Failures int
	// LockedUntil is the end of the address's lock; zero when none.
	LockedUntil time.Time
}

// loginFailureRow is one login_failures row as scanned.
type loginFailureRow struct {
	Failures      int    `db:"failures"`
	LockedUntil   dbTime `db:"locked_until"`
	LastAttemptAt dbTime `db:"last_attempt_at"`
}

// CountLoginAttempt counts a login attempt on user userID from
// clientAddress at at, before its password is compared, in one transaction
// on the (user, address) row, locked: concurrent attempts are counted one
// after the other, so no more of them are compared than the policy allows
// before the lock. While the address is locked the attempt is refused and
// not counted. A record whose last attempt is older than p.ForgetAfter
// counts as none; such records are removed on the way. The error wraps
// ErrNotFound for an unknown user; driver errors are returned wrapped.
func (d *DB) CountLoginAttempt(ctx context.Context, userID int64, clientAddress string, at time.Time, p LoginPolicy) (LoginAttempt, error) {
	t := stamp(at)
	forgotten := t.Add(-p.ForgetAfter)
	var res LoginAttempt
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(d.pruneLoginFailuresSQL()), forgotten); err != nil {
			return translate(err)
		}
		var id int64
		if err := tx.GetContext(ctx, &id, tx.Rebind("SELECT id FROM users WHERE id = ?"), userID); err != nil {
			return translate(err)
		}
		// Insert the row or lock the existing one, in one statement: the
		// attempts of one address on one account wait for each other
		// here, and a row deleted meanwhile (a successful login, a
		// password change) is simply inserted again.
		var row loginFailureRow
		q := tx.Rebind(`INSERT INTO login_failures (user_id, client_address, failures, last_attempt_at)
			VALUES (?, ?, 0, ?) ON CONFLICT (user_id, client_address) DO UPDATE SET user_id = excluded.user_id
			RETURNING failures, locked_until, last_attempt_at`)
		if err := tx.GetContext(ctx, &row, q, userID, clientAddress, t); err != nil {
			return translate(err)
		}
		failures, until := row.Failures, row.LockedUntil.Time
		if row.LastAttemptAt.Time.Before(forgotten) {
			failures, until = 0, time.Time{}
		}
		if until.After(t) {
			res = LoginAttempt{Refused: true, Failures: failures, LockedUntil: until}
			return nil
		}
		failures++
		until = time.Time{} // an expired lock is no lock
		if dur := p.LockFor(failures); dur > 0 {
			until = t.Add(dur)
		}
		res = LoginAttempt{Failures: failures, LockedUntil: until}
		_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE login_failures SET failures = ?, locked_until = ?, last_attempt_at = ?
			WHERE user_id = ? AND client_address = ?`), failures, nullTime(until), t, userID, clientAddress)
		return translate(err)
	})
	if err != nil {
		return LoginAttempt{}, fmt.Errorf("db: count login attempt on user %d: %w", userID, err)
	}
	return res, nil
}

// ClearLoginFailures forgets the failed logins of clientAddress on user
// userID and any lock they caused: the password was right. Driver errors
// are returned wrapped.
func (d *DB) ClearLoginFailures(ctx context.Context, userID int64, clientAddress string) error {
	q := d.w.Rebind("DELETE FROM login_failures WHERE user_id = ? AND client_address = ?")
	if _, err := d.w.ExecContext(ctx, q, userID, clientAddress); err != nil {
		return fmt.Errorf("db: clear login failures of user %d: %w", userID, translate(err))
	}
	return nil
}

// pruneLoginFailuresSQL removes the records last attempted before its
// parameter. On PostgreSQL it skips rows other attempts hold, so that
// concurrent attempts never wait for (or deadlock on) each other's pruning;
// SQLite's writes are serialised anyway.
func (d *DB) pruneLoginFailuresSQL() string {
	if d.dialect == Postgres {
		return `DELETE FROM login_failures WHERE (user_id, client_address) IN (
			SELECT user_id, client_address FROM login_failures WHERE last_attempt_at < ? FOR UPDATE SKIP LOCKED)`
	}
	return "DELETE FROM login_failures WHERE last_attempt_at < ?"
}
