package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// AcceptIndexVersion records that the gateway accepts version of the index
// of the package repository at repository (its URL) at at, unless it
// accepted a higher version from it before: the recorded version only
// grows. It returns whether version is accepted (not lower than any
// accepted before) and the highest version accepted, this one included.
// The check and the record are one statement, so two fetches at once
// cannot lower it. Driver errors are returned wrapped.
func (d *DB) AcceptIndexVersion(ctx context.Context, repository string, version int64, at time.Time) (bool, int64, error) {
	if version < 1 {
		return false, 0, fmt.Errorf("db: accept index version %d of %q: %w", version, repository, ErrInvalidData)
	}
	var (
		accepted bool
		highest  int64
	)
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO package_index_versions (repository, version, accepted_at)
			VALUES (?, ?, ?) ON CONFLICT (repository) DO UPDATE SET version = excluded.version, accepted_at = excluded.accepted_at
			WHERE package_index_versions.version <= excluded.version`), repository, version, stamp(at))
		if err != nil {
			return translate(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		accepted = n == 1
		return translate(tx.GetContext(ctx, &highest,
			tx.Rebind(`SELECT version FROM package_index_versions WHERE repository = ?`), repository))
	})
	if err != nil {
		return false, 0, fmt.Errorf("db: accept index version %d of %q: %w", version, repository, err)
	}
	return accepted, highest, nil
}

// IndexVersion returns the highest index version accepted from the
// package repository at repository; 0 when none was.
func (d *DB) IndexVersion(ctx context.Context, repository string) (int64, error) {
	var v []int64
	if err := d.r.SelectContext(ctx, &v, d.r.Rebind(`SELECT version FROM package_index_versions WHERE repository = ?`), repository); err != nil {
		return 0, fmt.Errorf("db: index version of %q: %w", repository, translate(err))
	}
	if len(v) == 0 {
		return 0, nil
	}
	return v[0], nil
}
