package external

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
)

// buildProbe builds testdata/probeplugin and describes it.
func buildProbe(t *testing.T) plugin.Definition {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "probe")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./testdata/probeplugin").CombinedOutput(); err != nil {
		t.Fatalf("build the probe: %v\n%s", err, out)
	}
	def, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// runSouth opens and runs an instance of def until the test ends and
// returns it with the sink it delivers to.
func runSouth(t *testing.T, def plugin.Definition, cfg plugin.Config) (plugin.South, *plugintest.Sink) {
	t.Helper()
	inst, err := def.New(plugin.Env{Service: "tank", Clock: clock.Real{}}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := inst.(plugin.Opener).Open(t.Context()); err != nil {
		t.Fatal(err)
	}
	sink := plugintest.NewSink(16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- inst.Run(ctx, sink) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
	return inst, sink
}

// control waits for the reading a probe emits for a write or operation.
func control(t *testing.T, sink *plugintest.Sink) map[string]any {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case rs := <-sink.Calls:
			for _, r := range rs {
				if r.Asset != "control" {
					continue
				}
				var v map[string]any
				if err := json.Unmarshal(r.Values, &v); err != nil {
					t.Fatal(err)
				}
				return v
			}
		case <-deadline:
			t.Fatal("the plugin reported no control call")
		}
	}
}

// TestSouthControl writes setpoints to and runs operations on a south
// plugin in its own process, written with the Go SDK and with the Python
// SDK, as the dispatcher does to a built-in one: values reach it with
// their JSON types, with the asset; its refusals are the caller's
// mistakes (400), its device's failures 502.
func TestSouthControl(t *testing.T) {
	t.Run("go", func(t *testing.T) { checkSouthControl(t, buildProbe(t), plugin.Config{"mode": "env"}) })
	t.Run("python", func(t *testing.T) {
		if sdkPython(t) == "" {
			t.Skip("the plugin SDK's Python is not installed: run make plugin-tools")
		}
		def, err := Load(t.Context(), "testdata/pyprobe/plugin", slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		checkSouthControl(t, def, plugin.Config{})
	})
}

func checkSouthControl(t *testing.T, def plugin.Definition, cfg plugin.Config) {
	inst, sink := runSouth(t, def, cfg)
	w, ok := plugin.AsWriter(inst)
	if !ok {
		t.Fatal("an external plugin that writes is no Writer")
	}
	o, ok := plugin.AsOperator(inst)
	if !ok {
		t.Fatal("an external plugin that operates is no Operator")
	}
	ctx := t.Context()

	if err := w.Write(ctx, "tank1", map[string]any{"level": 21.5, "open": true, "mode": "auto"}); err != nil {
		t.Fatal(err)
	}
	got := control(t, sink)
	want := map[string]any{"call": "write", "asset": "tank1", "values": map[string]any{"level": 21.5, "open": true, "mode": "auto"}}
	if g, _ := json.Marshal(got); string(g) != mustJSON(t, want) {
		t.Errorf("the plugin got %s, want %s", g, mustJSON(t, want))
	}
	if err := o.Operate(ctx, "reset", map[string]any{"counter": 0}); err != nil {
		t.Fatal(err)
	}
	want = map[string]any{"call": "reset", "asset": "", "values": map[string]any{"counter": float64(0)}}
	if g, _ := json.Marshal(control(t, sink)); string(g) != mustJSON(t, want) {
		t.Errorf("the plugin got %s, want %s", g, mustJSON(t, want))
	}

	for _, tc := range []struct {
		name string
		call func() error
		kind *fault.Kind
		text string
	}{
		{"a datapoint it cannot write", func() error { return w.Write(ctx, "", map[string]any{"readonly": 1}) }, fault.Invalid, "not writable"},
		{"an operation it does not offer", func() error { return o.Operate(ctx, "launch", nil) }, fault.Invalid, "not supported"},
		{"its device failing", func() error { return o.Operate(ctx, "jam", nil) }, fault.BadGateway, "jammed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			f, ok := fault.As(err)
			if !ok || !errors.Is(err, tc.kind) || !strings.Contains(f.Message, tc.text) || !strings.Contains(f.Message, `"tank"`) {
				t.Errorf("error = %v, want a %v fault naming the service and saying %q", err, tc.kind, tc.text)
			}
		})
	}
}

// TestSouthControlOffered: a plugin is offered only the control calls it
// said it serves: the CSV example operates but does not write, the Python
// waveform example does neither.
func TestSouthControlOffered(t *testing.T) {
	bin, err := BuildExample(t.Context(), "../../..", "csvsouth", "1.0.0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	csv, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defs := []struct {
		def              plugin.Definition
		writes, operates bool
	}{{csv, false, true}}
	if py := sdkPython(t); py != "" {
		wave, err := Load(t.Context(), "../../../pluginsdk/python/examples/waveform/plugin", slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		defs = append(defs, struct {
			def              plugin.Definition
			writes, operates bool
		}{wave, false, false})
	}
	for _, tc := range defs {
		t.Run(tc.def.Name, func(t *testing.T) {
			inst, err := tc.def.New(plugin.Env{Service: "s"}, plugin.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := plugin.AsWriter(inst); ok != tc.writes {
				t.Errorf("a Writer: %v, want %v", ok, tc.writes)
			}
			if _, ok := plugin.AsOperator(inst); ok != tc.operates {
				t.Errorf("an Operator: %v, want %v", ok, tc.operates)
			}
		})
	}
}

// sdkPython sets the environment a Python plugin of the SDK runs in (the
// SDK's virtualenv, make plugin-tools, and the SDK on PYTHONPATH) and
// returns that Python; without it the test is skipped ("" returned) or,
// under CI, fails.
func sdkPython(t *testing.T) string {
	t.Helper()
	py, err := filepath.Abs("../../../pluginsdk/python/.venv/bin/python")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(py); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the plugin SDK's Python is not installed (make plugin-tools): %v", err)
		}
		t.Log("the plugin SDK's Python is not installed: run make plugin-tools")
		return ""
	}
	sdk, err := filepath.Abs("../../../pluginsdk/python")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("EDGED_PLUGIN_PYTHON", py)
	t.Setenv("PYTHONPATH", sdk)
	return py
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
