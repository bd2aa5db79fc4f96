package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// AdminUsername is the name of the first user, created at first start with
// the admin role; it can be neither deleted nor demoted.
const AdminUsername = "admin"

// AdminRoleID is the id of the admin role (spec §2.5).
const AdminRoleID = 1

// PasswordHistoryDepth is how many of a user's most recent password hashes
// are kept (the current one included); older ones are pruned when a
// password is set.
const PasswordHistoryDepth = 3

// User is one user account. A zero PasswordChangedAt means never.
type User struct {
	ID                int64
	Username          string
	PasswordHash      string // bcrypt; "" for a user that cannot log in with a password
	RoleID            int
	AccessMethod      string // any, pwd or cert
	RealName          string
	Description       string
	PasswordChangedAt time.Time
	CreatedAt         time.Time
}

// NewUser is a user to insert with InsertUser.
type NewUser struct {
	Username     string
	PasswordHash string
	RoleID       int
	AccessMethod string // "" means any
	RealName     string
	Description  string
	At           time.Time // creation and password time; zero means now
}

// Role is one of the fixed roles (spec §2.5), seeded by the first migration.
type Role struct {
	ID          int    `db:"id"`
	Name        string `db:"name"`
	Description string `db:"description"`
}

// userRow is one users row as scanned.
type userRow struct {
	ID                int64  `db:"id"`
	Username          string `db:"username"`
	PasswordHash      string `db:"password_hash"`
	RoleID            int    `db:"role_id"`
	AccessMethod      string `db:"access_method"`
	RealName          string `db:"real_name"`
	Description       string `db:"description"`
	PasswordChangedAt dbTime `db:"password_changed_at"`
	CreatedAt         dbTime `db:"created_at"`
}

func (r userRow) user() User {
	return User{
		ID: r.ID, Username: r.Username, PasswordHash: r.PasswordHash, RoleID: r.RoleID,
		AccessMethod: r.AccessMethod, RealName: r.RealName, Description: r.Description,
		PasswordChangedAt: r.PasswordChangedAt.Time, CreatedAt: r.CreatedAt.Time,
	}
}

const userColumns = `id, username, password_hash, role_id, access_method, real_name, description,
	password_changed_at, created_at`

// stamp returns t in UTC truncated to the microsecond both dialects store,
// or now() when t is zero.
func stamp(t time.Time) time.Time {
	if t.IsZero() {
		return now()
	}
	return t.UTC().Truncate(time.Microsecond)
}

// nullTime binds a zero time as NULL.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return stamp(t)
}

// CountUsers returns the number of users. Driver errors are returned
// wrapped.
func (d *DB) CountUsers(ctx context.Context) (int, error) {
	var n int
	if err := d.r.GetContext(ctx, &n, "SELECT COUNT(*) FROM users"); err != nil {
		return 0, fmt.Errorf("db: count users: %w", translate(err))
	}
	return n, nil
}

// InsertFirstAdmin creates the user AdminUsername with the admin role and
// passwordHash, and records the hash in the password history, in one
// transaction, if and only if no user exists yet. It reports whether it
// created the user and returns its id (1 on a fresh database). Driver errors
// are returned wrapped and nothing is written.
func (d *DB) InsertFirstAdmin(ctx context.Context, passwordHash string) (created bool, id int64, err error) {
	err = d.inTx(ctx, func(tx *sqlx.Tx) error {
		var n int
		if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM users"); err != nil {
			return translate(err)
		}
		if n > 0 {
			return nil
		}
		t := now()
		q := tx.Rebind(`INSERT INTO users (username, password_hash, role_id, access_method, real_name,
			description, password_changed_at, created_at) VALUES (?, ?, ?, 'any', ?, ?, ?, ?) RETURNING id`)
		if err := tx.GetContext(ctx, &id, q, AdminUsername, passwordHash, AdminRoleID,
			"Administrator", "The first administrator, created at first start", t, t); err != nil {
			return translate(err)
		}
		q = tx.Rebind("INSERT INTO password_history (user_id, password_hash, changed_at) VALUES (?, ?, ?)")
		if _, err := tx.ExecContext(ctx, q, id, passwordHash, t); err != nil {
			return translate(err)
		}
		created = true
		return nil
	})
	if err != nil {
		return false, 0, fmt.Errorf("db: insert first admin: %w", err)
	}
	return created, id, nil
}

// InsertUser creates u and records its password hash in the password
// history, in one transaction, and returns the stored user. A username
// already taken, compared case-insensitively, gives an error wrapping
// ErrConflict (the unique index decides, so concurrent inserts are safe); an
// unknown role likewise wraps ErrConflict. Other driver errors are returned
// wrapped; nothing is written on error.
func (d *DB) InsertUser(ctx context.Context, u NewUser) (User, error) {
	if u.AccessMethod == "" {
		u.AccessMethod = "any"
	}
	t := stamp(u.At)
	var row userRow
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		q := tx.Rebind(`INSERT INTO users (username, password_hash, role_id, access_method, real_name,
			description, password_changed_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ` + userColumns)
		if err := tx.GetContext(ctx, &row, q, u.Username, u.PasswordHash, u.RoleID, u.AccessMethod,
			u.RealName, u.Description, t, t); err != nil {
			return translate(err)
		}
		q = tx.Rebind("INSERT INTO password_history (user_id, password_hash, changed_at) VALUES (?, ?, ?)")
		if _, err := tx.ExecContext(ctx, q, row.ID, u.PasswordHash, t); err != nil {
			return translate(err)
		}
		return nil
	})
	if err != nil {
		return User{}, fmt.Errorf("db: insert user %q: %w", u.Username, err)
	}
	return row.user(), nil
}

// ListUsers returns every user ordered by id. None is an empty, non-nil
// slice; driver errors are returned wrapped.
func (d *DB) ListUsers(ctx context.Context) ([]User, error) {
	var rows []userRow
	if err := d.r.SelectContext(ctx, &rows, "SELECT "+userColumns+" FROM users ORDER BY id"); err != nil {
		return nil, fmt.Errorf("db: list users: %w", translate(err))
	}
	out := make([]User, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.user())
	}
	return out, nil
}

// GetUser returns the user with id; the error wraps ErrNotFound when there
// is none. Driver errors are returned wrapped.
func (d *DB) GetUser(ctx context.Context, id int64) (User, error) {
	var row userRow
	if err := d.r.GetContext(ctx, &row, d.r.Rebind("SELECT "+userColumns+" FROM users WHERE id = ?"), id); err != nil {
		return User{}, fmt.Errorf("db: get user %d: %w", id, translate(err))
	}
	return row.user(), nil
}

// GetUserByName returns the user whose name equals name ignoring (ASCII)
// case; the error wraps ErrNotFound when there is none. Driver errors are
// returned wrapped.
func (d *DB) GetUserByName(ctx context.Context, name string) (User, error) {
	var row userRow
	q := d.r.Rebind("SELECT " + userColumns + " FROM users WHERE lower(username) = lower(?)")
	if err := d.r.GetContext(ctx, &row, q, name); err != nil {
		return User{}, fmt.Errorf("db: get user %q: %w", name, translate(err))
	}
	return row.user(), nil
}

// UserChange is what UpdateUser's callback may change; the other fields of
// User are managed by the password and login methods.
type UserChange struct {
	RoleID       int
	AccessMethod string
	RealName     string
	Description  string
}

// UpdateUser runs fn on the current state of user id (row locked) and
// stores the change it returns, in one transaction. When the role changes,
// every session of the user is deleted in the same transaction. It returns
// the user before and after. An error from fn rolls back and is returned
// wrapped (%w); an unknown id wraps ErrNotFound; an unknown role wraps
// ErrConflict; other driver errors are returned wrapped.
func (d *DB) UpdateUser(ctx context.Context, id int64, fn func(cur User) (UserChange, error)) (before, after User, err error) {
	err = d.inTx(ctx, func(tx *sqlx.Tx) error {
		var row userRow
		q := tx.Rebind("SELECT " + userColumns + " FROM users WHERE id = ?" + d.forUpdate())
		if err := tx.GetContext(ctx, &row, q, id); err != nil {
			return translate(err)
		}
		before = row.user()
		ch, err := fn(before)
		if err != nil {
			return err
		}
		q = tx.Rebind(`UPDATE users SET role_id = ?, access_method = ?, real_name = ?, description = ?
			WHERE id = ? RETURNING ` + userColumns)
		if err := tx.GetContext(ctx, &row, q, ch.RoleID, ch.AccessMethod, ch.RealName, ch.Description, id); err != nil {
			return translate(err)
		}
		after = row.user()
		if after.RoleID != before.RoleID {
			if _, err := tx.ExecContext(ctx, tx.Rebind("DELETE FROM sessions WHERE user_id = ?"), id); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return User{}, User{}, fmt.Errorf("db: update user %d: %w", id, err)
	}
	return before, after, nil
}

// DeleteUser deletes user id with its sessions and password history (the
// foreign keys cascade). The error wraps ErrNotFound when there is no such
// user; driver errors are returned wrapped.
func (d *DB) DeleteUser(ctx context.Context, id int64) error {
	res, err := d.w.ExecContext(ctx, d.w.Rebind("DELETE FROM users WHERE id = ?"), id)
	if err != nil {
		return fmt.Errorf("db: delete user %d: %w", id, translate(err))
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("db: delete user %d: %w", id, translate(err))
	} else if n == 0 {
		return fmt.Errorf("db: delete user %d: %w", id, ErrNotFound)
	}
	return nil
}

// RecentPasswordHashes returns up to n of the user's most recent password
// hashes, newest first (the current one included). An unknown user gives
// an empty slice; driver errors are returned wrapped.
func (d *DB) RecentPasswordHashes(ctx context.Context, userID int64, n int) ([]string, error) {
	hashes := []string{}
	q := d.r.Rebind(`SELECT password_hash FROM password_history WHERE user_id = ?
		ORDER BY changed_at DESC, id DESC LIMIT ?`)
	if err := d.r.SelectContext(ctx, &hashes, q, userID, n); err != nil {
		return nil, fmt.Errorf("db: password history of user %d: %w", userID, translate(err))
	}
	return hashes, nil
}

// SetPassword stores hash as user id's password changed at at, records it
// in the password history (keeping the newest PasswordHistoryDepth
// entries), forgets the user's failed logins and locks (they were guesses
// of the old password), and deletes every session of the user, in one
// transaction. The error wraps ErrNotFound for an unknown
// user; driver errors are returned wrapped.
func (d *DB) SetPassword(ctx context.Context, id int64, hash string, at time.Time) error {
	t := stamp(at)
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET password_hash = ?, password_changed_at = ?
			WHERE id = ?`), hash, t, id)
		if err != nil {
			return translate(err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return translate(err)
		} else if n == 0 {
			return ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO password_history (user_id, password_hash, changed_at)
			VALUES (?, ?, ?)`), id, hash, t); err != nil {
			return translate(err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM password_history WHERE user_id = ? AND id NOT IN
			(SELECT id FROM password_history WHERE user_id = ? ORDER BY changed_at DESC, id DESC LIMIT ?)`),
			id, id, PasswordHistoryDepth); err != nil {
			return translate(err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind("DELETE FROM login_failures WHERE user_id = ?"), id); err != nil {
			return translate(err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind("DELETE FROM sessions WHERE user_id = ?"), id); err != nil {
			return translate(err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: set password of user %d: %w", id, err)
	}
	return nil
}

// ListRoles returns the roles ordered by id. Driver errors are returned
// wrapped.
func (d *DB) ListRoles(ctx context.Context) ([]Role, error) {
	roles := []Role{}
	if err := d.r.SelectContext(ctx, &roles, "SELECT id, name, description FROM roles ORDER BY id"); err != nil {
		return nil, fmt.Errorf("db: list roles: %w", translate(err))
	}
	return roles, nil
}
