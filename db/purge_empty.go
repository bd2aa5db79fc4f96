package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// Emptying the buffer.
//
// Removing every reading does not delete rows: on PostgreSQL it truncates
// readings (every partition) and the tables derived from it in one short
// transaction; on SQLite a DELETE without a WHERE clause on a table
// without triggers frees the table's pages without visiting its rows (the
// truncate optimisation). Either way the cost follows the table's pages,
// not its readings, and the counts and rollups are emptied with it. Reading
// ids keep growing: PostgreSQL's sequence is not restarted (TRUNCATE
// continues identity by default) and SQLite's AUTOINCREMENT keeps the
// highest id in sqlite_sequence, so north positions, kept on (ts, id),
// still order every later reading after what was sent. Set-aside copies
// (north_set_aside) are copies and stay.

// emptyReadings removes every reading and returns how many there were.
func (d *DB) emptyReadings(ctx context.Context) (removed int64, err error) {
	// From the lock on, no insert runs until the commit: the count read
	// next is every reading the truncation removes.
	err = d.inLockedTx(ctx, `LOCK TABLE readings, asset_counts IN ACCESS EXCLUSIVE MODE`, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &removed, `SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM asset_counts`); err != nil {
			return fmt.Errorf("count readings: %w", translate(err))
		}
		stmts := []string{`TRUNCATE readings, reading_rollups, rollup_rebuilds, asset_counts, reading_deletions`}
		if d.dialect != Postgres {
			// No WHERE clause and no trigger: SQLite frees the pages whole.
			stmts = []string{`DELETE FROM readings`, `DELETE FROM reading_rollups`, `DELETE FROM rollup_rebuilds`,
				`DELETE FROM asset_counts`, `DELETE FROM reading_deletions`}
		}
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("empty readings: %w", err)
	}
	return removed, nil
}
