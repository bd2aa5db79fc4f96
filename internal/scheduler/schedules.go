package scheduler

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/fault"
)

// check validates a task schedule's definition. STARTUP schedules belong
// to services and are refused.
func check(sc db.Schedule) error {
	switch {
	case strings.TrimSpace(sc.Name) == "":
		return fault.New(fault.Invalid, "schedule name is empty")
	case sc.ProcessName == "":
		return fault.New(fault.Invalid, "schedule %q names no process", sc.Name)
	}
	switch sc.Type {
	case db.ScheduleInterval:
		if sc.RepeatSeconds < 1 {
			return fault.New(fault.Invalid, "INTERVAL schedule %q needs a repeat of at least 1 second", sc.Name)
		}
	case db.ScheduleTimed:
		if sc.TimeOfDay == nil || *sc.TimeOfDay < 0 || *sc.TimeOfDay > 86399 {
			return fault.New(fault.Invalid, "TIMED schedule %q needs a time of day between 0 and 86399 seconds", sc.Name)
		}
		if sc.Day != nil && (*sc.Day < 1 || *sc.Day > 7) {
			return fault.New(fault.Invalid, "TIMED schedule %q has day %d; use 1 (Monday) to 7 (Sunday) or none", sc.Name, *sc.Day)
		}
	case db.ScheduleManual:
	case db.ScheduleStartup:
		return fault.New(fault.Invalid, "STARTUP schedule %q belongs to a service; the scheduler creates task schedules only", sc.Name)
	default:
		return fault.New(fault.Invalid, "schedule %q has type %q; use INTERVAL, TIMED or MANUAL", sc.Name, sc.Type)
	}
	return nil
}

// normalise clears the fields that do not apply to sc's type.
func normalise(sc db.Schedule) db.Schedule {
	if sc.Type != db.ScheduleInterval {
		sc.RepeatSeconds = 0
	}
	if sc.Type != db.ScheduleTimed {
		sc.TimeOfDay, sc.Day = nil, nil
	}
	return sc
}

// Create stores the task schedule sc (a new id when sc.ID is empty),
// writes SCHAD and arms it. An invalid definition is Invalid; a name or id
// in use is Conflict.
func (s *Scheduler) Create(ctx context.Context, sc db.Schedule) (db.Schedule, error) {
	if err := check(sc); err != nil {
		return db.Schedule{}, err
	}
	sc = normalise(sc)
	if sc.ID == "" {
		sc.ID = uuid.NewString()
	}
	out, err := s.o.Store.CreateSchedule(ctx, sc)
	if errors.Is(err, db.ErrConflict) {
		return db.Schedule{}, fault.New(fault.Conflict, "a schedule named %q already exists", sc.Name)
	}
	if err != nil {
		return db.Schedule{}, fmt.Errorf("scheduler: %w", err)
	}
	s.audit(ctx, auditSchedAdded, details(out))
	s.log.Info("schedule added", "schedule", out.Name, "type", out.Type, "enabled", out.Enabled)
	s.Notify()
	return out, nil
}

// Update sets the process and timing (type, repeat, time of day, day,
// exclusive) of the task schedule sc.ID to sc's; its name and enabled flag
// stay. A change writes SCHCH and re-arms the schedule (an INTERVAL
// schedule then runs at once); no change writes nothing. Invalid
// definition: Invalid; unknown id: NotFound.
func (s *Scheduler) Update(ctx context.Context, sc db.Schedule) (db.Schedule, error) {
	if err := check(sc); err != nil {
		return db.Schedule{}, err
	}
	cur, err := s.o.Store.GetSchedule(ctx, sc.ID)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return db.Schedule{}, fault.New(fault.NotFound, "schedule with id %s not found", sc.ID)
	case err != nil:
		return db.Schedule{}, fmt.Errorf("scheduler: %w", err)
	case cur.Type == db.ScheduleStartup:
		return db.Schedule{}, fault.New(fault.Invalid, "schedule %q starts a service; it is not a task schedule", cur.Name)
	}
	out, changed, err := s.o.Store.UpdateSchedule(ctx, normalise(sc))
	if errors.Is(err, db.ErrNotFound) {
		return db.Schedule{}, fault.New(fault.NotFound, "schedule with id %s not found", sc.ID)
	}
	if err != nil {
		return db.Schedule{}, fmt.Errorf("scheduler: %w", err)
	}
	if changed {
		s.audit(ctx, auditSchedChanged, details(out))
		s.log.Info("schedule changed", "schedule", out.Name, "type", out.Type, "repeat", out.RepeatSeconds)
		s.Notify()
	}
	return out, nil
}

// Ensure makes sure the task schedule named sc.Name exists with sc's
// process and timing: it creates it (with sc's enabled flag; SCHAD) when
// missing, updates it (SCHCH) when its definition differs, and otherwise
// leaves it alone. The enabled flag of an existing schedule is never
// changed, so an operator's choice survives restarts. It is how the
// gateway seeds its own schedules.
func (s *Scheduler) Ensure(ctx context.Context, sc db.Schedule) (db.Schedule, error) {
	cur, err := s.o.Store.GetScheduleByName(ctx, sc.Name)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return s.Create(ctx, sc)
	case err != nil:
		return db.Schedule{}, fmt.Errorf("scheduler: %w", err)
	}
	sc.ID = cur.ID
	return s.Update(ctx, sc)
}

// details is the audit detail of a schedule addition or change.
func details(sc db.Schedule) map[string]any {
	d := map[string]any{"schedule": sc.Name, "id": sc.ID, "type": sc.Type, "process": sc.ProcessName,
		"exclusive": sc.Exclusive, "enabled": sc.Enabled}
	switch sc.Type {
	case db.ScheduleInterval:
		d["repeat"] = sc.RepeatSeconds
	case db.ScheduleTimed:
		d["time"] = *sc.TimeOfDay
		if sc.Day != nil {
			d["day"] = *sc.Day
		}
	}
	return d
}

// audit writes an entry; a failure is logged, since what it records has
// happened.
func (s *Scheduler) audit(ctx context.Context, source string, details any) {
	if s.o.Audit == nil {
		return
	}
	if err := s.o.Audit.Record(context.WithoutCancel(ctx), source, auditcode.Information, details); err != nil {
		s.log.Error("audit entry not written", "source", source, "error", err)
	}
}
