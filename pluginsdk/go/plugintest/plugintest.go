// Package plugintest runs a plugin against a fake gateway, in the test's
// process but over the real gRPC contract, so a plugin author tests what
// the gateway will see.
//
//	h := plugintest.New(t, myplugin.New())
//	h.Start(edgeplugin.Config{"rate": "10"}, nil)
//	readings := h.Collect(5) // the first five readings the plugin produced
//
// The harness lives here, not in edgeplugin, so that a plugin binary,
// which links edgeplugin, does not link this package or its use of
// package testing.
package plugintest

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	hplugin "github.com/hashicorp/go-plugin"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Connect serves p inside this process over a real gRPC connection (with
// go-plugin's broker, which the services' Host goes through) and returns
// the gateway's end of it, described. The connection closes when t ends.
func Connect(t testing.TB, p edgeplugin.Plugin) (*edgeplugin.Client, edgeplugin.Info, error) {
	gp, err := edgeplugin.GRPCPlugin(p)
	if err != nil {
		return nil, edgeplugin.Info{}, err
	}
	client, _ := hplugin.TestPluginGRPCConn(t, false, hplugin.PluginSet{edgeplugin.PluginName: gp})
	t.Cleanup(func() { _ = client.Close() })
	raw, err := client.Dispense(edgeplugin.PluginName)
	if err != nil {
		return nil, edgeplugin.Info{}, err
	}
	c := raw.(*edgeplugin.Client)
	info, err := c.Describe(t.Context())
	return c, info, err
}

// Harness is a fake gateway holding one plugin.
type Harness struct {
	t      testing.TB
	Client *edgeplugin.Client
	// Info is what the plugin described itself as.
	Info edgeplugin.Info
	// Defaults are the defaults of the plugin's items, the configuration
	// the gateway starts a new service with.
	Defaults edgeplugin.Config
}

// New serves p and describes it; a failure fails the test.
func New(t testing.TB, p edgeplugin.Plugin) *Harness {
	t.Helper()
	c, info, err := Connect(t, p)
	if err != nil {
		t.Fatalf("plugintest: %v", err)
	}
	h := &Harness{t: t, Client: c, Info: info, Defaults: edgeplugin.Config{}}
	for name, it := range info.Items {
		h.Defaults[name] = it.Default
	}
	return h
}

// Config returns the defaults with the values of changes set.
func (h *Harness) Config(changes edgeplugin.Config) edgeplugin.Config {
	cfg := edgeplugin.Config{}
	for k, v := range h.Defaults {
		cfg[k] = v
	}
	for k, v := range changes {
		cfg[k] = v
	}
	return cfg
}

// Start starts the plugin as service "test" with cfg and state.
func (h *Harness) Start(cfg edgeplugin.Config, state json.RawMessage) error {
	return h.Client.Start(h.t.Context(), edgeplugin.Start{Service: "test", Config: cfg, State: state})
}

// StartService starts a notification or dispatcher service as service
// "test" with cfg and state; host is the fake gateway it calls back.
func (h *Harness) StartService(cfg edgeplugin.Config, state json.RawMessage, host edgeplugin.Host) error {
	return h.Client.StartService(h.t.Context(), edgeplugin.Start{Service: "test", Config: cfg, State: state}, host)
}

// Collect runs a south plugin until it produced at least n readings and
// returns them all; a failure of the plugin fails the test.
func (h *Harness) Collect(n int) []edgeplugin.Reading {
	h.t.Helper()
	ctx, cancel := context.WithCancel(h.t.Context())
	defer cancel()
	var (
		mu  sync.Mutex
		got []edgeplugin.Reading
	)
	err := h.Client.Run(ctx, func(rs []edgeplugin.Reading) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, rs...)
		if len(got) >= n {
			cancel()
		}
	})
	if err != nil {
		h.t.Fatalf("plugintest: Run: %v (after %d readings)", err, len(got))
	}
	return got
}

// Write sets datapoints of asset through a south plugin's Writer, as the
// gateway's control calls do; errors are the gateway's (ErrCannotWrite,
// ErrNotWritable wrapped).
func (h *Harness) Write(asset string, values map[string]any) error {
	return h.Client.Write(h.t.Context(), asset, values)
}

// State returns the state the plugin would persist now.
func (h *Harness) State() json.RawMessage {
	h.t.Helper()
	st, err := h.Client.State(h.t.Context())
	if err != nil {
		h.t.Fatalf("plugintest: State: %v", err)
	}
	return st
}
