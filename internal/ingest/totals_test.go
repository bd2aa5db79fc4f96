package ingest

import (
	"context"
	"errors"
	"testing"

	"github.com/edged/edged/db"
)

// gatedStats is a statistics store whose AddStatistics waits for a gate,
// so a test can look at the counters while a flush is under way.
type gatedStats struct {
	entered chan struct{}
	gate    chan error
}

func (g *gatedStats) EnsureStatistics(context.Context, ...db.Statistic) error { return nil }
func (g *gatedStats) AddStatistics(context.Context, map[string]int64) error {
	g.entered <- struct{}{}
	return <-g.gate
}
func (g *gatedStats) ListStatistics(context.Context) ([]db.Statistic, error) {
	return []db.Statistic{{Key: "READINGS", Value: 10}, {Key: "PURGED", Value: 4}}, nil
}

// TestCountersTotal: Total is the stored value plus everything counted
// since, at every moment of a flush, failed ones included.
func TestCountersTotal(t *testing.T) {
	g := &gatedStats{entered: make(chan struct{}), gate: make(chan error)}
	c := NewCounters(g, nil)
	c.Add("READINGS", "", 1) // counted before Load: still counted once
	if err := c.Load(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	c.Add("READINGS", "", 4)
	check := func(when string, readings, purged int64) {
		t.Helper()
		if got := c.Total("READINGS"); got != readings {
			t.Errorf("READINGS %s = %d, want %d", when, got, readings)
		}
		if got := c.Total("PURGED"); got != purged {
			t.Errorf("PURGED %s = %d, want %d", when, got, purged)
		}
	}
	check("before a flush", 15, 4)

	for _, outcome := range []error{errors.New("storage down"), nil} {
		done := make(chan error, 1)
		go func() { done <- c.Flush(context.Background()) }()
		<-g.entered
		c.Add("READINGS", "", 1)
		check("during a flush", 16, 4)
		g.gate <- outcome
		if err := <-done; (err == nil) != (outcome == nil) {
			t.Fatalf("Flush = %v with the store answering %v", err, outcome)
		}
		check("after a flush", 16, 4)
		c.Add("READINGS", "", -1) // back to 15 for the next round
	}

	c.Committed(map[string]int64{"PURGED": 3})
	check("after a purge counted elsewhere", 15, 7)
	c.Forget("PURGED")
	check("after Forget", 15, 0)
}
