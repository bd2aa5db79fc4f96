package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
	"github.com/edged/edged/pluginsdk/go/plugintest"
)

func writeCSV(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.csv")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadsRowsAndLoops(t *testing.T) {
	path := writeCSV(t, "temperature,state\n20.5,on\n21,off\n")
	h := plugintest.New(t, edgeplugin.Plugin{Info: Info(), South: &CSV{}})
	if h.Info.Name != "csv_south" || h.Info.Kind != edgeplugin.KindSouth || !h.Info.Persists {
		t.Fatalf("info = %+v", h.Info)
	}
	if err := h.Start(h.Config(edgeplugin.Config{"file": path, "asset": "boiler", "rate": "10000"}), nil); err != nil {
		t.Fatal(err)
	}
	got := h.Collect(3)
	want := []string{`{"state":"on","temperature":20.5}`, `{"state":"off","temperature":21}`, `{"state":"on","temperature":20.5}`}
	for i, w := range want {
		if got[i].Asset != "boiler" || string(got[i].Values) != w {
			t.Errorf("reading %d = %s %s, want boiler %s", i, got[i].Asset, got[i].Values, w)
		}
	}
}

func TestResumesFromPersistedPosition(t *testing.T) {
	path := writeCSV(t, "v\n1\n2\n3\n")
	h := plugintest.New(t, edgeplugin.Plugin{Info: Info(), South: &CSV{}})
	if err := h.Start(h.Config(edgeplugin.Config{"file": path, "rate": "10000", "loop": "false"}), json.RawMessage(`{"row":2}`)); err != nil {
		t.Fatal(err)
	}
	got := h.Collect(1)
	if string(got[0].Values) != `{"v":3}` {
		t.Errorf("first reading after the persisted position = %s, want {\"v\":3}", got[0].Values)
	}
	if st := h.State(); string(st) != `{"row":3}` {
		t.Errorf("state = %s", st)
	}
}

func TestRefuses(t *testing.T) {
	cases := []struct {
		name string
		cfg  edgeplugin.Config
	}{
		{"missing file", edgeplugin.Config{"file": "/nonexistent/data.csv"}},
		{"bad rate", edgeplugin.Config{"rate": "0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := plugintest.New(t, edgeplugin.Plugin{Info: Info(), South: &CSV{}})
			cfg := h.Config(edgeplugin.Config{"file": writeCSV(t, "v\n1\n")})
			for k, v := range c.cfg {
				cfg[k] = v
			}
			if err := h.Start(cfg, nil); err == nil {
				t.Error("Start = nil, want an error")
			}
		})
	}
}

func TestFileChangeRestarts(t *testing.T) {
	h := plugintest.New(t, edgeplugin.Plugin{Info: Info(), South: &CSV{}})
	cfg := h.Config(edgeplugin.Config{"file": writeCSV(t, "v\n1\n")})
	if err := h.Start(cfg, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.Client.Reconfigure(t.Context(), h.Config(edgeplugin.Config{"file": cfg["file"], "rate": "5"})); err != nil {
		t.Errorf("rate change = %v, want nil", err)
	}
	if err := h.Client.Reconfigure(t.Context(), h.Config(edgeplugin.Config{"file": "/other.csv"})); !errors.Is(err, edgeplugin.ErrRestart) {
		t.Errorf("file change = %v, want ErrRestart", err)
	}
}

// TestRewind: operation rewind starts the running plugin over at the
// first row, also once a file that does not loop was read to its end;
// other operations and parameters are refused.
func TestRewind(t *testing.T) {
	path := writeCSV(t, "v\n1\n2\n")
	h := plugintest.New(t, edgeplugin.Plugin{Info: Info(), South: &CSV{}})
	if !h.Info.Operates || h.Info.Writes {
		t.Fatalf("info says operates %v, writes %v", h.Info.Operates, h.Info.Writes)
	}
	if err := h.Start(h.Config(edgeplugin.Config{"file": path, "rate": "10000", "loop": "false"}), nil); err != nil {
		t.Fatal(err)
	}
	readings := make(chan edgeplugin.Reading, 10)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- h.Client.Run(ctx, func(rs []edgeplugin.Reading) {
			for _, r := range rs {
				readings <- r
			}
		})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	}()
	next := func() string {
		select {
		case r := <-readings:
			return string(r.Values)
		case <-time.After(10 * time.Second):
			t.Fatal("no reading")
			return ""
		}
	}
	if a, b := next(), next(); a != `{"v":1}` || b != `{"v":2}` {
		t.Fatalf("readings = %s %s", a, b)
	}
	if err := h.Client.Operate(t.Context(), "rewind", nil); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != `{"v":1}` {
		t.Errorf("first reading after the rewind = %s, want {\"v\":1}", got)
	}
	for _, tc := range []struct {
		name      string
		operation string
		params    map[string]any
	}{
		{"unknown operation", "launch", nil},
		{"parameters", "rewind", map[string]any{"row": 3}},
	} {
		if err := h.Client.Operate(t.Context(), tc.operation, tc.params); edgeplugin.CodeOf(err) != edgeplugin.CodeInvalid {
			t.Errorf("%s: error %v, want CodeInvalid", tc.name, err)
		}
	}
}
