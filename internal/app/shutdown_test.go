package app

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"
)

// TestStopInStagesGivesEachStageItsOwnBudget: a stage that uses up its
// whole budget leaves the next stages theirs, in order.
func TestStopInStagesGivesEachStageItsOwnBudget(t *testing.T) {
	var order []string
	var fresh []bool
	parent, cancelParent := context.WithCancel(context.Background())
	cancelParent() // a stop requested by a cancelled context still runs every stage
	stopInStages(parent, slog.New(slog.DiscardHandler),
		stage{name: "slow", budget: time.Millisecond, run: func(ctx context.Context) {
			order = append(order, "slow")
			<-ctx.Done() // overruns its budget
		}},
		stage{name: "services", budget: time.Hour, run: func(ctx context.Context) {
			order = append(order, "services")
			_, hasDeadline := ctx.Deadline()
			fresh = append(fresh, ctx.Err() == nil && hasDeadline)
		}},
		stage{name: "FSTOP", budget: time.Hour, run: func(ctx context.Context) {
			order = append(order, "FSTOP")
			fresh = append(fresh, ctx.Err() == nil)
		}},
	)
	if !slices.Equal(order, []string{"slow", "services", "FSTOP"}) {
		t.Errorf("stages ran %v", order)
	}
	if !slices.Equal(fresh, []bool{true, true}) {
		t.Errorf("later stages got a live context with its own deadline: %v", fresh)
	}
}
