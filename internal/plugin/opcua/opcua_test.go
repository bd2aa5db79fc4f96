package opcua

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

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
		for _, bad := range []map[string]any{{"Nope": 1.0}, {"Counter": 1.5}, {"Running": "yes"}} {
			if err := o.Write(t.Context(), "Plant", bad); !errors.Is(err, plugin.ErrNotWritable) {
				t.Errorf("Write(%v) = %v, want ErrNotWritable", bad, err)
			}
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
