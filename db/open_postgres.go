package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// openPostgres opens one lib/pq pool on dsn, guarded (guard.go), and
// migrates the database.
func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	connector, err := pq.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("db: open postgres: %w", err)
	}
	t := &tracker{writes: true}
	p := sqlx.NewDb(sql.OpenDB(&guardConnector{inner: connector, t: t}), "postgres")
	p.SetMaxOpenConns(32)
	p.SetMaxIdleConns(8)
	p.SetConnMaxIdleTime(5 * time.Minute)
	if err := p.PingContext(ctx); err != nil {
		closeAll(p)
		return nil, fmt.Errorf("db: open postgres: %w", err)
	}

	d := &DB{dialect: Postgres, w: p, r: p, wh: t, rh: t}
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
	d.startSweeper()
	return d, nil
}
