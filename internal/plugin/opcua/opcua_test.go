package opcua

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcua/opcua/ua"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
	"github.com/edged/edged/internal/simtest"
)

func TestRefusedConfigurations(t *testing.T) {
	tests := []struct {
		name string
		cfg  map[string]string
	}{
		{name: "not opc.tcp", cfg: map[string]string{ItemEndpoint: "http://x", ItemNodes: `["ns=2;s=A"]`}},
		{name: "no nodes", cfg: map[string]string{}},
		{name: "bad node id", cfg: map[string]string{ItemNodes: `["ns=x;q=1"]`}},
		{name: "mode without policy", cfg: map[string]string{ItemNodes: `["ns=2;s=A"]`, ItemSecurityMode: "Sign"}},
		{name: "policy without mode", cfg: map[string]string{ItemNodes: `["ns=2;s=A"]`, ItemSecurityPolicy: "Basic256Sha256"}},
		{name: "certificate without key", cfg: map[string]string{ItemNodes: `["ns=2;s=A"]`, ItemCertificate: "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := plugintest.Defaults(Definition())
			for k, v := range tt.cfg {
				cfg[k] = v
			}
			if _, err := New(plugin.Env{}, cfg); err == nil {
				t.Error("New accepted it")
			}
		})
	}
}

func TestCallArguments(t *testing.T) {
	int32Arg := &ua.Argument{Name: "n", DataType: ua.NewNumericNodeID(0, uint32(ua.TypeIDInt32)), ValueRank: -1}
	tests := []struct {
		name   string
		args   []*ua.Argument
		params map[string]any
		want   []any // the variants' values; nil: ErrBadParameters
	}{
		{name: "none", want: []any{}},
		{name: "in the method's order", params: map[string]any{"b": "x", "a": 2.0, "c": true},
			args: []*ua.Argument{
				{Name: "a", DataType: ua.NewTwoByteNodeID(byte(ua.TypeIDUint16)), ValueRank: -1},
				{Name: "b", DataType: ua.NewNumericNodeID(0, uint32(ua.TypeIDString)), ValueRank: -3},
				{Name: "c", DataType: ua.NewNumericNodeID(0, uint32(ua.TypeIDBoolean)), ValueRank: -1},
			},
			want: []any{uint16(2), "x", true}},
		{name: "json number", args: []*ua.Argument{int32Arg}, params: map[string]any{"n": json.Number("-7")}, want: []any{int32(-7)}},
		{name: "missing", args: []*ua.Argument{int32Arg}},
		{name: "unknown", args: []*ua.Argument{int32Arg}, params: map[string]any{"n": 1.0, "m": 1.0}},
		{name: "wrong type", args: []*ua.Argument{int32Arg}, params: map[string]any{"n": "one"}},
		{name: "array argument", params: map[string]any{"n": 1.0},
			args: []*ua.Argument{{Name: "n", DataType: ua.NewNumericNodeID(0, uint32(ua.TypeIDInt32)), ValueRank: 1}}},
		{name: "structured type", params: map[string]any{"n": 1.0},
			args: []*ua.Argument{{Name: "n", DataType: ua.NewNumericNodeID(2, 3001), ValueRank: -1}}},
		{name: "type outside the built-in ones", params: map[string]any{"n": 1.0},
			args: []*ua.Argument{{Name: "n", DataType: ua.NewNumericNodeID(0, 887), ValueRank: -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := callArguments(tt.args, tt.params)
			if tt.want == nil {
				if !errors.Is(err, plugin.ErrBadParameters) {
					t.Errorf("callArguments = %v, %v; want ErrBadParameters", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			vals := make([]any, len(got))
			for i, v := range got {
				vals[i] = v.Value()
			}
			if !reflect.DeepEqual(vals, tt.want) {
				t.Errorf("callArguments = %#v, want %#v", vals, tt.want)
			}
		})
	}
}

// run runs an instance on cfg until the test ends.
func run(t *testing.T, cfg plugin.Config) (*OPCUA, *plugintest.Sink) {
	t.Helper()
	o, err := New(plugin.Env{Service: "ua"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sink := plugintest.NewSink(1000)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.Run(ctx, sink) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
	return o, sink
}

// await returns the merged datapoints of asset's readings once want holds
// for them, or fails the test (or when Run ended with an error).
func await(t *testing.T, sink *plugintest.Sink, asset string, want func(map[string]any) bool) map[string]any {
	t.Helper()
	got := map[string]any{}
	deadline := time.After(60 * time.Second)
	for {
		select {
		case rs := <-sink.Calls:
			for _, r := range rs {
				if r.Asset != asset {
					continue
				}
				if r.Timestamp.IsZero() || r.Timestamp.After(time.Now().Add(time.Minute)) {
					t.Errorf("reading of %s stamped %v, want the server's source time", asset, r.Timestamp)
				}
				var v map[string]any
				if err := json.Unmarshal(r.Values, &v); err != nil {
					t.Fatal(err)
				}
				for k, x := range v {
					got[k] = x
				}
			}
			if want(got) {
				return got
			}
		case <-deadline:
			t.Fatalf("readings of %s not as wanted within 60 s: %v", asset, got)
		}
	}
}

func TestAgainstAsyncua(t *testing.T) {
	port := simtest.FreePort(t)
	sim := simtest.Simulator(t, "opcua_server.py", strconv.Itoa(port), t.TempDir(), "operator:s3cret")
	endpoint := fmt.Sprintf("opc.tcp://127.0.0.1:%d/edged/", port)

	t.Run("security None, anonymous, listed nodes, asset per parent", func(t *testing.T) {
		cfg := plugintest.Defaults(Definition())
		cfg[ItemEndpoint] = endpoint
		cfg[ItemNodes] = `["ns=2;s=Plant.Temperature", "ns=2;s=Plant.Counter", "ns=2;s=Plant.Running", "ns=2;s=Plant.Label", "ns=2;s=Plant.Setpoint"]`
		cfg[ItemAssetNaming] = NamingParent
		cfg[ItemInterval] = "100"
		o, sink := run(t, cfg)
		got := await(t, sink, "Plant", func(v map[string]any) bool { return len(v) == 5 })
		want := map[string]any{"Temperature": 20.5, "Counter": 7.0, "Running": true, "Label": "ok", "Setpoint": 0.0}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s = %v, want %v", k, got[k], w)
			}
		}
		// A change at the server arrives as a new reading.
		if _, err := fmt.Fprintln(sim.Stdin, "set Temperature 42.5"); err != nil {
			t.Fatal(err)
		}
		await(t, sink, "Plant", func(v map[string]any) bool { return v["Temperature"] == 42.5 })
		// A write through the plugin reaches the server.
		if err := o.Write(t.Context(), "Plant", map[string]any{"Setpoint": 12.5}); err != nil {
			t.Fatalf("Write: %v", err)
		}
		simtest.WaitLine(t, sim, 30*time.Second, "the write at the server", func(l string) bool { return l == "VALUE Setpoint 12.5" })
		// Without an asset the datapoint's name alone finds the node.
		if err := o.Write(t.Context(), "", map[string]any{"Setpoint": 13.5}); err != nil {
			t.Fatalf("Write without an asset: %v", err)
		}
		simtest.WaitLine(t, sim, 30*time.Second, "the asset-less write at the server", func(l string) bool { return l == "VALUE Setpoint 13.5" })
		for _, bad := range []map[string]any{{"Nope": 1.0}, {"Counter": 1.5}, {"Running": "yes"}} {
			if err := o.Write(t.Context(), "Plant", bad); !errors.Is(err, plugin.ErrNotWritable) {
				t.Errorf("Write(%v) = %v, want ErrNotWritable", bad, err)
			}
		}
	})

	t.Run("operations call the methods of the methods object", func(t *testing.T) {
		cfg := plugintest.Defaults(Definition())
		cfg[ItemEndpoint] = endpoint
		cfg[ItemNodes] = `["ns=2;s=Plant.Counter"]`
		cfg[ItemMethodsParent] = "ns=2;s=Machine"
		cfg[ItemInterval] = "100"
		o, sink := run(t, cfg)
		await(t, sink, "Counter", func(v map[string]any) bool { return v["value"] != nil })
		// Reset sets Counter at the server: the call is seen there and its
		// effect comes back as a reading.
		if err := o.Operate(t.Context(), "Reset", map[string]any{"counter": 3.0}); err != nil {
			t.Fatalf("Operate(Reset): %v", err)
		}
		simtest.WaitLine(t, sim, 30*time.Second, "the method call at the server", func(l string) bool { return l == "RESET 3" })
		await(t, sink, "Counter", func(v map[string]any) bool { return v["value"] == 3.0 })

		refused := []struct {
			name      string
			operation string
			params    map[string]any
			want      error // nil: an error that is neither sentinel (the server's)
		}{
			{name: "unknown method", operation: "Explode", want: plugin.ErrNoOperation},
			{name: "variable, not method", operation: "Counter", want: plugin.ErrNoOperation},
			{name: "missing parameter", operation: "Reset", params: map[string]any{}, want: plugin.ErrBadParameters},
			{name: "unknown parameter", operation: "Reset", params: map[string]any{"counter": 1.0, "speed": 2.0}, want: plugin.ErrBadParameters},
			{name: "not an Int32", operation: "Reset", params: map[string]any{"counter": 1.5}, want: plugin.ErrBadParameters},
			{name: "Int32 out of range", operation: "Reset", params: map[string]any{"counter": 3e9}, want: plugin.ErrBadParameters},
			{name: "the server refuses", operation: "Halt"},
		}
		for _, tt := range refused {
			t.Run(tt.name, func(t *testing.T) {
				err := o.Operate(t.Context(), tt.operation, tt.params)
				switch {
				case err == nil:
					t.Fatal("Operate = nil, want an error")
				case tt.want != nil && !errors.Is(err, tt.want):
					t.Errorf("Operate = %v, want %v", err, tt.want)
				case tt.want == nil && (errors.Is(err, plugin.ErrNoOperation) || errors.Is(err, plugin.ErrBadParameters)):
					t.Errorf("Operate = %v, want the server's error", err)
				case tt.want == nil && !strings.Contains(err.Error(), "StatusBadInvalidState"):
					t.Errorf("Operate = %v, want it to carry the server's BadInvalidState", err)
				}
			})
		}
		// The later subtests read the initial 7.
		if err := o.Operate(t.Context(), "Reset", map[string]any{"counter": 7}); err != nil {
			t.Fatalf("Operate(Reset 7): %v", err)
		}
		await(t, sink, "Counter", func(v map[string]any) bool { return v["value"] == 7.0 })
	})

	t.Run("no methods object, no operations", func(t *testing.T) {
		cfg := plugintest.Defaults(Definition())
		cfg[ItemEndpoint] = endpoint
		cfg[ItemNodes] = `["ns=2;s=Plant.Counter"]`
		o, err := New(plugin.Env{Service: "ua"}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Operate(t.Context(), "Reset", map[string]any{"counter": 1.0}); !errors.Is(err, plugin.ErrNoOperation) {
			t.Errorf("Operate = %v, want ErrNoOperation", err)
		}
	})

	for _, mode := range []string{"Sign", "SignAndEncrypt"} {
		t.Run("Basic256Sha256 "+mode+", user name, browsed, asset per node", func(t *testing.T) {
			cfg := plugintest.Defaults(Definition())
			cfg[ItemEndpoint] = endpoint
			cfg[ItemSecurityPolicy] = "Basic256Sha256"
			cfg[ItemSecurityMode] = mode
			cfg[ItemUsername], cfg[ItemPassword] = "operator", "s3cret"
			cfg[ItemBrowseRoot] = "ns=2;s=Plant"
			cfg[ItemAssetPrefix] = strings.ToLower(mode) + "/"
			cfg[ItemInterval] = "100"
			_, sink := run(t, cfg)
			got := await(t, sink, strings.ToLower(mode)+"/Counter", func(v map[string]any) bool { return v["value"] != nil })
			if got["value"] != 7.0 {
				t.Errorf("Counter = %v, want 7", got)
			}
		})
	}

	t.Run("wrong password", func(t *testing.T) {
		cfg := plugintest.Defaults(Definition())
		cfg[ItemEndpoint] = endpoint
		cfg[ItemNodes] = `["ns=2;s=Plant.Counter"]`
		cfg[ItemUsername], cfg[ItemPassword] = "operator", "wrong"
		o, err := New(plugin.Env{Service: "ua"}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		if err := o.Run(ctx, plugintest.NewSink(10)); err == nil {
			t.Error("Run with a wrong password = nil, want an error")
		}
	})
}
