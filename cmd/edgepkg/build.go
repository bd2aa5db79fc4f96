package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/edged/edged/internal/plugin/external"
	"github.com/edged/edged/pkg/pkgindex"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// buildOptions are the flags of edgepkg build.
type buildOptions struct {
	goos, goarch string
	version      string
	python       string
	out          string
}

// pythonPlatforms are the platforms a Python plugin's package is listed
// for unless one is named: its archive is the same on each, and the Python
// running it (EDGED_PLUGIN_PYTHON, default python3) must have the
// requirements it declares.
var pythonPlatforms = []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm", "linux/arm64"}

// pythonPluginEnv names the Python a Python plugin's launcher runs.
const pythonPluginEnv = "EDGED_PLUGIN_PYTHON"

// build packages the plugin in dir and returns the archive's path.
func build(ctx context.Context, dir string, o buildOptions) (string, error) {
	if (o.goos == "") != (o.goarch == "") {
		return "", errors.New("build: -os and -arch go together")
	}
	if o.version != "" && !versionPattern.MatchString(o.version) {
		return "", fmt.Errorf("build: -version %q is not a version such as 1.2.0", o.version)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("build: %w", err)
	}
	stage, err := os.MkdirTemp("", "edgepkg-build-")
	if err != nil {
		return "", err
	}
	defer func() { _ = os.RemoveAll(stage) }()
	var m pkgindex.Manifest
	switch {
	case hasFile(entries, ".go"):
		m, err = buildGo(ctx, dir, stage, o)
	case hasFile(entries, ".py"):
		m, err = buildPython(ctx, dir, stage, o)
	default:
		return "", fmt.Errorf("build: %s holds neither a Go main package nor a Python plugin", dir)
	}
	if err != nil {
		return "", err
	}
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(stage, pkgindex.ManifestFile), manifest, 0o600); err != nil {
		return "", err
	}
	files, err := stagedFiles(stage)
	if err != nil {
		return "", err
	}
	archive, err := pkgindex.Pack(files)
	if err != nil {
		return "", err
	}
	platform := "py"
	if len(m.Platforms) == 1 {
		platform = strings.ReplaceAll(m.Platforms[0], "/", "-")
	}
	if err := os.MkdirAll(o.out, 0o750); err != nil {
		return "", err
	}
	path := filepath.Join(o.out, fmt.Sprintf("%s-%s-%s.tar.gz", m.Name, m.Version, platform))
	if err := os.WriteFile(path, archive, 0o644); err != nil { //nolint:gosec // a package is public
		return "", err
	}
	return path, nil
}

// versionPattern is what a package version may be: dotted numbers, then
// optionally a pre-release or build suffix.
var versionPattern = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.-]+)?$`)

// hasFile tells whether entries hold a regular file ending in ext, tests
// left aside.
func hasFile(entries []os.DirEntry, ext string) bool {
	return slices.ContainsFunc(entries, func(e os.DirEntry) bool {
		n := e.Name()
		return e.Type().IsRegular() && strings.HasSuffix(n, ext) && !strings.HasSuffix(n, "_test.go") && !strings.HasPrefix(n, "test_")
	})
}

// stagedFiles returns the files under stage, the executable marked so.
func stagedFiles(stage string) ([]pkgindex.File, error) {
	var files []pkgindex.File
	err := filepath.WalkDir(stage, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "__pycache__" {
			return filepath.SkipDir // what describing a Python plugin compiled
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(stage, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path) //nolint:gosec // our own staging directory
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, pkgindex.File{Name: filepath.ToSlash(rel), Data: b, Exec: info.Mode()&0o111 != 0})
		return nil
	})
	return files, err
}

// buildGo compiles the main package in dir into stage/plugin for the target
// platform and describes it.
func buildGo(ctx context.Context, dir, stage string, o buildOptions) (pkgindex.Manifest, error) {
	goos, goarch := o.goos, o.goarch
	if goos == "" {
		goos, goarch = runtime.GOOS, runtime.GOARCH
	}
	exe := filepath.Join(stage, pkgindex.Executable)
	if err := goBuild(ctx, dir, goos, goarch, o.version, exe); err != nil {
		return pkgindex.Manifest{}, err
	}
	describe := exe
	if goos != runtime.GOOS || goarch != runtime.GOARCH {
		// The target's program cannot run here: a build for this machine
		// describes it.
		host, err := os.MkdirTemp("", "edgepkg-host-")
		if err != nil {
			return pkgindex.Manifest{}, err
		}
		defer func() { _ = os.RemoveAll(host) }()
		describe = filepath.Join(host, pkgindex.Executable)
		if err := goBuild(ctx, dir, runtime.GOOS, runtime.GOARCH, o.version, describe); err != nil {
			return pkgindex.Manifest{}, err
		}
	}
	m, err := describeManifest(ctx, describe, o.version, "the variable Version of package main (var Version = \"…\")")
	if err != nil {
		return pkgindex.Manifest{}, err
	}
	m.Platforms = []string{goos + "/" + goarch}
	return m, nil
}

// goBuild builds the main package in dir into exe, with version (when not
// "") as main.Version.
func goBuild(ctx context.Context, dir, goos, goarch, version, exe string) error {
	args := []string{"build", "-trimpath", "-o", exe}
	if version != "" {
		args = append(args, "-ldflags", "-X main.Version="+version)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, ".")...) //nolint:gosec // the author's own build of the directory they named
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build: go build in %s for %s/%s: %w\n%s", dir, goos, goarch, err, strings.TrimSpace(string(b)))
	}
	return nil
}

// describeManifest starts the plugin exe as the gateway would, and returns
// the manifest of what it says it is. A version asked for that the plugin
// does not report is an error naming where to declare it (where).
func describeManifest(ctx context.Context, exe, version, where string) (pkgindex.Manifest, error) {
	def, err := external.LoadWith(ctx, exe, external.Options{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		return pkgindex.Manifest{}, fmt.Errorf("build: the plugin does not start: %w", err)
	}
	if version != "" && def.Version != version {
		return pkgindex.Manifest{}, fmt.Errorf("build: the plugin reports version %q, not %q: declare its version in %s", def.Version, version, where)
	}
	if !versionPattern.MatchString(def.Version) {
		return pkgindex.Manifest{}, fmt.Errorf("build: the plugin reports version %q, not a version such as 1.2.0", def.Version)
	}
	typ := pkgindex.TypePlugin
	if def.Kind == edgeplugin.KindNotification || def.Kind == edgeplugin.KindDispatcher {
		typ = pkgindex.TypeService
	}
	return pkgindex.Manifest{Name: def.Name, Version: def.Version, Type: typ, Kind: def.Kind, Description: def.Description}, nil
}

// skipped are the names at the top of a Python plugin's directory its
// package leaves out: tests, virtual environments, caches, build output,
// lib (the SDK's place) and a launcher of its own.
var skipped = []string{".venv", "venv", "tests", "__pycache__", ".pytest_cache", ".git", "dist", "build", "lib", pkgindex.Executable}

// versionLine is the declaration of a Python plugin's version that build
// -version sets.
var versionLine = regexp.MustCompile(`(?m)^(\s+version\s*=\s*)"[^"\n]*"`)

// buildPython stages the Python plugin in dir: its files, the plugin SDK
// from the Python it is built with (lib/) and a launcher; then describes it
// with that Python.
func buildPython(ctx context.Context, dir, stage string, o buildOptions) (pkgindex.Manifest, error) {
	entry, err := pythonEntry(dir)
	if err != nil {
		return pkgindex.Manifest{}, err
	}
	python := o.python
	if python == "" {
		python = os.Getenv(pythonPluginEnv)
	}
	if venv := filepath.Join(dir, ".venv", "bin", "python"); python == "" {
		if _, err := os.Stat(venv); err == nil {
			python = venv
		}
	}
	if python == "" {
		python = "python3"
	}
	if p, err := exec.LookPath(python); err == nil {
		python, _ = filepath.Abs(p)
	}
	if _, err := os.Stat(filepath.Join(dir, "requirements.txt")); err != nil {
		return pkgindex.Manifest{}, fmt.Errorf("build: %s has no requirements.txt: a Python plugin declares what it needs (edged-plugin at least)", dir)
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || rel == "." {
			return err
		}
		n, top := d.Name(), !strings.ContainsRune(rel, filepath.Separator)
		if (top && slices.Contains(skipped, n)) || n == "__pycache__" || strings.HasSuffix(n, ".pyc") ||
			(top && (strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".egg-info"))) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path) //nolint:gosec // a file of the plugin the author named
		if err != nil {
			return err
		}
		if rel == entry && o.version != "" {
			if n := len(versionLine.FindAllIndex(b, -1)); n != 1 {
				return fmt.Errorf("build: -version needs one `version = \"…\"` line in the plugin class of %s, found %d", entry, n)
			}
			b = versionLine.ReplaceAll(b, []byte(`${1}"`+o.version+`"`))
		}
		return writeStaged(stage, rel, b, 0o644)
	})
	if err != nil {
		return pkgindex.Manifest{}, err
	}
	sdkPath, sdkReqs, err := sdk(ctx, python)
	if err != nil {
		return pkgindex.Manifest{}, err
	}
	own, err := os.ReadFile(filepath.Join(dir, "requirements.txt")) //nolint:gosec // the plugin's own file
	if err != nil {
		return pkgindex.Manifest{}, err
	}
	if err := writeStaged(stage, "requirements.txt", requirements(own, sdkReqs), 0o644); err != nil {
		return pkgindex.Manifest{}, err
	}
	err = filepath.WalkDir(sdkPath, func(path string, d fs.DirEntry, err error) error { //nolint:gosec // the SDK the author's Python imports
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "__pycache__" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".py") {
			return nil
		}
		rel, err := filepath.Rel(sdkPath, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path) //nolint:gosec // the installed plugin SDK
		if err != nil {
			return err
		}
		return writeStaged(stage, filepath.Join("lib", "edged_plugin", rel), b, 0o644)
	})
	if err != nil {
		return pkgindex.Manifest{}, err
	}
	launcher := fmt.Sprintf(`#!/bin/sh
# Starts the plugin with the edged plugin SDK shipped beside it (lib/). The
# Python that runs it (%[1]s, default python3) needs the
# packages requirements.txt lists, but for edged-plugin, which is in lib/.
dir=$(dirname "$0")
PYTHONPATH="$dir/lib${PYTHONPATH:+:$PYTHONPATH}" exec "${%[1]s:-python3}" "$dir/%[2]s"
`, pythonPluginEnv, filepath.ToSlash(entry))
	if err := writeStaged(stage, pkgindex.Executable, []byte(launcher), 0o755); err != nil {
		return pkgindex.Manifest{}, err
	}
	// The launcher runs the Python named by the environment, as it will in
	// the gateway: the one this build was asked to use.
	if err := os.Setenv(pythonPluginEnv, python); err != nil {
		return pkgindex.Manifest{}, err
	}
	m, err := describeManifest(ctx, filepath.Join(stage, pkgindex.Executable), o.version, "the plugin class's `version = \"…\"`")
	if err != nil {
		return pkgindex.Manifest{}, err
	}
	m.Platforms = pythonPlatforms
	if o.goos != "" {
		m.Platforms = []string{o.goos + "/" + o.goarch}
	}
	return m, nil
}

// pythonEntry returns the script of the Python plugin in dir that serves
// it: main.py, or the only script at its top.
func pythonEntry(dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, "main.py")); err == nil {
		return "main.py", nil
	}
	scripts, err := filepath.Glob(filepath.Join(dir, "*.py"))
	if err != nil {
		return "", err
	}
	scripts = slices.DeleteFunc(scripts, func(s string) bool {
		b := filepath.Base(s)
		return strings.HasPrefix(b, "test_") || b == "conftest.py" || b == "setup.py"
	})
	if len(scripts) != 1 {
		return "", fmt.Errorf("build: %s has no main.py and %d other scripts at its top: name the one that serves the plugin main.py", dir, len(scripts))
	}
	return filepath.Base(scripts[0]), nil
}

// sdkProbe prints the directory of the plugin SDK (package edged_plugin) a
// Python imports, then the SDK's runtime requirements, one a line: from the
// installed distribution's metadata, or from the pyproject.toml beside a
// source tree's package (PYTHONPATH=pluginsdk/python).
const sdkProbe = `import os, edged_plugin
d = os.path.dirname(os.path.abspath(edged_plugin.__file__))
print(d)
try:
    from importlib.metadata import requires
    reqs = requires("edged-plugin") or []
except Exception:
    import tomllib
    with open(os.path.join(os.path.dirname(d), "pyproject.toml"), "rb") as f:
        reqs = tomllib.load(f)["project"]["dependencies"]
for r in reqs:
    print(r)
`

// sdk returns the directory of the plugin SDK python imports and the SDK's
// runtime requirements.
func sdk(ctx context.Context, python string) (string, []string, error) {
	cmd := exec.CommandContext(ctx, python, "-c", sdkProbe) //nolint:gosec // the Python the author named
	b, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", nil, fmt.Errorf("build: %s cannot import the plugin SDK (pip install the edged-plugin wheel into it, or name another Python with -python): %w", python, err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[0], lines[1:], nil
}

// requirements returns the requirements.txt of a Python plugin's package:
// the plugin's own (in), but for the SDK, which the package carries, and
// the SDK's runtime requirements, which the Python running it needs.
func requirements(in []byte, sdkReqs []string) []byte {
	var b bytes.Buffer
	b.WriteString("# What the Python running this plugin (EDGED_PLUGIN_PYTHON) needs. The\n" +
		"# plugin SDK (edged-plugin) is in lib/; these are its requirements and the plugin's.\n")
	for _, r := range sdkReqs {
		b.WriteString(r + "\n")
	}
	for line := range strings.SplitSeq(string(in), "\n") {
		req := strings.TrimSpace(line)
		name := strings.ToLower(strings.ReplaceAll(sdkName.FindString(req), "_", "-"))
		if req == "" || strings.HasPrefix(req, "#") || name == "edged-plugin" {
			continue
		}
		b.WriteString(req + "\n")
	}
	return b.Bytes()
}

// sdkName matches the project name at the start of a requirement line.
var sdkName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*`)

// writeStaged writes b as rel under stage.
func writeStaged(stage, rel string, b []byte, mode os.FileMode) error {
	path := filepath.Join(stage, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil { //nolint:gosec // rel is relative, from a walk of the author's own files or our templates
		return err
	}
	return os.WriteFile(path, b, mode) //nolint:gosec // as above
}
