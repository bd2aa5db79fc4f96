package external

import (
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
)

// TestSouthPluginWrites: a south plugin in its own process that implements
// the SDK's Writer is a plugin.Writer to the gateway, the same interface
// as a built-in plugin's: the asset and the typed values reach it, and its
// refusals are ErrNotWritable. One that does not write is no Writer.
func TestSouthPluginWrites(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "probe")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./testdata/probeplugin")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the probe plugin: %v: %s", err, b)
	}
	def, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := def.New(plugin.Env{Service: "probe", Clock: clock.Real{}, Logger: slog.New(slog.DiscardHandler)}, plugin.Config{"mode": "env"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = inst.(plugin.Closer).Close() }()
	if err := inst.(plugin.Opener).Open(t.Context()); err != nil {
		t.Fatal(err)
	}
	w, ok := plugin.AsWriter(inst)
	if !ok {
		t.Fatalf("the instance of a writing plugin (%T) is no plugin.Writer", inst)
	}
	tests := []struct {
		name    string
		asset   string
		values  map[string]any
		wantErr error
	}{
		{name: "an integer to the pump", asset: "pump", values: map[string]any{"speed": 5}},
		{name: "a datapoint the pump lacks", asset: "pump", values: map[string]any{"speed": 5, "flow": 1}, wantErr: fault.Invalid},
		{name: "a string value", asset: "pump", values: map[string]any{"speed": "fast"}, wantErr: fault.Invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := w.Write(t.Context(), tt.asset, tt.values); !errors.Is(err, tt.wantErr) {
				t.Errorf("Write = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// TestNonWritingSouthIsNoWriter: the csv example does not write.
func TestNonWritingSouthIsNoWriter(t *testing.T) {
	bin, err := BuildExample(t.Context(), "../../..", "csvsouth", "1.0.0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	def, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := def.New(plugin.Env{Service: "csv", Clock: clock.Real{}}, plugin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := plugin.AsWriter(inst); ok {
		t.Errorf("the instance of a plugin that does not write (%T) is a plugin.Writer", inst)
	}
}
