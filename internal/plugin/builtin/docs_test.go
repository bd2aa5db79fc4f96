package builtin

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsCurrent: every built-in plugin's folder holds its README.md and
// its sample configuration, as generated from its configuration struct
// (`make generate`).
func TestDocsCurrent(t *testing.T) {
	docs, err := Docs()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..", "..")
	readmes := map[string]bool{}
	for _, d := range docs {
		have, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.Path)))
		if err != nil || !bytes.Equal(have, d.Content) {
			t.Errorf("%s is stale: run 'make generate' and commit", d.Path)
		}
		if strings.HasSuffix(d.Path, "README.md") {
			readmes[filepath.Dir(d.Path)] = true
		}
	}
	for _, d := range Definitions() {
		dir, err := Dir(d)
		if err != nil {
			t.Fatal(err)
		}
		if !readmes[filepath.FromSlash(dir)] {
			t.Errorf("plugin %s: its folder %s has no README.md", d.Name, dir)
		}
	}
}

// TestSamplesMatchItems: a sample configuration sets every item of its
// plugin to the item's default, and nothing else.
func TestSamplesMatchItems(t *testing.T) {
	for _, d := range Definitions() {
		b, err := sample(d)
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		cfg, _ := body["config"].(map[string]any)
		if cfg == nil {
			cfg, _ = body["filter_config"].(map[string]any)
		}
		if body["plugin"] != d.Name || len(cfg) != len(d.Items) {
			t.Errorf("%s: sample %s", d.Name, b)
		}
		for n, it := range d.Items {
			if cfg[n] != it.Default {
				t.Errorf("%s: item %s = %v in the sample, default %q", d.Name, n, cfg[n], it.Default)
			}
		}
	}
}

func TestDir(t *testing.T) {
	want := map[string]string{"sinusoid": "internal/plugin/sinusoid", "mqtt_north": "internal/plugin/mqtt",
		"scale": "internal/filter/builtin/scale"}
	for _, d := range Definitions() {
		w, ok := want[d.Name]
		if !ok {
			continue
		}
		if got, err := Dir(d); err != nil || got != w {
			t.Errorf("Dir(%s) = %q, %v; want %q", d.Name, got, err, w)
		}
	}
}
