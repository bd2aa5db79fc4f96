package db

import (
	"context"

	"github.com/golang-migrate/migrate/v4"
)

// ExecSQL runs a statement on the write pool with ? placeholders, with
// driver errors translated like the repositories do. Tests only.
func (d *DB) ExecSQL(ctx context.Context, query string, args ...any) error {
	_, err := d.w.ExecContext(ctx, d.w.Rebind(query), args...)
	return translate(err)
}

// SelectSQL runs a query on the read pool into dest (sqlx.Select). Tests only.
func (d *DB) SelectSQL(ctx context.Context, dest any, query string, args ...any) error {
	return translate(d.r.SelectContext(ctx, dest, d.r.Rebind(query), args...))
}

// MigrateDown reverts every migration. Tests only.
func (d *DB) MigrateDown(ctx context.Context) error {
	return d.withMigrate(ctx, func(m *migrate.Migrate) error { return m.Down() })
}

// MigrateUp applies every pending migration, as Open does. Tests only.
func (d *DB) MigrateUp(ctx context.Context) error { return d.migrateUp(ctx) }

// Unavailable is the guard's classification of driver errors. Tests only.
func Unavailable(err error) bool { return unavailable(err) }

// MigrateTo migrates up or down to version. Tests only.
func (d *DB) MigrateTo(ctx context.Context, version uint) error {
	return d.withMigrate(ctx, func(m *migrate.Migrate) error { return m.Migrate(version) })
}

// HoldWriter takes a connection of the write pool, as a transaction
// running elsewhere would, until release is called. Tests only.
func (d *DB) HoldWriter(ctx context.Context) (release func(), err error) {
	c, err := d.w.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return func() { _ = c.Close() }, nil
}

// WriterWaits is how many times a caller has waited for a connection of
// the write pool. Tests only.
func (d *DB) WriterWaits() int64 { return d.w.Stats().WaitCount }
