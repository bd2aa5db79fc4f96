package builtin

import (
	"encoding/json"
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/edged/edged/internal/filter/builtin/assets"
	"github.com/edged/edged/internal/filter/builtin/delta"
	"github.com/edged/edged/internal/filter/builtin/downsample"
	"github.com/edged/edged/internal/filter/builtin/expression"
	"github.com/edged/edged/internal/filter/builtin/metadata"
	"github.com/edged/edged/internal/filter/builtin/rename"
	"github.com/edged/edged/internal/filter/builtin/scale"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)

// pt builds a point from JSON values.
func pt(asset string, sec int, values string) plugin.Point {
	return plugin.Point{Asset: asset, Timestamp: t0.Add(time.Duration(sec) * time.Second), Values: edgeplugin.DecodeValues([]byte(values))}
}

// newFilter creates the named filter with the definition's defaults and
// overrides.
func newFilter(t *testing.T, name string, overrides map[string]string) plugin.Filter {
	t.Helper()
	for _, d := range Definitions() {
		if d.Name != name {
			continue
		}
		cfg := plugin.Config{}
		for k, it := range d.Items {
			cfg[k] = it.Default
		}
		maps.Copy(cfg, overrides)
		f, err := d.NewFilter(plugin.FilterEnv{}, cfg)
		if err != nil {
			t.Fatalf("New %s: %v", name, err)
		}
		return f
	}
	t.Fatalf("no filter %q", name)
	return nil
}

// simple renders points as asset@second → values JSON.
// process runs points through f, which must not fail.
func process(t *testing.T, f plugin.Filter, points []plugin.Point) []plugin.Point {
	t.Helper()
	out, err := f.Process(t.Context(), points)
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	return out
}

func simple(t *testing.T, ps []plugin.Point) []string {
	t.Helper()
	out := []string{}
	for _, p := range ps {
		raw, err := json.Marshal(p.Values)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Asset+"@"+p.Timestamp.Format("05")+" "+string(raw))
	}
	return out
}

func TestFilters(t *testing.T) {
	tests := []struct {
		name    string
		filter  string
		cfg     map[string]string
		batches [][]plugin.Point
		want    []string // every batch's output, concatenated
	}{
		{
			name: "scale by datapoint pattern, first rule wins, integers become floats", filter: "scale",
			cfg:     map[string]string{scale.ItemScaleRules: `[{"datapoint":"temp*","factor":0.1,"offset":-40},{"asset":"b","datapoint":"*","factor":2}]`},
			batches: [][]plugin.Point{{pt("a", 0, `{"temp1":500,"rpm":3,"s":"x"}`), pt("b", 0, `{"temp2":400,"rpm":3}`)}},
			want:    []string{`a@00 {"rpm":3,"s":"x","temp1":10}`, `b@00 {"rpm":6,"temp2":0}`},
		},
		{
			name: "rename assets and datapoints", filter: "rename",
			cfg:     map[string]string{rename.ItemRenameAssets: `{"plc":"boiler"}`, rename.ItemRenameDatapoints: `{"hr0":"temperature","hr1":"hr0"}`},
			batches: [][]plugin.Point{{pt("plc", 0, `{"hr0":1,"hr1":2}`), pt("other", 0, `{"x":1}`)}},
			want:    []string{`boiler@00 {"hr0":2,"temperature":1}`, `other@00 {"x":1}`},
		},
		{
			name: "expressions in order, missing inputs skip", filter: "expression",
			cfg:     map[string]string{expression.ItemExpressions: `[{"name":"power","expression":"voltage * current"},{"name":"kw","expression":"power / 1000"},{"name":"hot","expression":"temp > 50"}]`},
			batches: [][]plugin.Point{{pt("m", 0, `{"voltage":230,"current":10}`), pt("m", 1, `{"temp":60}`)}},
			want:    []string{`m@00 {"current":10,"kw":2.3,"power":2300,"voltage":230}`, `m@01 {"hot":true,"temp":60}`},
		},
		{
			name: "delta passes changes over the tolerance and after the period", filter: "delta",
			cfg: map[string]string{delta.ItemDeltaTolerance: "0.5", delta.ItemDeltaMaxPeriod: "10"},
			batches: [][]plugin.Point{
				{pt("a", 0, `{"x":1,"s":"on"}`), pt("a", 1, `{"x":1.4,"s":"on"}`), pt("a", 2, `{"x":1.6,"s":"off"}`)},
				{pt("a", 3, `{"x":1.7}`), pt("a", 12, `{"x":1.7}`), pt("b", 12, `{"x":1.7}`)},
			},
			want: []string{`a@00 {"s":"on","x":1}`, `a@02 {"s":"off","x":1.6}`, `a@12 {"x":1.7}`, `b@12 {"x":1.7}`},
		},
		{
			name: "downsample averages per asset and interval", filter: "downsample",
			cfg: map[string]string{downsample.ItemDownsampleInterval: "10"},
			batches: [][]plugin.Point{
				{pt("a", 1, `{"x":1,"s":"p"}`), pt("a", 5, `{"x":3,"s":"q"}`), pt("b", 5, `{"x":7}`)},
				{pt("a", 11, `{"x":10}`), pt("a", 2, `{"x":100}`), pt("b", 25, `{"x":1}`)},
			},
			want: []string{`a@00 {"s":"q","x":2}`, `b@00 {"x":7}`},
		},
		{
			name: "downsample max", filter: "downsample",
			cfg:     map[string]string{downsample.ItemDownsampleInterval: "10", downsample.ItemDownsampleFunction: downsample.FuncMax},
			batches: [][]plugin.Point{{pt("a", 1, `{"x":1}`), pt("a", 5, `{"x":3}`), pt("a", 10, `{"x":0}`)}},
			want:    []string{`a@00 {"x":3}`},
		},
		{
			name: "assets include", filter: "assets",
			cfg:     map[string]string{assets.ItemAssetsPatterns: `["line1/*","pump?"]`},
			batches: [][]plugin.Point{{pt("line1/a", 0, `{"x":1}`), pt("line2/a", 0, `{"x":2}`), pt("pump1", 0, `{"x":3}`), pt("pump10", 0, `{"x":4}`)}},
			want:    []string{`line1/a@00 {"x":1}`, `pump1@00 {"x":3}`},
		},
		{
			name: "assets exclude", filter: "assets",
			cfg:     map[string]string{assets.ItemAssetsAction: "exclude", assets.ItemAssetsPatterns: `["line1/*"]`},
			batches: [][]plugin.Point{{pt("line1/a", 0, `{"x":1}`), pt("line2/a", 0, `{"x":2}`)}},
			want:    []string{`line2/a@00 {"x":2}`},
		},
		{
			name: "metadata adds without overwriting", filter: "metadata",
			cfg:     map[string]string{metadata.ItemMetadata: `{"site":"plant 4","line":2}`},
			batches: [][]plugin.Point{{pt("a", 0, `{"x":1,"line":7}`)}},
			want:    []string{`a@00 {"line":7,"site":"plant 4","x":1}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFilter(t, tt.filter, tt.cfg)
			got := []string{}
			for _, b := range tt.batches {
				got = append(got, simple(t, process(t, f, b))...)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestRefusedConfigurations(t *testing.T) {
	tests := []struct {
		name   string
		filter string
		cfg    map[string]string
	}{
		{name: "scale rules not a list", filter: "scale", cfg: map[string]string{scale.ItemScaleRules: `{"factor":2}`}},
		{name: "scale rule with an unknown field", filter: "scale", cfg: map[string]string{scale.ItemScaleRules: `[{"datapoint":"*","scale":2}]`}},
		{name: "scale rule without a datapoint", filter: "scale", cfg: map[string]string{scale.ItemScaleRules: `[{"factor":2}]`}},
		{name: "expression that does not compile", filter: "expression", cfg: map[string]string{expression.ItemExpressions: `[{"name":"x","expression":"a +"}]`}},
		{name: "expression without a name", filter: "expression", cfg: map[string]string{expression.ItemExpressions: `[{"expression":"1"}]`}},
		{name: "rename map of numbers", filter: "rename", cfg: map[string]string{rename.ItemRenameAssets: `{"a":1}`}},
		{name: "assets empty pattern", filter: "assets", cfg: map[string]string{assets.ItemAssetsPatterns: `[""]`}},
		{name: "downsample unknown function", filter: "downsample", cfg: map[string]string{downsample.ItemDownsampleFunction: "median"}},
		{name: "metadata not an object", filter: "metadata", cfg: map[string]string{metadata.ItemMetadata: `[1]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range Definitions() {
				if d.Name != tt.filter {
					continue
				}
				cfg := plugin.Config{}
				for k, it := range d.Items {
					cfg[k] = it.Default
				}
				maps.Copy(cfg, tt.cfg)
				if _, err := d.NewFilter(plugin.FilterEnv{}, cfg); err == nil {
					t.Errorf("New accepted %v", tt.cfg)
				}
			}
		})
	}
}

// TestStateRoundTrip checks that a persisting filter carries on where it
// stopped after State and Restore into a new instance.
func TestStateRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		filter string
		cfg    map[string]string
		before []plugin.Point
		after  []plugin.Point
		want   []string
	}{
		{name: "delta remembers the last values", filter: "delta", cfg: map[string]string{delta.ItemDeltaTolerance: "1"},
			before: []plugin.Point{pt("a", 0, `{"x":5,"s":{"k":[1]}}`)},
			after:  []plugin.Point{pt("a", 1, `{"x":5.5,"s":{"k":[1]}}`), pt("a", 2, `{"x":7,"s":{"k":[2]}}`)},
			want:   []string{`a@02 {"s":{"k":[2]},"x":7}`}},
		{name: "downsample keeps its open interval", filter: "downsample", cfg: map[string]string{downsample.ItemDownsampleInterval: "10"},
			before: []plugin.Point{pt("a", 0, `{"x":2,"s":"v"}`)},
			after:  []plugin.Point{pt("a", 5, `{"x":4}`), pt("a", 10, `{"x":100}`)},
			want:   []string{`a@00 {"s":"v","x":3}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := newFilter(t, tt.filter, tt.cfg)
			process(t, first, tt.before)
			state, err := first.(plugin.Persister).State()
			if err != nil {
				t.Fatal(err)
			}
			second := newFilter(t, tt.filter, tt.cfg)
			if err := second.(plugin.Persister).Restore(state); err != nil {
				t.Fatalf("Restore(%s): %v", state, err)
			}
			if got := simple(t, process(t, second, tt.after)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDefinitions(t *testing.T) {
	if _, err := plugin.NewRegistry(Definitions()...); err != nil {
		t.Fatal(err)
	}
	for _, d := range Definitions() {
		if d.Kind != plugin.KindFilter || d.NewFilter == nil {
			t.Errorf("%s is no filter plugin: kind %q", d.Name, d.Kind)
		}
		if d.Version == "" || d.Description == "" {
			t.Errorf("%s lacks a version or description", d.Name)
		}
	}
}
