// Package sinusoid is the south plugin that produces a sine wave: one
// reading {"sinusoid": value} per step, a full cycle every 360 steps, at a
// configurable rate. It persists its position in the cycle at shutdown and
// resumes from it.
package sinusoid

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Name is the plugin's name.
const Name = "sinusoid"

// Configuration items.
const (
	ItemAssetName = "assetName"
	ItemRate      = "dataPointsPerSec"
)

// stepsPerCycle is the number of readings in one full sine cycle.
const stepsPerCycle = 360

// Definition describes the plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Name: Name, Version: "1.0.0", Kind: plugin.KindSouth,
		Description: "A sine wave, one reading per step, a full cycle every 360 steps",
		Items:       plugin.ItemsOf(Config{}),
		Persists:    true,
		New:         newSinusoid,
	}
}

// Sinusoid is a running instance.
type Sinusoid struct {
	env plugin.Env

	// kick tells a running Run loop that the rate changed; the loop stops
	// its timer and closes the channel it receives before the next one.
	kick chan chan struct{}

	mu       sync.Mutex // guards the fields below
	asset    string
	interval time.Duration
	step     int64
	exited   chan struct{} // closed when Run returns; nil while not running
}

// state is what the plugin persists.
type state struct {
	Step int64 `json:"step"`
}

func newSinusoid(env plugin.Env, cfg plugin.Config) (plugin.South, error) {
	s := &Sinusoid{env: env, kick: make(chan chan struct{})}
	if err := s.apply(cfg); err != nil {
		return nil, err
	}
	return s, nil
}

// apply takes the configuration's values.
func (s *Sinusoid) apply(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	if c.DataPointsPerSec < 1 {
		return fmt.Errorf("%s must be at least 1", ItemRate)
	}
	if c.AssetName == "" {
		return fmt.Errorf("%s is empty", ItemAssetName)
	}
	rate, asset := c.DataPointsPerSec, c.AssetName
	s.mu.Lock()
	interval := time.Second / time.Duration(rate)
	changed := s.interval != 0 && interval != s.interval
	s.asset, s.interval = asset, interval
	exited := s.exited
	s.mu.Unlock()
	if changed && exited != nil {
		// Hand the change to the running loop and wait until it dropped
		// the timer of the old rate.
		ack := make(chan struct{})
		select {
		case s.kick <- ack:
			<-ack
		case <-exited:
		}
	}
	return nil
}

// Reconfigure applies a new asset name or rate at once.
func (s *Sinusoid) Reconfigure(cfg plugin.Config) error { return s.apply(cfg) }

// Value returns the wave's value at step.
func Value(step int64) float64 {
	return math.Sin(2 * math.Pi * float64(step%stepsPerCycle) / stepsPerCycle)
}

// Run produces one reading per interval until ctx ends.
func (s *Sinusoid) Run(ctx context.Context, sink plugin.Sink) error {
	exited := make(chan struct{})
	s.mu.Lock()
	s.exited = exited
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.exited = nil
		s.mu.Unlock()
		close(exited)
	}()
	for {
		s.mu.Lock()
		interval := s.interval
		s.mu.Unlock()
		t := s.env.Clock.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case ack := <-s.kick:
			t.Stop()
			close(ack)
			continue
		case now := <-t.C():
			sink.Put([]plugin.Reading{s.next(now)})
		}
	}
}

// next returns the reading of the current step and advances.
func (s *Sinusoid) next(now time.Time) plugin.Reading {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, _ := json.Marshal(map[string]float64{"sinusoid": Value(s.step)})
	s.step++
	return plugin.Reading{Asset: s.asset, Timestamp: now.UTC().Truncate(time.Microsecond), Values: v}
}

// State returns the position in the cycle.
func (s *Sinusoid) State() (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(state{Step: s.step})
}

// Restore resumes from a persisted position.
func (s *Sinusoid) Restore(data json.RawMessage) error {
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("sinusoid: persisted state %s: %w", data, err)
	}
	if st.Step < 0 {
		return fmt.Errorf("sinusoid: persisted step %d is negative", st.Step)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.step = st.Step
	return nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.South     = (*Sinusoid)(nil)
	_ edgeplugin.Persister = (*Sinusoid)(nil)
)
