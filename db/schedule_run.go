package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// sameTiming reports whether a and b run the same process at the same
// times (name, id, enabled flag and stamps aside).
func sameTiming(a, b Schedule) bool {
	eq := func(x, y *int) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.ProcessName == b.ProcessName && a.Type == b.Type && a.RepeatSeconds == b.RepeatSeconds &&
		eq(a.TimeOfDay, b.TimeOfDay) && eq(a.Day, b.Day) && a.Exclusive == b.Exclusive
}

// UpdateSchedule sets the process, type, repeat, time of day, day and
// exclusive flag of the schedule with s.ID to those of s, in one
// transaction; its name and enabled flag are kept (the flag changes through
// SetScheduleEnabled). It returns the stored schedule and whether anything
// changed (updated_at moves only then). An unknown id gives an error
// wrapping ErrNotFound; values breaking the table's checks an error
// wrapping no sentinel.
func (d *DB) UpdateSchedule(ctx context.Context, s Schedule) (out Schedule, changed bool, err error) {
	err = d.inTx(ctx, func(tx *sqlx.Tx) error {
		var r scheduleRow
		q := tx.Rebind(`SELECT ` + scheduleColumns + ` FROM schedules WHERE id = ?` + d.forUpdate())
		if err := tx.GetContext(ctx, &r, q, s.ID); err != nil {
			return translate(err)
		}
		out = r.schedule()
		if sameTiming(out, s) {
			return nil
		}
		at := now()
		_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE schedules SET process_name = ?, type = ?, repeat_seconds = ?,
			time_of_day_seconds = ?, day = ?, exclusive = ?, updated_at = ? WHERE id = ?`),
			s.ProcessName, s.Type, s.RepeatSeconds, nullableInt(s.TimeOfDay), nullableInt(s.Day), s.Exclusive, at, s.ID)
		if err != nil {
			return translate(err)
		}
		out.ProcessName, out.Type, out.RepeatSeconds = s.ProcessName, s.Type, s.RepeatSeconds
		out.TimeOfDay, out.Day, out.Exclusive, out.UpdatedAt = s.TimeOfDay, s.Day, s.Exclusive, at
		changed = true
		return nil
	})
	if err != nil {
		return Schedule{}, false, fmt.Errorf("db: update schedule %q: %w", s.ID, err)
	}
	return out, changed, nil
}
