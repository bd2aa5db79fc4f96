package external

import (
	"encoding/json"
	"log/slog"
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
	env := plugin.Env{Service: "svc", Clock: clock.Real{}, Logger: slog.New(slog.DiscardHandler)}
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
	out, err := f.Ingest(t.Context(), []plugin.Reading{{Asset: "a", Timestamp: ts, Values: json.RawMessage(`{"v":1.5}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || string(out[0].Values) != `{"v":15}` || !out[0].Timestamp.Equal(ts) {
		t.Errorf("filtered = %+v", out)
	}
	if err := f.Reconfigure(plugin.Config{"factor": "2", "offset": "1"}); err != nil {
		t.Fatal(err)
	}
	if out, _ := f.Ingest(t.Context(), []plugin.Reading{{Asset: "a", Timestamp: ts, Values: json.RawMessage(`{"v":1}`)}}); len(out) != 1 || string(out[0].Values) != `{"v":3}` {
		t.Errorf("after reconfiguring = %+v", out)
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
