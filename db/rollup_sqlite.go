package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/jmoiron/sqlx"
)

// sqliteRollupMaxRows is the largest prepared rollup upsert: a batch of
// readings makes a row per asset, datapoint and minute, rarely more.
const sqliteRollupMaxRows = 64

// rollupStmts caches SQLite's prepared rollup upserts, one per power-of-two
// row count up to sqliteRollupMaxRows, prepared on the write pool like the
// reading INSERTs (insertStmts), so ingest parses none per batch.
type rollupStmts struct {
	mu    sync.Mutex // guards stmts
	stmts map[int]*sql.Stmt
}

// get returns the prepared upsert of n rows, preparing it on w at first
// use.
func (c *rollupStmts) get(ctx context.Context, w *sqlx.DB, n int) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.stmts[n]; s != nil {
		return s, nil
	}
	//nolint:sqlclosecheck // cached for the DB's lifetime; rollupStmts.close closes it
	s, err := w.PrepareContext(ctx, rollupUpsertSQL(n))
	if err != nil {
		return nil, fmt.Errorf("prepare upsert of %d rollups: %w", n, err)
	}
	if c.stmts == nil {
		c.stmts = make(map[int]*sql.Stmt)
	}
	c.stmts[n] = s
	return s, nil
}

// close closes every cached statement.
func (c *rollupStmts) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for n, s := range c.stmts {
		errs = append(errs, s.Close())
		delete(c.stmts, n)
	}
	return errors.Join(errs...)
}

// planSize returns the rows of the next statement of a plan for n rows:
// the largest power of two up to both n and most.
func planSize(n, most int) int {
	n = min(n, most)
	for n&(n-1) != 0 {
		n &= n - 1
	}
	return n
}

// sqliteRollupPlan returns the prepared upserts that write n rollup rows,
// in the order addRollups uses them. It must run outside a write
// transaction: preparing needs the write pool's one connection.
func (d *DB) sqliteRollupPlan(ctx context.Context, n int) ([]*sql.Stmt, error) {
	var plan []*sql.Stmt
	for n > 0 {
		size := planSize(n, sqliteRollupMaxRows)
		s, err := d.rollupStmts.get(ctx, d.w, size) //nolint:sqlclosecheck // cached, closed with the DB
		if err != nil {
			return nil, err
		}
		plan = append(plan, s)
		n -= size
	}
	return plan, nil
}
