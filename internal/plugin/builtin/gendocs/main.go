// Command gendocs writes the README.md and sample configurations of the
// built-in plugins into their folders, generated from their configuration
// structs (builtin.Docs); with -check it writes nothing and fails when a
// file in the tree differs. `make generate` and `make check-generated`
// run it from the repository's root.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/edged/edged/internal/plugin/builtin"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	check := flag.Bool("check", false, "fail when a generated file is stale instead of writing it")
	flag.Parse()
	docs, err := builtin.Docs()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
	stale := 0
	for _, d := range docs {
		p := filepath.Join(*root, filepath.FromSlash(d.Path))
		if *check {
			if have, err := os.ReadFile(p); err != nil || !bytes.Equal(have, d.Content) { //nolint:gosec // a path of the repository
				fmt.Printf("%s is stale: run 'make generate' and commit\n", d.Path)
				stale++
			}
			continue
		}
		if err := os.WriteFile(p, d.Content, 0o644); err != nil { //nolint:gosec // documentation of the repository, world-readable
			fmt.Fprintln(os.Stderr, "gendocs:", err)
			os.Exit(1)
		}
	}
	if stale > 0 {
		os.Exit(1)
	}
}
