package db

import (
	"context"
	"fmt"
	"time"
)

// Session is one login session. Only a hash of its token is stored, so the
// token itself cannot be recovered from storage.
type Session struct {
	TokenHash     string
	UserID        int64
	CreatedAt     time.Time
	LastSeenAt    time.Time
	ClientAddress string
}

// sessionRow is one sessions row as scanned.
type sessionRow struct {
	TokenHash     string `db:"token_hash"`
	UserID        int64  `db:"user_id"`
	CreatedAt     dbTime `db:"created_at"`
	LastSeenAt    dbTime `db:"last_seen_at"`
	ClientAddress string `db:"client_address"`
}

// StartSession stores s (zero times mean now). An unknown user or a token
// hash already stored gives an error wrapping ErrConflict; other driver
// errors are returned wrapped.
func (d *DB) StartSession(ctx context.Context, s Session) error {
	created := stamp(s.CreatedAt)
	seen := created
	if !s.LastSeenAt.IsZero() {
		seen = stamp(s.LastSeenAt)
	}
	q := d.w.Rebind(`INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, client_address)
		VALUES (?, ?, ?, ?, ?)`)
	err := d.onFullDisk(ctx, func(ctx context.Context) error {
		_, err := d.w.ExecContext(ctx, q, s.TokenHash, s.UserID, created, seen, s.ClientAddress)
		return translate(err)
	})
	if err != nil {
		return fmt.Errorf("db: start session of user %d: %w", s.UserID, err)
	}
	return nil
}

// SessionUser returns the session whose token hash is tokenHash and its
// user, read in one query. The error wraps ErrNotFound when there is no
// such session; driver errors are returned wrapped.
func (d *DB) SessionUser(ctx context.Context, tokenHash string) (Session, User, error) {
	q := d.r.Rebind(`SELECT s.token_hash, s.user_id, s.created_at, s.last_seen_at, s.client_address,
		u.id, u.username, u.password_hash, u.role_id, u.access_method, u.real_name, u.description,
		u.password_changed_at, u.created_at
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`)
	rows, err := d.r.QueryxContext(ctx, q, tokenHash)
	if err != nil {
		return Session{}, User{}, fmt.Errorf("db: get session: %w", translate(err))
	}
	defer func() { _ = rows.Close() }()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return Session{}, User{}, fmt.Errorf("db: get session: %w", translate(err))
		}
		return Session{}, User{}, fmt.Errorf("db: get session: %w", ErrNotFound)
	}
	var s sessionRow
	var u userRow
	if err := rows.Scan(&s.TokenHash, &s.UserID, &s.CreatedAt, &s.LastSeenAt, &s.ClientAddress,
		&u.ID, &u.Username, &u.PasswordHash, &u.RoleID, &u.AccessMethod, &u.RealName, &u.Description,
		&u.PasswordChangedAt, &u.CreatedAt); err != nil {
		return Session{}, User{}, fmt.Errorf("db: get session: %w", translate(err))
	}
	if err := rows.Err(); err != nil {
		return Session{}, User{}, fmt.Errorf("db: get session: %w", translate(err))
	}
	return Session{
		TokenHash: s.TokenHash, UserID: s.UserID, CreatedAt: s.CreatedAt.Time,
		LastSeenAt: s.LastSeenAt.Time, ClientAddress: s.ClientAddress,
	}, u.user(), nil
}

// TouchSession records activity of the session tokenHash at at. A session
// that does not exist (any more) is not an error: it was ended meanwhile.
// Driver errors are returned wrapped.
func (d *DB) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	q := d.w.Rebind("UPDATE sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at < ?")
	t := stamp(at)
	err := d.onFullDisk(ctx, func(ctx context.Context) error {
		_, err := d.w.ExecContext(ctx, q, t, tokenHash, t)
		return translate(err)
	})
	if err != nil {
		return fmt.Errorf("db: touch session: %w", err)
	}
	return nil
}

// DeleteSession ends the session tokenHash and reports whether it existed.
// Driver errors are returned wrapped.
func (d *DB) DeleteSession(ctx context.Context, tokenHash string) (bool, error) {
	res, err := d.w.ExecContext(ctx, d.w.Rebind("DELETE FROM sessions WHERE token_hash = ?"), tokenHash)
	if err != nil {
		return false, fmt.Errorf("db: delete session: %w", translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("db: delete session: %w", translate(err))
	}
	return n > 0, nil
}

// DeleteUserSessions ends every session of user userID and returns how
// many there were. Driver errors are returned wrapped.
func (d *DB) DeleteUserSessions(ctx context.Context, userID int64) (int, error) {
	res, err := d.w.ExecContext(ctx, d.w.Rebind("DELETE FROM sessions WHERE user_id = ?"), userID)
	if err != nil {
		return 0, fmt.Errorf("db: delete sessions of user %d: %w", userID, translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("db: delete sessions of user %d: %w", userID, translate(err))
	}
	return int(n), nil
}

// DeleteIdleSessions ends every session last seen before before and
// returns how many there were. Driver errors are returned wrapped.
func (d *DB) DeleteIdleSessions(ctx context.Context, before time.Time) (int, error) {
	res, err := d.w.ExecContext(ctx, d.w.Rebind("DELETE FROM sessions WHERE last_seen_at < ?"), stamp(before))
	if err != nil {
		return 0, fmt.Errorf("db: delete idle sessions: %w", translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("db: delete idle sessions: %w", translate(err))
	}
	return int(n), nil
}
