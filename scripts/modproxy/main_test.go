package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func writeModule(t *testing.T, path string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":     "module " + path + "\n\ngo 1.24\n",
		"lib/lib.go": "package lib\n\n// X is a value.\nconst X = 1\n",
		"README.md":  "a module\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPublish(t *testing.T) {
	tests := []struct {
		name, path, version string
		err                 string
	}{
		{name: "v2 with a /v2 path", path: "example.com/Edge/sdk/v2", version: "v2.0.0"},
		{name: "v1 without a suffix", path: "example.com/edge/sdk", version: "v1.4.0"},
		{name: "v2 without a /v2 path", path: "example.com/edge/sdk", version: "v2.0.0", err: "should be v0 or v1"},
		{name: "not a semantic version", path: "example.com/edge/sdk", version: "2.0", err: "version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeModule(t, tt.path)
			out := t.TempDir()
			m, err := publish(dir, tt.version, out, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			escaped, _ := module.EscapePath(m.Path)
			at := filepath.Join(out, escaped, "@v")
			list, err := os.ReadFile(filepath.Join(at, "list"))
			if err != nil || string(list) != tt.version+"\n" {
				t.Errorf("list = %q, %v", list, err)
			}
			// The zip is what the go command accepts: CheckZip verifies
			// the path, the version and every file name.
			if _, err := modzip.CheckZip(m, filepath.Join(at, tt.version+".zip")); err != nil {
				t.Errorf("zip: %v", err)
			}
			info, err := os.ReadFile(filepath.Join(at, tt.version+".info"))
			if err != nil || !strings.Contains(string(info), `"Version":"`+tt.version+`"`) {
				t.Errorf("info = %s, %v", info, err)
			}
			// Publishing again keeps one line per version.
			if _, err := publish(dir, tt.version, out, time.Now()); err != nil {
				t.Fatal(err)
			}
			if list, _ := os.ReadFile(filepath.Join(at, "list")); string(list) != tt.version+"\n" {
				t.Errorf("list after a second publication = %q", list)
			}
		})
	}
}
