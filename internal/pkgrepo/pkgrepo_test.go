package pkgrepo

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/ed25519"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
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
	f, err := repo.Download(t.Context(), a, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	dir := filepath.Join(t.TempDir(), "csv_south")
	if err := Unpack(f, dir, 1<<20); err != nil {
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
	tmp := t.TempDir()
	if _, err := repo.Download(t.Context(), a, tmp); !errors.Is(err, ErrTampered) {
		t.Errorf("Download of a changed artifact = %v, want ErrTampered", err)
	}
	if err := os.WriteFile(path, append(b, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Download(t.Context(), a, tmp); err == nil {
		t.Error("Download of a longer artifact = nil")
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("refused downloads left %v behind", left)
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
			err := Unpack(bytes.NewReader(rawArchive(t, &tar.Header{Name: "ok", Typeflag: tar.TypeReg, Size: 1}, c.hdr)), dir, 1024)
			if !errors.Is(err, c.want) {
				t.Errorf("Unpack = %v, want %v", err, c.want)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the target exists after a refused unpack: %v", err)
			}
		})
	}
}

func TestIndexVersionAndExpiry(t *testing.T) {
	dir, repo := published(t) // three publications
	ix, err := repo.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if ix.Version != 3 {
		t.Errorf("index version after three publications = %d, want 3", ix.Version)
	}
	if d := time.Until(ix.Expires); d < DefaultValidity-time.Minute || d > DefaultValidity {
		t.Errorf("index expires in %v, want %v", d, DefaultValidity)
	}
	_, priv := key(t)
	repo.Keys = append(repo.Keys, priv.Public().(ed25519.PublicKey))
	if err := Resign(dir, priv, time.Hour); err != nil {
		t.Fatal(err)
	}
	again, err := repo.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if again.Version != 4 || len(again.Packages) != len(ix.Packages) || time.Until(again.Expires) > time.Hour {
		t.Errorf("re-signed index: version %d, %d packages, expires %v", again.Version, len(again.Packages), again.Expires)
	}

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name     string
		version  int64
		expires  time.Time
		accepted int64
		want     error
	}{
		{"first seen", 1, now.Add(time.Hour), 0, nil},
		{"same version again", 5, now.Add(time.Hour), 5, nil},
		{"newer", 6, now.Add(time.Hour), 5, nil},
		{"older", 4, now.Add(time.Hour), 5, ErrRollback},
		{"expired", 6, now.Add(-time.Second), 5, ErrExpired},
		{"expiring now", 6, now, 5, ErrExpired},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ix := Index{Version: c.version, Expires: c.expires}
			if err := ix.Check(now, c.accepted); !errors.Is(err, c.want) || (err == nil) != (c.want == nil) {
				t.Errorf("Check = %v, want %v", err, c.want)
			}
		})
	}
}

func TestFetchErrorsNameOnlyTheirCategory(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	_ = l.Close()
	status := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusForbidden)
	}))
	t.Cleanup(status.Close)
	hang := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(hang) })
	cases := []struct {
		name, url, category, message string
		timeout                      time.Duration
	}{
		{"nothing listens", closed, Unreachable, "the package repository is unreachable", time.Minute},
		{"no such host", "http://edged-no-such-host.invalid", Unreachable, "the package repository is unreachable", time.Minute},
		{"answers 403", status.URL, Refused, "the package repository refused the request with status 403", time.Minute},
		{"does not answer", slow.URL, TimedOut, "the package repository timed out", 100 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, _ := url.Parse(c.url)
			ctx, cancel := context.WithTimeout(t.Context(), c.timeout)
			defer cancel()
			_, err := Repo{URL: u, Client: &http.Client{}}.Index(ctx)
			var fe *FetchError
			if !errors.As(err, &fe) || fe.Category != c.category {
				t.Fatalf("Index = %#v, want a %s FetchError", err, c.category)
			}
			if err.Error() != c.message {
				t.Errorf("message %q, want %q", err.Error(), c.message)
			}
			if d := Detail(err); !strings.Contains(d, u.Host) {
				t.Errorf("Detail %q does not hold the full error for the log", d)
			}
		})
	}
}

func TestUnpackStreamsEntryByEntry(t *testing.T) {
	const size = 96 << 20
	pr, pw := io.Pipe()
	go func() {
		zw, _ := gzip.NewWriterLevel(pw, gzip.BestSpeed)
		tw := tar.NewWriter(zw)
		err := tw.WriteHeader(&tar.Header{Name: "big", Typeflag: tar.TypeReg, Size: size, Mode: 0o644})
		if err == nil {
			_, err = io.Copy(tw, io.LimitReader(zeros{}, size))
		}
		if err == nil {
			err = tw.Close()
		}
		if err == nil {
			err = zw.Close()
		}
		pw.CloseWithError(err)
	}()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	dir := filepath.Join(t.TempDir(), "pkg")
	if err := Unpack(pr, dir, size); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	// The archive's writer allocates too; the unpacker must not hold the
	// entry (96 MiB) whole.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("unpacking %d MiB allocated %d MiB", size>>20, grew>>20)
	}
	if fi, err := os.Stat(filepath.Join(dir, "big")); err != nil || fi.Size() != size {
		t.Errorf("unpacked file: %v, %v", fi, err)
	}
}

func TestUnpackRefusesTwiceNamedEntry(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "target")
	h := func() *tar.Header { return &tar.Header{Name: "plugin", Typeflag: tar.TypeReg, Size: 1} }
	if err := Unpack(bytes.NewReader(rawArchive(t, h(), h())), dir, 1024); !errors.Is(err, ErrUnsafe) {
		t.Errorf("Unpack = %v, want ErrUnsafe", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the target exists after a refused unpack: %v", err)
	}
}

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
