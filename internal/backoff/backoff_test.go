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

func TestJitter(t *testing.T) {
	tests := []struct {
		name string
		r    float64
		want time.Duration
	}{
		{name: "none drawn", r: 0, want: 10 * time.Second},
		{name: "half drawn", r: 0.5, want: 9 * time.Second},
		{name: "all but nothing drawn", r: 0.999999, want: 8*time.Second + 2*time.Microsecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := jitter(10*time.Second, tc.r); got != tc.want {
				t.Fatalf("jitter(10s, %g) = %v, want %v", tc.r, got, tc.want)
			}
		})
	}
}

// TestJitteredSpreads checks that the delays of many failures of the same
// attempt differ and stay within [(1-Jitter)·Delay, Delay].
func TestJitteredSpreads(t *testing.T) {
	p := Policy{Initial: time.Second, Max: time.Minute}
	seen := map[time.Duration]bool{}
	for range 100 {
		d := p.Jittered(3)
		if d > 8*time.Second || d < time.Duration(float64(8*time.Second)*(1-Jitter)) {
			t.Fatalf("Jittered(3) = %v, outside [6.4s, 8s]", d)
		}
		seen[d] = true
	}
	if len(seen) < 10 {
		t.Fatalf("100 jittered delays took %d values: not spread", len(seen))
	}
}
