package db

import (
	"context"
	"fmt"
)

// NorthSentTotal returns the sum of the readings sent by every north
// service and task: each has a statistic named after it, holding its sent
// count (a north task is a schedule of process NorthTaskProcess). With no
// north service or task it returns 0. Driver errors are returned wrapped.
func (d *DB) NorthSentTotal(ctx context.Context) (int64, error) {
	var total int64
	q := d.r.Rebind(`SELECT COALESCE(SUM(s.value), 0) FROM statistics s
		WHERE s.key IN (SELECT name FROM services WHERE type = ?)
		OR s.key IN (SELECT name FROM schedules WHERE process_name = ?)`)
	if err := d.r.GetContext(ctx, &total, q, ServiceNorth, NorthTaskProcess); err != nil {
		return 0, fmt.Errorf("db: north sent total: %w", translate(err))
	}
	return total, nil
}
