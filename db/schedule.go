package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Schedule types.
const (
	ScheduleStartup  = "STARTUP"
	ScheduleTimed    = "TIMED"
	ScheduleInterval = "INTERVAL"
	ScheduleManual   = "MANUAL"
)

// Schedule is one schedule of the scheduler. A service's schedule is a
// STARTUP schedule named after the service.
type Schedule struct {
	ID            string // UUID, 36 characters
	Name          string // unique
	ProcessName   string
	Type          string // STARTUP, TIMED, INTERVAL or MANUAL
	RepeatSeconds int64  // INTERVAL: seconds between runs
	TimeOfDay     *int   // TIMED: seconds after midnight UTC; nil when not set
	Day           *int   // TIMED: weekday 1 (Monday)..7; nil for every day
	Exclusive     bool
	Enabled       bool
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// scheduleRow is a schedules row as both dialects scan it.
type scheduleRow struct {
	ID            string        `db:"id"`
	Name          string        `db:"name"`
	ProcessName   string        `db:"process_name"`
	Type          string        `db:"type"`
	RepeatSeconds int64         `db:"repeat_seconds"`
	TimeOfDay     sql.NullInt64 `db:"time_of_day_seconds"`
	Day           sql.NullInt64 `db:"day"`
	Exclusive     bool          `db:"exclusive"`
	Enabled       bool          `db:"enabled"`
	CreatedAt     dbTime        `db:"created_at"`
	UpdatedAt     dbTime        `db:"updated_at"`
}

func (r scheduleRow) schedule() Schedule {
	s := Schedule{
		ID: r.ID, Name: r.Name, ProcessName: r.ProcessName, Type: r.Type,
		RepeatSeconds: r.RepeatSeconds, Exclusive: r.Exclusive, Enabled: r.Enabled,
		CreatedAt: r.CreatedAt.Time, UpdatedAt: r.UpdatedAt.Time,
	}
	if r.TimeOfDay.Valid {
		v := int(r.TimeOfDay.Int64)
		s.TimeOfDay = &v
	}
	if r.Day.Valid {
		v := int(r.Day.Int64)
		s.Day = &v
	}
	return s
}

const scheduleColumns = `id, name, process_name, type, repeat_seconds, time_of_day_seconds, day,
	exclusive, enabled, created_at, updated_at`

// nullableInt binds an optional integer.
func nullableInt(p *int) any {
	if p == nil {
		return nil
	}
	return int64(*p)
}

// insertSchedule inserts s in tx, stamping both times with at.
func insertSchedule(ctx context.Context, tx *sqlx.Tx, s Schedule, at time.Time) error {
	q := tx.Rebind(`INSERT INTO schedules (` + scheduleColumns + `)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	_, err := tx.ExecContext(ctx, q, s.ID, s.Name, s.ProcessName, s.Type, s.RepeatSeconds,
		nullableInt(s.TimeOfDay), nullableInt(s.Day), s.Exclusive, s.Enabled, at, at)
	return translate(err)
}

// CreateSchedule stores s and returns it with its times set. An existing
// id or name gives an error wrapping ErrConflict; a value breaking the
// table's checks (type, id length, ranges) an error wrapping no sentinel.
func (d *DB) CreateSchedule(ctx context.Context, s Schedule) (Schedule, error) {
	at := now()
	err := d.inTx(ctx, func(tx *sqlx.Tx) error { return insertSchedule(ctx, tx, s, at) })
	if err != nil {
		return Schedule{}, fmt.Errorf("db: create schedule %q: %w", s.Name, err)
	}
	s.CreatedAt, s.UpdatedAt = at, at
	return s, nil
}

// GetSchedule returns the schedule with id; an error wrapping ErrNotFound
// when there is none.
func (d *DB) GetSchedule(ctx context.Context, id string) (Schedule, error) {
	var r scheduleRow
	q := d.r.Rebind(`SELECT ` + scheduleColumns + ` FROM schedules WHERE id = ?`)
	if err := d.r.GetContext(ctx, &r, q, id); err != nil {
		return Schedule{}, fmt.Errorf("db: get schedule %q: %w", id, translate(err))
	}
	return r.schedule(), nil
}

// GetScheduleByName returns the schedule named name; an error wrapping
// ErrNotFound when there is none.
func (d *DB) GetScheduleByName(ctx context.Context, name string) (Schedule, error) {
	var r scheduleRow
	q := d.r.Rebind(`SELECT ` + scheduleColumns + ` FROM schedules WHERE name = ?`)
	if err := d.r.GetContext(ctx, &r, q, name); err != nil {
		return Schedule{}, fmt.Errorf("db: get schedule named %q: %w", name, translate(err))
	}
	return r.schedule(), nil
}

// ListSchedules returns every schedule sorted by name (bytewise). None is
// an empty, non-nil slice.
func (d *DB) ListSchedules(ctx context.Context) ([]Schedule, error) {
	var rows []scheduleRow
	if err := d.r.SelectContext(ctx, &rows, `SELECT `+scheduleColumns+` FROM schedules ORDER BY name`); err != nil {
		return nil, fmt.Errorf("db: list schedules: %w", translate(err))
	}
	out := make([]Schedule, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.schedule())
	}
	return out, nil
}

// SetScheduleEnabled sets the enabled flag of the schedule with id (and of
// the service it starts, if any) in one transaction. It returns the stored
// schedule and whether the flag changed; setting the current value changes
// nothing and is not an error. An unknown id gives an error wrapping
// ErrNotFound.
func (d *DB) SetScheduleEnabled(ctx context.Context, id string, enabled bool) (s Schedule, changed bool, err error) {
	err = d.inTx(ctx, func(tx *sqlx.Tx) error {
		var r scheduleRow
		q := tx.Rebind(`SELECT ` + scheduleColumns + ` FROM schedules WHERE id = ?` + d.forUpdate())
		if err := tx.GetContext(ctx, &r, q, id); err != nil {
			return translate(err)
		}
		s = r.schedule()
		if s.Enabled == enabled {
			return nil
		}
		at := now()
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE schedules SET enabled = ?, updated_at = ? WHERE id = ?`),
			enabled, at, id); err != nil {
			return translate(err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE services SET enabled = ? WHERE schedule_id = ?`),
			enabled, id); err != nil {
			return translate(err)
		}
		s.Enabled, s.UpdatedAt, changed = enabled, at, true
		return nil
	})
	if err != nil {
		return Schedule{}, false, fmt.Errorf("db: set schedule %q enabled: %w", id, err)
	}
	return s, changed, nil
}
