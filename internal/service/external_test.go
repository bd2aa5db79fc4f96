package service

import (
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/external"
	"github.com/edged/edged/internal/system"
)

// processesOf returns the ids of the running processes of executable bin.
func processesOf(t *testing.T, bin string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && exe == bin {
			pids = append(pids, pid)
		}
	}
	return pids
}

// await polls cond, advancing the fake clock by step each round, until it
// holds or the test's deadline comes. An external process gives no
// signal to wait on but the data it produces.
func (e *env) await(what string, step time.Duration, cond func() bool) {
	e.t.Helper()
	for !cond() {
		select {
		case <-e.t.Context().Done():
			e.t.Fatalf("never: %s", what)
		case <-time.After(20 * time.Millisecond):
		}
		e.clk.Advance(step)
	}
}

// TestExternalSouthPluginCrashAndRecover runs the CSV example plugin in
// its own process as a south service, kills the process and sees the
// service restart it.
func TestExternalSouthPluginCrashAndRecover(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the plugin's process through /proc")
	}
	bin, err := external.BuildExample(t.Context(), "../..", "csvsouth", "1.0.0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	def, err := external.Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if def.Name != "csv_south" || def.Kind != plugin.KindSouth || !def.External || def.Items["rate"].Default != "1" {
		t.Fatalf("definition = %+v", def)
	}
	if n := len(processesOf(t, bin)); n != 0 {
		t.Fatalf("%d processes left after describing the plugin", n)
	}
	csv := filepath.Join(t.TempDir(), "data.csv")
	if err := os.WriteFile(csv, []byte("temperature\n20\n21\n22\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, []plugin.Definition{def}, func(o *Options) {
		o.Backoff = Backoff{Initial: time.Second, Max: time.Second, ResetAfter: time.Hour}
	})
	e.create(CreateRequest{Name: "csv", Type: "south", Plugin: "csv_south", Enabled: true,
		Config: map[string]string{"file": csv, "asset": "boiler", "rate": "200", ItemMaxSendLatency: "0"}})

	readings := func() int64 {
		s := southOf(t, e, "csv")
		if len(s.Assets) == 0 {
			return 0
		}
		return s.Assets[0].Count
	}
	e.await("readings of the plugin", 0, func() bool { return readings() > 0 })
	if s := southOf(t, e, "csv"); s.Assets[0].Asset != "boiler" || s.PluginVersion != "1.0.0" {
		t.Errorf("south record = %+v", s)
	}
	pids := processesOf(t, bin)
	if len(pids) != 1 {
		t.Fatalf("plugin processes = %v, want one", pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	e.await("the service failing", 0, func() bool { return e.m.Status("csv") == system.StatusFailed })
	if n := e.auditCount("SRVFL"); n != 1 {
		t.Errorf("SRVFL entries = %d, want 1", n)
	}
	before := readings()
	e.await("a new plugin process", time.Second, func() bool {
		p := processesOf(t, bin)
		return len(p) == 1 && p[0] != pids[0]
	})
	e.await("readings after the restart", 0, func() bool { return readings() > before })
	if got := e.m.Status("csv"); got != system.StatusRunning {
		t.Errorf("status after recovering = %s", got)
	}
	e.m.Shutdown(t.Context())
	if p := processesOf(t, bin); len(p) != 0 {
		t.Errorf("plugin processes after shutdown: %v", p)
	}
}

// pluginPython returns the Python of the plugin SDK's virtualenv (make
// plugin-tools), which has the SDK's packages.
func pluginPython(t *testing.T) string {
	t.Helper()
	py, err := filepath.Abs("../../pluginsdk/python/.venv/bin/python")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(py); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the plugin SDK's Python is not installed (make plugin-tools): %v", err)
		}
		t.Skip("the plugin SDK's Python is not installed: run make plugin-tools")
	}
	return py
}

// TestExternalPythonSouthPlugin runs the waveform example of the Python
// SDK as a south service and sees its readings and persisted state.
func TestExternalPythonSouthPlugin(t *testing.T) {
	t.Setenv("EDGED_PLUGIN_PYTHON", pluginPython(t))
	sdk, err := filepath.Abs("../../pluginsdk/python")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", sdk)
	def, err := external.Load(t.Context(), filepath.Join(sdk, "examples", "waveform", "plugin"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if def.Name != "waveform" || def.Kind != plugin.KindSouth || !def.Persists || def.Items["shape"].Default != "sine" {
		t.Fatalf("definition = %+v", def)
	}
	e := newEnv(t, []plugin.Definition{def}, nil)
	e.create(CreateRequest{Name: "wave", Type: "south", Plugin: "waveform", Enabled: true,
		Config: map[string]string{"asset": "wave", "rate": "100", "shape": "square", ItemMaxSendLatency: "0"}})
	e.await("readings of the Python plugin", 0, func() bool {
		s := southOf(t, e, "wave")
		return len(s.Assets) == 1 && s.Assets[0].Asset == "wave" && s.Assets[0].Count > 0
	})
	e.m.Shutdown(t.Context())
	data, err := e.db.GetPluginData(t.Context(), "wave", "wave")
	if err != nil || !strings.Contains(string(data), `"samples"`) {
		t.Errorf("persisted state = %s, %v", data, err)
	}
}

func TestInstalledLeavesFiltersOut(t *testing.T) {
	filter := plugin.Definition{Name: "f", Kind: plugin.KindFilter,
		NewFilter: func(plugin.FilterEnv, plugin.Config) (plugin.Filter, error) { return nil, nil }}
	ctl := newFakeCtl()
	e := newEnv(t, []plugin.Definition{ctl.definition(), filter}, nil)
	if got := e.m.Installed(); !slices.Equal(got, []string{"south", "storage"}) {
		t.Errorf("Installed = %v, want [south storage]", got)
	}
}
