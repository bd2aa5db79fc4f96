package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/packages"
	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/builtin"
)

// treeDirs are the plugin directories of this tree that make packages
// builds: plugins and services alike, each built as any author's is.
var treeDirs = []string{"pluginsdk/go/examples/csvsouth", "pluginsdk/go/examples/filenorth", "pluginsdk/go/examples/scalefilter",
	"pluginsdk/python/examples/waveform", "cmd/edged-notification", "cmd/edged-dispatcher"}

// pluginPython returns the plugin SDK's Python (make plugin-tools) with
// this tree's SDK importable, or skips the test.
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
	sdk, err := filepath.Abs("../../pluginsdk/python")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", sdk)
	t.Setenv("EDGED_PLUGIN_PYTHON", py)
	return py
}

// buildTree builds every plugin directory of this tree at version into
// dist, as make packages does, and returns the archives.
func buildTree(t *testing.T, version, dist string) []string {
	t.Helper()
	var archives []string
	for _, dir := range treeDirs {
		var out strings.Builder
		if err := run(t.Context(), []string{"build", "-version", version, "-out", dist, filepath.Join("../..", dir)}, &out); err != nil {
			t.Fatalf("build %s: %v", dir, err)
		}
		archives = append(archives, strings.TrimSpace(out.String()))
	}
	return archives
}

// TestBuiltRepositoryInstalls builds this tree's plugins and services
// through the generic path, as `make packages` does, publishes and serves
// them over HTTP and installs and updates every one through the package
// manager; a wrongly signed index is refused.
func TestBuiltRepositoryInstalls(t *testing.T) {
	pluginPython(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := run(t.Context(), []string{"keygen", "-out", keyFile}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(t.Context(), []string{"keygen", "-out", keyFile}, io.Discard); err == nil {
		t.Error("keygen over an existing key file = nil")
	}
	key, err := readKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	publishArgs := append([]string{"publish", "-key", keyFile, "-repo", repo}, buildTree(t, "1.0.0", t.TempDir())...)
	if err := run(t.Context(), publishArgs, io.Discard); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(repo)))
	t.Cleanup(srv.Close)

	d := dbtest.SQLite(t)
	auditLog := audit.New(d, nil)
	cfg := configmgr.New(d, auditLog, nil)
	if err := cfg.Seed(t.Context()); err != nil {
		t.Fatal(err)
	}
	pub := base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey))
	if _, err := cfg.SetValue(t.Context(), configmgr.CategoryInstallation, packages.ItemTrustedKeys, pub); err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.SetValue(t.Context(), configmgr.CategoryInstallation, packages.ItemMaxUpdate, "10"); err != nil {
		t.Fatal(err)
	}
	reg := builtin.Registry()
	m := packages.New(packages.Options{Dir: filepath.Join(t.TempDir(), "packages"), Config: cfg, Store: d, Audit: auditLog,
		Plugins: reg, Client: srv.Client(), Clock: clock.Real{}})
	t.Cleanup(m.Wait)
	if err := m.SetRepository(t.Context(), srv.URL, "latest"); err != nil {
		t.Fatal(err)
	}
	names, _, err := m.Available(t.Context(), pkgrepo.TypePlugin)
	want := []string{"csv_south", "file_north", "scale_filter", "waveform"}
	if services, _, err := m.Available(t.Context(), pkgrepo.TypeService); err != nil || !slices.Equal(services, []string{"dispatcher", "notification"}) {
		t.Errorf("available services = %v, %v", services, err)
	}
	if err != nil || !slices.Equal(names, want) {
		t.Fatalf("available = %v, %v; want %v", names, err, want)
	}
	for _, name := range want {
		if _, err := m.Install(t.Context(), pkgrepo.TypePlugin, name, "", false); err != nil {
			t.Fatalf("install %s: %v", name, err)
		}
		m.Wait()
	}
	kinds := map[string]string{"csv_south": plugin.KindSouth, "file_north": plugin.KindNorth, "scale_filter": plugin.KindFilter,
		"waveform": plugin.KindSouth}
	for name, kind := range kinds {
		def, ok := reg.Lookup(name)
		if !ok || def.Kind != kind || def.Version != "1.0.0" || !def.External {
			t.Errorf("%s after install = %+v, %v", name, def, ok)
		}
	}
	tasks, err := d.ListTasks(t.Context(), db.TaskFilter{Name: packages.TaskInstall})
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if task.ExitCode == nil || *task.ExitCode != 0 {
			t.Errorf("install task = %+v", task)
		}
	}

	// A newer build, published into the same repository, is what an
	// update installs.
	publishArgs = append([]string{"publish", "-key", keyFile, "-repo", repo}, buildTree(t, "1.1.0", t.TempDir())...)
	if err := run(t.Context(), publishArgs, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Update(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	m.Wait()
	for name := range kinds {
		if def, _ := reg.Lookup(name); def.Version != "1.1.0" {
			t.Errorf("%s after the update = %s, want 1.1.0", name, def.Version)
		}
	}

	// The index signed by another key is refused.
	_, other, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(repo, pkgrepo.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, pkgrepo.SignatureFile), pkgrepo.Sign(other, index), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = m.Available(t.Context(), pkgrepo.TypePlugin)
	if !errors.Is(err, fault.BadGateway) || !strings.Contains(err.Error(), "trusted") {
		t.Errorf("Available of a wrongly signed index = %v", err)
	}
}

// TestSignRenewsTheIndex re-signs a repository: same packages, a higher
// index version, the expiry asked for; bad arguments are refused.
func TestSignRenewsTheIndex(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := run(t.Context(), []string{"keygen", "-out", keyFile}, io.Discard); err != nil {
		t.Fatal(err)
	}
	key, err := readKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	archive, err := pkgrepo.Pack([]pkgrepo.File{{Name: "plugin", Data: []byte("#!/bin/sh\n"), Exec: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := pkgrepo.Publish(repo, key, pkgrepo.Package{Name: "p", Version: "1.0.0", Type: pkgrepo.TypePlugin},
		map[string][]byte{"linux/amd64": archive}); err != nil {
		t.Fatal(err)
	}
	read := func() *pkgrepo.Index {
		t.Helper()
		index, _ := os.ReadFile(filepath.Join(repo, pkgrepo.IndexFile))
		sig, _ := os.ReadFile(filepath.Join(repo, pkgrepo.SignatureFile))
		ix, err := pkgrepo.Verify(index, sig, []ed25519.PublicKey{key.Public().(ed25519.PublicKey)})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	before := read()
	if err := run(t.Context(), []string{"sign", "-key", keyFile, "-repo", repo, "-valid", "2h"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	after := read()
	if after.Version != before.Version+1 || len(after.Packages) != 1 {
		t.Errorf("re-signed index: version %d (was %d), %d packages", after.Version, before.Version, len(after.Packages))
	}
	if d := time.Until(after.Expires); d > 2*time.Hour || d < 2*time.Hour-time.Minute {
		t.Errorf("re-signed index expires in %v, want 2h", d)
	}
	for name, args := range map[string][]string{
		"no key":               {"sign", "-repo", repo},
		"no validity":          {"sign", "-key", keyFile, "-repo", repo, "-valid", "0s"},
		"not a repository":     {"sign", "-key", keyFile, "-repo", t.TempDir()},
		"publish, no validity": {"publish", "-key", keyFile, "-repo", repo, "-valid", "-1h", "x.tar.gz"},
		"publish, no archive":  {"publish", "-key", keyFile, "-repo", repo},
	} {
		if err := run(t.Context(), args, io.Discard); err == nil {
			t.Errorf("%s: run(%v) = nil", name, args)
		}
	}
}
