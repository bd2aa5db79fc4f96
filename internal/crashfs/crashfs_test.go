package crashfs

import (
	"os"
	"path/filepath"
	"testing"
)

// mountForTest mounts fsys on a new directory, skipping where /dev/fuse is
// missing, and returns the directory and a function that cuts the power.
func mountForTest(t *testing.T, fsys *FS) (string, func()) {
	t.Helper()
	if _, err := os.Stat("/dev/fuse"); err != nil {
		t.Skip("/dev/fuse is missing: no FUSE mount is possible here")
	}
	dir := t.TempDir()
	srv, err := fsys.Mount(dir)
	if err != nil {
		t.Fatalf("mount (needs root or fusermount3): %v", err)
	}
	t.Cleanup(func() { _ = srv.Unmount() })
	cut := func() {
		t.Helper()
		if err := srv.Unmount(); err != nil {
			t.Fatalf("unmount: %v", err)
		}
		fsys.Cut()
		if srv, err = fsys.Mount(dir); err != nil {
			t.Fatalf("mount again: %v", err)
		}
	}
	return dir, cut
}

func syncPath(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if err := f.Sync(); err != nil {
		t.Fatalf("fsync %s: %v", path, err)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func TestCutKeepsOnlyWhatWasSynced(t *testing.T) {
	fsys := New()
	dir, cut := mountForTest(t, fsys)
	durable := filepath.Join(dir, "durable")
	unnamed := filepath.Join(dir, "synced-but-not-its-name")
	volatile := filepath.Join(dir, "volatile")
	sub := filepath.Join(dir, "sub")

	writeFile(t, durable, "v1")
	syncPath(t, durable)
	writeFile(t, unnamed, "data")
	syncPath(t, unnamed)
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	syncPath(t, dir) // durable, unnamed and sub now have durable names
	writeFile(t, filepath.Join(sub, "in-sub"), "x")
	syncPath(t, filepath.Join(sub, "in-sub")) // contents, not the name in sub
	writeFile(t, durable, "v2, not synced")
	writeFile(t, volatile, "never synced")
	if err := os.Rename(unnamed, filepath.Join(dir, "renamed")); err != nil {
		t.Fatal(err)
	}

	if got := readFile(durable); got != "v2, not synced" {
		t.Fatalf("before the cut, programs read %q", got)
	}
	cut()

	tests := []struct {
		path, want string
	}{
		{path: durable, want: "v1"},
		{path: unnamed, want: "data"}, // the rename was not synced
		{path: filepath.Join(dir, "renamed"), want: "<open " + dir + "/renamed: no such file or directory>"},
		{path: volatile, want: "<open " + volatile + ": no such file or directory>"},
		{path: filepath.Join(sub, "in-sub"), want: "<open " + sub + "/in-sub: no such file or directory>"},
	}
	for _, tc := range tests {
		if got := readFile(tc.path); got != tc.want {
			t.Errorf("after the cut %s holds %q, want %q", filepath.Base(tc.path), got, tc.want)
		}
	}
	if fsys.Syncs() != 4 {
		t.Errorf("%d fsyncs served, want 4", fsys.Syncs())
	}
}

func TestUnsyncedTruncationIsUndone(t *testing.T) {
	fsys := New()
	dir, cut := mountForTest(t, fsys)
	path := filepath.Join(dir, "f")
	writeFile(t, path, "0123456789")
	syncPath(t, path)
	syncPath(t, dir)
	if err := os.Truncate(path, 3); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("XY"), 8); err != nil { // extends with zeros
		t.Fatal(err)
	}
	_ = f.Close()
	if got := readFile(path); got != "012\x00\x00\x00\x00\x00XY" {
		t.Fatalf("before the cut: %q", got)
	}
	cut()
	if got := readFile(path); got != "0123456789" {
		t.Errorf("after the cut: %q, want the synced contents", got)
	}
}
