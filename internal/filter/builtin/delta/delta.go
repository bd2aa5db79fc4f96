package delta

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Items of the delta filter.
const (
	ItemDeltaTolerance = "tolerance"
	ItemDeltaMaxPeriod = "maxPeriod"
)

// Definition describes the filter plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Kind: plugin.KindFilter,
		Name: "delta", Version: "1.0.0",
		Description: "Passes a datapoint on only when it moved by more than a tolerance since it was last passed on, or at least every maxPeriod seconds; a reading left without datapoints is dropped",
		Items:       plugin.ItemsOf(Config{}),
		Persists:    true,
		NewFilter: func(_ plugin.FilterEnv, cfg plugin.Config) (plugin.Filter, error) {
			d := &delta{last: map[string]map[string]sent{}}
			return d, d.Reconfigure(cfg)
		},
	}
}

// sent is the last value of a datapoint passed on.
type sent struct {
	Value any       `json:"value"`
	At    time.Time `json:"at"`
}

type delta struct {
	tolerance float64
	period    time.Duration
	last      map[string]map[string]sent // asset → datapoint → last passed on
}

func (d *delta) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	if c.Tolerance < 0 || math.IsNaN(c.Tolerance) || math.IsInf(c.Tolerance, 0) {
		return fmt.Errorf("item %q = %v is not a non-negative number", ItemDeltaTolerance, c.Tolerance)
	}
	if c.MaxPeriod < 0 {
		return fmt.Errorf("item %q = %d is not a non-negative integer", ItemDeltaMaxPeriod, c.MaxPeriod)
	}
	d.tolerance, d.period = c.Tolerance, time.Duration(c.MaxPeriod)*time.Second
	return nil
}

// moved reports whether v differs enough from the last value passed on.
func (d *delta) moved(last sent, v any, at time.Time) bool {
	if d.period > 0 && at.Sub(last.At) >= d.period {
		return true
	}
	a, aok := plugin.Number(last.Value)
	b, bok := plugin.Number(v)
	if aok && bok {
		return math.Abs(b-a) > d.tolerance
	}
	return !reflect.DeepEqual(last.Value, v)
}

func (d *delta) Process(_ context.Context, points []plugin.Point) ([]plugin.Point, error) {
	out := points[:0]
	for _, p := range points {
		seen := d.last[p.Asset]
		if seen == nil {
			seen = map[string]sent{}
			d.last[p.Asset] = seen
		}
		for k, v := range p.Values {
			if last, ok := seen[k]; ok && !d.moved(last, v, p.Timestamp) {
				delete(p.Values, k)
				continue
			}
			seen[k] = sent{Value: v, At: p.Timestamp}
		}
		if len(p.Values) > 0 {
			out = append(out, p)
		}
	}
	return out, nil
}

// Snapshot copies the last values passed on (plugin.Snapshotter); values
// themselves are never changed in place, so a shallow copy per asset
// suffices.
func (d *delta) Snapshot() func() {
	saved := make(map[string]map[string]sent, len(d.last))
	for a, dps := range d.last {
		saved[a] = maps.Clone(dps)
	}
	return func() { d.last = saved }
}

// State returns the last values passed on.
func (d *delta) State() (json.RawMessage, error) { return json.Marshal(d.last) }

// Restore loads the last values passed on.
func (d *delta) Restore(state json.RawMessage) error {
	var raw map[string]map[string]struct {
		Value json.RawMessage `json:"value"`
		At    time.Time       `json:"at"`
	}
	if err := json.Unmarshal(state, &raw); err != nil {
		return fmt.Errorf("delta state: %w", err)
	}
	last := make(map[string]map[string]sent, len(raw))
	for asset, dps := range raw {
		m := make(map[string]sent, len(dps))
		for k, s := range dps {
			vals := edgeplugin.DecodeValues([]byte(`{"v":` + string(s.Value) + `}`))
			m[k] = sent{Value: vals["v"], At: s.At}
		}
		last[asset] = m
	}
	d.last = last
	return nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.Filter      = (*delta)(nil)
	_ edgeplugin.Persister   = (*delta)(nil)
	_ edgeplugin.Snapshotter = (*delta)(nil)
)
