package impl

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/north"
)

// ListNorthServices (GET /edge/north) returns every north service and
// task with its plugin, readings sent, status and schedule.
func (s *Server) ListNorthServices(ctx context.Context, _ gen.ListNorthServicesRequestObject) (gen.ListNorthServicesResponseObject, error) {
	recs, err := s.north.List(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.ListNorthServices200JSONResponse{Services: make([]gen.NorthService, 0, len(recs))}
	for _, r := range recs {
		id, err := uuid.Parse(r.ScheduleID)
		if err != nil {
			return nil, fmt.Errorf("schedule id %q of north %q: %w", r.ScheduleID, r.Name, err)
		}
		ns := gen.NorthService{Name: r.Name, Type: gen.NorthServiceTypeService,
			Plugin: gen.PluginInfo{Name: r.Plugin, Version: r.PluginVersion},
			Sent:   r.Sent, Status: gen.ServiceStatus(r.Status),
			Schedule: gen.NorthSchedule{Id: id, Enabled: r.Enabled}}
		if r.Task {
			ns.Type = gen.NorthServiceTypeTask
			repeat := int(r.Repeat)
			ns.Schedule.Repeat = &repeat
		}
		out.Services = append(out.Services, ns)
	}
	return out, nil
}

// CreateNorthTask (POST /edge/scheduled/task) creates a north task.
func (s *Server) CreateNorthTask(ctx context.Context, req gen.CreateNorthTaskRequestObject) (gen.CreateNorthTaskResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	b := req.Body
	in := north.TaskRequest{Name: b.Name, Plugin: b.Plugin, Enabled: b.Enabled, Repeat: b.Repeat}
	if b.Config != nil {
		in.Config = make(map[string]string, len(*b.Config))
		for item, v := range *b.Config {
			in.Config[item] = v.Value
		}
	}
	sc, err := s.north.CreateTask(ctx, in)
	if err != nil {
		return nil, err
	}
	id, err := uuid.Parse(sc.ID)
	if err != nil {
		return nil, fmt.Errorf("schedule id %q of north task %q: %w", sc.ID, sc.Name, err)
	}
	return gen.CreateNorthTask200JSONResponse{Message: fmt.Sprintf("North task %s created", sc.Name), Name: sc.Name, Id: id}, nil
}
