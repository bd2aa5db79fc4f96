package pkgrepo

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ed25519"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func key(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return pub, priv
}

// published returns a repository directory with one package in it,
// served over HTTP, and the repository as a client sees it.
func published(t *testing.T) (string, Repo) {
	t.Helper()
	pub, priv := key(t)
	dir := t.TempDir()
	archive, err := Pack([]File{{Name: "plugin", Data: []byte("#!/bin/sh\n"), Exec: true}, {Name: "manifest.json", Data: []byte(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1.0.0", "1.10.0", "1.9.0"} {
		if err := Publish(dir, priv, Package{Name: "csv_south", Version: v, Type: TypePlugin, Kind: "south"},
			map[string][]byte{runtime.GOOS + "/" + runtime.GOARCH: archive}); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return dir, Repo{URL: u, Keys: []ed25519.PublicKey{pub}, Client: srv.Client()}
}

func TestPublishFetchAndInstall(t *testing.T) {
	_, repo := published(t)
	ix, err := repo.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ix.Latest("csv_south", "latest")
	if !ok || p.Version != "1.10.0" {
		t.Fatalf("latest = %+v, %v", p, ok)
	}
	if p, ok := ix.Latest("csv_south", "1.9.0"); !ok || p.Version != "1.9.0" {
		t.Errorf("pinned = %+v, %v", p, ok)
	}
	a, ok := p.Artifact(runtime.GOOS, runtime.GOARCH)
	if !ok {
		t.Fatal("no artifact for this platform")
	}
	data, err := repo.Download(t.Context(), a)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "csv_south")
	if err := Unpack(data, dir, 1<<20); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "plugin")); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("unpacked plugin: %v, %v", fi, err)
	}
}

func TestRefusesUntrusted(t *testing.T) {
	cases := []struct {
		name   string
		tamper func(t *testing.T, dir string, repo *Repo)
		want   error
	}{
		{"unsigned", func(t *testing.T, dir string, _ *Repo) {
			if err := os.Remove(filepath.Join(dir, SignatureFile)); err != nil {
				t.Fatal(err)
			}
		}, ErrUnsigned},
		{"signed by another key", func(t *testing.T, _ string, repo *Repo) {
			other, _ := key(t)
			repo.Keys = []ed25519.PublicKey{other}
		}, ErrBadSignature},
		{"index changed after signing", func(t *testing.T, dir string, _ *Repo) {
			path := filepath.Join(dir, IndexFile)
			b, _ := os.ReadFile(path)
			if err := os.WriteFile(path, bytes.Replace(b, []byte(`"1.9.0"`), []byte(`"9.9.9"`), 1), 0o644); err != nil {
				t.Fatal(err)
			}
		}, ErrBadSignature},
		{"garbage signature", func(t *testing.T, dir string, _ *Repo) {
			if err := os.WriteFile(filepath.Join(dir, SignatureFile), []byte("not base64!"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, ErrBadSignature},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, repo := published(t)
			c.tamper(t, dir, &repo)
			if _, err := repo.Index(t.Context()); !errors.Is(err, c.want) {
				t.Errorf("Index = %v, want %v", err, c.want)
			}
		})
	}
}

func TestRefusesTamperedArtifact(t *testing.T) {
	dir, repo := published(t)
	ix, err := repo.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ix.Latest("csv_south", "")
	a, _ := p.Artifact(runtime.GOOS, runtime.GOARCH)
	path := filepath.Join(dir, filepath.FromSlash(a.Path))
	b, _ := os.ReadFile(path)
	b[len(b)-1] ^= 0xff // same size, other content
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Download(t.Context(), a); !errors.Is(err, ErrTampered) {
		t.Errorf("Download of a changed artifact = %v, want ErrTampered", err)
	}
	if err := os.WriteFile(path, append(b, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Download(t.Context(), a); err == nil {
		t.Error("Download of a longer artifact = nil")
	}
}

func rawArchive(t *testing.T, hdrs ...*tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, h := range hdrs {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			if _, err := tw.Write(make([]byte, h.Size)); err != nil {
				t.Fatal(err)
			}
		}
	}
	_ = tw.Close()
	_ = zw.Close()
	return buf.Bytes()
}

func TestUnpackRefusesUnsafe(t *testing.T) {
	cases := []struct {
		name string
		hdr  *tar.Header
		want error
	}{
		{"absolute path", &tar.Header{Name: "/etc/passwd", Typeflag: tar.TypeReg, Size: 1}, ErrUnsafe},
		{"parent directory", &tar.Header{Name: "a/../../x", Typeflag: tar.TypeReg, Size: 1}, ErrUnsafe},
		{"symbolic link", &tar.Header{Name: "l", Typeflag: tar.TypeSymlink, Linkname: "/etc"}, ErrUnsafe},
		{"hard link", &tar.Header{Name: "h", Typeflag: tar.TypeLink, Linkname: "../x"}, ErrUnsafe},
		{"oversized", &tar.Header{Name: "big", Typeflag: tar.TypeReg, Size: 2048}, ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "target")
			err := Unpack(rawArchive(t, &tar.Header{Name: "ok", Typeflag: tar.TypeReg, Size: 1}, c.hdr), dir, 1024)
			if !errors.Is(err, c.want) {
				t.Errorf("Unpack = %v, want %v", err, c.want)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the target exists after a refused unpack: %v", err)
			}
		})
	}
}

func TestCompareVersions(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1.0.0", "1.0.0", 0}, {"1.9.0", "1.10.0", -1}, {"2.0", "1.99.99", 1}, {"1.0", "1.0.1", -1},
	}
	for _, c := range cases {
		t.Run(c.a+"_"+c.b, func(t *testing.T) {
			if got := CompareVersions(c.a, c.b); got != c.want {
				t.Errorf("CompareVersions = %d, want %d", got, c.want)
			}
		})
	}
}
