package packages

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/builtin"
	"github.com/edged/edged/internal/plugin/external"
)

// fixture is a manager over SQLite and a repository served from a temp
// directory, holding the CSV example plugin.
type fixture struct {
	t    *testing.T
	m    *Manager
	d    *db.DB
	cfg  *configmgr.Manager
	reg  *plugin.Registry
	repo string // the repository directory
	url  string
	key  ed25519.PrivateKey
	bins string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	d := dbtest.SQLite(t)
	auditLog := audit.New(d, nil)
	cfg := configmgr.New(d, auditLog, nil)
	if err := cfg.Seed(t.Context()); err != nil {
		t.Fatal(err)
	}
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, d: d, cfg: cfg, reg: builtin.Registry(), repo: t.TempDir(), key: priv, bins: t.TempDir()}
	srv := httptest.NewServer(http.FileServer(http.Dir(f.repo)))
	t.Cleanup(srv.Close)
	f.url = srv.URL
	f.m = New(Options{Dir: filepath.Join(t.TempDir(), "packages"), Config: cfg, Store: d, Audit: auditLog,
		Plugins: f.reg, Client: srv.Client(), Clock: clock.Real{}})
	t.Cleanup(f.m.Wait)
	f.set(ItemTrustedKeys, base64.StdEncoding.EncodeToString(pub))
	return f
}

func (f *fixture) set(item, value string) {
	f.t.Helper()
	if _, err := f.cfg.SetValue(f.t.Context(), CategoryInstallation, item, value); err != nil {
		f.t.Fatal(err)
	}
}

// publish builds the CSV plugin at version and publishes it as typ.
func (f *fixture) publish(version, typ string) pkgrepo.Package {
	f.t.Helper()
	bin, err := external.BuildExample(f.t.Context(), "../..", "csvsouth", version, f.bins)
	if err != nil {
		f.t.Fatal(err)
	}
	exe, err := os.ReadFile(bin)
	if err != nil {
		f.t.Fatal(err)
	}
	archive, err := pkgrepo.Pack([]pkgrepo.File{{Name: "plugin", Data: exe, Exec: true}})
	if err != nil {
		f.t.Fatal(err)
	}
	p := pkgrepo.Package{Name: "csv_south", Version: version, Type: typ, Kind: "south", Description: "CSV"}
	if err := pkgrepo.Publish(f.repo, f.key, p, map[string][]byte{runtime.GOOS + "/" + runtime.GOARCH: archive}); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// task returns the only task of name, finished.
func (f *fixture) lastTask(name string) db.Task {
	f.t.Helper()
	f.m.Wait()
	ts, err := f.d.ListTasks(f.t.Context(), db.TaskFilter{Name: name, Limit: 1})
	if err != nil || len(ts) == 0 {
		f.t.Fatalf("tasks %q: %v, %v", name, ts, err)
	}
	return ts[0]
}

func (f *fixture) audits(source, severity string) int {
	f.t.Helper()
	es, _, err := f.d.ListAudit(f.t.Context(), db.AuditFilter{Source: source})
	if err != nil {
		f.t.Fatal(err)
	}
	n := 0
	for _, e := range es {
		if e.Severity == severity {
			n++
		}
	}
	return n
}

func wantKind(t *testing.T, what string, err error, k *fault.Kind) {
	t.Helper()
	if !errors.Is(err, k) {
		t.Errorf("%s = %v, want a %v fault", what, err, k)
	}
}

func TestInstallUpdateRemove(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	_, _, err := f.m.Available(ctx, pkgrepo.TypePlugin)
	wantKind(t, "Available without a repository", err, fault.Invalid)
	wantKind(t, "SetRepository of ftp", f.m.SetRepository(ctx, "ftp://x/y", ""), fault.Invalid)
	wantKind(t, "SetRepository of a URL with a user", f.m.SetRepository(ctx, "https://u:p@x/y", ""), fault.Invalid)
	if err := f.m.SetRepository(ctx, f.url, "latest"); err != nil {
		t.Fatal(err)
	}
	f.publish("1.0.0", pkgrepo.TypePlugin)

	names, log, err := f.m.Available(ctx, pkgrepo.TypePlugin)
	if err != nil || !slices.Equal(names, []string{"csv_south"}) {
		t.Fatalf("available plugins = %v, %v", names, err)
	}
	if b, err := f.m.Log(log); err != nil || !strings.Contains(string(b), "index verified") {
		t.Errorf("log %q = %q, %v", log, b, err)
	}
	if names, _, err := f.m.Available(ctx, pkgrepo.TypeService); err != nil || len(names) != 0 {
		t.Errorf("available services = %v, %v", names, err)
	}
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "nope", "", false)
	wantKind(t, "Install of an unknown package", err, fault.NotFound)
	_, err = f.m.Install(ctx, pkgrepo.TypeService, "csv_south", "", false)
	wantKind(t, "Install of a plugin package as a service", err, fault.NotFound)
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "9.9.9", false)
	wantKind(t, "Install of an unknown version", err, fault.NotFound)
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "sinusoid", "", false)
	wantKind(t, "Install over a built-in plugin", err, fault.Conflict)

	if _, err := f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false); err != nil {
		t.Fatal(err)
	}
	if task := f.lastTask(TaskInstall); task.State != db.TaskComplete || task.ExitCode == nil || *task.ExitCode != 0 {
		t.Fatalf("install task = %+v", task)
	}
	def, ok := f.reg.Lookup("csv_south")
	if !ok || !def.External || def.Version != "1.0.0" {
		t.Fatalf("registered plugin = %+v, %v", def, ok)
	}
	if n := f.audits("PKGIN", "INFORMATION"); n != 1 {
		t.Errorf("PKGIN = %d", n)
	}
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false)
	wantKind(t, "Install of an installed package", err, fault.Conflict)
	if names, _, _ := f.m.Available(ctx, pkgrepo.TypePlugin); len(names) != 0 {
		t.Errorf("available after install = %v", names)
	}

	// A restart of the gateway finds the package again.
	reg := builtin.Registry()
	again := New(Options{Dir: f.m.o.Dir, Config: f.cfg, Store: f.d, Audit: f.m.o.Audit, Plugins: reg, Clock: clock.Real{}})
	again.Load(ctx)
	if def, ok := reg.Lookup("csv_south"); !ok || def.Version != "1.0.0" {
		t.Errorf("plugin after a restart = %+v, %v", def, ok)
	}

	f.publish("1.1.0", pkgrepo.TypePlugin)
	if _, err := f.m.Update(ctx, false); err != nil {
		t.Fatal(err)
	}
	if task := f.lastTask(TaskUpdate); task.ExitCode == nil || *task.ExitCode != 0 {
		t.Fatalf("update task = %+v", task)
	}
	if def, _ := f.reg.Lookup("csv_south"); def.Version != "1.1.0" {
		t.Errorf("version after the update = %s", def.Version)
	}
	if f.audits("PKGUP", "INFORMATION") != 1 || f.audits("UPEXC", "INFORMATION") != 1 {
		t.Errorf("PKGUP %d, UPEXC %d", f.audits("PKGUP", "INFORMATION"), f.audits("UPEXC", "INFORMATION"))
	}
	_, err = f.m.Update(ctx, false)
	wantKind(t, "a second update within a day of maxUpdate 1", err, fault.TooMany)

	// A tampered artifact is refused and the installed version stays.
	f.set(ItemMaxUpdate, "5")
	p := f.publish("1.2.0", pkgrepo.TypePlugin)
	path := filepath.Join(f.repo, "packages", "csv_south", "1.2.0", "csv_south-1.2.0-"+runtime.GOOS+"-"+runtime.GOARCH+".tar.gz")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Update(ctx, false); err != nil {
		t.Fatal(err)
	}
	task := f.lastTask(TaskUpdate)
	if task.ExitCode == nil || *task.ExitCode != 1 || !strings.Contains(task.Reason, "does not match") {
		t.Errorf("update of a tampered artifact: task %+v", task)
	}
	if def, _ := f.reg.Lookup("csv_south"); def.Version != "1.1.0" {
		t.Errorf("version after a refused update = %s (%s)", def.Version, p.Version)
	}
	if f.audits("PKGUP", "FAILURE") != 1 || f.audits("UPEXC", "FAILURE") != 1 {
		t.Errorf("PKGUP failures %d, UPEXC failures %d", f.audits("PKGUP", "FAILURE"), f.audits("UPEXC", "FAILURE"))
	}

	// An index signed by an untrusted key is refused, and an install from
	// it audited as failed.
	other, _, _ := ed25519.GenerateKey(nil)
	f.set(ItemTrustedKeys, base64.StdEncoding.EncodeToString(other))
	_, _, err = f.m.Available(ctx, pkgrepo.TypePlugin)
	wantKind(t, "Available of a wrongly signed index", err, fault.BadGateway)
	failures := f.audits("PKGIN", "FAILURE")
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "other", "", false)
	wantKind(t, "Install from a wrongly signed index", err, fault.BadGateway)
	if n := f.audits("PKGIN", "FAILURE"); n != failures+1 {
		t.Errorf("PKGIN failures = %d, want %d", n, failures+1)
	}

	if err := f.m.Remove(ctx, "csv_south"); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.reg.Lookup("csv_south"); ok {
		t.Error("plugin still registered after its removal")
	}
	if n := f.audits("PKGRM", "INFORMATION"); n != 1 {
		t.Errorf("PKGRM = %d", n)
	}
	wantKind(t, "Remove of a removed package", f.m.Remove(ctx, "csv_south"), fault.NotFound)
	if pkgs, _ := f.m.List(); len(pkgs) != 0 {
		t.Errorf("installed after removal = %+v", pkgs)
	}
}

func TestInstallRefusesTamperedArtifact(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if err := f.m.SetRepository(ctx, f.url, ""); err != nil {
		t.Fatal(err)
	}
	f.publish("1.0.0", pkgrepo.TypePlugin)
	path := filepath.Join(f.repo, "packages", "csv_south", "1.0.0", "csv_south-1.0.0-"+runtime.GOOS+"-"+runtime.GOARCH+".tar.gz")
	if err := os.WriteFile(path, []byte("not the archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false); err != nil {
		t.Fatal(err)
	}
	if task := f.lastTask(TaskInstall); task.ExitCode == nil || *task.ExitCode != 1 {
		t.Errorf("install task = %+v", task)
	}
	if _, ok := f.reg.Lookup("csv_south"); ok {
		t.Error("a tampered package was registered")
	}
	if pkgs, _ := f.m.List(); len(pkgs) != 0 {
		t.Errorf("installed = %+v", pkgs)
	}
	if n := f.audits("PKGIN", "FAILURE"); n != 1 {
		t.Errorf("PKGIN failures = %d", n)
	}
}

// tasksOf is the north tasks of plugins, by plugin.
type tasksOf map[string][]string

func (t tasksOf) TasksUsing(_ context.Context, pluginName string) ([]string, error) {
	return t[pluginName], nil
}

// TestRemoveRefusedWhileUsed removes a package whose plugin two services
// and a north task use: 409 naming each, the plugin stays registered and
// installed; once they are gone the removal goes through.
func TestRemoveRefusedWhileUsed(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	tasks := tasksOf{"csv_south": {"to-cloud"}}
	f.m.o.Tasks = tasks
	if err := f.m.SetRepository(ctx, f.url, "latest"); err != nil {
		t.Fatal(err)
	}
	f.publish("1.0.0", pkgrepo.TypePlugin)
	if _, err := f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false); err != nil {
		t.Fatal(err)
	}
	if task := f.lastTask(TaskInstall); task.ExitCode == nil || *task.ExitCode != 0 {
		t.Fatalf("install task = %+v", task)
	}
	for _, name := range []string{"boiler", "pump"} {
		_, err := f.d.CreateService(ctx, db.Service{Name: name, Type: db.ServiceSouth, Plugin: "csv_south"},
			db.Schedule{ID: uuid.NewString(), Name: name, ProcessName: "south_c", Type: db.ScheduleStartup, Enabled: true})
		if err != nil {
			t.Fatal(err)
		}
	}

	err := f.m.Remove(ctx, "csv_south")
	wantKind(t, "Remove of a package in use", err, fault.Conflict)
	if err != nil {
		for _, user := range []string{`south service "boiler"`, `south service "pump"`, `north task "to-cloud"`} {
			if !strings.Contains(err.Error(), user) {
				t.Errorf("message %q does not name %s", err, user)
			}
		}
	}
	if _, ok := f.reg.Lookup("csv_south"); !ok {
		t.Error("the plugin of a package kept is no longer registered")
	}
	if pkgs, _ := f.m.List(); len(pkgs) != 1 {
		t.Errorf("installed after a refused removal = %+v", pkgs)
	}

	for _, name := range []string{"boiler", "pump"} {
		if err := f.d.DeleteService(ctx, name, nil); err != nil {
			t.Fatal(err)
		}
	}
	err = f.m.Remove(ctx, "csv_south")
	wantKind(t, "Remove of a package a north task uses", err, fault.Conflict)
	delete(tasks, "csv_south")
	if err := f.m.Remove(ctx, "csv_south"); err != nil {
		t.Fatalf("Remove of a package nothing uses = %v", err)
	}
	if _, ok := f.reg.Lookup("csv_south"); ok {
		t.Error("plugin still registered after its removal")
	}
}
