package supervisor

import (
	"context"
	"errors"
	"testing"

	"github.com/edged/edged/internal/system"
)

// TestStatusBeforeUp: a service whose plugin has not come up (a process
// that never handshakes, a Start that hangs) is not running, and says
// why; once up it runs; a failed attempt's error is the reason.
func TestStatusBeforeUp(t *testing.T) {
	release := make(chan struct{})
	f := start(t, DefaultSettings, func(ctx context.Context, up func(), n int) error {
		if n > 1 {
			<-ctx.Done()
			return nil
		}
		select {
		case <-release:
		case <-ctx.Done():
			return nil
		}
		up()
		return errors.New("the device closed the connection")
	}, nil)
	recv(t, f.attempts, "the first attempt")
	if got, why := f.s.Status(), f.s.Reason(); got != system.StatusUnresponsive || why != "its plugin has not started yet" {
		t.Errorf("while starting: %s (%q), want unresponsive, not started yet", got, why)
	}
	close(release)
	recv(t, f.audit.ch, "the failure")
	if got, why := f.s.Status(), f.s.Reason(); got != system.StatusFailed || why != "the device closed the connection" {
		t.Errorf("after the failure: %s (%q), want failed with the attempt's error", got, why)
	}
}

func TestReasonWhileRunning(t *testing.T) {
	f := start(t, DefaultSettings, func(ctx context.Context, up func(), _ int) error {
		up()
		<-ctx.Done()
		return nil
	}, nil)
	if err := recv(t, f.s.Started(), "the start"); err != nil {
		t.Fatal(err)
	}
	if got, why := f.s.Status(), f.s.Reason(); got != system.StatusRunning || why != "" {
		t.Errorf("status %s (%q), want running without a reason", got, why)
	}
	f.s.Degraded("the destination refuses readings")
	if got, why := f.s.Status(), f.s.Reason(); got != system.StatusUnresponsive || why != "the destination refuses readings" {
		t.Errorf("degraded: %s (%q)", got, why)
	}
}
