package external

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
)

// TestFilterPlugin runs the scale filter example in its own process
// through the host-side adapter.
func TestFilterPlugin(t *testing.T) {
	bin, err := BuildExample(t.Context(), "../../..", "scalefilter", "1.2.3", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	def, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if def.Name != "scale_filter" || def.Kind != plugin.KindFilter || def.Version != "1.2.3" || def.NewFilter == nil {
		t.Fatalf("definition = %+v", def)
	}
	env := plugin.FilterEnv{Env: plugin.Env{Clock: clock.Real{}, Logger: slog.New(slog.DiscardHandler)}, Instance: "scale1"}
	f, err := def.NewFilter(env, plugin.Config{"factor": "10", "offset": "0"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if c, ok := f.(plugin.Closer); ok {
			_ = c.Close()
		}
	}()
	ts := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	out, err := f.Process(t.Context(), []plugin.Point{{Asset: "a", Timestamp: ts, Values: map[string]any{"v": 1.5}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Values["v"] != int64(15) || !out[0].Timestamp.Equal(ts) {
		t.Errorf("filtered = %+v", out)
	}
	if err := f.Reconfigure(plugin.Config{"factor": "2", "offset": "1"}); err != nil {
		t.Fatal(err)
	}
	if out, _ := f.Process(t.Context(), []plugin.Point{{Asset: "a", Timestamp: ts, Values: map[string]any{"v": int64(1)}}}); len(out) != 1 || out[0].Values["v"] != int64(3) {
		t.Errorf("after reconfiguring = %+v", out)
	}
	// A process that died is replaced before the next batch.
	inner, ok := f.(*extFilter)
	if pf, isP := f.(*persistingFilter); isP {
		inner, ok = pf.extFilter, true
	}
	if !ok {
		t.Fatalf("filter instance is a %T", f)
	}
	inner.mu.Lock()
	inner.proc.Kill()
	inner.mu.Unlock()
	if _, err := f.Process(t.Context(), []plugin.Point{{Asset: "a", Timestamp: ts, Values: map[string]any{"v": int64(1)}}}); err != nil {
		t.Fatalf("after the process was killed = %v", err)
	}
	if err := f.Reconfigure(plugin.Config{"factor": "x", "offset": "1"}); err == nil {
		t.Error("Reconfigure with a bad factor = nil")
	}
}

func TestLoadRefusesNonPlugins(t *testing.T) {
	if _, err := Load(t.Context(), "/bin/true", slog.New(slog.DiscardHandler)); err == nil {
		t.Error("Load of an executable that is no plugin = nil")
	}
	if _, err := Load(t.Context(), "/nonexistent/plugin", slog.New(slog.DiscardHandler)); err == nil {
		t.Error("Load of a missing executable = nil")
	}
}

func TestLogWriterLogsLines(t *testing.T) {
	var buf strings.Builder
	w := logWriter(slog.New(slog.NewTextHandler(&buf, nil)), "/p")
	if n, err := w.Write([]byte("one\ntwo\n")); n != 8 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got := strings.Count(buf.String(), "plugin output"); got != 2 {
		t.Errorf("logged %d lines, want 2: %s", got, buf.String())
	}
}

// TestLogWriterKeepsLevels: an hclog line's level carries over, so a
// plugin's warning is a warning of its service.
func TestLogWriterKeepsLevels(t *testing.T) {
	tests := []struct {
		line string
		want slog.Level
	}{
		{"2026-11-29T00:45:00.000Z [WARN]  plugin.sine: device slow: n=1", slog.LevelWarn},
		{"2026-11-29T00:45:00.000Z [ERROR] plugin.sine: device gone", slog.LevelError},
		{"2026-11-29T00:45:00.000Z [INFO]  plugin.sine: started", slog.LevelInfo},
		{"2026-11-29T00:45:00.000Z [DEBUG] plugin.sine: detail", slog.LevelDebug},
		{"2026-11-29T00:45:00.000Z [TRACE] plugin.sine: detail", slog.LevelDebug},
		{"[WARN] opening the line", slog.LevelWarn},
		{"no level at all", slog.LevelInfo},
		{"a message naming [WARN] far after the head of the line, which is no level", slog.LevelInfo},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			var buf strings.Builder
			w := logWriter(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), "/p")
			if _, err := w.Write([]byte(tc.line + "\n")); err != nil {
				t.Fatal(err)
			}
			if want := "level=" + tc.want.String() + " "; !strings.Contains(buf.String(), want) {
				t.Errorf("logged %q, want %s", buf.String(), want)
			}
		})
	}
}

// TestNorthPlugin sends a block through the file north example in its own
// process: the accepted count crosses the boundary exactly.
func TestNorthPlugin(t *testing.T) {
	bin, err := BuildExample(t.Context(), "../../..", "filenorth", "1.0.0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	def, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if def.Name != "file_north" || def.Kind != plugin.KindNorth || def.NewNorth == nil {
		t.Fatalf("definition = %+v", def)
	}
	out := filepath.Join(t.TempDir(), "out.jsonl")
	env := plugin.NorthEnv{Env: plugin.Env{Service: "n", Clock: clock.Real{}, Logger: slog.New(slog.DiscardHandler)}}
	n, err := def.NewNorth(env, plugin.Config{"file": out, "maxBytes": "150"})
	if err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	rs := []plugin.Reading{{Asset: "a", Timestamp: ts, Values: json.RawMessage(`{"v":1}`)},
		{Asset: "a", Timestamp: ts, Values: json.RawMessage(`{"v":2}`)}, {Asset: "a", Timestamp: ts, Values: json.RawMessage(`{"v":3}`)}}
	if sent, err := n.Send(t.Context(), rs); sent != 2 || err == nil {
		t.Errorf("Send = %d, %v; want 2 and the file full", sent, err)
	}
	if b, err := os.ReadFile(out); err != nil || strings.Count(string(b), "\n") != 2 {
		t.Errorf("file = %q, %v", b, err)
	}
	if err := n.Reconfigure(plugin.Config{"file": out, "maxBytes": "1000"}); err != nil {
		t.Fatal(err)
	}
	if sent, err := n.Send(t.Context(), rs[2:]); sent != 1 || err != nil {
		t.Errorf("Send after raising the limit = %d, %v", sent, err)
	}
	if c, ok := n.(plugin.Closer); !ok {
		t.Fatal("an external north instance is no Closer")
	} else if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Send(t.Context(), rs[:1]); err == nil {
		t.Error("Send after Close = nil")
	}
}
