package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// AdvanceStream records that the north service or task name delivered sent
// more readings, up to and including position p: in one transaction the
// position is saved and the statistic named after name (created with
// description when missing) grows by sent, so the count of what was sent
// always equals what the position says was delivered, also after a crash.
// Driver errors are returned wrapped and nothing changes.
func (d *DB) AdvanceStream(ctx context.Context, name, description string, p StreamPosition, sent int64) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := savePosition(ctx, tx, name, p); err != nil {
			return err
		}
		return addStatistic(ctx, tx, name, description, sent)
	})
	if err != nil {
		return fmt.Errorf("db: advance stream %q: %w", name, err)
	}
	return nil
}

// savePosition stores p as the position of name in tx, creating it if
// needed; a position with Sent false stores "nothing sent".
func savePosition(ctx context.Context, tx *sqlx.Tx, name string, p StreamPosition) error {
	var ts any
	if p.Sent {
		ts = p.TS.UTC().Truncate(time.Microsecond)
	}
	q := tx.Rebind(`INSERT INTO stream_positions (name, last_ts, last_id, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET last_ts = excluded.last_ts, last_id = excluded.last_id,
		updated_at = excluded.updated_at`)
	if _, err := tx.ExecContext(ctx, q, name, ts, p.ID, now()); err != nil {
		return translate(err)
	}
	return nil
}

// addStatistic adds n to the statistic key in tx, creating it with
// description (and n as its value) when missing.
func addStatistic(ctx context.Context, tx *sqlx.Tx, key, description string, n int64) error {
	if n == 0 {
		return nil
	}
	q := tx.Rebind(`INSERT INTO statistics (key, description, value, previous_value) VALUES (?, ?, ?, 0)
		ON CONFLICT (key) DO UPDATE SET value = statistics.value + excluded.value`)
	if _, err := tx.ExecContext(ctx, q, key, description, n); err != nil {
		return translate(err)
	}
	return nil
}
