package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq" // registers the "postgres" driver
)

// openPostgres opens one lib/pq pool on dsn and migrates the database.
func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	p, err := sqlx.Open("postgres", dsn)
	if err != nil {
		return nil, fmt.Errorf("db: open postgres: %w", err)
	}
	p.SetMaxOpenConns(32)
	p.SetMaxIdleConns(8)
	p.SetConnMaxIdleTime(5 * time.Minute)
	if err := p.PingContext(ctx); err != nil {
		closeAll(p)
		return nil, fmt.Errorf("db: open postgres: %w", err)
	}

	d := &DB{dialect: Postgres, w: p, r: p}
	if err := d.migrateUp(ctx); err != nil {
		closeAll(p)
		return nil, err
	}
	if err := d.rebuildPendingRollups(ctx); err != nil {
		closeAll(p)
		return nil, err
	}
	if err := d.ensurePartitions(ctx, now()); err != nil {
		closeAll(p)
		return nil, fmt.Errorf("db: open postgres: %w", err)
	}
	return d, nil
}
