package conformance

import (
	"crypto/ed25519"
	"encoding/base64"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/plugin/external"
)

// The package repository the tests publish to is built here, with the
// project's own packaging code, and served from a temp directory on the
// loopback interface: the gateway under test must reach 127.0.0.1.

// testRepo is a repository directory, its signing key and its URL.
type testRepo struct {
	dir  string
	key  ed25519.PrivateKey
	pub  string // base64
	url  string
	bins string
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &testRepo{dir: t.TempDir(), key: priv, pub: base64.StdEncoding.EncodeToString(pub), bins: t.TempDir()}
	srv := httptest.NewServer(http.FileServer(http.Dir(r.dir)))
	t.Cleanup(srv.Close)
	r.url = srv.URL
	return r
}

// publish builds the Go SDK's example dir (plugin name) at version and
// publishes it as a plugin package of kind.
func (r *testRepo) publish(t *testing.T, dir, name, kind, version string) {
	t.Helper()
	bin, err := external.BuildExample(t.Context(), "..", dir, version, r.bins)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.ReadFile(bin)
	must(t, err)
	archive, err := pkgrepo.Pack([]pkgrepo.File{{Name: "plugin", Data: exe, Exec: true}})
	must(t, err)
	must(t, pkgrepo.Publish(r.dir, r.key, pkgrepo.Package{Name: name, Version: version, Type: pkgrepo.TypePlugin,
		Kind: kind, Description: "An example plugin"}, map[string][]byte{runtime.GOOS + "/" + runtime.GOARCH: archive}))
}

func setInstallation(t *testing.T, c *edgeclient.ClientWithResponses, item, value string) {
	t.Helper()
	resp, err := c.SetCategoryItemWithResponse(t.Context(), "Installation", item, edgeclient.ConfigValue{Value: value})
	must(t, err)
	wantStatus(t, "setCategoryItem Installation."+item, resp.StatusCode(), resp.Body, http.StatusOK)
}

// awaitTask polls the task id until it ends and returns it.
func awaitTask(t *testing.T, c *edgeclient.ClientWithResponses, id edgeclient.TaskId) edgeclient.Task {
	t.Helper()
	var task edgeclient.Task
	eventually(t, 2*time.Minute, "the end of task "+id.String(), func() bool {
		resp, err := c.GetTaskWithResponse(t.Context(), id)
		must(t, err)
		wantStatus(t, "getTask", resp.StatusCode(), resp.Body, http.StatusOK)
		task = *resp.JSON200
		return task.State != "Running"
	})
	return task
}

func pkgAuditCount(t *testing.T, c *edgeclient.ClientWithResponses, source string) int {
	t.Helper()
	src := edgeclient.AuditSource(source)
	resp, err := c.ListAuditEntriesWithResponse(t.Context(), &edgeclient.ListAuditEntriesParams{Source: &src})
	must(t, err)
	wantStatus(t, "listAuditEntries", resp.StatusCode(), resp.Body, http.StatusOK)
	return resp.JSON200.TotalCount
}

// closedURL returns an http URL on the loopback interface where nothing
// listens.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := l.Addr().String()
	must(t, l.Close())
	return "http://" + addr + "/repo"
}

// TestPackages configures a repository, lists, installs, runs, updates and
// removes a plugin package, with every documented error on the way. It
// builds the example plugins from the source tree and serves the
// repository, and the CSV file the plugin reads, from this host, so it
// needs the gateway the suite started.
func testPackages(t *testing.T) {
	needOwnGateway(t, "builds plugins from the source tree and serves their repository on the loopback interface")
	adminTok := adminToken(t)
	admin := apiAs(t, adminTok)
	asAdmin := map[string]string{"authorization": adminTok}
	ctx := t.Context()

	// No repository configured: 400 saying how to configure one.
	setInstallation(t, admin, "repositoryURL", "")
	avail, err := admin.ListAvailablePackagesWithResponse(ctx)
	must(t, err)
	if msg := checkError(t, avail.StatusCode(), avail.Body, http.StatusBadRequest); !strings.Contains(msg, "/edge/repository") {
		t.Errorf("message %q does not say how to configure a repository", msg)
	}
	upd, err := admin.UpdatePackagesWithResponse(ctx, nil)
	must(t, err)
	checkError(t, upd.StatusCode(), upd.Body, http.StatusBadRequest)

	// Bad repository requests.
	for _, tc := range []struct{ name, body string }{
		{"ftp URL", `{"url":"ftp://example.org/repo"}`},
		{"no URL", `{"version":"latest"}`},
		{"URL with a password", `{"url":"https://u:p@example.org/repo"}`},
		{"not JSON", `{"url":`},
	} {
		t.Run("setRepository "+tc.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/repository", body: strings.NewReader(tc.body), ctype: "application/json", headers: asAdmin})
			checkError(t, r.status, r.body, http.StatusBadRequest)
		})
	}

	// A repository nobody answers at: 502.
	repo := newTestRepo(t)
	set, err := admin.SetRepositoryWithResponse(ctx, edgeclient.RepositoryRequest{Url: closedURL(t)})
	must(t, err)
	wantStatus(t, "setRepository", set.StatusCode(), set.Body, http.StatusOK)
	setInstallation(t, admin, "trustedKeys", repo.pub)
	avail, err = admin.ListAvailablePackagesWithResponse(ctx)
	must(t, err)
	checkError(t, avail.StatusCode(), avail.Body, http.StatusBadGateway)

	repo.publish(t, "csvsouth", "csv_south", "south", "1.0.0")
	repo.publish(t, "filenorth", "file_north", "north", "1.0.0")
	set, err = admin.SetRepositoryWithResponse(ctx, edgeclient.RepositoryRequest{Url: repo.url, Version: ptr("latest")})
	must(t, err)
	wantStatus(t, "setRepository", set.StatusCode(), set.Body, http.StatusOK)

	// An index signed by a key the gateway does not trust: 502.
	other, _, _ := ed25519.GenerateKey(nil)
	setInstallation(t, admin, "trustedKeys", base64.StdEncoding.EncodeToString(other))
	plugins, err := admin.ListAvailablePluginsWithResponse(ctx)
	must(t, err)
	if msg := checkError(t, plugins.StatusCode(), plugins.Body, http.StatusBadGateway); !strings.Contains(msg, "trusted") {
		t.Errorf("message %q does not say the signature is not trusted", msg)
	}
	setInstallation(t, admin, "trustedKeys", repo.pub)

	plugins, err = admin.ListAvailablePluginsWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listAvailablePlugins", plugins.StatusCode(), plugins.Body, http.StatusOK)
	if !slices.Contains(plugins.JSON200.Plugins, "csv_south") {
		t.Fatalf("available plugins = %v", plugins.JSON200.Plugins)
	}
	logResp, err := admin.GetPackageLogWithResponse(ctx, plugins.JSON200.Link)
	must(t, err)
	wantStatus(t, "getPackageLog", logResp.StatusCode(), logResp.Body, http.StatusOK)
	if !slices.ContainsFunc(logResp.JSON200.Lines, func(l string) bool { return strings.Contains(l, "index verified") }) {
		t.Errorf("repository log = %q", logResp.Body)
	}
	logResp, err = admin.GetPackageLogWithResponse(ctx, "nothing.log")
	must(t, err)
	checkError(t, logResp.StatusCode(), logResp.Body, http.StatusNotFound)
	avail, err = admin.ListAvailablePackagesWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listAvailablePackages", avail.StatusCode(), avail.Body, http.StatusOK)
	if len(avail.JSON200.Services) != 0 || avail.JSON200.Link == "" {
		t.Errorf("available service packages = %+v (the repository has plugin packages only)", avail.JSON200)
	}

	// Install errors.
	for _, tc := range []struct {
		name, path, body string
		status           int
	}{
		{"unknown plugin package", "/edge/plugin", `{"format":"repository","name":"teapot"}`, http.StatusNotFound},
		{"unknown version", "/edge/plugin", `{"format":"repository","name":"csv_south","version":"9.9.9"}`, http.StatusNotFound},
		{"plugin package as a service", "/edge/service?action=install", `{"format":"repository","name":"csv_south"}`, http.StatusNotFound},
		{"other format", "/edge/plugin", `{"format":"file","name":"csv_south"}`, http.StatusBadRequest},
		{"no name", "/edge/plugin", `{"format":"repository"}`, http.StatusBadRequest},
		{"built-in plugin", "/edge/plugin", `{"format":"repository","name":"sinusoid"}`, http.StatusConflict},
	} {
		t.Run("install "+tc.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodPost, path: tc.path, body: strings.NewReader(tc.body), ctype: "application/json", headers: asAdmin})
			checkError(t, r.status, r.body, tc.status)
		})
	}

	installs := pkgAuditCount(t, admin, "PKGIN")
	inst, err := admin.InstallPluginWithResponse(ctx, edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: "csv_south"})
	must(t, err)
	wantStatus(t, "installPlugin", inst.StatusCode(), inst.Body, http.StatusOK)
	if inst.JSON200.Link == nil || *inst.JSON200.Link != "/edge/task/"+inst.JSON200.Id.String() {
		t.Errorf("install answer = %+v", inst.JSON200)
	}
	if task := awaitTask(t, admin, inst.JSON200.Id); task.ExitCode == nil || *task.ExitCode != 0 {
		t.Fatalf("install task = %+v", task)
	}
	if n := pkgAuditCount(t, admin, "PKGIN"); n != installs+1 {
		t.Errorf("PKGIN entries = %d, want %d", n, installs+1)
	}
	again, err := admin.InstallPluginWithResponse(ctx, edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: "csv_south"})
	must(t, err)
	checkError(t, again.StatusCode(), again.Body, http.StatusConflict)
	list, err := admin.ListPackagesWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listPackages", list.StatusCode(), list.Body, http.StatusOK)
	if i := slices.IndexFunc(list.JSON200.Packages, func(p edgeclient.InstalledPackage) bool { return p.Name == "csv_south" }); i < 0 ||
		list.JSON200.Packages[i].Version != "1.0.0" || list.JSON200.Packages[i].Type != "plugin" {
		t.Errorf("installed packages = %+v", list.JSON200.Packages)
	}

	// The catalogue lists the installed plugin with the items its
	// services get.
	if p := cataloguePlugin(listPlugins(t, admin, &edgeclient.ListInstalledPluginsParams{Config: ptr(true)}), "csv_south"); p == nil {
		t.Error("the installed plugin csv_south is not in the catalogue")
	} else {
		if p.Origin != edgeclient.PluginOriginPackage || p.Type != edgeclient.PluginTypeSouth || p.Version != "1.0.0" {
			t.Errorf("catalogue entry of csv_south = %+v", p)
		}
		probe := unique("pkg-csv-form")
		createSouth(t, admin, southDef{name: probe, plugin: "csv_south"})
		sameItems(t, "csv_south", p.Config, getCategory(t, probe))
		del, err := admin.DeleteServiceWithResponse(ctx, probe)
		must(t, err)
		wantStatus(t, "deleteService "+probe, del.StatusCode(), del.Body, http.StatusOK)
	}

	// A south service runs the installed plugin like a built-in one.
	csv := filepath.Join(t.TempDir(), "data.csv")
	must(t, os.WriteFile(csv, []byte("temperature\n20\n21\n"), 0o644))
	createSouth(t, admin, southDef{name: "pkg-csv", plugin: "csv_south", enabled: true,
		config: map[string]string{"file": csv, "asset": "pkg-boiler", "rate": "50"}})
	eventually(t, time.Minute, "readings of the packaged plugin", func() bool {
		s := southRecord(t, admin, "pkg-csv")
		return s != nil && len(s.Assets) == 1 && s.Assets[0].Asset == "pkg-boiler" && s.Assets[0].Count > 0
	})
	rm, err := admin.RemovePackageWithResponse(ctx, "csv_south")
	must(t, err)
	if msg := checkError(t, rm.StatusCode(), rm.Body, http.StatusConflict); !strings.Contains(msg, `"pkg-csv"`) {
		t.Errorf("message %q does not name the service using the package", msg)
	}

	// A north service sends through an installed north plugin.
	inst, err = admin.InstallPluginWithResponse(ctx, edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: "file_north"})
	must(t, err)
	wantStatus(t, "installPlugin file_north", inst.StatusCode(), inst.Body, http.StatusOK)
	if task := awaitTask(t, admin, inst.JSON200.Id); task.ExitCode == nil || *task.ExitCode != 0 {
		t.Fatalf("install task = %+v", task)
	}
	out := filepath.Join(t.TempDir(), "north.jsonl")
	var body edgeclient.ServiceRequest
	must(t, body.FromServiceCreateRequest(edgeclient.ServiceCreateRequest{Name: "pkg-file", Type: "north", Plugin: ptr("file_north"),
		Enabled: true, Config: northConfig(map[string]string{"file": out})}))
	created, err := admin.CreateServiceWithResponse(ctx, nil, body)
	must(t, err)
	wantStatus(t, "createService pkg-file", created.StatusCode(), created.Body, http.StatusOK)
	eventually(t, time.Minute, "readings sent through the packaged north plugin", func() bool {
		b, err := os.ReadFile(out)
		return err == nil && strings.Contains(string(b), `"asset":"pkg-boiler"`)
	})
	// A north task of the plugin, disabled so it never runs, keeps the
	// package too: both users are named.
	task := unique("pkg-file-task")
	body2 := taskBody(t, task, "file_north", 3600, map[string]string{"file": out})
	body2.Enabled = false
	tr, err := admin.CreateNorthTaskWithResponse(ctx, body2)
	must(t, err)
	wantStatus(t, "createNorthTask "+task, tr.StatusCode(), tr.Body, http.StatusOK)
	rm, err = admin.RemovePackageWithResponse(ctx, "file_north")
	must(t, err)
	if msg := checkError(t, rm.StatusCode(), rm.Body, http.StatusConflict); !strings.Contains(msg, `"pkg-file"`) || !strings.Contains(msg, `"`+task+`"`) {
		t.Errorf("message %q does not name both the service and the north task using the package", msg)
	}
	del, err := admin.DeleteServiceWithResponse(ctx, "pkg-file")
	must(t, err)
	wantStatus(t, "deleteService pkg-file", del.StatusCode(), del.Body, http.StatusOK)
	rm, err = admin.RemovePackageWithResponse(ctx, "file_north")
	must(t, err)
	if msg := checkError(t, rm.StatusCode(), rm.Body, http.StatusConflict); !strings.Contains(msg, `north task "`+task+`"`) {
		t.Errorf("message %q does not name the north task using the package", msg)
	}
	del, err = admin.DeleteServiceWithResponse(ctx, task)
	must(t, err)
	wantStatus(t, "deleteService "+task, del.StatusCode(), del.Body, http.StatusOK)
	rm, err = admin.RemovePackageWithResponse(ctx, "file_north")
	must(t, err)
	wantStatus(t, "removePackage file_north", rm.StatusCode(), rm.Body, http.StatusOK)

	// An update moves the package to the new version and restarts the
	// service on it.
	repo.publish(t, "csvsouth", "csv_south", "south", "1.1.0")
	up, err := admin.UpdatePackagesWithResponse(ctx, nil)
	must(t, err)
	wantStatus(t, "updatePackages", up.StatusCode(), up.Body, http.StatusOK)
	if task := awaitTask(t, admin, up.JSON200.Id); task.ExitCode == nil || *task.ExitCode != 0 {
		t.Fatalf("update task = %+v", task)
	}
	eventually(t, time.Minute, "the service running version 1.1.0", func() bool {
		s := southRecord(t, admin, "pkg-csv")
		return s != nil && s.Plugin.Version == "1.1.0" && unionJSON(t, s.Status) == `"running"`
	})
	if pkgAuditCount(t, admin, "PKGUP") == 0 || pkgAuditCount(t, admin, "UPEXC") == 0 {
		t.Error("no PKGUP or UPEXC entry after the update")
	}
	up, err = admin.UpdatePackagesWithResponse(ctx, nil)
	must(t, err)
	checkError(t, up.StatusCode(), up.Body, http.StatusTooManyRequests)

	del, err = admin.DeleteServiceWithResponse(ctx, "pkg-csv")
	must(t, err)
	wantStatus(t, "deleteService", del.StatusCode(), del.Body, http.StatusOK)
	rm, err = admin.RemovePackageWithResponse(ctx, "csv_south")
	must(t, err)
	wantStatus(t, "removePackage", rm.StatusCode(), rm.Body, http.StatusOK)
	if pkgAuditCount(t, admin, "PKGRM") == 0 {
		t.Error("no PKGRM entry after the removal")
	}
	rm, err = admin.RemovePackageWithResponse(ctx, "csv_south")
	must(t, err)
	checkError(t, rm.StatusCode(), rm.Body, http.StatusNotFound)
	if p := cataloguePlugin(listPlugins(t, admin, nil), "csv_south"); p != nil {
		t.Errorf("the removed plugin csv_south is still in the catalogue: %+v", p)
	}
}
