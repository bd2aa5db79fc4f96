// Command edgepkg makes package repositories for the edged gateway.
//
//	edgepkg keygen -out KEYFILE
//	    writes a new ed25519 private key (base64 seed) to KEYFILE, mode
//	    0600, and prints the public key to put in the gateway's
//	    Installation category (trustedKeys).
//	edgepkg build -key KEYFILE -out DIR [-version V] [-valid DURATION]
//	    builds this repository's plugins for this OS and architecture,
//	    packages them and publishes them into the repository DIR (created
//	    if need be; versions already there stay), signing the index with
//	    the key. Every publication raises the index's version; the index
//	    expires after -valid (default 720h, 30 days).
//	edgepkg sign -key KEYFILE -out DIR [-valid DURATION]
//	    signs the repository DIR again, unchanged but for a higher index
//	    version and a new expiry: run it before the index expires (weekly,
//	    say), or gateways stop trusting the repository.
//
// `make packages KEY=KEYFILE` runs the build.
package main

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/plugin/external"
)

// goPlugins are the Go plugins of this repository (directories of
// pluginsdk/go/examples) and their manifests.
var goPlugins = []struct {
	dir string
	pkg pkgrepo.Package
}{
	{"csvsouth", pkgrepo.Package{Name: "csv_south", Type: pkgrepo.TypePlugin, Kind: "south",
		Description: "Reads the rows of a CSV file as readings at a configured rate"}},
	{"scalefilter", pkgrepo.Package{Name: "scale_filter", Type: pkgrepo.TypePlugin, Kind: "filter",
		Description: "Scales numeric reading values: value × factor + offset"}},
	{"filenorth", pkgrepo.Package{Name: "file_north", Type: pkgrepo.TypePlugin, Kind: "north",
		Description: "Appends readings to a file, one JSON object a line"}},
}

// goServices are the service executables of this repository (directories
// of cmd/) and their manifests.
var goServices = []struct {
	dir string
	pkg pkgrepo.Package
}{
	{"edged-notification", pkgrepo.Package{Name: "notification", Type: pkgrepo.TypeService, Kind: "notification",
		Description: "The notification service: rules evaluated on the readings as they are committed, and the channels that deliver when they trigger"}},
	{"edged-dispatcher", pkgrepo.Package{Name: "dispatcher", Type: pkgrepo.TypeService, Kind: "dispatcher",
		Description: "The control dispatcher: setpoint writes and operations carried to the devices behind south services"}},
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "edgepkg:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: edgepkg keygen -out KEYFILE | edgepkg build -key KEYFILE -out DIR [-version V] [-valid D] | edgepkg sign -key KEYFILE -out DIR [-valid D]")
	}
	switch args[0] {
	case "keygen":
		fs := flag.NewFlagSet("keygen", flag.ContinueOnError)
		out := fs.String("out", "", "file to write the private key to")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *out == "" {
			return errors.New("keygen: -out is required")
		}
		pub, priv, err := ed25519.GenerateKey(nil)
		if err != nil {
			return err
		}
		f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
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
		fmt.Println(base64.StdEncoding.EncodeToString(pub))
		return nil
	case "build":
		fs := flag.NewFlagSet("build", flag.ContinueOnError)
		keyFile := fs.String("key", "", "private key file (edgepkg keygen)")
		out := fs.String("out", "", "repository directory")
		version := fs.String("version", "1.0.0", "version to give the packages")
		root := fs.String("root", ".", "root of the edged source tree")
		valid := fs.Duration("valid", pkgrepo.DefaultValidity, "how long the signed index stays valid")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *keyFile == "" || *out == "" {
			return errors.New("build: -key and -out are required")
		}
		if *valid <= 0 {
			return fmt.Errorf("build: -valid %v: the index must stay valid for some time", *valid)
		}
		key, err := readKey(*keyFile)
		if err != nil {
			return err
		}
		return build(*root, *out, *version, key, *valid)
	case "sign":
		fs := flag.NewFlagSet("sign", flag.ContinueOnError)
		keyFile := fs.String("key", "", "private key file (edgepkg keygen)")
		out := fs.String("out", "", "repository directory")
		valid := fs.Duration("valid", pkgrepo.DefaultValidity, "how long the signed index stays valid")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *keyFile == "" || *out == "" {
			return errors.New("sign: -key and -out are required")
		}
		if *valid <= 0 {
			return fmt.Errorf("sign: -valid %v: the index must stay valid for some time", *valid)
		}
		if _, err := os.Stat(filepath.Join(*out, pkgrepo.IndexFile)); err != nil {
			return fmt.Errorf("sign: %s is not a repository: %w", *out, err)
		}
		key, err := readKey(*keyFile)
		if err != nil {
			return err
		}
		if err := pkgrepo.Resign(*out, key, *valid); err != nil {
			return err
		}
		fmt.Printf("signed %s again, valid for %v\n", filepath.Clean(*out), *valid)
		return nil
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func readKey(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path) //nolint:gosec // the key file the operator named
	if err != nil {
		return nil, err
	}
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("%s is not an edgepkg key file", path)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// build builds, packs and publishes every Go plugin and service.
func build(root, out, version string, key ed25519.PrivateKey, valid time.Duration) error {
	tmp, err := os.MkdirTemp("", "edgepkg")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	type program struct {
		pkg   pkgrepo.Package
		build func() (string, error)
	}
	var programs []program
	for _, p := range goPlugins {
		programs = append(programs, program{p.pkg, func() (string, error) {
			return external.BuildExample(context.Background(), root, p.dir, version, tmp)
		}})
	}
	for _, p := range goServices {
		programs = append(programs, program{p.pkg, func() (string, error) {
			return external.BuildService(context.Background(), root, p.dir, version, tmp)
		}})
	}
	for _, p := range programs {
		bin, err := p.build()
		if err != nil {
			return err
		}
		exe, err := os.ReadFile(bin) //nolint:gosec // the executable just built into our temp directory
		if err != nil {
			return err
		}
		pkg := p.pkg
		pkg.Version = version
		manifest, err := json.MarshalIndent(pkg, "", "  ")
		if err != nil {
			return err
		}
		archive, err := pkgrepo.Pack([]pkgrepo.File{{Name: "manifest.json", Data: manifest}, {Name: "plugin", Data: exe, Exec: true}})
		if err != nil {
			return err
		}
		if err := pkgrepo.PublishFor(out, key, pkg, map[string][]byte{runtime.GOOS + "/" + runtime.GOARCH: archive}, valid); err != nil {
			return err
		}
		fmt.Printf("published %s %s into %s\n", pkg.Name, version, filepath.Clean(out))
	}
	return buildWaveform(root, out, version, key, valid)
}

// pythonPlatforms are the platforms a Python plugin's package is listed
// for: its archive is the same on each, and the Python running it
// (EDGED_PLUGIN_PYTHON, default python3) must have the SDK's requirements.
var pythonPlatforms = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64"}

// buildWaveform packages the Python SDK's waveform example with the SDK
// beside it (lib/), its version set to version.
func buildWaveform(root, out, version string, key ed25519.PrivateKey, valid time.Duration) error {
	sdk := filepath.Join(root, "pluginsdk", "python")
	read := func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(sdk, filepath.FromSlash(rel))) //nolint:gosec // fixed files of this source tree
	}
	script, err := read("examples/waveform/waveform.py")
	if err != nil {
		return err
	}
	const declared = `version = "1.0.0"`
	if !strings.Contains(string(script), declared) {
		return fmt.Errorf("waveform.py does not declare %s", declared)
	}
	script = []byte(strings.Replace(string(script), declared, fmt.Sprintf("version = %q", version), 1))
	launcher, err := read("examples/waveform/plugin")
	if err != nil {
		return err
	}
	files := []pkgrepo.File{{Name: "plugin", Data: launcher, Exec: true}, {Name: "waveform.py", Data: script}}
	for _, rel := range []string{"edged_plugin/__init__.py", "edged_plugin/plugin.py", "edged_plugin/config.py",
		"edged_plugin/item.py", "edged_plugin/pb/__init__.py", "edged_plugin/pb/plugin_pb2.py", "edged_plugin/pb/plugin_pb2_grpc.py"} {
		b, err := read(rel)
		if err != nil {
			return err
		}
		files = append(files, pkgrepo.File{Name: "lib/" + rel, Data: b})
	}
	pkg := pkgrepo.Package{Name: "waveform", Version: version, Type: pkgrepo.TypePlugin, Kind: "south",
		Description: "Produces a sine, square, triangle or sawtooth wave (Python)"}
	manifest, err := json.MarshalIndent(pkg, "", "  ")
	if err != nil {
		return err
	}
	archive, err := pkgrepo.Pack(append(files, pkgrepo.File{Name: "manifest.json", Data: manifest}))
	if err != nil {
		return err
	}
	archives := map[string][]byte{}
	for _, p := range pythonPlatforms {
		archives[p] = archive
	}
	if err := pkgrepo.PublishFor(out, key, pkg, archives, valid); err != nil {
		return err
	}
	fmt.Printf("published %s %s into %s\n", pkg.Name, version, filepath.Clean(out))
	return nil
}
