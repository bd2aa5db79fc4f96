package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/pkg/pkgindex"
)

// manifestOf returns the manifest of the archive at path.
func manifestOf(t *testing.T, path string) pkgindex.Manifest {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := pkgindex.ReadManifest(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// command runs name with args in dir and fails the test with its output
// when it fails.
func command(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// TestInitScaffoldsEveryKind scaffolds each kind in Go and in Python
// outside the tree; each scaffold's own tests pass against this tree's
// SDKs, and it builds into a package of its name, kind and version.
func TestInitScaffoldsEveryKind(t *testing.T) {
	pluginPython(t)
	sdk, err := filepath.Abs("../../pluginsdk/go")
	if err != nil {
		t.Fatal(err)
	}
	py, err := filepath.Abs("../../pluginsdk/python/.venv/bin/python")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"go", "python"} {
		for _, kind := range []string{"south", "north", "filter"} {
			t.Run(lang+"_"+kind, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "my-"+kind)
				if err := run(t.Context(), []string{"init", "-lang", lang, "-kind", kind, dir}, io.Discard); err != nil {
					t.Fatal(err)
				}
				if lang == "go" {
					command(t, dir, "go", "mod", "edit", "-replace", "github.com/edged/edged/pluginsdk/go="+sdk)
					command(t, dir, "go", "mod", "tidy")
					command(t, dir, "go", "vet", "./...")
					command(t, dir, "go", "test", "-count=1", "./...")
				} else {
					command(t, dir, py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")
				}
				var out strings.Builder
				if err := run(t.Context(), []string{"build", "-version", "2.0.1", "-out", t.TempDir(), dir}, &out); err != nil {
					t.Fatal(err)
				}
				m := manifestOf(t, strings.TrimSpace(out.String()))
				name := "my_" + kind
				if m.Name != name || m.Kind != kind || m.Version != "2.0.1" || m.Type != pkgindex.TypePlugin {
					t.Errorf("manifest = %+v", m)
				}
				if lang == "go" && !slices.Equal(m.Platforms, []string{runtime.GOOS + "/" + runtime.GOARCH}) {
					t.Errorf("platforms of a Go build = %v", m.Platforms)
				}
				if lang == "python" && !slices.Equal(m.Platforms, pythonPlatforms) {
					t.Errorf("platforms of a Python build = %v", m.Platforms)
				}
			})
		}
	}
}

// TestBuildForAnotherPlatform cross-compiles a Go plugin: the package
// names that platform only, described by a build for this machine.
func TestBuildForAnotherPlatform(t *testing.T) {
	var out strings.Builder
	if err := run(t.Context(), []string{"build", "-os", "linux", "-arch", "arm64", "-out", t.TempDir(), "../../pluginsdk/go/examples/scalefilter"}, &out); err != nil {
		t.Fatal(err)
	}
	path := strings.TrimSpace(out.String())
	m := manifestOf(t, path)
	if m.Name != "scale_filter" || m.Kind != "filter" || !slices.Equal(m.Platforms, []string{"linux/arm64"}) ||
		filepath.Base(path) != "scale_filter-"+m.Version+"-linux-arm64.tar.gz" {
		t.Errorf("%s: manifest %+v", path, m)
	}
}

// TestRefusals are the commands' refusals of bad input, each with a
// message saying what is wrong.
func TestRefusals(t *testing.T) {
	notEmpty := t.TempDir()
	if err := os.WriteFile(filepath.Join(notEmpty, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	noVersionVar := t.TempDir()
	if err := run(t.Context(), []string{"init", "-name", "plain", noVersionVar}, io.Discard); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(noVersionVar, "main.go")
	b, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	// A plugin whose version is a constant: -version cannot set it.
	b = []byte(strings.Replace(string(b), "var Version = \"0.1.0\"", "const Version = \"0.1.0\"", 1))
	if err := os.WriteFile(main, b, 0o600); err != nil {
		t.Fatal(err)
	}
	sdk, _ := filepath.Abs("../../pluginsdk/go")
	command(t, noVersionVar, "go", "mod", "edit", "-replace", "github.com/edged/edged/pluginsdk/go="+sdk)
	command(t, noVersionVar, "go", "mod", "tidy")
	notArchive := filepath.Join(t.TempDir(), "x.tar.gz")
	if err := os.WriteFile(notArchive, []byte("not gzip"), 0o600); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := run(t.Context(), []string{"keygen", "-out", keyFile}, io.Discard); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "usage"},
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"init: unknown language", []string{"init", "-lang", "cobol", filepath.Join(t.TempDir(), "p")}, "neither go nor python"},
		{"init: unknown kind", []string{"init", "-kind", "sideways", filepath.Join(t.TempDir(), "p")}, "one of filter, north, south"},
		{"init: bad name", []string{"init", "-name", "Bad Name", filepath.Join(t.TempDir(), "p")}, "lower-case"},
		{"init: directory not empty", []string{"init", "-name", "p", notEmpty}, "not empty"},
		{"init: no directory", []string{"init"}, "expects the plugin's directory"},
		{"build: not a plugin", []string{"build", t.TempDir()}, "neither a Go main package nor a Python plugin"},
		{"build: os without arch", []string{"build", "-os", "linux", "."}, "go together"},
		{"build: bad version", []string{"build", "-version", "one", "."}, "not a version"},
		{"build: version not settable", []string{"build", "-version", "9.9.9", "-out", t.TempDir(), noVersionVar}, `reports version "0.1.0", not "9.9.9"`},
		{"publish: not an archive", []string{"publish", "-key", keyFile, "-repo", t.TempDir(), notArchive}, "not a gzip'd tar"},
		{"publish: no key", []string{"publish", "-repo", t.TempDir(), notArchive}, "-key and -repo"},
		{"serve: not a repository", []string{"serve", "-addr", "127.0.0.1:0", t.TempDir()}, "not a repository"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := run(t.Context(), c.args, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("run(%q) = %v, want an error saying %q", c.args, err, c.want)
			}
		})
	}
}

// TestPublishKeepsOtherPlatforms publishes a version's platforms one at a
// time: each publication adds its platform and raises the index's version.
func TestPublishKeepsOtherPlatforms(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := run(t.Context(), []string{"keygen", "-out", keyFile}, io.Discard); err != nil {
		t.Fatal(err)
	}
	repo, dist := t.TempDir(), t.TempDir()
	var versions []int64
	for _, arch := range []string{"amd64", "arm64"} {
		var out strings.Builder
		if err := run(t.Context(), []string{"build", "-os", "linux", "-arch", arch, "-version", "3.0.0", "-out", dist,
			"../../pluginsdk/go/examples/scalefilter"}, &out); err != nil {
			t.Fatal(err)
		}
		if err := run(t.Context(), []string{"publish", "-key", keyFile, "-repo", repo, strings.TrimSpace(out.String())}, io.Discard); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(repo, pkgindex.IndexFile))
		if err != nil {
			t.Fatal(err)
		}
		var ix pkgindex.Index
		if err := json.Unmarshal(b, &ix); err != nil {
			t.Fatal(err)
		}
		versions = append(versions, ix.Version)
		p, _ := ix.Latest("scale_filter", "3.0.0")
		if len(p.Artifacts) != len(versions) {
			t.Errorf("after publishing linux/%s: artifacts %+v", arch, p.Artifacts)
		}
	}
	if versions[1] <= versions[0] {
		t.Errorf("index versions %v do not grow", versions)
	}
	// The same platform twice in one publication is refused.
	archives, _ := filepath.Glob(filepath.Join(dist, "*.tar.gz"))
	again := append([]string{"publish", "-key", keyFile, "-repo", repo}, append(archives, archives[0])...)
	if err := run(t.Context(), again, io.Discard); err == nil || !strings.Contains(err.Error(), "a second archive") {
		t.Errorf("publish of one platform twice = %v", err)
	}
}

// TestServeServesTheRepository serves a repository on a free port until
// the context ends.
func TestServeServesTheRepository(t *testing.T) {
	repo := t.TempDir()
	index := []byte(`{"version":1}`)
	if err := os.WriteFile(filepath.Join(repo, pkgindex.IndexFile), index, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", repo}, w); _ = w.Close() }()
	line := make([]byte, 256)
	n, err := r.Read(line)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	url := strings.TrimSpace(string(line[:n]))
	url = url[strings.Index(url, "http://"):]
	if _, _, err := net.SplitHostPort(strings.TrimPrefix(url, "http://")); err != nil {
		t.Fatalf("serve printed %q", line[:n])
	}
	resp, err := http.Get(url + "/" + pkgindex.IndexFile)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != string(index) {
		t.Errorf("GET index.json = %d %q", resp.StatusCode, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after its context ended = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after its context ended")
	}
}
