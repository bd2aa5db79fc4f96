package modbus

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
	"github.com/edged/edged/internal/simtest"
)

func TestDecodeEncode(t *testing.T) {
	tests := []struct {
		name   string
		regs   []uint16
		format string
		low    bool
		want   any
	}{
		{name: "int16 negative", regs: []uint16{0xff85}, format: FormatInt16, want: int64(-123)},
		{name: "uint16", regs: []uint16{40000}, format: FormatUint16, want: int64(40000)},
		{name: "int32 high word first", regs: []uint16{0xfffe, 0xee90}, format: FormatInt32, want: int64(-70000)},
		{name: "int32 low word first", regs: []uint16{0xee90, 0xfffe}, format: FormatInt32, low: true, want: int64(-70000)},
		{name: "uint32", regs: []uint16{0xb2d0, 0x5e00}, format: FormatUint32, want: int64(3000000000)},
		{name: "float32 keeps its decimal form", regs: []uint16{0x3dcc, 0xcccd}, format: FormatFloat32, want: 0.1},
		{name: "float32 low word first", regs: []uint16{0x0000, 0x3fc0}, format: FormatFloat32, low: true, want: 1.5},
		{name: "float64", regs: []uint16{0xc00a, 0, 0, 0}, format: FormatFloat64, want: -3.25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Decode(tt.regs, tt.format, tt.low)
			if got != tt.want {
				t.Fatalf("Decode = %v (%T), want %v (%T)", got, got, tt.want, tt.want)
			}
			var f float64
			switch v := got.(type) {
			case int64:
				f = float64(v)
			case float64:
				f = v
			}
			back, err := Encode(f, tt.format, tt.low)
			if err != nil || !reflect.DeepEqual(back, tt.regs) {
				t.Errorf("Encode(%v) = %v, %v; want %v", f, back, err, tt.regs)
			}
		})
	}
	for _, c := range []struct {
		v      float64
		format string
	}{{1.5, FormatInt16}, {70000, FormatInt16}, {-1, FormatUint16}, {math.MaxFloat64, FormatFloat32}} {
		if _, err := Encode(c.v, c.format, false); !errors.Is(err, plugin.ErrNotWritable) {
			t.Errorf("Encode(%v, %s) = %v, want ErrNotWritable", c.v, c.format, err)
		}
	}
}

func TestRefusedMaps(t *testing.T) {
	tests := []struct{ name, m string }{
		{name: "not a list", m: `{}`},
		{name: "unknown field", m: `[{"asset":"a","datapoint":"x","type":"coil","address":0,"bit":1}]`},
		{name: "no asset", m: `[{"datapoint":"x","type":"coil","address":0}]`},
		{name: "no address", m: `[{"asset":"a","datapoint":"x","type":"coil"}]`},
		{name: "address too large", m: `[{"asset":"a","datapoint":"x","type":"coil","address":65536}]`},
		{name: "unknown type", m: `[{"asset":"a","datapoint":"x","type":"register","address":0}]`},
		{name: "unknown format", m: `[{"asset":"a","datapoint":"x","type":"holding","address":0,"format":"int8"}]`},
		{name: "format on a coil", m: `[{"asset":"a","datapoint":"x","type":"coil","address":0,"format":"int16"}]`},
		{name: "past the last address", m: `[{"asset":"a","datapoint":"x","type":"holding","address":65535,"format":"int32"}]`},
		{name: "zero scale", m: `[{"asset":"a","datapoint":"x","type":"holding","address":0,"scale":0}]`},
		{name: "bad word order", m: `[{"asset":"a","datapoint":"x","type":"holding","address":0,"wordOrder":"middle"}]`},
		{name: "duplicate datapoint", m: `[{"asset":"a","datapoint":"x","type":"coil","address":0},{"asset":"a","datapoint":"x","type":"coil","address":1}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := plugintest.Defaults(Definition())
			cfg[ItemMap] = tt.m
			if _, err := New(plugin.Env{}, cfg); err == nil {
				t.Errorf("New accepted map %s", tt.m)
			}
		})
	}
	cfg := plugintest.Defaults(Definition())
	cfg[ItemURL] = "http://x:1"
	if _, err := New(plugin.Env{}, cfg); err == nil {
		t.Error("New accepted an http URL")
	}
}

// testMap reads every value the simulator (tools/sim/modbus_server.py)
// serves, and two setpoints.
const testMap = `[
 {"asset": "regs", "datapoint": "i16", "type": "holding", "address": 0, "format": "int16"},
 {"asset": "regs", "datapoint": "u16", "type": "holding", "address": 1},
 {"asset": "regs", "datapoint": "i32", "type": "holding", "address": 2, "format": "int32"},
 {"asset": "regs", "datapoint": "u32", "type": "holding", "address": 4, "format": "uint32"},
 {"asset": "regs", "datapoint": "f32", "type": "holding", "address": 6, "format": "float32"},
 {"asset": "regs", "datapoint": "f64", "type": "holding", "address": 8, "format": "float64"},
 {"asset": "regs", "datapoint": "f32low", "type": "holding", "address": 12, "format": "float32", "wordOrder": "low"},
 {"asset": "regs", "datapoint": "scaled", "type": "holding", "address": 1, "scale": 0.01, "offset": -100},
 {"asset": "bits", "datapoint": "c0", "type": "coil", "address": 0, "slave": 1},
 {"asset": "bits", "datapoint": "c1", "type": "coil", "address": 1},
 {"asset": "bits", "datapoint": "d1", "type": "discrete", "address": 1},
 {"asset": "bits", "datapoint": "ir1", "type": "input", "address": 1},
 {"asset": "set", "datapoint": "temperature", "type": "holding", "address": 14, "format": "int16", "scale": 0.1},
 {"asset": "set", "datapoint": "limit", "type": "holding", "address": 16, "format": "float32"}
]`

// collect waits for the next readings of each asset named.
func collect(t *testing.T, sink *plugintest.Sink, assets ...string) map[string]map[string]any {
	t.Helper()
	got := map[string]map[string]any{}
	deadline := time.After(30 * time.Second)
	for len(got) < len(assets) {
		select {
		case rs := <-sink.Calls:
			for _, r := range rs {
				var v map[string]any
				if err := json.Unmarshal(r.Values, &v); err != nil {
					t.Fatal(err)
				}
				got[r.Asset] = v
			}
		case <-deadline:
			t.Fatalf("readings of %v not seen within 30 s; got %v", assets, got)
		}
	}
	return got
}

// drain empties the sink's queue.
func drain(sink *plugintest.Sink) {
	for {
		select {
		case <-sink.Calls:
		default:
			return
		}
	}
}

// TestAgainstPymodbus polls pymodbus's server, writes setpoints through
// plugin.Writer and sees them arrive at the server, and survives the
// server's restart.
func TestAgainstPymodbus(t *testing.T) {
	port := strconv.Itoa(simtest.FreePort(t))
	sim := simtest.Simulator(t, "modbus_server.py", port)
	cfg := plugintest.Defaults(Definition())
	cfg[ItemURL] = "tcp://127.0.0.1:" + port
	cfg[ItemMap] = testMap
	cfg[ItemPollInterval] = "50"
	m, err := New(plugin.Env{Service: "mb"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sink := plugintest.NewSink(1000)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, sink) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	}()

	got := collect(t, sink, "regs", "bits", "set")
	want := map[string]map[string]any{
		"regs": {"i16": -123.0, "u16": 40000.0, "i32": -70000.0, "u32": 3e9, "f32": 21.5, "f64": -3.25, "f32low": 1.5, "scaled": 300.0},
		"bits": {"c0": 1.0, "c1": 0.0, "d1": 1.0, "ir1": 100.0},
		"set":  {"temperature": 0.0, "limit": 0.0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("readings = %v\nwant       %v", got, want)
	}

	// Setpoints: 21.7 with scale 0.1 is register value 217; the float32
	// limit is two registers; the coil a single write.
	if err := m.Write(t.Context(), "set", map[string]any{"temperature": 21.7}); err != nil {
		t.Fatalf("Write temperature: %v", err)
	}
	simtest.WaitLine(t, sim, 10*time.Second, "the register write at the simulator", func(l string) bool {
		return strings.Contains(l, `"address": 14, "values": [217]`)
	})
	if err := m.Write(t.Context(), "set", map[string]any{"limit": 1.5}); err != nil {
		t.Fatalf("Write limit: %v", err)
	}
	simtest.WaitLine(t, sim, 10*time.Second, "the float32 write at the simulator", func(l string) bool {
		return strings.Contains(l, `"address": 16, "values": [16320, 0]`)
	})
	if err := m.Write(t.Context(), "bits", map[string]any{"c1": true}); err != nil {
		t.Fatalf("Write coil: %v", err)
	}
	simtest.WaitLine(t, sim, 10*time.Second, "the coil write at the simulator", func(l string) bool {
		return strings.Contains(l, `"address": 1, "values": [true]`)
	})
	// Without an asset the datapoint's name alone finds the register.
	if err := m.Write(t.Context(), "", map[string]any{"temperature": 21.9}); err != nil {
		t.Fatalf("Write temperature without an asset: %v", err)
	}
	simtest.WaitLine(t, sim, 10*time.Second, "the asset-less write at the simulator", func(l string) bool {
		return strings.Contains(l, `"address": 14, "values": [219]`)
	})
	if err := m.Write(t.Context(), "set", map[string]any{"temperature": 21.7}); err != nil {
		t.Fatalf("Write temperature: %v", err)
	}
	drain(sink)
	got = collect(t, sink, "set", "bits")
	if got["set"]["temperature"] != 21.7 || got["set"]["limit"] != 1.5 || got["bits"]["c1"] != 1.0 {
		t.Errorf("after the writes, readings = %v", got)
	}

	refused := []struct {
		name   string
		asset  string
		values map[string]any
	}{
		{name: "unknown datapoint", asset: "set", values: map[string]any{"nope": 1}},
		{name: "unknown datapoint of no asset", asset: "", values: map[string]any{"nope": 1}},
		{name: "input register", asset: "bits", values: map[string]any{"ir1": 1}},
		{name: "discrete input", asset: "bits", values: map[string]any{"d1": 1}},
		{name: "out of range", asset: "set", values: map[string]any{"temperature": 5000}},
		{name: "coil not 0 or 1", asset: "bits", values: map[string]any{"c1": 2}},
		{name: "not a number", asset: "set", values: map[string]any{"limit": "high"}},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			if err := m.Write(t.Context(), tt.asset, tt.values); !errors.Is(err, plugin.ErrNotWritable) {
				t.Errorf("Write = %v, want ErrNotWritable", err)
			}
		})
	}

	// The server goes away and comes back on the same port: polling
	// resumes on a new connection.
	sim.Kill()
	drain(sink)
	simtest.Simulator(t, "modbus_server.py", port)
	drain(sink)
	got = collect(t, sink, "regs")
	if got["regs"]["i16"] != -123.0 {
		t.Errorf("after the server restarted, readings = %v", got)
	}
}
