package db

import (
	"context"
	"database/sql"
	"fmt"
)

// preparedRollupMaxRows is the largest prepared rollup upsert: a batch of
// readings makes a row per asset, datapoint and minute, rarely more.
const preparedRollupMaxRows = 64

// planSize returns the rows of the next statement of a plan for n rows:
// the largest power of two up to both n and most.
func planSize(n, most int) int {
	n = min(n, most)
	for n&(n-1) != 0 {
		n &= n - 1
	}
	return n
}

// rollupPlan returns the prepared upserts that write n rollup rows, in the
// order addRollups uses them: one statement per power-of-two row count up
// to preparedRollupMaxRows, kept in the write pool's statement cache like
// the asset counts' upserts, so ingest parses none per batch. It must run
// outside a write transaction: on SQLite, preparing needs the write pool's
// one connection. On PostgreSQL, where every statement is a round trip, it
// is nil above preparedRollupMaxRows rows: the rows then go in fewer,
// larger statements (addRollups).
func (d *DB) rollupPlan(ctx context.Context, n int) ([]*sql.Stmt, error) {
	if d.dialect == Postgres && n > preparedRollupMaxRows {
		return nil, nil
	}
	var plan []*sql.Stmt
	for n > 0 {
		size := planSize(n, preparedRollupMaxRows)
		s, err := d.prepared.get(ctx, d.w, d.w.Rebind(rollupUpsertSQL(size))) //nolint:sqlclosecheck // cached, closed with the DB
		if err != nil {
			return nil, fmt.Errorf("rollups: %w", err)
		}
		plan = append(plan, s)
		n -= size
	}
	return plan, nil
}
