package app

import (
	"context"
	"log/slog"
	"time"
)

// The time budgets of the stages of a clean stop. Each stage has its own:
// a slow stage cannot eat into the next one's, so services drain their
// buffers even when requests or tasks took their whole budget, and FSTOP
// is written after them.
const (
	// httpStopBudget bounds how long in-flight API requests may take.
	httpStopBudget = 10 * time.Second
	// tasksStopBudget bounds how long cancelled tasks may take to end
	// (the scheduler records those that do not as cancelled).
	tasksStopBudget = 15 * time.Second
	// servicesStopBudget bounds stopping the services: each plugin has
	// its stop grace (15 s), then its ingest buffer is written to storage
	// (at most a minute), then the counters a last time.
	servicesStopBudget = 90 * time.Second
	// fstopBudget bounds writing the FSTOP audit entry.
	fstopBudget = 5 * time.Second
)

// stage is one step of a clean stop.
type stage struct {
	name   string
	budget time.Duration
	run    func(ctx context.Context)
}

// stopInStages runs the stages in order, each with a context of its own
// budget (not what the stages before it left), and logs a stage that
// overran it.
func stopInStages(parent context.Context, log *slog.Logger, stages ...stage) {
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
