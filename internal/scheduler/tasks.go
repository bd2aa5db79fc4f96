package scheduler

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
)

// States lists the task states, in the order the API documents them.
var States = []string{db.TaskRunning, db.TaskComplete, db.TaskCancelled, db.TaskInterrupted}

// Filter selects tasks for Tasks and LatestTasks. Name matches
// case-insensitively (ASCII letters), State case-insensitively; "" matches
// everything. Limit 0 means no limit.
type Filter struct {
	Name  string
	State string
	Limit int
	Skip  int
}

// storeFilter validates f and returns it as storage takes it. A state that
// is no task state is Invalid.
func storeFilter(f Filter) (db.TaskFilter, error) {
	out := db.TaskFilter{Name: f.Name, Limit: f.Limit, Skip: f.Skip}
	if f.State != "" {
		for _, st := range States {
			if strings.EqualFold(st, f.State) {
				out.State = st
			}
		}
		if out.State == "" {
			return db.TaskFilter{}, fault.New(fault.Invalid, "unknown task state %q: use one of %s", f.State, strings.Join(States, ", "))
		}
	}
	if f.Limit < 0 || f.Skip < 0 {
		return db.TaskFilter{}, fault.New(fault.Invalid, "limit and skip must not be negative")
	}
	return out, nil
}

// Tasks returns the tasks matching f, newest first.
func (s *Scheduler) Tasks(ctx context.Context, f Filter) ([]db.Task, error) {
	q, err := storeFilter(f)
	if err != nil {
		return nil, err
	}
	ts, err := s.o.Store.ListTasks(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	return ts, nil
}

// LatestTasks returns the newest task matching f of each task name, newest
// first.
func (s *Scheduler) LatestTasks(ctx context.Context, f Filter) ([]db.Task, error) {
	q, err := storeFilter(f)
	if err != nil {
		return nil, err
	}
	ts, err := s.o.Store.ListLatestTasks(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	return ts, nil
}

// Task returns the task id; NotFound when there is none.
func (s *Scheduler) Task(ctx context.Context, id string) (db.Task, error) {
	t, err := s.o.Store.GetTask(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return db.Task{}, fault.New(fault.NotFound, "task %s not found", id)
	}
	if err != nil {
		return db.Task{}, fmt.Errorf("scheduler: %w", err)
	}
	return t, nil
}
