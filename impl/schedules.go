package impl

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/service"
)

// scheduleOut converts a stored schedule to its wire form.
func scheduleOut(s db.Schedule) (gen.Schedule, error) {
	id, err := uuid.Parse(s.ID)
	if err != nil {
		return gen.Schedule{}, fmt.Errorf("schedule %q has id %q: %w", s.Name, s.ID, err)
	}
	return gen.Schedule{Id: id, Name: s.Name, ProcessName: s.ProcessName, Type: gen.ScheduleType(s.Type),
		Repeat: int(s.RepeatSeconds), Time: valueOr(s.TimeOfDay, 0), Day: s.Day, Exclusive: s.Exclusive, Enabled: s.Enabled}, nil
}

// ListSchedules (GET /edge/schedule) returns every schedule.
func (s *Server) ListSchedules(ctx context.Context, _ gen.ListSchedulesRequestObject) (gen.ListSchedulesResponseObject, error) {
	list, err := s.services.Schedules(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.ListSchedules200JSONResponse{Schedules: make([]gen.Schedule, 0, len(list))}
	for _, sc := range list {
		w, err := scheduleOut(sc)
		if err != nil {
			return nil, err
		}
		out.Schedules = append(out.Schedules, w)
	}
	return out, nil
}

// GetSchedule (GET /edge/schedule/{schedule_id}) returns one schedule.
func (s *Server) GetSchedule(ctx context.Context, req gen.GetScheduleRequestObject) (gen.GetScheduleResponseObject, error) {
	sc, err := s.services.Schedule(ctx, service.ScheduleSelector{ID: req.ScheduleId.String()})
	if err != nil {
		return nil, err
	}
	w, err := scheduleOut(sc)
	if err != nil {
		return nil, err
	}
	return gen.GetSchedule200JSONResponse(w), nil
}

// selector reads a ScheduleSelector body (exactly one of the two fields;
// the contract's validator enforces it, this states it again for safety).
func selector(body *gen.ScheduleSelector) (service.ScheduleSelector, error) {
	switch {
	case body == nil:
		return service.ScheduleSelector{}, fault.New(fault.Invalid, "request body is required")
	case body.ScheduleId != nil && body.ScheduleName != nil:
		return service.ScheduleSelector{}, fault.New(fault.Invalid, `request body must name the schedule by "schedule_name" or "schedule_id", not both`)
	case body.ScheduleId != nil:
		return service.ScheduleSelector{ID: body.ScheduleId.String()}, nil
	case body.ScheduleName != nil:
		return service.ScheduleSelector{Name: *body.ScheduleName}, nil
	}
	return service.ScheduleSelector{}, fault.New(fault.Invalid, `request body must name the schedule by "schedule_name" or "schedule_id"`)
}

// setEnabled enables or disables a schedule and returns the wire status.
func (s *Server) setEnabled(ctx context.Context, sel service.ScheduleSelector, enabled bool) (gen.ScheduleStatus, error) {
	sc, err := s.services.SetScheduleEnabled(ctx, sel, enabled)
	if err != nil {
		return gen.ScheduleStatus{}, err
	}
	id, err := uuid.Parse(sc.ID)
	if err != nil {
		return gen.ScheduleStatus{}, fmt.Errorf("schedule %q has id %q: %w", sc.Name, sc.ID, err)
	}
	verb := "disabled"
	if enabled {
		verb = "enabled"
	}
	return gen.ScheduleStatus{ScheduleId: id, Status: true, Message: fmt.Sprintf("Schedule %s successfully %s", sc.Name, verb)}, nil
}

// EnableScheduleByName (PUT /edge/schedule/enable) enables a schedule named
// in the body.
func (s *Server) EnableScheduleByName(ctx context.Context, req gen.EnableScheduleByNameRequestObject) (gen.EnableScheduleByNameResponseObject, error) {
	sel, err := selector(req.Body)
	if err != nil {
		return nil, err
	}
	st, err := s.setEnabled(ctx, sel, true)
	if err != nil {
		return nil, err
	}
	return gen.EnableScheduleByName200JSONResponse(st), nil
}

// DisableScheduleByName (PUT /edge/schedule/disable) disables a schedule
// named in the body.
func (s *Server) DisableScheduleByName(ctx context.Context, req gen.DisableScheduleByNameRequestObject) (gen.DisableScheduleByNameResponseObject, error) {
	sel, err := selector(req.Body)
	if err != nil {
		return nil, err
	}
	st, err := s.setEnabled(ctx, sel, false)
	if err != nil {
		return nil, err
	}
	return gen.DisableScheduleByName200JSONResponse(st), nil
}

// EnableSchedule (PUT /edge/schedule/{schedule_id}/enable) enables a
// schedule.
func (s *Server) EnableSchedule(ctx context.Context, req gen.EnableScheduleRequestObject) (gen.EnableScheduleResponseObject, error) {
	st, err := s.setEnabled(ctx, service.ScheduleSelector{ID: req.ScheduleId.String()}, true)
	if err != nil {
		return nil, err
	}
	return gen.EnableSchedule200JSONResponse(st), nil
}

// DisableSchedule (PUT /edge/schedule/{schedule_id}/disable) disables a
// schedule.
func (s *Server) DisableSchedule(ctx context.Context, req gen.DisableScheduleRequestObject) (gen.DisableScheduleResponseObject, error) {
	st, err := s.setEnabled(ctx, service.ScheduleSelector{ID: req.ScheduleId.String()}, false)
	if err != nil {
		return nil, err
	}
	return gen.DisableSchedule200JSONResponse(st), nil
}
