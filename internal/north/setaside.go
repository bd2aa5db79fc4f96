package north

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
)

// SetAsideStore is the storage of set-aside readings the runtime's
// operations use; *db.DB implements it.
type SetAsideStore interface {
	ListSetAside(ctx context.Context, name string, limit, skip int) ([]db.SetAsideReading, int, error)
	MarkResend(ctx context.Context, name string, ids []int64) (int64, error)
	DeleteSetAside(ctx context.Context, name string, ids []int64) (int64, error)
}

// exists returns nil when name is a north service or task, a NotFound
// fault otherwise.
func (rt *Runtime) exists(ctx context.Context, name string) error {
	sc, err := rt.o.Store.GetScheduleByName(ctx, name)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return fault.New(fault.NotFound, "north service or task %q not found", name)
	case err != nil:
		return fmt.Errorf("north: %w", err)
	case sc.ProcessName == db.NorthTaskProcess:
		return nil
	}
	svcs, err := rt.o.Store.ListServices(ctx, db.ServiceNorth)
	if err != nil {
		return fmt.Errorf("north: %w", err)
	}
	if !slices.ContainsFunc(svcs, func(s db.Service) bool { return s.Name == name }) {
		return fault.New(fault.NotFound, "north service or task %q not found", name)
	}
	return nil
}

// SetAside returns one page (limit 0: all) of the readings the north
// service or task name set aside, oldest first, and how many there are.
// Unknown name: NotFound.
func (rt *Runtime) SetAside(ctx context.Context, name string, limit, skip int) ([]db.SetAsideReading, int, error) {
	if err := rt.exists(ctx, name); err != nil {
		return nil, 0, err
	}
	out, total, err := rt.o.Store.ListSetAside(ctx, name, limit, skip)
	if err != nil {
		return nil, 0, fmt.Errorf("north: %w", err)
	}
	return out, total, nil
}

// Resend marks the readings name set aside with the given entry ids (all
// when ids is empty) to be sent again and returns how many are marked. A
// running north service sends them before its next block; a north task at
// its next run. The destination accepting them removes them and counts
// them sent; refusing them again leaves them set aside. Unknown name:
// NotFound.
func (rt *Runtime) Resend(ctx context.Context, name string, ids []int64) (int64, error) {
	if err := rt.exists(ctx, name); err != nil {
		return 0, err
	}
	n, err := rt.o.Store.MarkResend(ctx, name, ids)
	if err != nil {
		return 0, fmt.Errorf("north: %w", err)
	}
	if r := rt.runner(name); r != nil && n > 0 {
		r.poke()
	}
	rt.log.Info("set-aside readings marked for resending", "service", name, "readings", n)
	return n, nil
}

// DeleteSetAside removes the readings name set aside with the given entry
// ids (all when ids is empty) and returns how many were removed. Unknown
// name: NotFound.
func (rt *Runtime) DeleteSetAside(ctx context.Context, name string, ids []int64) (int64, error) {
	if err := rt.exists(ctx, name); err != nil {
		return 0, err
	}
	n, err := rt.o.Store.DeleteSetAside(ctx, name, ids)
	if err != nil {
		return 0, fmt.Errorf("north: %w", err)
	}
	rt.log.Info("set-aside readings deleted", "service", name, "readings", n)
	return n, nil
}
