package fileperm_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/edged/edged/internal/fileperm"
)

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func chmod(t *testing.T, path string, m fs.FileMode) {
	t.Helper()
	if err := os.Chmod(path, m); err != nil {
		t.Fatal(err)
	}
}

func TestPrivateDir(t *testing.T) {
	base := t.TempDir()
	chmod(t, base, 0o755)
	t.Run("created", func(t *testing.T) {
		dir := filepath.Join(base, "new", "data")
		if err := fileperm.PrivateDir(dir); err != nil {
			t.Fatal(err)
		}
		if m := mode(t, dir); m != 0o700 {
			t.Errorf("mode %v, want 0700", m)
		}
	})
	t.Run("existing one tightened, parents left alone", func(t *testing.T) {
		dir := filepath.Join(base, "old")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		chmod(t, dir, 0o775)
		if err := fileperm.PrivateDir(dir); err != nil {
			t.Fatal(err)
		}
		if m := mode(t, dir); m != 0o700 {
			t.Errorf("mode %v, want 0700", m)
		}
		if m := mode(t, base); m != 0o755 {
			t.Errorf("parent mode %v, want it left at 0755", m)
		}
	})
}

func TestTighten(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		mode fs.FileMode
		want fs.FileMode
	}{
		{name: "readable by all", mode: 0o644, want: 0o600},
		{name: "writable by the group", mode: 0o664, want: 0o600},
		{name: "owner bits kept", mode: 0o400, want: 0o400},
		{name: "already private", mode: 0o600, want: 0o600},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			chmod(t, p, tc.mode)
			if err := fileperm.Tighten(p, filepath.Join(dir, "missing")); err != nil {
				t.Fatal(err)
			}
			if m := mode(t, p); m != tc.want {
				t.Errorf("mode %v, want %v", m, tc.want)
			}
		})
	}
}

func TestTightenDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "certs")
	if err := fileperm.TightenDir(dir); err != nil {
		t.Fatalf("missing directory: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	chmod(t, dir, 0o755)
	for _, name := range []string{"a.cert", "a.key"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		chmod(t, filepath.Join(dir, name), 0o644)
	}
	if err := fileperm.TightenDir(dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]fs.FileMode{".": 0o700, "a.cert": 0o600, "a.key": 0o600} {
		if m := mode(t, filepath.Join(dir, name)); m != want {
			t.Errorf("%s: mode %v, want %v", name, m, want)
		}
	}
}

func TestCreateFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "edged.db")
	if err := fileperm.CreateFile(p); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, p); m != 0o600 {
		t.Errorf("new file: mode %v, want 0600", m)
	}
	if err := os.WriteFile(p, []byte("content"), 0o600); err != nil {
		t.Fatal(err)
	}
	chmod(t, p, 0o644)
	if err := fileperm.CreateFile(p); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, p); m != 0o600 {
		t.Errorf("existing file: mode %v, want 0600", m)
	}
	if b, _ := os.ReadFile(p); string(b) != "content" {
		t.Errorf("existing file's content changed to %q", b)
	}
}
