package app

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/edged/edged/internal/service"
)

// TestStopInStagesGivesEachStageItsOwnBudget: a stage that uses up its
// whole budget leaves the next stages theirs, in order.
func TestStopInStagesGivesEachStageItsOwnBudget(t *testing.T) {
	var order []string
	var fresh []bool
	parent, cancelParent := context.WithCancel(context.Background())
	cancelParent() // a stop requested by a cancelled context still runs every stage
	stopInStages(parent, slog.New(slog.DiscardHandler), []stage{
		{name: "slow", budget: time.Millisecond, run: func(ctx context.Context) {
			order = append(order, "slow")
			<-ctx.Done() // overruns its budget
		}},
		{name: "services", budget: time.Hour, run: func(ctx context.Context) {
			order = append(order, "services")
			_, hasDeadline := ctx.Deadline()
			fresh = append(fresh, ctx.Err() == nil && hasDeadline)
		}},
		{name: "FSTOP", budget: time.Hour, run: func(ctx context.Context) {
			order = append(order, "FSTOP")
			fresh = append(fresh, ctx.Err() == nil)
		}},
	})
	if !slices.Equal(order, []string{"slow", "services", "FSTOP"}) {
		t.Errorf("stages ran %v", order)
	}
	if !slices.Equal(fresh, []bool{true, true}) {
		t.Errorf("later stages got a live context with its own deadline: %v", fresh)
	}
}

// TestStopFitsSystemd: the stages of a clean stop, one after another,
// end before systemd's default stop timeout kills the gateway, and the
// services' stage covers what a service's stop may take.
func TestStopFitsSystemd(t *testing.T) {
	noop := func(context.Context) {}
	var total time.Duration
	for _, s := range stopStages(noop, noop, noop, noop, noop) {
		total += s.budget
	}
	if total > stopTimeout {
		t.Errorf("the stop's stages take up to %v, more than the %v systemd waits (less a margin)", total, stopTimeout)
	}
	if need := service.DefaultStopGrace + service.DrainWait; servicesStopBudget < need {
		t.Errorf("the services' stage has %v, less than a service's stop grace and drain, %v", servicesStopBudget, need)
	}
}
