package external

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
)

// TestHungNorthReconfigure: a north plugin that never answers a changed
// configuration fails the change after callWait, instead of holding the
// configuration write that made it; one that never answers a block fails
// the Send after sendWait.
func TestHungNorthReconfigure(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "hangnorth")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./testdata/hangnorth")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v: %s", err, b)
	}
	def, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	n, err := def.NewNorth(plugin.NorthEnv{Env: plugin.Env{Service: "n1", Clock: clock.Real{}, Logger: slog.New(slog.DiscardHandler)}}, plugin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = n.(plugin.Closer).Close() }()
	defer func(w time.Duration) { callWait = w }(callWait)
	callWait = 500 * time.Millisecond
	done := make(chan error, 1)
	go func() { done <- n.Reconfigure(plugin.Config{"hang": "1"}) }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Reconfigure of a hung plugin = nil, want an error")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Reconfigure of a hung plugin did not return in 20 s")
	}
	if err := n.Reconfigure(plugin.Config{}); err != nil {
		t.Errorf("Reconfigure after the hung one = %v", err)
	}

	// A Send the plugin never answers fails after sendWait.
	defer func(w time.Duration) { sendWait = w }(sendWait)
	sendWait = 500 * time.Millisecond
	sent := make(chan error, 1)
	go func() {
		_, err := n.Send(context.Background(), []plugin.Reading{{Asset: "hang", Timestamp: time.Now().UTC(), Values: json.RawMessage(`{"v":1}`)}})
		sent <- err
	}()
	select {
	case err := <-sent:
		if err == nil {
			t.Error("Send to a hung plugin = nil, want an error")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Send to a hung plugin did not return in 20 s")
	}
	if k, err := n.Send(t.Context(), []plugin.Reading{{Asset: "a", Timestamp: time.Now().UTC(), Values: json.RawMessage(`{"v":1}`)}}); k != 1 || err != nil {
		t.Errorf("Send after the hung one = %d, %v", k, err)
	}
}
