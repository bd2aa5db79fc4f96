package db

import (
	"context"
	"fmt"
	"strings"
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

// failureCount names a table of failed logins and the column its
// records are keyed by, besides the client address: login_failures counts
// per user, login_name_failures per name for names without a user. Both
// follow the same rules, in the same code.
type failureCount struct{ table, key string }

var (
	failuresByUser = failureCount{table: "login_failures", key: "user_id"}
	failuresByName = failureCount{table: "login_name_failures", key: "username"}
)

// CountLoginAttempt counts a login attempt on user userID from
// clientAddress at at, before its password is compared, in one transaction
// on the (user, address) row, locked: concurrent attempts are counted one
// after the other, so no more of them are compared than the policy allows
// before the lock. While the address is locked the attempt is refused and
// not counted. A record whose last attempt is older than p.ForgetAfter
// counts as none; such records are removed on the way. The error wraps
// ErrNotFound for an unknown user; driver errors are returned wrapped.
func (d *DB) CountLoginAttempt(ctx context.Context, userID int64, clientAddress string, at time.Time, p LoginPolicy) (LoginAttempt, error) {
	res, err := d.countAttempt(ctx, failuresByUser, userID, clientAddress, at, p, func(tx *sqlx.Tx) error {
		var id int64
		return translate(tx.GetContext(ctx, &id, tx.Rebind("SELECT id FROM users WHERE id = ?"), userID))
	})
	if err != nil {
		return LoginAttempt{}, fmt.Errorf("db: count login attempt on user %d: %w", userID, err)
	}
	return res, nil
}

// CountNameLoginAttempt is CountLoginAttempt for a name the gateway has no
// user for (one a directory may know), compared ignoring case: the same
// rules, counted per name and address.
func (d *DB) CountNameLoginAttempt(ctx context.Context, name, clientAddress string, at time.Time, p LoginPolicy) (LoginAttempt, error) {
	res, err := d.countAttempt(ctx, failuresByName, strings.ToLower(name), clientAddress, at, p, nil)
	if err != nil {
		return LoginAttempt{}, fmt.Errorf("db: count login attempt on name %q: %w", name, err)
	}
	return res, nil
}

// countAttempt counts an attempt in the record of key in c (see
// CountLoginAttempt); check, when not nil, runs first in the transaction.
func (d *DB) countAttempt(ctx context.Context, c failureCount, key any, clientAddress string, at time.Time, p LoginPolicy,
	check func(tx *sqlx.Tx) error) (LoginAttempt, error) {
	t := stamp(at)
	forgotten := t.Add(-p.ForgetAfter)
	var res LoginAttempt
	err := d.onFullDisk(ctx, func(ctx context.Context) error {
		return d.countAttemptTx(ctx, c, key, clientAddress, t, forgotten, p, check, &res)
	})
	return res, err
}

// countAttemptTx is countAttempt's transaction, writing its result to res.
func (d *DB) countAttemptTx(ctx context.Context, c failureCount, key any, clientAddress string, t, forgotten time.Time, p LoginPolicy,
	check func(tx *sqlx.Tx) error, res *LoginAttempt) error {
	return d.inTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(d.pruneLoginFailuresSQL(c)), forgotten); err != nil {
			return translate(err)
		}
		if check != nil {
			if err := check(tx); err != nil {
				return err
			}
		}
		// Insert the row or lock the existing one, in one statement: the
		// attempts of one address on one account wait for each other
		// here, and a row deleted meanwhile (a successful login, a
		// password change) is simply inserted again.
		var row loginFailureRow
		q := tx.Rebind(fmt.Sprintf(`INSERT INTO %[1]s (%[2]s, client_address, failures, last_attempt_at)
			VALUES (?, ?, 0, ?) ON CONFLICT (%[2]s, client_address) DO UPDATE SET %[2]s = excluded.%[2]s
			RETURNING failures, locked_until, last_attempt_at`, c.table, c.key))
		if err := tx.GetContext(ctx, &row, q, key, clientAddress, t); err != nil {
			return translate(err)
		}
		failures, until := row.Failures, row.LockedUntil.Time
		if row.LastAttemptAt.Time.Before(forgotten) {
			failures, until = 0, time.Time{}
		}
		if until.After(t) {
			*res = LoginAttempt{Refused: true, Failures: failures, LockedUntil: until}
			return nil
		}
		failures++
		until = time.Time{} // an expired lock is no lock
		if dur := p.LockFor(failures); dur > 0 {
			until = t.Add(dur)
		}
		*res = LoginAttempt{Failures: failures, LockedUntil: until}
		_, err := tx.ExecContext(ctx, tx.Rebind(fmt.Sprintf(`UPDATE %s SET failures = ?, locked_until = ?, last_attempt_at = ?
			WHERE %s = ? AND client_address = ?`, c.table, c.key)), failures, nullTime(until), t, key, clientAddress)
		return translate(err)
	})
}

// ClearLoginFailures forgets the failed logins of clientAddress on user
// userID and any lock they caused: the password was right. Driver errors
// are returned wrapped.
func (d *DB) ClearLoginFailures(ctx context.Context, userID int64, clientAddress string) error {
	if err := d.clearFailures(ctx, failuresByUser, userID, clientAddress); err != nil {
		return fmt.Errorf("db: clear login failures of user %d: %w", userID, err)
	}
	return nil
}

// ClearNameLoginFailures is ClearLoginFailures for a name without a user
// (see CountNameLoginAttempt).
func (d *DB) ClearNameLoginFailures(ctx context.Context, name, clientAddress string) error {
	if err := d.clearFailures(ctx, failuresByName, strings.ToLower(name), clientAddress); err != nil {
		return fmt.Errorf("db: clear login failures of name %q: %w", name, err)
	}
	return nil
}

// clearFailures deletes the record of key and clientAddress in c.
func (d *DB) clearFailures(ctx context.Context, c failureCount, key any, clientAddress string) error {
	q := d.w.Rebind(fmt.Sprintf("DELETE FROM %s WHERE %s = ? AND client_address = ?", c.table, c.key))
	return d.onFullDisk(ctx, func(ctx context.Context) error {
		_, err := d.w.ExecContext(ctx, q, key, clientAddress)
		return translate(err)
	})
}

// pruneLoginFailuresSQL removes the records last attempted before its
// parameter. On PostgreSQL it skips rows other attempts hold, so that
// concurrent attempts never wait for (or deadlock on) each other's pruning;
// SQLite's writes are serialised anyway.
func (d *DB) pruneLoginFailuresSQL(c failureCount) string {
	if d.dialect == Postgres {
		return fmt.Sprintf(`DELETE FROM %[1]s WHERE (%[2]s, client_address) IN (
			SELECT %[2]s, client_address FROM %[1]s WHERE last_attempt_at < ? FOR UPDATE SKIP LOCKED)`, c.table, c.key)
	}
	return fmt.Sprintf("DELETE FROM %s WHERE last_attempt_at < ?", c.table)
}
