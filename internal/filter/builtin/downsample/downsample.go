package downsample

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Items of the downsample filter.
const (
	ItemDownsampleInterval = "interval"
	ItemDownsampleFunction = "function"
)

// The aggregate functions of the downsample filter.
const (
	FuncAverage = "average"
	FuncMin     = "min"
	FuncMax     = "max"
	FuncLast    = "last"
)

// Definition describes the filter plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Kind: plugin.KindFilter,
		Name: "downsample", Version: "1.0.0",
		Description: "One reading per asset and interval (by the readings' timestamps, aligned to the interval), stamped with the interval's start: numeric datapoints aggregated, others their last value. An interval's reading is passed on when a reading of a later interval arrives",
		Items:       plugin.ItemsOf(Config{}),
		Persists:    true,
		NewFilter: func(_ plugin.FilterEnv, cfg plugin.Config) (plugin.Filter, error) {
			d := &downsample{open: map[string]*bucket{}}
			return d, d.Reconfigure(cfg)
		},
	}
}

// agg aggregates one numeric datapoint.
type agg struct {
	Sum   float64 `json:"sum"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Last  float64 `json:"last"`
	Count int64   `json:"count"`
}

// bucket is the open interval of one asset.
type bucket struct {
	Start   time.Time                  `json:"start"`
	Numbers map[string]*agg            `json:"numbers"`
	Others  map[string]json.RawMessage `json:"others"`
}

type downsample struct {
	interval time.Duration
	function string
	open     map[string]*bucket // asset → open interval
}

func (d *downsample) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	secs := c.Interval
	if secs < 1 {
		return fmt.Errorf("item %q = %d is not a positive integer", ItemDownsampleInterval, secs)
	}
	switch f := c.Function; f {
	case FuncAverage, FuncMin, FuncMax, FuncLast:
		d.function = f
	default:
		return fmt.Errorf("item %q = %q is not one of average, min, max, last", ItemDownsampleFunction, f)
	}
	d.interval = time.Duration(secs) * time.Second
	return nil
}

// close turns b into the point of its interval.
func (d *downsample) close(asset string, b *bucket, origin int) plugin.Point {
	values := make(map[string]any, len(b.Numbers)+len(b.Others))
	for k, raw := range b.Others {
		values[k] = edgeplugin.DecodeValues([]byte(`{"v":` + string(raw) + `}`))["v"]
	}
	for k, a := range b.Numbers {
		switch d.function {
		case FuncAverage:
			values[k] = a.Sum / float64(a.Count)
		case FuncMin:
			values[k] = a.Min
		case FuncMax:
			values[k] = a.Max
		default:
			values[k] = a.Last
		}
	}
	return plugin.Point{Asset: asset, Timestamp: b.Start, Values: values, Origin: origin}
}

func (d *downsample) Process(_ context.Context, points []plugin.Point) ([]plugin.Point, error) {
	var out []plugin.Point
	for _, p := range points {
		start := p.Timestamp.Truncate(d.interval)
		b := d.open[p.Asset]
		if b != nil && !start.Equal(b.Start) {
			if start.Before(b.Start) {
				continue // late for an interval already passed on
			}
			out = append(out, d.close(p.Asset, b, p.Origin))
			b = nil
		}
		if b == nil {
			b = &bucket{Start: start, Numbers: map[string]*agg{}, Others: map[string]json.RawMessage{}}
			d.open[p.Asset] = b
		}
		for k, v := range p.Values {
			x, ok := plugin.Number(v)
			if !ok {
				raw, err := json.Marshal(v)
				if err == nil {
					b.Others[k] = raw
				}
				continue
			}
			a := b.Numbers[k]
			if a == nil {
				a = &agg{Min: x, Max: x}
				b.Numbers[k] = a
			}
			a.Sum += x
			a.Min, a.Max, a.Last = min(a.Min, x), max(a.Max, x), x
			a.Count++
		}
	}
	return out, nil
}

// State returns the open intervals.
func (d *downsample) State() (json.RawMessage, error) { return json.Marshal(d.open) }

// Restore loads the open intervals.
func (d *downsample) Restore(state json.RawMessage) error {
	open := map[string]*bucket{}
	if err := json.Unmarshal(state, &open); err != nil {
		return fmt.Errorf("downsample state: %w", err)
	}
	for _, b := range open {
		if b.Numbers == nil {
			b.Numbers = map[string]*agg{}
		}
		if b.Others == nil {
			b.Others = map[string]json.RawMessage{}
		}
	}
	d.open = open
	return nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.Filter    = (*downsample)(nil)
	_ edgeplugin.Persister = (*downsample)(nil)
)
