package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// StreamLags returns, for every north service and task with a stream
// position, the number of buffered readings it has not sent yet: those
// after its position in stream order (every buffered reading while it has
// sent nothing). Each count is an index range on (ts, id). Driver errors
// are returned wrapped.
func (d *DB) StreamLags(ctx context.Context) (map[string]int64, error) {
	var rows []struct {
		Name string `db:"name"`
		Lag  int64  `db:"lag"`
	}
	err := d.inReadTx(ctx, func(tx *sqlx.Tx) error {
		// Leaving out the rows of a deletion still being swept costs a
		// look-up of each row counted (the (ts, id) index lacks the asset):
		// only while one is pending, in the same snapshot.
		var pending bool
		if err := tx.GetContext(ctx, &pending, `SELECT EXISTS (SELECT 1 FROM reading_deletions)`); err != nil {
			return err
		}
		live := ""
		if pending {
			live = notDeleted("r")
		}
		q := `SELECT p.name AS name, (SELECT COUNT(*) FROM readings r WHERE (p.last_ts IS NULL
			OR r.ts > p.last_ts OR (r.ts = p.last_ts AND r.id > p.last_id))` + live + `) AS lag
			FROM stream_positions p ORDER BY p.name`
		return tx.SelectContext(ctx, &rows, q)
	})
	if err != nil {
		return nil, fmt.Errorf("db: stream lags: %w", translate(err))
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.Name] = r.Lag
	}
	return out, nil
}
