// Package backoff is the restart policy of supervised services, south and
// north alike: after a failure a service waits Initial, doubling with each
// consecutive failure up to Max; a run that lasted ResetAfter or longer
// starts the sequence afresh. The supervisor waits a jittered delay
// (Jittered): services that failed together, because the device or broker
// they share went away, do not all come back at the same instant.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Policy is a restart backoff. The zero value takes Default's fields.
type Policy struct {
	Initial, Max, ResetAfter time.Duration
}

// Default is the restart backoff of services: 1 s doubling to 1 min, reset
// by a run of 1 min.
var Default = Policy{Initial: time.Second, Max: time.Minute, ResetAfter: time.Minute}

// WithDefaults returns p with each zero or negative field taken from
// Default.
func (p Policy) WithDefaults() Policy {
	if p.Initial <= 0 {
		p.Initial = Default.Initial
	}
	if p.Max <= 0 {
		p.Max = Default.Max
	}
	if p.ResetAfter <= 0 {
		p.ResetAfter = Default.ResetAfter
	}
	return p
}

// Delay returns the wait after the attempt-th consecutive failure
// (0-based): Initial doubled attempt times, never above Max.
func (p Policy) Delay(attempt int) time.Duration {
	d := p.Initial
	for range attempt {
		d *= 2
		if d >= p.Max {
			return p.Max
		}
	}
	return min(d, p.Max)
}

// Jitter is the fraction of a delay Jittered may take off: a jittered
// delay lies between (1-Jitter)·Delay and Delay. Never longer than Delay,
// so Max stays the longest wait.
const Jitter = 0.2

// Jittered returns Delay(attempt) less a random part of up to Jitter of
// it.
func (p Policy) Jittered(attempt int) time.Duration {
	return jitter(p.Delay(attempt), rand.Float64()) //nolint:gosec // spreading restarts needs no unpredictability
}

// jitter takes the fraction r·Jitter (r in [0, 1)) off d.
func jitter(d time.Duration, r float64) time.Duration {
	return d - time.Duration(float64(d)*Jitter*r)
}
