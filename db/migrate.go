package db

import (
	"context"
	"embed"
	"errors"
	"fmt"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	"github.com/golang-migrate/migrate/v4/database/postgres"
	"github.com/golang-migrate/migrate/v4/database/sqlite"
	"github.com/golang-migrate/migrate/v4/source/iofs"
)

// migrations holds migrations/sqlite and migrations/postgres: the same
// version numbers in both, never edited once released.
//
//go:embed migrations
var migrations embed.FS

// migrateUp applies every pending migration; ErrNoChange is success.
func (d *DB) migrateUp(ctx context.Context) error {
	return d.withMigrate(ctx, func(m *migrate.Migrate) error {
		if err := m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
			return err
		}
		return nil
	})
}

// withMigrate runs fn with a golang-migrate instance over d's write pool and
// the embedded migrations of d's dialect. It never calls Migrate.Close,
// which would close the *sql.DB the repositories share: it closes only the
// source and, on PostgreSQL, the dedicated connection the migration driver
// takes its (session) advisory lock on.
func (d *DB) withMigrate(ctx context.Context, fn func(m *migrate.Migrate) error) (err error) {
	var drv database.Driver
	switch d.dialect {
	case SQLite:
		drv, err = sqlite.WithInstance(d.w.DB, &sqlite.Config{})
	default:
		conn, cerr := d.w.Conn(ctx)
		if cerr != nil {
			return fmt.Errorf("db: migration connection: %w", cerr)
		}
		defer func() {
			if cerr := conn.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("db: migration connection: %w", cerr)
			}
		}()
		drv, err = postgres.WithConnection(ctx, conn, &postgres.Config{})
	}
	if err != nil {
		return fmt.Errorf("db: migration driver: %w", err)
	}

	src, err := iofs.New(migrations, "migrations/"+string(d.dialect))
	if err != nil {
		return fmt.Errorf("db: migration source: %w", err)
	}
	defer func() {
		if cerr := src.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("db: migration source: %w", cerr)
		}
	}()
	m, err := migrate.NewWithInstance("iofs", src, string(d.dialect), drv)
	if err != nil {
		return fmt.Errorf("db: migrate: %w", err)
	}
	if err := fn(m); err != nil {
		return fmt.Errorf("db: migrate %s: %w", d.dialect, err)
	}
	return nil
}
