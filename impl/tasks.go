package impl

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/scheduler"
)

// ListTasks returns task executions newest first, filtered and paged.
func (s *Server) ListTasks(ctx context.Context, req gen.ListTasksRequestObject) (gen.ListTasksResponseObject, error) {
	p := req.Params
	ts, err := s.tasks.Tasks(ctx, taskFilter(p.Name, p.State, p.Limit, p.Skip))
	if err != nil {
		return nil, err
	}
	out, err := taskList(ts)
	if err != nil {
		return nil, err
	}
	return gen.ListTasks200JSONResponse(out), nil
}

// ListLatestTasks returns the newest execution of each task name, newest
// first, filtered and paged.
func (s *Server) ListLatestTasks(ctx context.Context, req gen.ListLatestTasksRequestObject) (gen.ListLatestTasksResponseObject, error) {
	p := req.Params
	ts, err := s.tasks.LatestTasks(ctx, taskFilter(p.Name, p.State, p.Limit, p.Skip))
	if err != nil {
		return nil, err
	}
	out, err := taskList(ts)
	if err != nil {
		return nil, err
	}
	return gen.ListLatestTasks200JSONResponse(out), nil
}

// GetTask returns one task execution.
func (s *Server) GetTask(ctx context.Context, req gen.GetTaskRequestObject) (gen.GetTaskResponseObject, error) {
	t, err := s.tasks.Task(ctx, req.Id.String())
	if err != nil {
		return nil, err
	}
	out, err := taskOut(t)
	if err != nil {
		return nil, err
	}
	return gen.GetTask200JSONResponse(out), nil
}

// CancelTask cancels a running task.
func (s *Server) CancelTask(ctx context.Context, req gen.CancelTaskRequestObject) (gen.CancelTaskResponseObject, error) {
	if err := s.tasks.Cancel(ctx, req.Id.String()); err != nil {
		return nil, err
	}
	return gen.CancelTask200JSONResponse{Id: req.Id, Message: "Task cancelled successfully"}, nil
}

// taskFilter builds the scheduler's filter from the query parameters.
func taskFilter(name, state *string, limit, skip *int) scheduler.Filter {
	return scheduler.Filter{Name: valueOr(name, ""), State: valueOr(state, ""),
		Limit: valueOr(limit, defaultLimit), Skip: valueOr(skip, defaultSkip)}
}

func taskList(ts []db.Task) (gen.TaskList, error) {
	out := gen.TaskList{Tasks: make([]gen.Task, 0, len(ts))}
	for _, t := range ts {
		wt, err := taskOut(t)
		if err != nil {
			return gen.TaskList{}, err
		}
		out.Tasks = append(out.Tasks, wt)
	}
	return out, nil
}

// taskOut converts a task record to its wire form: times with
// milliseconds; endTime and exitCode only when set.
func taskOut(t db.Task) (gen.Task, error) {
	id, err := uuid.Parse(t.ID)
	if err != nil {
		return gen.Task{}, fmt.Errorf("task %q: id is not a UUID: %w", t.ID, err)
	}
	out := gen.Task{
		Id:          id,
		Name:        t.Name,
		ProcessName: t.ProcessName,
		State:       gen.TaskState(t.State),
		StartTime:   t.StartTime.UTC().Format(eventTimeLayout),
		ExitCode:    t.ExitCode,
		Reason:      t.Reason,
		Pid:         t.PID,
	}
	if !t.EndTime.IsZero() {
		end := t.EndTime.UTC().Format(eventTimeLayout)
		out.EndTime = &end
	}
	return out, nil
}
