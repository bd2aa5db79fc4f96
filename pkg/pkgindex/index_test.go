package pkgindex

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
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

func TestVerifyRefusesIndexWithoutVersionOrExpiry(t *testing.T) {
	pub, priv := key(t)
	for name, index := range map[string]string{
		"no version": `{"expires":"2099-01-01T00:00:00Z","packages":[]}`,
		"no expiry":  `{"version":3,"packages":[]}`,
		"neither":    `{"packages":[]}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Verify([]byte(index), Sign(priv, []byte(index)), []ed25519.PublicKey{pub}); err == nil ||
				!strings.Contains(err.Error(), "no version or no expiry") {
				t.Errorf("Verify = %v, want a refusal naming the missing version or expiry", err)
			}
		})
	}
}

// TestPublishedIndexVerifies publishes into a directory as edgepkg does and
// reads it back as a gateway does: the index verifies under the publisher's
// key only, its version grows with each publication, and the artifact's
// size and digest are listed.
func TestPublishedIndexVerifies(t *testing.T) {
	pub, priv := key(t)
	dir := t.TempDir()
	archive, err := Pack([]File{{Name: "plugin", Data: []byte("#!/bin/sh\n"), Exec: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1.0.0", "1.1.0"} {
		if err := PublishFor(dir, priv, Package{Name: "p", Version: v, Type: TypePlugin, Kind: "south"},
			map[string][]byte{"linux/amd64": archive, "linux/arm64": archive}, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	index, err := os.ReadFile(filepath.Join(dir, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := os.ReadFile(filepath.Join(dir, SignatureFile))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Verify(index, sig, []ed25519.PublicKey{pub})
	if err != nil {
		t.Fatal(err)
	}
	if ix.Version != 2 || len(ix.Packages) != 2 || time.Until(ix.Expires) > time.Hour {
		t.Errorf("index: version %d, %d packages, expires %v", ix.Version, len(ix.Packages), ix.Expires)
	}
	p, ok := ix.Latest("p", "latest")
	a, found := p.Artifact("linux", "arm64")
	if !ok || p.Version != "1.1.0" || !found || a.Size != int64(len(archive)) || len(a.SHA256) != 64 {
		t.Errorf("latest = %+v, %v; artifact %+v, %v", p, ok, a, found)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(a.Path))); err != nil {
		t.Errorf("artifact file: %v", err)
	}
	other, _ := key(t)
	if _, err := Verify(index, sig, []ed25519.PublicKey{other}); !errors.Is(err, ErrBadSignature) {
		t.Errorf("Verify under another key = %v, want ErrBadSignature", err)
	}
	if _, err := Verify([]byte(strings.Replace(string(index), "1.1.0", "1.2.0", 1)), sig, []ed25519.PublicKey{pub}); !errors.Is(err, ErrBadSignature) {
		t.Errorf("Verify of a changed index = %v, want ErrBadSignature", err)
	}
}

// TestPublishAllIsOnePublication publishes two packages at once: the index
// is signed once, one version up, and lists both.
func TestPublishAllIsOnePublication(t *testing.T) {
	pub, priv := key(t)
	dir := t.TempDir()
	archive, err := Pack([]File{{Name: "plugin", Data: []byte("x"), Exec: true}})
	if err != nil {
		t.Fatal(err)
	}
	releases := []Release{
		{Package{Name: "b", Version: "1.0.0", Type: TypePlugin}, map[string][]byte{"linux/amd64": archive}},
		{Package{Name: "a", Version: "2.0.0", Type: TypePlugin}, map[string][]byte{"linux/amd64": archive, "darwin/arm64": archive}},
	}
	for want := int64(1); want <= 2; want++ {
		ix, err := PublishAll(dir, priv, releases, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		index, _ := os.ReadFile(filepath.Join(dir, IndexFile))
		sig, _ := os.ReadFile(filepath.Join(dir, SignatureFile))
		signed, err := Verify(index, sig, []ed25519.PublicKey{pub})
		if err != nil {
			t.Fatal(err)
		}
		if ix.Version != want || signed.Version != want || !signed.Expires.Equal(ix.Expires) || len(signed.Packages) != 2 ||
			signed.Packages[0].Name != "a" || len(signed.Packages[0].Artifacts) != 2 {
			t.Errorf("publication %d: returned version %d, signed %+v", want, ix.Version, signed)
		}
	}
}
