// Command scalefilter is a filter plugin of the edged gateway: it scales
// the numeric values of readings (value × factor + offset), leaving other
// values alone, and counts the readings it scaled, a count that persists.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
		Items: map[string]edgeplugin.Item{
			"factor": {Description: "Factor to multiply numeric values by", Type: "float", Default: "1.0", DisplayName: "Factor", Order: "1"},
			"offset": {Description: "Offset to add after scaling", Type: "float", Default: "0.0", DisplayName: "Offset", Order: "2"},
		},
	}
}

// Scale is the filter.
type Scale struct {
	mu             sync.Mutex
	factor, offset float64
	scaled         int64
}

// Start takes the configuration and the persisted count.
func (s *Scale) Start(_ context.Context, st edgeplugin.Start) error {
	if len(st.State) > 0 {
		var v struct {
			Scaled int64 `json:"scaled"`
		}
		if err := json.Unmarshal(st.State, &v); err == nil {
			s.scaled = v.Scaled
		}
	}
	return s.Reconfigure(st.Config)
}

// Reconfigure applies a new factor and offset at once.
func (s *Scale) Reconfigure(cfg edgeplugin.Config) error {
	f, err := cfg.Float("factor")
	if err != nil {
		return err
	}
	o, err := cfg.Float("offset")
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.factor, s.offset = f, o
	return nil
}

// State is the count of readings scaled.
func (s *Scale) State() (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(map[string]int64{"scaled": s.scaled})
}

// Ingest scales every numeric value of readings.
func (s *Scale) Ingest(_ context.Context, readings []edgeplugin.Reading) ([]edgeplugin.Reading, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]edgeplugin.Reading, 0, len(readings))
	for _, r := range readings {
		var vals map[string]any
		dec := json.NewDecoder(bytes.NewReader(r.Values))
		dec.UseNumber()
		if err := dec.Decode(&vals); err != nil {
			return nil, fmt.Errorf("reading of %q: %w", r.Asset, err)
		}
		for k, v := range vals {
			if n, ok := v.(json.Number); ok {
				if f, err := n.Float64(); err == nil {
					vals[k] = f*s.factor + s.offset
				}
			}
		}
		nr, err := edgeplugin.NewReading(r.Asset, r.Timestamp, vals)
		if err != nil {
			return nil, err
		}
		out = append(out, nr)
		s.scaled++
	}
	return out, nil
}
