package db

import (
	"context"
	"fmt"
)

// NorthSentTotal returns the sum of the readings sent by every north
// service and task: each has a statistic named after it, holding its sent
// count. With no north service it returns 0. Driver errors are returned
// wrapped.
func (d *DB) NorthSentTotal(ctx context.Context) (int64, error) {
	var total int64
	q := d.r.Rebind(`SELECT COALESCE(SUM(s.value), 0) FROM statistics s
		JOIN services v ON v.name = s.key WHERE v.type = ?`)
	if err := d.r.GetContext(ctx, &total, q, "north"); err != nil {
		return 0, fmt.Errorf("db: north sent total: %w", translate(err))
	}
	return total, nil
}
