package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/edged/edged/internal/service"
)

// The time budgets of the stages of a clean stop. Each stage has its own:
// a slow stage cannot eat into the next one's, so services drain their
// buffers even when requests or tasks took their whole budget, and FSTOP
// is written after them. Together they fit in stopTimeout.
const (
	// httpStopBudget bounds how long in-flight API requests may take.
	httpStopBudget = 10 * time.Second
	// tasksStopBudget bounds how long cancelled tasks may take to end
	// (the scheduler records those that do not as cancelled).
	tasksStopBudget = 10 * time.Second
	// packagesStopBudget bounds how long cancelled package installs may
	// take to end.
	packagesStopBudget = 10 * time.Second
	// servicesStopBudget bounds stopping the services, all at once: each
	// plugin has its stop grace, then its ingest buffer is written to
	// storage, then the counters are written a last time.
	servicesStopBudget = service.DefaultStopGrace + service.DrainWait + 5*time.Second
	// fstopBudget bounds writing the FSTOP audit entry.
	fstopBudget = 5 * time.Second
)

// stopTimeout is the time a service manager gives the gateway to stop
// before it kills it: systemd's default (DefaultTimeoutStopSec, 90 s),
// less a margin for the process to exit after its last stage.
const stopTimeout = 90*time.Second - 5*time.Second

// stopStages are the stages of a clean stop, in order, each running its
// function with its budget.
func stopStages(api, tasks, packages, services, fstop func(context.Context)) []stage {
	return []stage{
		{name: "API requests", budget: httpStopBudget, run: api},
		{name: "tasks", budget: tasksStopBudget, run: tasks},
		{name: "package installs", budget: packagesStopBudget, run: packages},
		{name: "services", budget: servicesStopBudget, run: services},
		{name: "FSTOP", budget: fstopBudget, run: fstop},
	}
}

// stage is one step of a clean stop.
type stage struct {
	name   string
	budget time.Duration
	run    func(ctx context.Context)
}

// stopInStages runs the stages in order, each with a context of its own
// budget (not what the stages before it left), and logs a stage that
// overran it.
func stopInStages(parent context.Context, log *slog.Logger, stages []stage) {
	base := context.WithoutCancel(parent)
	for _, s := range stages {
		ctx, cancel := context.WithTimeout(base, s.budget)
		s.run(ctx)
		if ctx.Err() != nil {
			log.Warn("a stage of the stop ran out of its time", "stage", s.name, "budget", s.budget)
		}
		cancel()
	}
}
