// Command modproxy publishes a Go module of this repository at a version
// into a directory laid out as a Go module proxy (the GOPROXY protocol:
// MODULE/@v/list, VERSION.info, VERSION.mod and VERSION.zip, the zip made by
// golang.org/x/mod/zip as the go command makes it), so that
// GOPROXY=file:///that/dir serves it to `go get` with no server:
//
//	go run ./scripts/modproxy -module clients/go -version v2.0.0 -out dist/release-2.0.0/goproxy
//
// make release runs it for the Go SDK and the Go plugin SDK. It prints the
// module path and version ("the module tag line").
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("module", "", "the module's directory (holding its go.mod)")
	version := flag.String("version", "", "the version to publish it at (vX.Y.Z)")
	out := flag.String("out", "", "the proxy directory to publish into")
	flag.Parse()
	if *dir == "" || *version == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: modproxy -module DIR -version vX.Y.Z -out PROXYDIR")
		os.Exit(2)
	}
	m, err := publish(*dir, *version, *out, time.Now().UTC())
	if err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
	fmt.Println(m.Path, m.Version)
}

// publish writes the module in dir at version into the proxy directory out
// and returns the module's path and version.
func publish(dir, version, out string, now time.Time) (module.Version, error) {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return module.Version{}, err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return module.Version{}, fmt.Errorf("%s/go.mod declares no module path", dir)
	}
	m := module.Version{Path: path, Version: version}
	// The path's major version suffix (/v2 …) must agree with the version:
	// Go refuses v2.0.0 of a module whose path has no /v2.
	if err := module.Check(m.Path, m.Version); err != nil {
		return m, err
	}
	escaped, err := module.EscapePath(m.Path)
	if err != nil {
		return m, err
	}
	escVersion, err := module.EscapeVersion(m.Version)
	if err != nil {
		return m, err
	}
	at := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return m, err
	}
	var zipped bytes.Buffer
	if err := modzip.CreateFromDir(&zipped, m, dir); err != nil {
		return m, fmt.Errorf("zipping %s: %w", dir, err)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, now})
	if err != nil {
		return m, err
	}
	files := map[string][]byte{
		escVersion + ".zip":  zipped.Bytes(),
		escVersion + ".mod":  gomod,
		escVersion + ".info": info,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return m, err
		}
	}
	// list names every version the directory serves: this one added to any
	// published before into the same directory.
	list, err := os.ReadFile(filepath.Join(at, "list"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return m, err
	}
	if !bytes.Contains(append([]byte("\n"), list...), []byte("\n"+m.Version+"\n")) {
		list = append(list, m.Version+"\n"...)
	}
	return m, os.WriteFile(filepath.Join(at, "list"), list, 0o644)
}
