package packages

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/plugin"
)

// publishFiles publishes a south plugin package name 1.0.0 of files for
// this platform and points the manager at the repository.
func (f *fixture) publishFiles(name string, files []pkgrepo.File) {
	f.t.Helper()
	archive, err := pkgrepo.Pack(files)
	if err != nil {
		f.t.Fatal(err)
	}
	p := pkgrepo.Package{Name: name, Version: "1.0.0", Type: pkgrepo.TypePlugin, Kind: "south", Description: name}
	if err := pkgrepo.Publish(f.repo, f.key, p, map[string][]byte{runtime.GOOS + "/" + runtime.GOARCH: archive}); err != nil {
		f.t.Fatal(err)
	}
	if err := f.m.SetRepository(f.t.Context(), f.url, "latest"); err != nil {
		f.t.Fatal(err)
	}
}

// TestInstallReportsPluginStderr: a Python plugin whose interpreter lacks
// a module its launcher imports fails its install with the Python's own
// words, not go-plugin's "Unrecognized remote plugin message".
func TestInstallReportsPluginStderr(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("needs python3")
	}
	f := newFixture(t)
	// -I -S: no site packages, so grpc is missing whatever is installed.
	launcher := "#!/bin/sh\nexec python3 -I -S \"$(dirname \"$0\")/plugin.py\"\n"
	f.publishFiles("nogrpc", []pkgrepo.File{{Name: "plugin", Data: []byte(launcher), Exec: true},
		{Name: "plugin.py", Data: []byte("import grpc\n")}})
	if _, err := f.m.Install(t.Context(), pkgrepo.TypePlugin, "nogrpc", "", false); err != nil {
		t.Fatal(err)
	}
	task := f.lastTask(TaskInstall)
	if task.State != db.TaskComplete || task.ExitCode == nil || *task.ExitCode == 0 {
		t.Fatalf("install task = %+v, want a failure", task)
	}
	if !strings.Contains(task.Reason, "ModuleNotFoundError: No module named 'grpc'") {
		t.Errorf("install task's reason = %q, want the plugin's ModuleNotFoundError", task.Reason)
	}
}

// capture is a plugin.Sink keeping what it is handed.
type capture struct {
	plugin.Sink // Submit: not called by an external plugin

	mu sync.Mutex
	rs []plugin.Reading
}

func (c *capture) Put(rs []plugin.Reading) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rs = append(c.rs, rs...)
}

func (c *capture) first() (plugin.Reading, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.rs) == 0 {
		return plugin.Reading{}, false
	}
	return c.rs[0], true
}

// names returns the variable names of an environment.
func names(env []string) []string {
	out := make([]string, len(env))
	for i, kv := range env {
		out[i], _, _ = strings.Cut(kv, "=")
	}
	return out
}

// TestPluginEnvironment: a plugin process sees the variables of the
// gateway's environment Installation.pluginEnvironment allows, read at
// each start, and never the gateway's secrets.
func TestPluginEnvironment(t *testing.T) {
	f := newFixture(t)
	for k, v := range map[string]string{"EDGE_ADMIN_PASSWORD": "canary-password", "EDGE_DB": "postgres://canary",
		"CLOUD_TOKEN": "canary-token", "PROBE_SHOWN": "yes"} {
		t.Setenv(k, v)
	}
	bin := filepath.Join(f.bins, "probe")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "../plugin/external/testdata/probeplugin")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the probe plugin: %v: %s", err, b)
	}
	exe, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	f.publishFiles("probe", []pkgrepo.File{{Name: "plugin", Data: exe, Exec: true}})
	// Even listed, the gateway's own settings stay out.
	f.set(configmgr.ItemPluginEnvironment, configmgr.DefaultPluginEnvironment+",PROBE_*,EDGE_ADMIN_PASSWORD")
	if _, err := f.m.Install(t.Context(), pkgrepo.TypePlugin, "probe", "", false); err != nil {
		t.Fatal(err)
	}
	if task := f.lastTask(TaskInstall); task.ExitCode == nil || *task.ExitCode != 0 {
		t.Fatalf("install task = %+v", task)
	}
	def, ok := f.reg.Lookup("probe")
	if !ok {
		t.Fatal("the probe plugin is not registered")
	}
	var described []string
	if err := json.Unmarshal([]byte(def.Description), &described); err != nil {
		t.Fatal(err)
	}
	checkEnv(t, "describing", described, "PROBE_SHOWN")

	// A start reads the allow-list afresh.
	f.set(configmgr.ItemPluginEnvironment, configmgr.DefaultPluginEnvironment)
	env := started(t, def)
	checkEnv(t, "running", env)
	if slices.Contains(names(env), "PROBE_SHOWN") {
		t.Error("PROBE_SHOWN reached a process started after the allow-list dropped it")
	}
}

// checkEnv checks env holds PATH and want, and no canary.
func checkEnv(t *testing.T, when string, env []string, want ...string) {
	t.Helper()
	for _, kv := range env {
		if strings.Contains(kv, "canary") {
			t.Errorf("%s, the plugin's environment holds %s", when, kv)
		}
	}
	for _, n := range append(want, "PATH") {
		if !slices.Contains(names(env), n) {
			t.Errorf("%s, the plugin's environment lacks %s: %v", when, n, names(env))
		}
	}
}

// started starts an instance of the probe plugin and returns the
// environment its process reports.
func started(t *testing.T, def plugin.Definition) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	inst, err := def.New(plugin.Env{Service: "probe", Clock: clock.Real{}}, plugin.Config{"mode": "env"})
	if err != nil {
		t.Fatal(err)
	}
	if err := inst.(plugin.Opener).Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = inst.(plugin.Closer).Close() }()
	sink := &capture{}
	runCtx, stop := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- inst.Run(runCtx, sink) }()
	defer func() {
		stop()
		if err := <-ran; err != nil {
			t.Errorf("Run = %v", err)
		}
	}()
	for {
		if r, ok := sink.first(); ok {
			var v struct{ Env []string }
			if err := json.Unmarshal(r.Values, &v); err != nil {
				t.Fatal(err)
			}
			return v.Env
		}
		select {
		case err := <-ran:
			t.Fatalf("the run ended without a reading: %v", err)
		case <-ctx.Done():
			t.Fatal("no reading of the probe within a minute")
		case <-time.After(10 * time.Millisecond):
		}
	}
}
