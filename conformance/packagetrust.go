package conformance

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
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
	"github.com/edged/edged/internal/plugin/external"
)

// saveIndex returns a function serving r's signed index as it is now
// again: a validly signed, older index.
func (r *testRepo) saveIndex(t *testing.T) (restore func()) {
	t.Helper()
	index, err := os.ReadFile(filepath.Join(r.dir, pkgrepo.IndexFile))
	must(t, err)
	sig, err := os.ReadFile(filepath.Join(r.dir, pkgrepo.SignatureFile))
	must(t, err)
	return func() {
		must(t, os.WriteFile(filepath.Join(r.dir, pkgrepo.IndexFile), index, 0o600))
		must(t, os.WriteFile(filepath.Join(r.dir, pkgrepo.SignatureFile), sig, 0o600))
	}
}

// expire signs r's index again, one version higher, expired a minute ago.
func (r *testRepo) expire(t *testing.T) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, pkgrepo.IndexFile))
	must(t, err)
	var ix pkgrepo.Index
	must(t, json.Unmarshal(b, &ix))
	ix.Expires = time.Now().Add(-time.Minute)
	must(t, pkgrepo.WriteIndex(r.dir, r.key, ix))
}

// countAudit counts the audit entries of source that match.
func countAudit(t *testing.T, c *edgeclient.ClientWithResponses, source string, match func(edgeclient.AuditEntry) bool) int {
	t.Helper()
	n := 0
	for _, e := range auditEntries(t, c, source) {
		if match(e) {
			n++
		}
	}
	return n
}

// detail returns details[key] of e as a string, "" when it is none.
func detail(e edgeclient.AuditEntry, key string) string {
	s, _ := e.Details[key].(string)
	return s
}

// auditEntries returns the audit entries of source.
func auditEntries(t *testing.T, c *edgeclient.ClientWithResponses, source string) []edgeclient.AuditEntry {
	t.Helper()
	src := edgeclient.AuditSource(source)
	limit := edgeclient.Limit(1000)
	resp, err := c.ListAuditEntriesWithResponse(t.Context(), &edgeclient.ListAuditEntriesParams{Source: &src, Limit: &limit})
	must(t, err)
	wantStatus(t, "listAuditEntries", resp.StatusCode(), resp.Body, http.StatusOK)
	return resp.JSON200.Audit
}

// useTestRepo configures r as the gateway's repository, trusted, with
// updates unlimited for the test; all restored at its end.
func useTestRepo(t *testing.T, admin *edgeclient.ClientWithResponses, r *testRepo) {
	t.Helper()
	setInstallation(t, admin, "trustedKeys", r.pub)
	before := getItem(t, "Installation", "maxUpdate").Value
	setInstallation(t, admin, "maxUpdate", "1000")
	t.Cleanup(func() {
		_, _ = admin.SetCategoryItemWithResponse(context.Background(), "Installation", "maxUpdate", edgeclient.ConfigValue{Value: before})
		_, _ = admin.SetCategoryItemWithResponse(context.Background(), "Installation", "repositoryURL", edgeclient.ConfigValue{Value: ""})
		_, _ = admin.SetCategoryItemWithResponse(context.Background(), "Installation", "repositoryVersion", edgeclient.ConfigValue{Value: "latest"})
	})
	set, err := admin.SetRepositoryWithResponse(t.Context(), edgeclient.RepositoryRequest{Url: r.url, Version: ptr("latest")})
	must(t, err)
	wantStatus(t, "setRepository", set.StatusCode(), set.Body, http.StatusOK)
}

// updateAndWait runs PUT /edge/update (allowDowngrade when allow) and
// waits for its task to succeed.
func updateAndWait(t *testing.T, c *edgeclient.ClientWithResponses, allow *bool) {
	t.Helper()
	up, err := c.UpdatePackagesWithResponse(t.Context(), &edgeclient.UpdatePackagesParams{AllowDowngrade: allow})
	must(t, err)
	wantStatus(t, "updatePackages", up.StatusCode(), up.Body, http.StatusOK)
	if task := awaitTask(t, c, up.JSON200.Id); !succeeded(task) {
		t.Fatalf("update task = %+v", task)
	}
}

// installedVersion returns the version of installed package name, "" when
// it is not installed.
func installedVersion(t *testing.T, c *edgeclient.ClientWithResponses, name string) string {
	t.Helper()
	list, err := c.ListPackagesWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listPackages", list.StatusCode(), list.Body, http.StatusOK)
	for _, p := range list.JSON200.Packages {
		if p.Name == name {
			return p.Version
		}
	}
	return ""
}

// testPackageTrust: an index older than one accepted before (a rollback)
// and an expired one are refused with 502 naming the reason and audited;
// a repository failure names only its category; neither an install nor an
// update moves a package down, unless a pinned release and allowDowngrade
// ask for it, audited as a downgrade; a plugin executable swapped after its install is
// refused at its next start, the service failed saying why.
func testPackageTrust(t *testing.T) {
	needOwnGateway(t, "builds plugins from the source tree, serves their repository on the loopback interface and swaps an installed executable")
	if runtime.GOOS != "linux" {
		t.Skip("finds the plugin processes through /proc")
	}
	admin := apiAs(t, adminToken(t))
	ctx := t.Context()
	repo := newTestRepo(t)

	// Repository failures: the category, never the dial error.
	setInstallation(t, admin, "trustedKeys", repo.pub)
	set, err := admin.SetRepositoryWithResponse(ctx, edgeclient.RepositoryRequest{Url: closedURL(t)})
	must(t, err)
	wantStatus(t, "setRepository", set.StatusCode(), set.Body, http.StatusOK)
	avail, err := admin.ListAvailablePluginsWithResponse(ctx)
	must(t, err)
	if msg := checkError(t, avail.StatusCode(), avail.Body, http.StatusBadGateway); msg != "the package repository is unreachable" {
		t.Errorf("message %q, want only the category", msg)
	}
	set, err = admin.SetRepositoryWithResponse(ctx, edgeclient.RepositoryRequest{Url: repo.url + "/nothing-here"})
	must(t, err)
	wantStatus(t, "setRepository", set.StatusCode(), set.Body, http.StatusOK)
	avail, err = admin.ListAvailablePluginsWithResponse(ctx)
	must(t, err)
	if msg := checkError(t, avail.StatusCode(), avail.Body, http.StatusBadGateway); msg != "the package repository refused the request with status 404" {
		t.Errorf("message %q, want the category and the status", msg)
	}

	useTestRepo(t, admin, repo)
	repo.publish(t, "csvsouth", "csv_south", "south", "1.0.0")
	older := repo.saveIndex(t)
	repo.publish(t, "csvsouth", "csv_south", "south", "1.1.0")
	newest := repo.saveIndex(t)
	avail, err = admin.ListAvailablePluginsWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listAvailablePlugins", avail.StatusCode(), avail.Body, http.StatusOK)

	// The older index, validly signed, served again.
	older()
	rollback := func(e edgeclient.AuditEntry) bool {
		return e.Severity == edgeclient.FAILURE && strings.Contains(detail(e, "error"), "older than one accepted before")
	}
	pkgin, upexc := countAudit(t, admin, "PKGIN", rollback), countAudit(t, admin, "UPEXC", rollback)
	avail, err = admin.ListAvailablePluginsWithResponse(ctx)
	must(t, err)
	if msg := checkError(t, avail.StatusCode(), avail.Body, http.StatusBadGateway); !strings.Contains(msg, "older than one accepted before") {
		t.Errorf("message %q does not name the rollback", msg)
	}
	inst, err := admin.InstallPluginWithResponse(ctx, edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: "csv_south"})
	must(t, err)
	if msg := checkError(t, inst.StatusCode(), inst.Body, http.StatusBadGateway); !strings.Contains(msg, "older than one accepted before") {
		t.Errorf("install message %q does not name the rollback", msg)
	}
	up, err := admin.UpdatePackagesWithResponse(ctx, nil)
	must(t, err)
	if msg := checkError(t, up.StatusCode(), up.Body, http.StatusBadGateway); !strings.Contains(msg, "older than one accepted before") {
		t.Errorf("update message %q does not name the rollback", msg)
	}
	if n := countAudit(t, admin, "PKGIN", rollback) - pkgin; n != 2 {
		t.Errorf("PKGIN rollback failures = %d, want 2 (available and install)", n)
	}
	if n := countAudit(t, admin, "UPEXC", rollback) - upexc; n != 1 {
		t.Errorf("UPEXC rollback failures = %d, want 1", n)
	}

	// A newer index, expired.
	newest()
	repo.expire(t)
	avail, err = admin.ListAvailablePluginsWithResponse(ctx)
	must(t, err)
	if msg := checkError(t, avail.StatusCode(), avail.Body, http.StatusBadGateway); !strings.Contains(msg, "has expired") {
		t.Errorf("message %q does not name the expiry", msg)
	}
	inst, err = admin.InstallPluginWithResponse(ctx, edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: "csv_south"})
	must(t, err)
	checkError(t, inst.StatusCode(), inst.Body, http.StatusBadGateway)
	if installedVersion(t, admin, "csv_south") != "" {
		t.Fatal("a package was installed from a refused index")
	}
	// Its publisher signs it again: trusted again.
	must(t, pkgrepo.Resign(repo.dir, repo.key, time.Hour))
	installPluginPackage(t, admin, "csv_south")
	if v := installedVersion(t, admin, "csv_south"); v != "1.1.0" {
		t.Fatalf("installed csv_south %s, want 1.1.0", v)
	}

	csv := filepath.Join(t.TempDir(), "trust.csv")
	must(t, os.WriteFile(csv, []byte("temperature\n20\n21\n"), 0o644))
	createSouth(t, admin, southDef{name: "trust-csv", plugin: "csv_south", enabled: true,
		config: map[string]string{"file": csv, "asset": "trust-boiler", "rate": "20"}})
	eventually(t, time.Minute, "the service running csv_south 1.1.0", func() bool {
		rec := southRecord(t, admin, "trust-csv")
		return rec != nil && rec.Plugin.Version == "1.1.0" && unionJSON(t, rec.Status) == `"running"`
	})

	// An install moving it down needs the flag and a pinned release.
	installDown := func(version string) *edgeclient.InstallPluginResponse {
		req := edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: "csv_south", AllowDowngrade: ptr(true)}
		if version != "" {
			req.Version = &version
		}
		r, err := admin.InstallPluginWithResponse(ctx, req)
		must(t, err)
		return r
	}
	if r := installDown(""); r.StatusCode() == http.StatusOK {
		t.Fatalf("install with allowDowngrade, no release pinned: 200 %s", r.Body)
	} else if msg := checkError(t, r.StatusCode(), r.Body, http.StatusConflict); !strings.Contains(msg, "pinned") {
		t.Errorf("message %q does not say the release must be pinned", msg)
	}
	pin := func(version string) {
		t.Helper()
		set, err := admin.SetRepositoryWithResponse(ctx, edgeclient.RepositoryRequest{Url: repo.url, Version: ptr(version)})
		must(t, err)
		wantStatus(t, "setRepository "+version, set.StatusCode(), set.Body, http.StatusOK)
	}
	pin("1.0.0")
	if r := installDown("0.9.0"); r.StatusCode() == http.StatusOK {
		t.Fatalf("install with allowDowngrade of another release than the pinned one: 200 %s", r.Body)
	} else {
		checkError(t, r.StatusCode(), r.Body, http.StatusBadRequest)
	}
	downgrades := func() int {
		return countAudit(t, admin, "PKGUP", func(e edgeclient.AuditEntry) bool {
			return e.Severity == edgeclient.WARNING && e.Details["downgrade"] == true &&
				detail(e, "from") == "1.1.0" && detail(e, "version") == "1.0.0"
		})
	}
	if n := downgrades(); n != 0 {
		t.Fatalf("%d downgrades audited before any", n)
	}
	r := installDown("")
	wantStatus(t, "installPlugin with allowDowngrade", r.StatusCode(), r.Body, http.StatusOK)
	if task := awaitTask(t, admin, r.JSON200.Id); !succeeded(task) {
		t.Fatalf("downgrade install task = %+v", task)
	}
	if v := installedVersion(t, admin, "csv_south"); v != "1.0.0" {
		t.Errorf("after an install with allowDowngrade: %s, want 1.0.0", v)
	}
	if n := downgrades(); n != 1 {
		t.Errorf("PKGUP downgrade entries = %d after the install, want 1", n)
	}
	eventually(t, time.Minute, "the service running csv_south 1.0.0", func() bool {
		rec := southRecord(t, admin, "trust-csv")
		return rec != nil && rec.Plugin.Version == "1.0.0" && unionJSON(t, rec.Status) == `"running"`
	})
	if r := installDown(""); r.StatusCode() == http.StatusOK {
		t.Fatalf("install with allowDowngrade at the pinned release already: 200 %s", r.Body)
	} else {
		checkError(t, r.StatusCode(), r.Body, http.StatusConflict)
	}

	// Following latest again, the update moves it up; pinned to 1.0.0, an
	// update without allowDowngrade keeps 1.1.0.
	pin("latest")
	updateAndWait(t, admin, nil)
	if v := installedVersion(t, admin, "csv_south"); v != "1.1.0" {
		t.Fatalf("after an update following latest: %s, want 1.1.0", v)
	}
	pin("1.0.0")
	updateAndWait(t, admin, nil)
	if v := installedVersion(t, admin, "csv_south"); v != "1.1.0" {
		t.Errorf("after an update pinned to 1.0.0 without allowDowngrade: %s, want 1.1.0 kept", v)
	}
	updateAndWait(t, admin, ptr(false))
	if v := installedVersion(t, admin, "csv_south"); v != "1.1.0" {
		t.Errorf("after an update with allowDowngrade=false: %s, want 1.1.0 kept", v)
	}
	bad := doRaw(t, rawRequest{method: http.MethodPut, path: "/edge/update?allowDowngrade=perhaps",
		headers: map[string]string{"authorization": adminToken(t)}})
	checkError(t, bad.status, bad.body, http.StatusBadRequest)
	if n := downgrades(); n != 1 {
		t.Fatalf("%d downgrades audited, want the install's only", n)
	}
	// The admin's explicit downgrade by the update.
	updateAndWait(t, admin, ptr(true))
	if v := installedVersion(t, admin, "csv_south"); v != "1.0.0" {
		t.Errorf("after an update pinned to 1.0.0 with allowDowngrade: %s, want 1.0.0", v)
	}
	if n := downgrades(); n != 2 {
		t.Errorf("PKGUP downgrade entries = %d, want 2 (WARNING, downgrade true, from 1.1.0 to 1.0.0)", n)
	}
	eventually(t, time.Minute, "the service running csv_south 1.0.0", func() bool {
		rec := southRecord(t, admin, "trust-csv")
		return rec != nil && rec.Plugin.Version == "1.0.0" && unionJSON(t, rec.Status) == `"running"`
	})

	// The installed executable swapped while the service runs: its next
	// start is refused.
	var pids []int
	eventually(t, time.Minute, "one process of csv_south", func() bool {
		pids = pluginProcesses(t, "csv_south")
		return len(pids) == 1
	})
	cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pids[0]), "cmdline"))
	must(t, err)
	exe := string(bytes.SplitN(cmdline, []byte{0}, 2)[0])
	if filepath.Base(exe) != "plugin" || !strings.Contains(exe, filepath.Join("packages", "csv_south")) {
		t.Fatalf("the plugin process runs %q, not the installed executable", exe)
	}
	b, err := os.ReadFile(exe) //nolint:gosec // the executable the gateway under test installed
	must(t, err)
	// Replaced by rename: a running executable cannot be written in place.
	swapped := exe + ".swap"
	must(t, os.WriteFile(swapped, append(b, '#'), 0o750)) //nolint:gosec // an executable
	must(t, os.Rename(swapped, exe))
	changed := func(e edgeclient.AuditEntry) bool {
		return detail(e, "name") == "trust-csv" && strings.Contains(detail(e, "error"), "changed since it was installed")
	}
	srvfl := countAudit(t, admin, "SRVFL", changed)
	must(t, syscall.Kill(pids[0], syscall.SIGKILL))
	eventually(t, time.Minute, "the service failed, and audited as failed, for the changed executable", func() bool {
		rec := southRecord(t, admin, "trust-csv")
		if rec == nil || unionJSON(t, rec.Status) != `"failed"` {
			return false
		}
		return countAudit(t, admin, "SRVFL", changed) > srvfl
	})
	if now := pluginProcesses(t, "csv_south"); len(now) != 0 {
		t.Errorf("processes of the swapped executable are running: %v", now)
	}
	del, err := admin.DeleteServiceWithResponse(ctx, "trust-csv")
	must(t, err)
	wantStatus(t, "deleteService", del.StatusCode(), del.Body, http.StatusOK)
}

// testPackageUnpackMemory installs a package whose 10 MB artifact unpacks
// to 450 MiB and measures the gateway's peak resident memory across the
// install: the archive is unpacked entry by entry from a file, so it grows
// by far less than what the archive holds.
func testPackageUnpackMemory(t *testing.T) {
	needOwnGateway(t, "reads the gateway process's peak resident memory in /proc")
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/<pid>/status")
	}
	admin := apiAs(t, adminToken(t))
	repo := newTestRepo(t)
	useTestRepo(t, admin, repo)

	const bulk = 450 << 20
	bin, err := external.BuildExample(t.Context(), "..", "csvsouth", "1.0.0", repo.bins)
	must(t, err)
	exe, err := os.ReadFile(bin) //nolint:gosec // built into the test's temp directory
	must(t, err)
	var archive bytes.Buffer
	zw := gzip.NewWriter(&archive)
	tw := tar.NewWriter(zw)
	must(t, tw.WriteHeader(&tar.Header{Name: "plugin", Mode: 0o755, Size: int64(len(exe)), Typeflag: tar.TypeReg}))
	_, err = tw.Write(exe)
	must(t, err)
	must(t, tw.WriteHeader(&tar.Header{Name: "data/bulk", Mode: 0o644, Size: bulk, Typeflag: tar.TypeReg}))
	_, err = io.Copy(tw, io.LimitReader(zeroReader{}, bulk))
	must(t, err)
	must(t, tw.Close())
	must(t, zw.Close())
	must(t, pkgrepo.Publish(repo.dir, repo.key, pkgrepo.Package{Name: "csv_south", Version: "1.0.0", Type: pkgrepo.TypePlugin,
		Kind: "south", Description: "CSV with 450 MiB of data"}, map[string][]byte{runtime.GOOS + "/" + runtime.GOARCH: archive.Bytes()}))
	t.Logf("artifact %.1f MB, unpacking to %d MiB", float64(archive.Len())/1e6, (bulk+len(exe))>>20)

	// Reset the peak to the current resident size, then install.
	must(t, os.WriteFile(filepath.Join("/proc", strconv.Itoa(ownGatewayPID), "clear_refs"), []byte("5"), 0))
	before := procStatusKB(t, ownGatewayPID, "VmHWM")
	installPluginPackage(t, admin, "csv_south")
	peak := procStatusKB(t, ownGatewayPID, "VmHWM")
	t.Logf("gateway peak resident memory %d KiB before the install, %d KiB after", before, peak)
	if grew := peak - before; grew > 64<<10 {
		t.Errorf("the gateway's peak resident memory grew by %d MiB installing it, want under 64 MiB", grew>>10)
	}
	if !slices.Contains([]string{"1.0.0"}, installedVersion(t, admin, "csv_south")) {
		t.Error("the package is not installed")
	}
}

// procStatusKB returns field (kB) of /proc/<pid>/status.
func procStatusKB(t *testing.T, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	must(t, err)
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			must(t, err)
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// zeroReader reads as endless zero bytes.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
