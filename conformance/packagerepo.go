package conformance

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/simtest"
)

// builtRepo is a package repository built by `make packages` in a temp
// directory and served over HTTP on the loopback interface.
type builtRepo struct {
	dir, key, url string
	pub           string // the key's public half, base64
}

// makePackages runs `make packages` of this source tree into r at version.
func (r *builtRepo) makePackages(t *testing.T, version string) {
	t.Helper()
	root, err := filepath.Abs("..")
	must(t, err)
	cmd := exec.CommandContext(t.Context(), "make", "--no-print-directory", "-C", root, "packages",
		"KEY="+r.key, "REPO_DIR="+r.dir, "VERSION="+version)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make packages VERSION=%s: %v\n%s", version, err, out)
	}
}

// newBuiltRepo makes a signing key with edgepkg keygen, builds the
// repository with make packages at version 1.0.0 and serves it.
func newBuiltRepo(t *testing.T) *builtRepo {
	t.Helper()
	r := &builtRepo{dir: t.TempDir(), key: filepath.Join(t.TempDir(), "repo.key")}
	keygen := exec.CommandContext(t.Context(), "go", "run", "../cmd/edgepkg", "keygen", "-out", r.key)
	if out, err := keygen.CombinedOutput(); err != nil {
		t.Fatalf("edgepkg keygen: %v\n%s", err, out)
	}
	b, err := os.ReadFile(r.key)
	must(t, err)
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	must(t, err)
	r.pub = base64.StdEncoding.EncodeToString(ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey))
	r.makePackages(t, "1.0.0")
	srv := httptest.NewServer(http.FileServer(http.Dir(r.dir)))
	t.Cleanup(srv.Close)
	r.url = srv.URL
	return r
}

// artifact returns the path in r of the archive of package name at
// version for this platform.
func (r *builtRepo) artifact(t *testing.T, name, version string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, pkgrepo.IndexFile))
	must(t, err)
	var ix pkgrepo.Index
	must(t, json.Unmarshal(b, &ix))
	for _, p := range ix.Packages {
		if p.Name != name || p.Version != version {
			continue
		}
		if a, ok := p.Artifact(runtime.GOOS, runtime.GOARCH); ok {
			return filepath.Join(r.dir, filepath.FromSlash(a.Path))
		}
	}
	t.Fatalf("the repository has no artifact of %s %s for %s/%s", name, version, runtime.GOOS, runtime.GOARCH)
	return ""
}

// pluginProcesses returns the ids of the processes the gateway under test
// started for the installed package name (the executable in its package
// directory, or a Python plugin's script there).
func pluginProcesses(t *testing.T, name string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	must(t, err)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(ownGatewayPID) {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, []byte(string(filepath.Separator)+filepath.Join("packages", name)+string(filepath.Separator))) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// installPluginPackage installs plugin package name and waits for the
// install task to complete.
func installPluginPackage(t *testing.T, c *edgeclient.ClientWithResponses, name string) {
	t.Helper()
	inst, err := c.InstallPluginWithResponse(t.Context(), edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: name})
	must(t, err)
	wantStatus(t, "installPlugin "+name, inst.StatusCode(), inst.Body, http.StatusOK)
	if task := awaitTask(t, c, inst.JSON200.Id); !succeeded(task) {
		t.Fatalf("install task of %s = %+v", name, task)
	}
	t.Cleanup(func() {
		r, err := c.RemovePackageWithResponse(context.Background(), name)
		if err != nil {
			t.Errorf("clean up package %s: %v", name, err)
			return
		}
		if r.StatusCode() != http.StatusOK && r.StatusCode() != http.StatusNotFound {
			t.Errorf("clean up package %s: status %d; body %s", name, r.StatusCode(), truncate(r.Body))
		}
	})
}

// succeeded reports whether a finished task completed with exit code 0;
// a failed one completes with another code and its reason.
func succeeded(task edgeclient.Task) bool {
	return task.State == edgeclient.TaskStateComplete && task.ExitCode != nil && *task.ExitCode == 0
}

// hasEvent reports whether events hold one of kind for plugin and asset.
func hasEvent(events []edgeclient.TrackingEvent, kind, plugin, asset string) bool {
	return slices.ContainsFunc(events, func(e edgeclient.TrackingEvent) bool {
		return string(e.Event) == kind && e.Plugin == plugin && e.Asset == asset
	})
}

// TestPackageRepository is the package system end to end: a repository
// built by `make packages` from this tree and served over HTTP is
// configured; its packages are listed and installed; a south service runs
// the Go CSV plugin and another the Python waveform plugin, each in its own
// process, with readings, asset tracking and statistics like built-in
// ones; the Go scale filter, also installed, filters one of them; the Go
// plugin's process is killed and its service recovers; a newer build is
// published, PUT /edge/update completes and the service runs the new
// version; a tampered artifact and a wrongly signed index are refused.
func testPackageRepository(t *testing.T) {
	needOwnGateway(t, "builds the repository from the source tree, serves it on the loopback interface and kills plugin processes")
	if runtime.GOOS != "linux" {
		t.Skip("finds the plugin processes through /proc")
	}
	if _, ok := pluginPython(); !ok {
		simtest.Missing(t, "the plugin SDK's Python (pluginsdk/python/.venv)", "run 'make plugin-tools'")
	}
	admin := apiAs(t, adminToken(t))
	ctx := t.Context()
	repo := newBuiltRepo(t)

	// Configure the repository and trust its key; updates are limited per
	// day, so this test allows itself enough.
	setInstallation(t, admin, "trustedKeys", repo.pub)
	before := getItem(t, "Installation", "maxUpdate").Value
	setInstallation(t, admin, "maxUpdate", "1000")
	t.Cleanup(func() {
		_, _ = admin.SetCategoryItemWithResponse(context.Background(), "Installation", "maxUpdate", edgeclient.ConfigValue{Value: before})
		_, _ = admin.SetCategoryItemWithResponse(context.Background(), "Installation", "repositoryURL", edgeclient.ConfigValue{Value: ""})
	})
	set, err := admin.SetRepositoryWithResponse(ctx, edgeclient.RepositoryRequest{Url: repo.url, Version: ptr("latest")})
	must(t, err)
	wantStatus(t, "setRepository", set.StatusCode(), set.Body, http.StatusOK)

	// What it offers: no service packages, every plugin of this tree.
	avail, err := admin.ListAvailablePackagesWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listAvailablePackages", avail.StatusCode(), avail.Body, http.StatusOK)
	if avail.JSON200.Link == "" {
		t.Error("listAvailablePackages gave no link to the repository log")
	}
	plugins, err := admin.ListAvailablePluginsWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listAvailablePlugins", plugins.StatusCode(), plugins.Body, http.StatusOK)
	for _, want := range []string{"csv_south", "file_north", "scale_filter", "waveform"} {
		if !slices.Contains(plugins.JSON200.Plugins, want) {
			t.Fatalf("available plugins = %v, want %s among them", plugins.JSON200.Plugins, want)
		}
	}

	for _, name := range []string{"csv_south", "waveform", "scale_filter"} {
		installPluginPackage(t, admin, name)
	}

	// A south service on the Go plugin and one on the Python plugin.
	csv := filepath.Join(t.TempDir(), "boiler.csv")
	must(t, os.WriteFile(csv, []byte("temperature\n20\n21\n"), 0o644))
	createSouth(t, admin, southDef{name: "repo-csv", plugin: "csv_south", enabled: true,
		config: map[string]string{"file": csv, "asset": "repo-boiler", "rate": "20"}})
	createSouth(t, admin, southDef{name: "repo-wave", plugin: "waveform", enabled: true,
		config: map[string]string{"asset": "repo-wave", "rate": "20", "shape": "square"}})
	for _, s := range []struct{ service, asset, plugin string }{
		{"repo-csv", "repo-boiler", "csv_south"}, {"repo-wave", "repo-wave", "waveform"},
	} {
		eventually(t, time.Minute, "readings, tracking and statistics of "+s.service, func() bool {
			rec := southRecord(t, admin, s.service)
			if rec == nil || len(rec.Assets) != 1 || rec.Assets[0].Asset != s.asset || rec.Assets[0].Count == 0 ||
				rec.Plugin.Version != "1.0.0" {
				return false
			}
			events := trackingEvents(t, admin, edgeclient.ListTrackingEventsParams{Service: ptr(s.service)})
			return hasEvent(events, "Ingest", s.plugin, s.asset) && statistics(t, admin)[s.service+"-Ingest"] > 0
		})
	}

	// The Go scale filter in the CSV service's pipeline.
	createFilter(t, admin, "repo-scale", "scale_filter", map[string]string{"factor": "10"})
	setPipeline(t, admin, "repo-csv", []string{"repo-scale"}, false)
	t.Cleanup(func() {
		_, _ = admin.SetPipelineWithResponse(context.Background(), "repo-csv", &edgeclient.SetPipelineParams{},
			edgeclient.PipelineRequest{Pipeline: []string{}})
	})
	eventually(t, time.Minute, "readings scaled by the installed filter", func() bool {
		for _, r := range readingsOf(t, admin, "repo-boiler") {
			if v, ok := r["temperature"].(float64); ok && (v == 200 || v == 210) {
				events := trackingEvents(t, admin, edgeclient.ListTrackingEventsParams{Service: ptr("repo-csv")})
				return hasEvent(events, "Filter", "scale_filter", "repo-boiler")
			}
		}
		return false
	})

	// Kill the Go plugin's process: the service starts a new one.
	pids := pluginProcesses(t, "csv_south")
	if len(pids) != 1 {
		t.Fatalf("processes of csv_south = %v, want one", pids)
	}
	must(t, syscall.Kill(pids[0], syscall.SIGKILL))
	counted := southRecord(t, admin, "repo-csv").Assets[0].Count
	eventually(t, time.Minute, "the CSV service back with a new plugin process", func() bool {
		now := pluginProcesses(t, "csv_south")
		rec := southRecord(t, admin, "repo-csv")
		return len(now) == 1 && now[0] != pids[0] && rec.Assets[0].Count > counted+5 && unionJSON(t, rec.Status) == `"running"`
	})

	// A newer build published to the repository: the update moves every
	// installed package to it and restarts the services on it.
	repo.makePackages(t, "1.1.0")
	up, err := admin.UpdatePackagesWithResponse(ctx, nil)
	must(t, err)
	wantStatus(t, "updatePackages", up.StatusCode(), up.Body, http.StatusOK)
	if task := awaitTask(t, admin, up.JSON200.Id); !succeeded(task) {
		t.Fatalf("update task = %+v", task)
	}
	for _, svc := range []string{"repo-csv", "repo-wave"} {
		eventually(t, time.Minute, svc+" running version 1.1.0", func() bool {
			rec := southRecord(t, admin, svc)
			return rec != nil && rec.Plugin.Version == "1.1.0" && unionJSON(t, rec.Status) == `"running"`
		})
	}
	list, err := admin.ListPackagesWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listPackages", list.StatusCode(), list.Body, http.StatusOK)
	for _, p := range list.JSON200.Packages {
		if p.Version != "1.1.0" {
			t.Errorf("installed package %s at %s after the update, want 1.1.0", p.Name, p.Version)
		}
	}
	counted = southRecord(t, admin, "repo-csv").Assets[0].Count
	eventually(t, time.Minute, "readings of the updated plugin, still filtered", func() bool {
		return southRecord(t, admin, "repo-csv").Assets[0].Count > counted+5
	})

	// A tampered artifact: the install fails, nothing is installed, and
	// the audit log says so.
	failures := pkgAuditCount(t, admin, "PKGIN")
	art := repo.artifact(t, "file_north", "1.1.0")
	data, err := os.ReadFile(art)
	must(t, err)
	data[len(data)/2] ^= 0xff
	must(t, os.WriteFile(art, data, 0o600))
	inst, err := admin.InstallPluginWithResponse(ctx, edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: "file_north"})
	must(t, err)
	wantStatus(t, "installPlugin of a tampered artifact", inst.StatusCode(), inst.Body, http.StatusOK)
	task := awaitTask(t, admin, inst.JSON200.Id)
	if succeeded(task) || !strings.Contains(task.Reason, "does not match") {
		t.Errorf("install task of a tampered artifact = %+v, want it failed saying it does not match", task)
	}
	if n := pkgAuditCount(t, admin, "PKGIN"); n != failures+1 {
		t.Errorf("PKGIN entries = %d after a refused install, want %d (its FAILURE)", n, failures+1)
	}
	list, err = admin.ListPackagesWithResponse(ctx)
	must(t, err)
	if slices.ContainsFunc(list.JSON200.Packages, func(p edgeclient.InstalledPackage) bool { return p.Name == "file_north" }) {
		t.Error("the tampered package is listed as installed")
	}

	// An index signed by another key: refused, listing and installing.
	_, other, err := ed25519.GenerateKey(nil)
	must(t, err)
	index, err := os.ReadFile(filepath.Join(repo.dir, pkgrepo.IndexFile))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(repo.dir, pkgrepo.SignatureFile), pkgrepo.Sign(other, index), 0o600))
	plugins, err = admin.ListAvailablePluginsWithResponse(ctx)
	must(t, err)
	if msg := checkError(t, plugins.StatusCode(), plugins.Body, http.StatusBadGateway); !strings.Contains(msg, "trusted") {
		t.Errorf("message %q does not say the index is not signed by a trusted key", msg)
	}
	inst, err = admin.InstallPluginWithResponse(ctx, edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: "file_north"})
	must(t, err)
	checkError(t, inst.StatusCode(), inst.Body, http.StatusBadGateway)
	up, err = admin.UpdatePackagesWithResponse(ctx, nil)
	must(t, err)
	if up.StatusCode() == http.StatusOK {
		if task := awaitTask(t, admin, up.JSON200.Id); succeeded(task) {
			t.Errorf("update from a wrongly signed index = %+v, want it failed", task)
		}
	} else {
		checkError(t, up.StatusCode(), up.Body, http.StatusBadGateway)
	}
	for _, svc := range []string{"repo-csv", "repo-wave"} {
		if rec := southRecord(t, admin, svc); rec.Plugin.Version != "1.1.0" {
			t.Errorf("%s runs %s after a refused update, want 1.1.0", svc, rec.Plugin.Version)
		}
	}
}
