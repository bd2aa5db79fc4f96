package db

import (
	"context"
	"fmt"
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
	q := `SELECT p.name AS name, (SELECT COUNT(*) FROM readings r WHERE (p.last_ts IS NULL
		OR r.ts > p.last_ts OR (r.ts = p.last_ts AND r.id > p.last_id))` + notDeleted("r") + `) AS lag
		FROM stream_positions p ORDER BY p.name`
	if err := d.r.SelectContext(ctx, &rows, q); err != nil {
		return nil, fmt.Errorf("db: stream lags: %w", translate(err))
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.Name] = r.Lag
	}
	return out, nil
}
