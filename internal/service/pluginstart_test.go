package service

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/external"
	"github.com/edged/edged/internal/system"
)

// probeDefinition builds the probe plugin of package external's tests and
// describes it.
func probeDefinition(t *testing.T) plugin.Definition {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "probe")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "../plugin/external/testdata/probeplugin")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the probe plugin: %v: %s", err, b)
	}
	def, err := external.Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// recordOf returns the service listing's record of name.
func recordOf(t *testing.T, e *env, name string) Record {
	t.Helper()
	recs, err := e.m.Records(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no record of %q in %+v", name, recs)
	return Record{}
}

// TestPluginStartTellsTheTruth: a service whose plugin process hangs in
// Start is not running; one whose plugin dies in Start, or whose plugin
// sends a batch larger than a plugin may, fails with the reason, the
// former's with the end of the process's stderr.
func TestPluginStartTellsTheTruth(t *testing.T) {
	def := probeDefinition(t)
	cases := []struct {
		mode, status, reason string
	}{
		{"hang", system.StatusUnresponsive, "its plugin has not started yet"},
		{"panic", system.StatusFailed, "panic: the probe's device is gone"},
		{"big", system.StatusFailed, "more than the 4194304 a plugin may send at once"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			e := newEnv(t, []plugin.Definition{def}, nil)
			created := make(chan struct{})
			go func() {
				defer close(created)
				e.create(CreateRequest{Name: "probe", Type: "south", Plugin: "probe", Enabled: true,
					Config: map[string]string{"mode": tc.mode}})
			}()
			// Creating waits StartWait on the fake clock for the start.
			e.await("the service created", time.Second, func() bool {
				select {
				case <-created:
					return true
				default:
					return false
				}
			})
			deadline := time.Now().Add(30 * time.Second)
			for r := recordOf(t, e, "probe"); r.Status != tc.status || !strings.Contains(r.Reason, tc.reason); r = recordOf(t, e, "probe") {
				if time.Now().After(deadline) {
					t.Fatalf("30 s after the start: %s (%q), want %s (%q)", r.Status, r.Reason, tc.status, tc.reason)
				}
				time.Sleep(20 * time.Millisecond) // polling a process's progress
			}
			if tc.status == system.StatusFailed {
				return
			}
			// It stays so however long it hangs.
			e.clk.Advance(time.Hour)
			if r := recordOf(t, e, "probe"); r.Status != tc.status || !strings.Contains(r.Reason, tc.reason) {
				t.Errorf("an hour later: %s (%q)", r.Status, r.Reason)
			}
		})
	}
}

// waiting is a south plugin that is ready only once ready is closed.
type waiting struct {
	ready chan struct{}
}

func (w *waiting) Run(ctx context.Context, _ plugin.Sink) error {
	<-ctx.Done()
	return nil
}
func (w *waiting) Reconfigure(plugin.Config) error { return nil }
func (w *waiting) Ready() <-chan struct{}          { return w.ready }
func (w *waiting) NotReady() string                { return "the broker refused the connection" }

// TestReadierRunsOnceReady: a service whose plugin has to connect first is
// unresponsive, with the plugin's word on why, until it is ready.
func TestReadierRunsOnceReady(t *testing.T) {
	w := &waiting{ready: make(chan struct{})}
	def := plugin.Definition{Name: "waiting", Version: "1", Kind: plugin.KindSouth,
		New: func(plugin.Env, plugin.Config) (plugin.South, error) { return w, nil }}
	e := newEnv(t, []plugin.Definition{def}, nil)
	created := make(chan struct{})
	go func() {
		defer close(created)
		e.create(CreateRequest{Name: "w", Type: "south", Plugin: "waiting", Enabled: true})
	}()
	e.await("the service created", time.Second, func() bool {
		select {
		case <-created:
			return true
		default:
			return false
		}
	})
	if r := recordOf(t, e, "w"); r.Status != system.StatusUnresponsive ||
		r.Reason != "its plugin has not started yet: the broker refused the connection" {
		t.Errorf("before ready: %s (%q)", r.Status, r.Reason)
	}
	close(w.ready)
	deadline := time.Now().Add(10 * time.Second)
	for r := recordOf(t, e, "w"); r.Status != system.StatusRunning || r.Reason != ""; r = recordOf(t, e, "w") {
		if time.Now().After(deadline) {
			t.Fatalf("10 s after ready: %s (%q)", r.Status, r.Reason)
		}
		time.Sleep(10 * time.Millisecond) // the runner's goroutine sees ready
	}
}
