package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/clients/go/v2/edgeclient"
	"github.com/edged/edged/internal/simtest"
	"github.com/edged/edged/pkg/pkgindex"
)

// walkthroughDoc is the page whose commands TestPluginWalkthrough runs.
const walkthroughDoc = "../docs/plugins.md"

// walkthroughRepoAddr is the repository's address the page uses; the
// test serves the repository on a free port in its place.
const walkthroughRepoAddr = "127.0.0.1:8700"

// taskLink finds the id of a task in an answer that links to it.
var taskLink = regexp.MustCompile(`"id":"([0-9a-f-]{36})"[^}]*"link":"/edge/task/`)

// walkthroughMarker precedes each fenced block of the walkthrough and
// names its phase.
var walkthroughMarker = regexp.MustCompile(`^<!-- walkthrough: ([a-z]+) -->$`)

// walkthroughPhases returns the shell commands of each phase of the page's
// walkthrough, the blocks of a phase joined in the page's order: what a
// `<!-- walkthrough: PHASE -->` line, then a ```sh block, hold.
func walkthroughPhases(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(walkthroughDoc)
	must(t, err)
	defer func() { _ = f.Close() }()
	phases := map[string]string{}
	phase, inBlock := "", false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case inBlock && line == "```":
			inBlock, phase = false, ""
		case inBlock:
			phases[phase] += line + "\n"
		case phase != "" && line == "```sh":
			inBlock = true
		case phase != "" && strings.TrimSpace(line) != "":
			t.Fatalf("%s: the walkthrough marker of phase %s is not followed by a ```sh block but by %q", walkthroughDoc, phase, line)
		default:
			if m := walkthroughMarker.FindStringSubmatch(line); m != nil {
				phase = m[1]
			}
		}
	}
	must(t, sc.Err())
	return phases
}

// testPluginWalkthrough runs docs/plugins.md's "From nothing to a running
// service" as an author would, every command as the page writes it, on
// plugins it creates outside the source tree: edgepkg init makes a Go and a
// Python south plugin whose tests pass; they are built, published into a
// signed repository that edgepkg serve serves, installed through the API,
// and run as services with readings, asset tracking and statistics; a new
// version is built, published and installed by PUT /edge/update, and the
// services run it.
func testPluginWalkthrough(t *testing.T) {
	needOwnGateway(t, "installs packages and trusts a key of its own")
	py, ok := pluginPython()
	if !ok {
		simtest.Missing(t, "the plugin SDK's Python (pluginsdk/python/.venv)", "run 'make plugin-tools'")
	}
	for _, tool := range []string{"bash", "curl", "tar", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			simtest.Missing(t, tool, "install it")
		}
	}
	phases := walkthroughPhases(t)
	for _, p := range []string{"author", "install", "services", "update"} {
		if phases[p] == "" {
			t.Fatalf("%s has no walkthrough phase %q", walkthroughDoc, p)
		}
	}
	admin := apiAs(t, adminToken(t))
	ctx := t.Context()

	// What the page assumes: edgepkg on the PATH, the plugin SDKs of a
	// release in $SDK, the gateway in $E and an admin's header in $A.
	bin, sdk, work := t.TempDir(), t.TempDir(), t.TempDir()
	build := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(bin, "edgepkg"), "../cmd/edgepkg")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build edgepkg: %v\n%s", err, out)
	}
	dist := exec.CommandContext(ctx, "../scripts/plugin-sdk-dist.sh", sdk, "1.0.0", py)
	if out, err := dist.CombinedOutput(); err != nil {
		t.Fatalf("scripts/plugin-sdk-dist.sh: %v\n%s", err, out)
	}
	port, err := freePort()
	must(t, err)
	var env []string
	for _, kv := range os.Environ() {
		// The author's shell, not the gateway's or the suite's: the
		// plugin's own virtual environment is the Python it builds with.
		if name, _, _ := strings.Cut(kv, "="); name != "EDGED_PLUGIN_PYTHON" && name != "PYTHONPATH" && name != "GOWORK" {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "SDK="+sdk, "E="+baseURL,
		"A=authorization: "+adminToken(t), "CGO_ENABLED=0")

	// The gateway under test has run other updates today: this test
	// allows itself one more. The rest it puts back as it found it.
	for _, item := range []string{"maxUpdate", "trustedKeys", "repositoryURL", "repositoryVersion"} {
		before := getItem(t, "Installation", item).Value
		t.Cleanup(func() {
			_, _ = admin.SetCategoryItemWithResponse(context.Background(), "Installation", item, edgeclient.ConfigValue{Value: before})
		})
	}
	setInstallation(t, admin, "maxUpdate", "1000")
	for _, name := range []string{"counter", "pycounter"} {
		t.Cleanup(func() { _, _ = admin.RemovePackageWithResponse(context.Background(), name) })
	}
	var groups []int
	t.Cleanup(func() {
		for _, g := range groups {
			_ = syscall.Kill(-g, syscall.SIGTERM) // edgepkg serve, started in the background
		}
	})
	// runPhase runs a phase's commands and returns the ids of the tasks
	// they started, from the answers they printed, as an author reads them.
	runPhase := func(name string) []edgeclient.TaskId {
		t.Helper()
		script := strings.ReplaceAll(phases[name], walkthroughRepoAddr, "127.0.0.1:"+strconv.Itoa(port))
		cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
		cmd.Dir, cmd.Env = work, env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Start()
		if err == nil {
			groups = append(groups, cmd.Process.Pid)
			err = cmd.Wait()
		}
		t.Logf("walkthrough phase %s:\n%s\n%s", name, script, out.String())
		if err != nil {
			t.Fatalf("walkthrough phase %s: %v\n%s", name, err, out.String())
		}
		var ids []edgeclient.TaskId
		for _, m := range taskLink.FindAllStringSubmatch(out.String(), -1) {
			id, err := uuid.Parse(m[1])
			must(t, err)
			ids = append(ids, id)
		}
		return ids
	}
	awaitTasks := func(what string, want int, ids []edgeclient.TaskId) {
		t.Helper()
		if len(ids) != want {
			t.Fatalf("%s started %d tasks, want %d", what, len(ids), want)
		}
		for _, id := range ids {
			if task := awaitTask(t, admin, id); !succeeded(task) {
				t.Fatalf("%s: task %+v", what, task)
			}
		}
	}
	installed := func(version string) func() bool {
		return func() bool {
			list, err := admin.ListPackagesWithResponse(ctx)
			if err != nil || list.JSON200 == nil {
				return false
			}
			var have []string
			for _, p := range list.JSON200.Packages {
				if p.Version == version {
					have = append(have, p.Name)
				}
			}
			return slices.Contains(have, "counter") && slices.Contains(have, "pycounter")
		}
	}

	if ids := runPhase("author"); len(ids) != 0 {
		t.Fatalf("the author's phase started tasks %v", ids)
	}
	indexVersion(t, work, 1)
	awaitTasks("the install", 2, runPhase("install"))
	if !installed("1.0.0")() {
		t.Fatal("counter and pycounter 1.0.0 are not both installed")
	}

	services := []struct{ service, plugin string }{{"count-go", "counter"}, {"count-py", "pycounter"}}
	for _, s := range services {
		t.Cleanup(func() {
			if r, err := admin.DeleteServiceWithResponse(context.Background(), s.service); err != nil ||
				(r.StatusCode() != http.StatusOK && r.StatusCode() != http.StatusNotFound) {
				t.Errorf("clean up service %s: %v", s.service, err)
			}
		})
	}
	// The services are made from the catalogue's schema: it lists each
	// installed plugin with the item the page sets, and each service's
	// category then has exactly the catalogue's items, interval set.
	catalogue := listPlugins(t, admin, &edgeclient.ListInstalledPluginsParams{Type: ptr(edgeclient.PluginTypeSouth), Config: ptr(true)})
	for _, s := range services {
		p := cataloguePlugin(catalogue, s.plugin)
		if p == nil || p.Origin != edgeclient.PluginOriginPackage || p.Version != "1.0.0" || p.Config == nil {
			t.Fatalf("the catalogue lists %s as %+v; want an installed package plugin 1.0.0 with its items", s.plugin, p)
		}
		if _, ok := (*p.Config)["interval"]; !ok {
			t.Fatalf("the catalogue's items of %s have no interval, the item the page sets", s.plugin)
		}
	}
	if ids := runPhase("services"); len(ids) != 0 {
		t.Fatalf("creating services started tasks %v", ids)
	}
	for _, s := range services {
		sameSchema(t, s.service, cataloguePlugin(catalogue, s.plugin).Config, getCategory(t, s.service))
		if v := getCategory(t, s.service)["interval"].Value; v != "0.2" {
			t.Errorf("%s's interval = %q, want the page's 0.2", s.service, v)
		}
	}
	for _, s := range services {
		// The plugin's asset code defaults to its name.
		eventually(t, time.Minute, "readings, tracking and statistics of "+s.service, func() bool {
			rec := southRecord(t, admin, s.service)
			if rec == nil || len(rec.Assets) != 1 || rec.Assets[0].Asset != s.plugin || rec.Assets[0].Count < 2 ||
				rec.Plugin.Version != "1.0.0" {
				return false
			}
			events := trackingEvents(t, admin, edgeclient.ListTrackingEventsParams{Service: ptr(s.service)})
			return hasEvent(events, "Ingest", s.plugin, s.plugin) && statistics(t, admin)[s.service+"-Ingest"] > 0 &&
				countsUp(readingsOf(t, admin, s.plugin))
		})
	}

	awaitTasks("the update", 1, runPhase("update"))
	indexVersion(t, work, 2)
	if !installed("1.1.0")() {
		t.Fatal("counter and pycounter 1.1.0 are not both installed after the update")
	}
	for _, s := range services {
		eventually(t, time.Minute, s.service+" running version 1.1.0", func() bool {
			rec := southRecord(t, admin, s.service)
			return rec != nil && rec.Plugin.Version == "1.1.0" && unionJSON(t, rec.Status) == `"running"`
		})
		counted := southRecord(t, admin, s.service).Assets[0].Count
		eventually(t, time.Minute, "readings of "+s.service+" at version 1.1.0", func() bool {
			return southRecord(t, admin, s.service).Assets[0].Count > counted+2
		})
	}
}

// countsUp tells whether readings, oldest first, hold the scaffolded
// counter's readings: a "count" that grows.
func countsUp(readings []map[string]any) bool {
	var counts []float64
	for _, r := range readings {
		if c, ok := r["count"].(float64); ok {
			counts = append(counts, c)
		}
	}
	if len(counts) < 2 {
		return false
	}
	return slices.IsSorted(counts) && counts[0] < counts[len(counts)-1]
}

// indexVersion checks the walkthrough's repository in work: its index at
// version want (one publication, one version), expiring 30 days on.
func indexVersion(t *testing.T, work string, want int64) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(work, "repo", pkgindex.IndexFile))
	must(t, err)
	var ix pkgindex.Index
	must(t, json.Unmarshal(b, &ix))
	if d := time.Until(ix.Expires); ix.Version != want || d < pkgindex.DefaultValidity-time.Hour || d > pkgindex.DefaultValidity {
		t.Errorf("the repository's index: version %d, expiring in %v; want version %d, expiring in %v", ix.Version, d, want, pkgindex.DefaultValidity)
	}
}

// sameSchema fails the test unless the category got has exactly the
// items of the catalogue's schema, each with the same attributes; values
// may differ (a create sets some).
func sameSchema(t testing.TB, what string, schema *edgeclient.Category, got edgeclient.Category) {
	t.Helper()
	attributes := func(c edgeclient.Category) map[string]map[string]any {
		b, err := json.Marshal(c)
		must(t, err)
		var m map[string]map[string]any
		must(t, json.Unmarshal(b, &m))
		for _, item := range m {
			delete(item, "value")
		}
		return m
	}
	if schema == nil {
		t.Fatalf("%s: the catalogue has no items", what)
	}
	if want, have := attributes(*schema), attributes(got); !reflect.DeepEqual(want, have) {
		t.Errorf("%s: the category's items differ from the catalogue's schema:\ncatalogue %v\ncategory  %v", what, want, have)
	}
}
