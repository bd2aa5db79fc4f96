package backoff

import (
	"testing"
	"time"
)

func TestDelay(t *testing.T) {
	p := Policy{Initial: time.Second, Max: 10 * time.Second}
	tests := []struct {
		name    string
		attempt int
		want    time.Duration
	}{
		{name: "first failure", attempt: 0, want: time.Second},
		{name: "doubles", attempt: 2, want: 4 * time.Second},
		{name: "capped at max", attempt: 4, want: 10 * time.Second},
		{name: "stays capped without overflow", attempt: 200, want: 10 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.Delay(tc.attempt); got != tc.want {
				t.Fatalf("Delay(%d) = %v, want %v", tc.attempt, got, tc.want)
			}
		})
	}
}

func TestWithDefaults(t *testing.T) {
	got := Policy{Max: 5 * time.Second}.WithDefaults()
	want := Policy{Initial: Default.Initial, Max: 5 * time.Second, ResetAfter: Default.ResetAfter}
	if got != want {
		t.Fatalf("WithDefaults = %+v, want %+v", got, want)
	}
}
