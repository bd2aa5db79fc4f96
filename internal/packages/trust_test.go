package packages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/builtin"
	"github.com/edged/edged/internal/plugin/external"
)

// saveIndex returns the repository's signed index as it is now; restore
// serves it again.
func (f *fixture) saveIndex() (restore func()) {
	f.t.Helper()
	index, err := os.ReadFile(filepath.Join(f.repo, pkgrepo.IndexFile))
	if err != nil {
		f.t.Fatal(err)
	}
	sig, err := os.ReadFile(filepath.Join(f.repo, pkgrepo.SignatureFile))
	if err != nil {
		f.t.Fatal(err)
	}
	return func() {
		f.t.Helper()
		if err := os.WriteFile(filepath.Join(f.repo, pkgrepo.IndexFile), index, 0o644); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(f.repo, pkgrepo.SignatureFile), sig, 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
}

// index reads the repository's index as its publisher does.
func (f *fixture) index() pkgrepo.Index {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.repo, pkgrepo.IndexFile))
	if err != nil {
		f.t.Fatal(err)
	}
	var ix pkgrepo.Index
	if err := json.Unmarshal(b, &ix); err != nil {
		f.t.Fatal(err)
	}
	return ix
}

// publicMessage is the message the API answers for err.
func publicMessage(err error) string {
	if f, ok := fault.As(err); ok {
		return f.Message
	}
	return fmt.Sprintf("not a fault: %v", err)
}

func wantRefused(t *testing.T, what string, err error, reason string) {
	t.Helper()
	wantKind(t, what, err, fault.BadGateway)
	if err == nil || !strings.Contains(err.Error(), reason) {
		t.Errorf("%s = %v, want it to say %q", what, err, reason)
	}
}

func TestRefusesOlderOrExpiredIndex(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.set(ItemMaxUpdate, "10")
	if err := f.m.SetRepository(ctx, f.url, ""); err != nil {
		t.Fatal(err)
	}
	f.publish("1.0.0", pkgrepo.TypePlugin)
	older := f.saveIndex()
	if _, _, err := f.m.Available(ctx, pkgrepo.TypePlugin); err != nil {
		t.Fatal(err)
	}
	f.publish("1.1.0", pkgrepo.TypePlugin)
	if _, _, err := f.m.Available(ctx, pkgrepo.TypePlugin); err != nil {
		t.Fatal(err)
	}

	// The first index, validly signed, served again: a rollback.
	older()
	_, _, err := f.m.Available(ctx, pkgrepo.TypePlugin)
	wantRefused(t, "Available of an older index", err, "older than one accepted before")
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false)
	wantRefused(t, "Install from an older index", err, "older than one accepted before")
	if n := f.audits("PKGIN", "FAILURE"); n != 2 {
		t.Errorf("PKGIN failures = %d, want 2 (available and install)", n)
	}
	_, err = f.m.Update(ctx, false)
	wantRefused(t, "Update from an older index", err, "older than one accepted before")
	if n := f.audits("UPEXC", "FAILURE"); n != 1 {
		t.Errorf("UPEXC failures = %d, want 1", n)
	}
	if ts, _ := f.d.ListTasks(ctx, db.TaskFilter{Name: TaskUpdate}); len(ts) != 0 {
		t.Errorf("an update from a refused index started a task: %+v", ts)
	}

	// A newer index, but expired: a frozen repository.
	ix := f.index()
	ix.Expires = time.Now().Add(-time.Minute)
	if err := pkgrepo.WriteIndex(f.repo, f.key, ix); err != nil {
		t.Fatal(err)
	}
	_, _, err = f.m.Available(ctx, pkgrepo.TypePlugin)
	wantRefused(t, "Available of an expired index", err, "has expired")
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false)
	wantRefused(t, "Install from an expired index", err, "has expired")

	// Re-signed by its publisher: trusted again.
	if err := pkgrepo.Resign(f.repo, f.key, time.Hour); err != nil {
		t.Fatal(err)
	}
	if names, _, err := f.m.Available(ctx, pkgrepo.TypePlugin); err != nil || len(names) != 1 {
		t.Errorf("Available of the re-signed index = %v, %v", names, err)
	}
	if pkgs, _ := f.m.List(); len(pkgs) != 0 {
		t.Errorf("installed from refused indexes: %+v", pkgs)
	}
}

func TestRepositoryFailuresNameOnlyTheirCategory(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	// Nothing listens on port 9 of the loopback interface.
	if err := f.m.SetRepository(ctx, "http://127.0.0.1:9/repo", ""); err != nil {
		t.Fatal(err)
	}
	_, log, err := f.m.Available(ctx, pkgrepo.TypePlugin)
	wantKind(t, "Available of a closed port", err, fault.BadGateway)
	if msg := publicMessage(err); msg != "the package repository is unreachable" {
		t.Errorf("message %q, want the category only", msg)
	}
	if b, _ := f.m.Log(log); !strings.Contains(string(b), "connection refused") {
		t.Errorf("the repository log does not hold the full error: %q", b)
	}
	if err := f.m.SetRepository(ctx, f.url+"/nothing-here", ""); err != nil {
		t.Fatal(err)
	}
	_, _, err = f.m.Available(ctx, pkgrepo.TypePlugin)
	if msg := publicMessage(err); msg != "the package repository refused the request with status 404" {
		t.Errorf("Available of a missing index: message %q", msg)
	}
}

func TestDowngradeOnlyWhenPinnedAndAllowed(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.set(ItemMaxUpdate, "10")
	if err := f.m.SetRepository(ctx, f.url, "latest"); err != nil {
		t.Fatal(err)
	}
	f.publish("1.0.0", pkgrepo.TypePlugin)
	f.publish("1.1.0", pkgrepo.TypePlugin)
	if _, err := f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false); err != nil {
		t.Fatal(err)
	}
	f.lastTask(TaskInstall)
	version := func() string {
		def, _ := f.reg.Lookup("csv_south")
		pkgs, _ := f.m.List()
		if len(pkgs) != 1 || pkgs[0].Version != def.Version {
			t.Fatalf("installed %+v, registered %s", pkgs, def.Version)
		}
		return def.Version
	}
	update := func(allow bool) {
		t.Helper()
		if _, err := f.m.Update(ctx, allow); err != nil {
			t.Fatal(err)
		}
		if task := f.lastTask(TaskUpdate); task.ExitCode == nil || *task.ExitCode != 0 {
			t.Fatalf("update task = %+v", task)
		}
	}

	// The repository's newest is now lower than what is installed (1.1.0
	// withdrawn): following latest, nothing moves down, flag or not.
	ix := f.index()
	for i, p := range ix.Packages {
		if p.Version == "1.1.0" {
			ix.Packages = append(ix.Packages[:i], ix.Packages[i+1:]...)
			break
		}
	}
	if err := pkgrepo.WriteIndex(f.repo, f.key, ix); err != nil {
		t.Fatal(err)
	}
	for _, allow := range []bool{false, true} {
		update(allow)
		if v := version(); v != "1.1.0" {
			t.Fatalf("following latest, allowDowngrade %v: version %s, want 1.1.0 kept", allow, v)
		}
	}
	// Pinned to 1.0.0 without the flag: kept.
	if err := f.m.SetRepository(ctx, f.url, "1.0.0"); err != nil {
		t.Fatal(err)
	}
	update(false)
	if v := version(); v != "1.1.0" {
		t.Fatalf("pinned without allowDowngrade: version %s, want 1.1.0 kept", v)
	}
	if n := f.audits("PKGUP", "WARNING"); n != 0 {
		t.Errorf("PKGUP warnings = %d before any downgrade", n)
	}
	// Pinned and allowed: moved down, audited as a downgrade.
	update(true)
	if v := version(); v != "1.0.0" {
		t.Fatalf("pinned with allowDowngrade: version %s, want 1.0.0", v)
	}
	es, _, err := f.d.ListAudit(ctx, db.AuditFilter{Source: "PKGUP"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range es {
		var d map[string]any
		_ = json.Unmarshal(e.Details, &d)
		if e.Severity == "WARNING" && d["downgrade"] == true && d["from"] == "1.1.0" && d["version"] == "1.0.0" {
			found = true
		}
	}
	if !found {
		t.Errorf("no PKGUP WARNING downgrade entry from 1.1.0 to 1.0.0 in %+v", es)
	}
}

// swap changes the installed executable of csv_south.
func (f *fixture) swap() {
	f.t.Helper()
	exe := filepath.Join(f.m.o.Dir, "csv_south", executable)
	fh, err := os.OpenFile(exe, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := fh.WriteString("#"); err != nil {
		f.t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		f.t.Fatal(err)
	}
}

func TestSwappedExecutableIsNotStarted(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if err := f.m.SetRepository(ctx, f.url, ""); err != nil {
		t.Fatal(err)
	}
	f.publish("1.0.0", pkgrepo.TypePlugin)
	if _, err := f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false); err != nil {
		t.Fatal(err)
	}
	if task := f.lastTask(TaskInstall); task.ExitCode == nil || *task.ExitCode != 0 {
		t.Fatalf("install task = %+v", task)
	}
	pkgs, _ := f.m.List()
	if len(pkgs) != 1 || len(pkgs[0].Digest) != 64 {
		t.Fatalf("installed %+v, want the executable's digest recorded", pkgs)
	}
	open := func(def plugin.Definition) error {
		s, err := def.New(plugin.Env{Service: "csv"}, plugin.Config{})
		if err != nil {
			return err
		}
		o, ok := s.(interface{ Open(context.Context) error })
		if !ok {
			t.Fatalf("%T has no Open", s)
		}
		err = o.Open(ctx)
		if c, ok := s.(interface{ Close() error }); ok && err == nil {
			_ = c.Close()
		}
		return err
	}
	def, _ := f.reg.Lookup("csv_south")
	f.swap()
	// A start by the running gateway (a service restart).
	if err := open(def); !errors.Is(err, external.ErrChanged) {
		t.Errorf("start of a swapped executable = %v, want ErrChanged", err)
	}
	// The next start of the gateway: registered, but every start fails
	// with the reason.
	reg := builtin.Registry()
	again := New(Options{Dir: f.m.o.Dir, Config: f.cfg, Store: f.d, Audit: f.m.o.Audit, Plugins: reg, Clock: clock.Real{}})
	again.Load(ctx)
	def, ok := reg.Lookup("csv_south")
	if !ok {
		t.Fatal("a package with a swapped executable is not registered at all")
	}
	if err := open(def); !errors.Is(err, external.ErrChanged) || !strings.Contains(err.Error(), "install the package again") {
		t.Errorf("start after a restart = %v, want ErrChanged saying what to do", err)
	}
}

func TestLoadRecordsDigestOfOlderInstall(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if err := f.m.SetRepository(ctx, f.url, ""); err != nil {
		t.Fatal(err)
	}
	f.publish("1.0.0", pkgrepo.TypePlugin)
	if _, err := f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false); err != nil {
		t.Fatal(err)
	}
	f.lastTask(TaskInstall)
	// A manifest as installs wrote it before digests were recorded.
	path := filepath.Join(f.m.o.Dir, "csv_south", manifest)
	b, _ := json.Marshal(pkgrepo.Package{Name: "csv_south", Version: "1.0.0", Type: pkgrepo.TypePlugin, Kind: "south"})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	reg := builtin.Registry()
	again := New(Options{Dir: f.m.o.Dir, Config: f.cfg, Store: f.d, Audit: f.m.o.Audit, Plugins: reg, Clock: clock.Real{}})
	again.Load(ctx)
	if def, ok := reg.Lookup("csv_south"); !ok || def.Version != "1.0.0" {
		t.Fatalf("plugin after the restart = %+v, %v", def, ok)
	}
	if pkgs, _ := again.List(); len(pkgs) != 1 || len(pkgs[0].Digest) != 64 {
		t.Errorf("installed %+v, want the digest recorded at load", pkgs)
	}
}

func TestInstallMovesDownOnlyToThePin(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if err := f.m.SetRepository(ctx, f.url, "latest"); err != nil {
		t.Fatal(err)
	}
	f.publish("1.0.0", pkgrepo.TypePlugin)
	f.publish("1.1.0", pkgrepo.TypePlugin)
	if _, err := f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false); err != nil {
		t.Fatal(err)
	}
	f.lastTask(TaskInstall)
	_, err := f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", false)
	wantKind(t, "Install of an installed package", err, fault.Conflict)
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "1.0.0", true)
	wantKind(t, "Install with allowDowngrade, no release pinned", err, fault.Conflict)
	if err := f.m.SetRepository(ctx, f.url, "1.0.0"); err != nil {
		t.Fatal(err)
	}
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "0.9.0", true)
	wantKind(t, "Install with allowDowngrade of another version than the pinned one", err, fault.Invalid)
	if _, err := f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", true); err != nil {
		t.Fatal(err)
	}
	if task := f.lastTask(TaskInstall); task.ExitCode == nil || *task.ExitCode != 0 {
		t.Fatalf("downgrade task = %+v", task)
	}
	if def, _ := f.reg.Lookup("csv_south"); def.Version != "1.0.0" {
		t.Errorf("version after the downgrade = %s, want 1.0.0", def.Version)
	}
	if n := f.audits("PKGUP", "WARNING"); n != 1 {
		t.Errorf("PKGUP warnings = %d, want the downgrade's", n)
	}
	_, err = f.m.Install(ctx, pkgrepo.TypePlugin, "csv_south", "", true)
	wantKind(t, "Install with allowDowngrade at the pinned release already", err, fault.Conflict)
}
