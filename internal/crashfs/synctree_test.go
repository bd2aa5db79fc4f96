package crashfs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/edged/edged/internal/durable"
)

// TestSyncTreeKeepsARenamedTree checks durable.SyncTree, with which a
// package is installed: a tree written in a staging directory, synced,
// renamed into place and its new directory synced survives a power cut
// whole. The same tree renamed without SyncTree keeps its name but loses
// its files, which is what the test would see if SyncTree synced nothing.
func TestSyncTreeKeepsARenamedTree(t *testing.T) {
	fsys := New()
	root, cut := mountForTest(t, fsys)
	installed := filepath.Join(root, "packages")
	if err := os.Mkdir(installed, 0o750); err != nil {
		t.Fatal(err)
	}
	syncPath(t, root)

	for _, c := range []struct {
		name   string
		synced bool
	}{{"synced", true}, {"unsynced", false}} {
		staging := filepath.Join(installed, ".staging-"+c.name)
		for _, d := range []string{staging, filepath.Join(staging, "lib")} {
			if err := os.Mkdir(d, 0o750); err != nil {
				t.Fatal(err)
			}
		}
		writeFile(t, filepath.Join(staging, "manifest.json"), `{"name": "`+c.name+`"}`)
		writeFile(t, filepath.Join(staging, "lib", "plugin"), "binary of "+c.name)
		if c.synced {
			if err := durable.SyncTree(staging); err != nil {
				t.Fatalf("SyncTree: %v", err)
			}
		}
		if err := os.Rename(staging, filepath.Join(installed, c.name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := durable.SyncDir(installed); err != nil {
		t.Fatalf("SyncDir: %v", err)
	}
	cut()

	for _, c := range []struct{ path, want string }{
		{"synced/manifest.json", `{"name": "synced"}`},
		{"synced/lib/plugin", "binary of synced"},
	} {
		if got := readFile(filepath.Join(installed, c.path)); got != c.want {
			t.Errorf("after the cut %s holds %q, want %q", c.path, got, c.want)
		}
	}
	if got := readFile(filepath.Join(installed, "unsynced", "lib", "plugin")); got == "binary of unsynced" {
		t.Error("the tree renamed without SyncTree kept its files: the cut drops nothing, so the test proves nothing")
	}
}
