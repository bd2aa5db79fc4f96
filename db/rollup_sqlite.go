package db

import (
	"context"
	"database/sql"
	"fmt"
)

// sqliteRollupMaxRows is the largest prepared rollup upsert: a batch of
// readings makes a row per asset, datapoint and minute, rarely more.
const sqliteRollupMaxRows = 64

// planSize returns the rows of the next statement of a plan for n rows:
// the largest power of two up to both n and most.
func planSize(n, most int) int {
	n = min(n, most)
	for n&(n-1) != 0 {
		n &= n - 1
	}
	return n
}

// sqliteRollupPlan returns SQLite's prepared upserts that write n rollup
// rows, in the order addRollups uses them: one statement per power-of-two
// row count up to sqliteRollupMaxRows, kept in the write pool's statement
// cache like the asset counts' upserts, so ingest parses none per batch.
// It must run outside a write transaction: preparing needs the write
// pool's one connection.
func (d *DB) sqliteRollupPlan(ctx context.Context, n int) ([]*sql.Stmt, error) {
	var plan []*sql.Stmt
	for n > 0 {
		size := planSize(n, sqliteRollupMaxRows)
		s, err := d.prepared.get(ctx, d.w, rollupUpsertSQL(size)) //nolint:sqlclosecheck // cached, closed with the DB
		if err != nil {
			return nil, fmt.Errorf("rollups: %w", err)
		}
		plan = append(plan, s)
		n -= size
	}
	return plan, nil
}
