package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// AdminUsername is the name of the first user, created at first start with
// the admin role; it can be neither deleted nor demoted.
const AdminUsername = "admin"

// AdminRoleID is the id of the admin role (spec §2.5).
const AdminRoleID = 1

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
