package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// Service types as stored (the create request's spelling).
const (
	ServiceSouth        = "south"
	ServiceNorth        = "north"
	ServiceNotification = "notification"
	ServiceDispatcher   = "dispatcher"
)

// Service is a configured service. Its schedule (named after it) decides
// whether it runs; ScheduleEnabled mirrors that schedule's flag.
type Service struct {
	Name            string
	Type            string // south, north, notification or dispatcher
	Plugin          string
	ScheduleID      string // "" when the service has no schedule
	ScheduleEnabled bool
	CreatedAt       time.Time
}

// serviceRow is a services row joined with its schedule's flag.
type serviceRow struct {
	Name            string  `db:"name"`
	Type            string  `db:"type"`
	Plugin          string  `db:"plugin"`
	ScheduleID      *string `db:"schedule_id"`
	ScheduleEnabled *bool   `db:"schedule_enabled"`
	CreatedAt       dbTime  `db:"created_at"`
}

func (r serviceRow) service() Service {
	s := Service{Name: r.Name, Type: r.Type, Plugin: r.Plugin, CreatedAt: r.CreatedAt.Time}
	if r.ScheduleID != nil {
		s.ScheduleID = *r.ScheduleID
	}
	if r.ScheduleEnabled != nil {
		s.ScheduleEnabled = *r.ScheduleEnabled
	}
	return s
}

const serviceSelect = `SELECT v.name, v.type, v.plugin, v.schedule_id, s.enabled AS schedule_enabled, v.created_at
	FROM services v LEFT JOIN schedules s ON s.id = v.schedule_id`

// CreateService stores the service svc and its schedule sched in one
// transaction; svc.ScheduleID is set to sched.ID and the service's enabled
// flag to the schedule's. A name or id already used by a service or a
// schedule gives an error wrapping ErrConflict, and then nothing is
// stored. It returns the stored service.
func (d *DB) CreateService(ctx context.Context, svc Service, sched Schedule) (Service, error) {
	at := now()
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := insertSchedule(ctx, tx, sched, at); err != nil {
			return err
		}
		q := tx.Rebind(`INSERT INTO services (name, type, plugin, enabled, schedule_id, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`)
		_, err := tx.ExecContext(ctx, q, svc.Name, svc.Type, svc.Plugin, sched.Enabled, sched.ID, at)
		return translate(err)
	})
	if err != nil {
		return Service{}, fmt.Errorf("db: create service %q: %w", svc.Name, err)
	}
	svc.ScheduleID, svc.ScheduleEnabled, svc.CreatedAt = sched.ID, sched.Enabled, at
	return svc, nil
}

// GetService returns the service named name; an error wrapping ErrNotFound
// when there is none.
func (d *DB) GetService(ctx context.Context, name string) (Service, error) {
	var r serviceRow
	if err := d.r.GetContext(ctx, &r, d.r.Rebind(serviceSelect+` WHERE v.name = ?`), name); err != nil {
		return Service{}, fmt.Errorf("db: get service %q: %w", name, translate(err))
	}
	return r.service(), nil
}

// GetServiceBySchedule returns the service its schedule id starts; an error
// wrapping ErrNotFound when no service has that schedule.
func (d *DB) GetServiceBySchedule(ctx context.Context, scheduleID string) (Service, error) {
	var r serviceRow
	if err := d.r.GetContext(ctx, &r, d.r.Rebind(serviceSelect+` WHERE v.schedule_id = ?`), scheduleID); err != nil {
		return Service{}, fmt.Errorf("db: get service of schedule %q: %w", scheduleID, translate(err))
	}
	return r.service(), nil
}

// ListServices returns the services of type typ ("" for all), sorted by
// name (bytewise). None is an empty, non-nil slice.
func (d *DB) ListServices(ctx context.Context, typ string) ([]Service, error) {
	q, args := serviceSelect, []any{}
	if typ != "" {
		q += ` WHERE v.type = ?`
		args = append(args, typ)
	}
	var rows []serviceRow
	if err := d.r.SelectContext(ctx, &rows, d.r.Rebind(q+` ORDER BY v.name`), args...); err != nil {
		return nil, fmt.Errorf("db: list services: %w", translate(err))
	}
	out := make([]Service, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.service())
	}
	return out, nil
}

// DeleteService removes, in one transaction, the service named name, its
// schedule, the configuration category named after it (with its parent and
// child links), its plugins' persisted data and the statistics named in
// statistics; its asset tracking events are deprecated (kept as history)
// and its readings stay. An unknown service gives an error wrapping
// ErrNotFound and nothing is removed.
func (d *DB) DeleteService(ctx context.Context, name string, statistics []string) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		var scheduleID *string
		q := tx.Rebind(`SELECT schedule_id FROM services WHERE name = ?` + d.forUpdate())
		if err := tx.GetContext(ctx, &scheduleID, q, name); err != nil {
			return translate(err)
		}
		at := now()
		type stmt struct {
			q    string
			args []any
		}
		stmts := []stmt{
			{`DELETE FROM services WHERE name = ?`, []any{name}},
			{`DELETE FROM categories WHERE key = ?`, []any{name}},
			{`DELETE FROM plugin_data WHERE service_name = ?`, []any{name}},
			{`UPDATE asset_tracker SET deprecated_ts = ? WHERE service = ? AND deprecated_ts IS NULL`, []any{at, name}},
		}
		if scheduleID != nil {
			stmts = append(stmts, stmt{`DELETE FROM schedules WHERE id = ?`, []any{*scheduleID}})
		}
		for _, key := range statistics {
			stmts = append(stmts, stmt{`DELETE FROM statistics WHERE key = ?`, []any{key}})
		}
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, tx.Rebind(s.q), s.args...); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: delete service %q: %w", name, err)
	}
	return nil
}
