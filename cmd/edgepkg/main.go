// Command edgepkg is the plugin author's and the publisher's tool for the
// edged gateway: it scaffolds a plugin, packages any plugin directory (Go
// or Python) and maintains a signed package repository.
//
//	edgepkg init -lang go|python -kind south|north|filter [-name NAME] DIR
//	    writes a new plugin with its tests into DIR (which must not exist
//	    or be empty), named NAME (default: DIR's base name).
//	edgepkg build [-os OS -arch ARCH] [-version V] [-python PY] [-out DIR] PLUGINDIR
//	    packages the plugin in PLUGINDIR: a Go main package is compiled for
//	    OS/ARCH (default: this machine's), a Python plugin is packed with its
//	    files, its requirements.txt, the plugin SDK it was tested with (lib/)
//	    and a launcher, for every platform. The plugin is started once to
//	    describe itself: the package takes its name, kind, description and
//	    version from that description. -version sets the version (Go: the
//	    variable main.Version; Python: the plugin class's version). Writes
//	    NAME-VERSION-OS-ARCH.tar.gz (Go) or NAME-VERSION-py.tar.gz (Python)
//	    into -out (default ".") and prints its path.
//	edgepkg keygen -out KEYFILE
//	    writes a new ed25519 private key (base64 seed) to KEYFILE, mode
//	    0600, and prints the public key to put in the gateway's
//	    Installation category (trustedKeys).
//	edgepkg publish -key KEYFILE -repo DIR [-valid DURATION] ARCHIVE...
//	    adds the packages built by edgepkg build to the repository DIR
//	    (created if need be; versions already there stay) and signs its
//	    index with the key. Every publication raises the index's version;
//	    the index expires after -valid (default 720h, 30 days).
//	edgepkg sign -key KEYFILE -repo DIR [-valid DURATION]
//	    signs the repository DIR again, unchanged but for a higher index
//	    version and a new expiry: run it before the index expires (weekly,
//	    say), or gateways stop trusting the repository.
//	edgepkg serve [-addr HOST:PORT] DIR
//	    serves the repository DIR over HTTP (default 127.0.0.1:8700) until
//	    interrupted, for trying packages out; prints the URL.
//
// `make packages KEY=KEYFILE` builds and publishes this tree's plugins and
// services through the same commands.
package main

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/edged/edged/pkg/pkgindex"
)

const usage = `usage:
  edgepkg init -lang go|python -kind south|north|filter [-name NAME] DIR
  edgepkg build [-os OS -arch ARCH] [-version V] [-python PY] [-out DIR] PLUGINDIR
  edgepkg keygen -out KEYFILE
  edgepkg publish -key KEYFILE -repo DIR [-valid DURATION] ARCHIVE...
  edgepkg sign -key KEYFILE -repo DIR [-valid DURATION]
  edgepkg serve [-addr HOST:PORT] DIR`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "edgepkg:", err)
		os.Exit(1)
	}
}

// run runs the command of args, writing what it reports to out.
func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet("edgepkg "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	parse := func(positional string, min, max int) ([]string, error) {
		if err := fs.Parse(args[1:]); err != nil {
			return nil, fmt.Errorf("%s: %w\n%s", args[0], err, usage)
		}
		if n := fs.NArg(); n < min || (max >= 0 && n > max) {
			return nil, fmt.Errorf("%s: expects %s\n%s", args[0], positional, usage)
		}
		return fs.Args(), nil
	}
	switch args[0] {
	case "init":
		lang := fs.String("lang", "go", "go or python")
		kind := fs.String("kind", "south", "south, north or filter")
		name := fs.String("name", "", "the plugin's name (default: the directory's base name)")
		pos, err := parse("the plugin's directory", 1, 1)
		if err != nil {
			return err
		}
		return scaffold(pos[0], *lang, *kind, *name, out)
	case "build":
		o := buildOptions{}
		fs.StringVar(&o.goos, "os", "", "target OS (default: this machine's)")
		fs.StringVar(&o.goarch, "arch", "", "target architecture (default: this machine's)")
		fs.StringVar(&o.version, "version", "", "the package's version (default: the plugin's own)")
		fs.StringVar(&o.python, "python", "", "the Python a Python plugin is described with (default: $EDGED_PLUGIN_PYTHON, PLUGINDIR/.venv, python3)")
		fs.StringVar(&o.out, "out", ".", "directory to write the archive into")
		pos, err := parse("the plugin's directory", 1, 1)
		if err != nil {
			return err
		}
		path, err := build(ctx, pos[0], o)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(out, path)
		return err
	case "keygen":
		keyOut := fs.String("out", "", "file to write the private key to")
		if _, err := parse("no argument", 0, 0); err != nil {
			return err
		}
		if *keyOut == "" {
			return errors.New("keygen: -out is required")
		}
		return keygen(*keyOut, out)
	case "publish", "sign":
		keyFile := fs.String("key", "", "private key file (edgepkg keygen)")
		repo := fs.String("repo", "", "repository directory")
		fs.StringVar(repo, "out", "", "the same as -repo")
		valid := fs.Duration("valid", pkgindex.DefaultValidity, "how long the signed index stays valid")
		want, min, max := "no argument", 0, 0
		if args[0] == "publish" {
			want, min, max = "archives built by edgepkg build", 1, -1
		}
		pos, err := parse(want, min, max)
		if err != nil {
			return err
		}
		if *keyFile == "" || *repo == "" {
			return fmt.Errorf("%s: -key and -repo are required", args[0])
		}
		if *valid <= 0 {
			return fmt.Errorf("%s: -valid %v: the index must stay valid for some time", args[0], *valid)
		}
		key, err := readKey(*keyFile)
		if err != nil {
			return err
		}
		if args[0] == "publish" {
			return publish(*repo, key, *valid, pos, out)
		}
		if _, err := os.Stat(filepath.Join(*repo, pkgindex.IndexFile)); err != nil { //nolint:gosec // the repository the publisher named
			return fmt.Errorf("sign: %s is not a repository: %w", *repo, err)
		}
		if err := pkgindex.Resign(*repo, key, *valid); err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "signed %s again, valid for %v\n", filepath.Clean(*repo), *valid)
		return err
	case "serve":
		addr := fs.String("addr", "127.0.0.1:8700", "address to listen on")
		pos, err := parse("the repository's directory", 1, 1)
		if err != nil {
			return err
		}
		return serve(ctx, pos[0], *addr, out)
	case "help", "-h", "-help", "--help":
		_, err := fmt.Fprintln(out, usage)
		return err
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

// keygen writes a new private key to path and the public key to out.
func keygen(path string, out io.Writer) error {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) //nolint:gosec // the key file the publisher named
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(f, base64.StdEncoding.EncodeToString(priv.Seed())); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, base64.StdEncoding.EncodeToString(pub))
	return err
}

func readKey(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path) //nolint:gosec // the key file the publisher named
	if err != nil {
		return nil, err
	}
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("%s is not an edgepkg key file", path)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// publish adds the packages of archives to the repository in dir: the
// archives of one package version (one per platform) are listed together.
func publish(dir string, key ed25519.PrivateKey, valid time.Duration, archives []string, out io.Writer) error {
	type version struct {
		manifest pkgindex.Manifest
		archives map[string][]byte
	}
	var order []string
	versions := map[string]*version{}
	for _, path := range archives {
		b, err := os.ReadFile(path) //nolint:gosec // an archive the publisher named
		if err != nil {
			return err
		}
		m, err := pkgindex.ReadManifest(b)
		if err != nil {
			return fmt.Errorf("%s: %w (build it with edgepkg build)", path, err)
		}
		id := m.Name + " " + m.Version
		v, ok := versions[id]
		if !ok {
			v = &version{manifest: m, archives: map[string][]byte{}}
			versions[id] = v
			order = append(order, id)
		}
		for _, p := range m.Platforms {
			if _, dup := v.archives[p]; dup {
				return fmt.Errorf("%s: a second archive of %s %s for %s", path, m.Name, m.Version, p)
			}
			v.archives[p] = b
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil { //nolint:gosec // a repository is public, served as it is
		return err
	}
	releases := make([]pkgindex.Release, 0, len(order))
	for _, id := range order {
		v := versions[id]
		releases = append(releases, pkgindex.Release{Package: v.manifest.Package(), Archives: v.archives})
	}
	ix, err := pkgindex.PublishAll(dir, key, releases, valid)
	if err != nil {
		return err
	}
	for _, id := range order {
		v := versions[id]
		if _, err := fmt.Fprintf(out, "published %s %s (%s)\n", v.manifest.Name, v.manifest.Version, strings.Join(v.manifest.Platforms, ", ")); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(out, "signed %s: index version %d, expires %s\n", filepath.Clean(dir), ix.Version, ix.Expires.Format(time.RFC3339)); err != nil {
		return err
	}
	return nil
}
