package app

import (
	"context"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/scheduler"
)

// wireNorth lets north tasks run on sched: their schedules run the process
// db.NorthTaskProcess, and the north runtime creates them there.
func wireNorth(svc *services, sched *scheduler.Scheduler) {
	svc.north.SetSchedules(sched)
	sched.Register(db.NorthTaskProcess, func(ctx context.Context, run scheduler.Run) error {
		return svc.north.RunTask(ctx, run.Schedule)
	})
}
