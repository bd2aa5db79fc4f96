package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// DeleteFinishedTasks removes the tasks that are not Running and ended
// before before, in transactions of at most MaintenanceBlock rows, and
// returns how many it removed (with the error, those removed before it).
func (d *DB) DeleteFinishedTasks(ctx context.Context, before time.Time) (int64, error) {
	n, err := d.deleteInBlocks(ctx, "tasks", "state <> ? AND COALESCE(end_time, start_time) < ?",
		[]any{TaskRunning, nullTime(before)}, MaintenanceBlock)
	if err != nil {
		return n, fmt.Errorf("db: delete finished tasks: %w", err)
	}
	return n, nil
}

// MaintenanceBlock is the most rows one transaction of a retention purge
// (audit trail, statistics history, finished tasks) deletes.
const MaintenanceBlock = 5000

// deleteInBlocks deletes the rows of table matching cond, block rows per
// transaction, until none is left, and returns how many it deleted. table
// and cond are SQL written by this package, never input.
func (d *DB) deleteInBlocks(ctx context.Context, table, cond string, args []any, block int) (int64, error) {
	var total int64
	q := `DELETE FROM ` + table + ` WHERE id IN (SELECT id FROM ` + table + ` WHERE ` + cond + ` ORDER BY id LIMIT ?)`
	for {
		var n int64
		err := d.inTx(ctx, func(tx *sqlx.Tx) error {
			res, err := tx.ExecContext(ctx, tx.Rebind(q), append(args[:len(args):len(args)], block)...)
			if err != nil {
				return translate(err)
			}
			n, err = res.RowsAffected()
			return err
		})
		if err != nil {
			return total, err
		}
		total += n
		if n < int64(block) {
			return total, nil
		}
	}
}

// DeleteStatisticsHistory removes the history rows stamped before before,
// in transactions of at most MaintenanceBlock rows, and returns how many it
// removed (with the error, those removed before it).
func (d *DB) DeleteStatisticsHistory(ctx context.Context, before time.Time) (int64, error) {
	n, err := d.deleteInBlocks(ctx, "statistics_history", "history_ts < ?", []any{nullTime(before)}, MaintenanceBlock)
	if err != nil {
		return n, fmt.Errorf("db: delete statistics history: %w", err)
	}
	return n, nil
}

// DeleteAudit removes the audit entries written before before, in
// transactions of at most MaintenanceBlock rows, and returns how many it
// removed (with the error, those removed before it).
func (d *DB) DeleteAudit(ctx context.Context, before time.Time) (int64, error) {
	n, err := d.deleteInBlocks(ctx, "audit_log", "ts < ?", []any{nullTime(before)}, MaintenanceBlock)
	if err != nil {
		return n, fmt.Errorf("db: delete audit entries: %w", err)
	}
	return n, nil
}
