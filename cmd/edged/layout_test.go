package main

import (
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// TestLayoutNamesEveryPackage: the README's layout table names every
// package of the gateway's module and of the Go plugin SDK (a command by
// its path, a package by its name or its path).
func TestLayoutNamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, layout, _ := strings.Cut(string(readme), "\n## Layout\n")
	layout, _, _ = strings.Cut(layout, "\n## ")
	if layout == "" {
		t.Fatal("the README has no Layout section")
	}
	var pkgs []string
	for dir, prefix := range map[string]string{"../..": "github.com/edged/edged/", "../../pluginsdk/go": "github.com/edged/edged/"} {
		cmd := exec.Command("go", "list", "./...")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list in %s: %v", dir, err)
		}
		for p := range strings.FieldsSeq(string(out)) {
			pkgs = append(pkgs, strings.TrimPrefix(p, prefix))
		}
	}
	for _, p := range pkgs {
		if strings.HasPrefix(p, "clients/") {
			continue // each SDK's row names its module
		}
		named := strings.Contains(layout, "`"+p+"`") || strings.Contains(layout, "`"+p+"/`")
		if !strings.HasPrefix(p, "cmd/") {
			rel := strings.TrimPrefix(p, "internal/")
			for _, n := range []string{path.Base(p), rel} {
				named = named || strings.Contains(layout, "`"+n+"`") || strings.Contains(layout, "`"+n+"/`")
			}
		}
		if !named {
			t.Errorf("the README's layout table does not name %s", p)
		}
	}
}
