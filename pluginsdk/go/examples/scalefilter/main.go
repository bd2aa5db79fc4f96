// Command scalefilter is a filter plugin of the edged gateway: it scales
// the numeric values of readings (value × factor + offset), leaving other
// values alone, and counts the readings it scaled, a count that persists.
package main

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

func main() {
	edgeplugin.Serve(edgeplugin.Plugin{Info: Info(), Filter: &Scale{}})
}

// Version is the plugin's version.
var Version = "1.0.0"

// Info describes the plugin.
func Info() edgeplugin.Info {
	return edgeplugin.Info{
		Name: "scale_filter", Version: Version, Kind: edgeplugin.KindFilter, Persists: true,
		Description: "Scales numeric reading values: value × factor + offset",
		Items:       edgeplugin.MustItemsOf(Config{}),
	}
}

// Config is the filter's configuration: Info's items are derived from its
// tags, and Reconfigure gets it filled.
type Config struct {
	Factor float64 `item:"factor" desc:"Factor to multiply numeric values by" display:"Factor" default:"1.0"`
	Offset float64 `item:"offset" desc:"Offset to add after scaling" display:"Offset" default:"0.0"`
}

// Scale is the filter.
type Scale struct {
	mu             sync.Mutex
	factor, offset float64
	scaled         int64
}

// The filter implements the gateway's plugin interfaces.
var (
	_ edgeplugin.Filter    = (*Scale)(nil)
	_ edgeplugin.Starter   = (*Scale)(nil)
	_ edgeplugin.Persister = (*Scale)(nil)
)

// Start takes the configuration.
func (s *Scale) Start(_ context.Context, st edgeplugin.Start) error {
	return s.Reconfigure(st.Config)
}

// Restore takes the count persisted by the previous run.
func (s *Scale) Restore(raw json.RawMessage) error {
	var v struct {
		Scaled int64 `json:"scaled"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scaled = v.Scaled
	return nil
}

// Reconfigure applies a new factor and offset at once.
func (s *Scale) Reconfigure(cfg edgeplugin.Config) error {
	var c Config
	if err := edgeplugin.Decode(cfg, &c); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.factor, s.offset = c.Factor, c.Offset
	return nil
}

// State is the count of readings scaled.
func (s *Scale) State() (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(map[string]int64{"scaled": s.scaled})
}

// Process scales every numeric value of points.
func (s *Scale) Process(_ context.Context, points []edgeplugin.Point) ([]edgeplugin.Point, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range points {
		for k, v := range p.Values {
			switch n := v.(type) {
			case int64:
				p.Values[k] = float64(n)*s.factor + s.offset
			case float64:
				p.Values[k] = n*s.factor + s.offset
			}
		}
		s.scaled++
	}
	return points, nil
}
