package pkgindex

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// DefaultValidity is how long an index Publish and Resign sign stays
// valid unless told otherwise: long enough that a publisher re-signing
// weekly never lets it lapse, short enough that a repository frozen by a
// mirror or attacker stops being trusted within a month.
const DefaultValidity = 30 * 24 * time.Hour

// File is a file of an artifact.
type File struct {
	Name string
	Data []byte
	Exec bool
}

// Pack returns a gzip'd tar archive of files.
func Pack(files []File) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		mode := int64(0o644)
		if f.Exec {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: f.Name, Mode: mode, Size: int64(len(f.Data)), Typeflag: tar.TypeReg}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Publish adds version p of a package to the repository in dir, with one
// archive per OS/arch in archives (keyed "os/arch"), and signs the index
// anew with key, valid for DefaultValidity. A version already there is
// replaced for the platforms of archives; its artifacts for other
// platforms stay. dir is the publisher's own directory, so its index is read
// without verification.
func Publish(dir string, key ed25519.PrivateKey, p Package, archives map[string][]byte) error {
	return PublishFor(dir, key, p, archives, DefaultValidity)
}

// PublishFor is Publish with the index valid for validFor from now.
func PublishFor(dir string, key ed25519.PrivateKey, p Package, archives map[string][]byte, validFor time.Duration) error {
	_, err := PublishAll(dir, key, []Release{{Package: p, Archives: archives}}, validFor)
	return err
}

// Release is one version of a package to publish: its index entry (its
// artifacts are made from Archives) and one archive per "os/arch".
type Release struct {
	Package  Package
	Archives map[string][]byte
}

// PublishAll adds releases to the repository in dir in one publication: the
// index is written and signed once, at its next version, valid for validFor
// from now, and returned. A version already there is replaced for the
// platforms of its archives; its artifacts for other platforms stay.
func PublishAll(dir string, key ed25519.PrivateKey, releases []Release, validFor time.Duration) (Index, error) {
	ix, err := readOwnIndex(dir)
	if err != nil {
		return Index{}, err
	}
	for _, r := range releases {
		p, err := addRelease(dir, ix, r.Package, r.Archives)
		if err != nil {
			return Index{}, err
		}
		ix.Packages = slices.DeleteFunc(ix.Packages, func(q Package) bool { return q.Name == p.Name && q.Version == p.Version })
		ix.Packages = append(ix.Packages, p)
	}
	sort.SliceStable(ix.Packages, func(i, j int) bool {
		a, b := ix.Packages[i], ix.Packages[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return CompareVersions(a.Version, b.Version) < 0
	})
	ix.Expires = time.Now().Add(validFor)
	if err := WriteIndex(dir, key, ix); err != nil {
		return Index{}, err
	}
	ix.Version++
	ix.Expires = ix.Expires.UTC().Truncate(time.Second)
	return ix, nil
}

// addRelease writes the archives of p into dir and returns p with its
// artifacts: those of archives, and those ix lists for p's version on
// other platforms.
func addRelease(dir string, ix Index, p Package, archives map[string][]byte) (Package, error) {
	p.Artifacts = nil
	// The artifacts an earlier publication of this version has for
	// platforms archives does not cover stay: each platform's build may be
	// published on its own.
	for _, q := range ix.Packages {
		if q.Name != p.Name || q.Version != p.Version {
			continue
		}
		for _, a := range q.Artifacts {
			if _, replaced := archives[a.OS+"/"+a.Arch]; !replaced {
				p.Artifacts = append(p.Artifacts, a)
			}
		}
	}
	for _, osArch := range slices.Sorted(maps.Keys(archives)) {
		goos, goarch, ok := strings.Cut(osArch, "/")
		if !ok {
			return Package{}, fmt.Errorf("archive key %q is not os/arch", osArch)
		}
		data := archives[osArch]
		rel := path.Join("packages", p.Name, p.Version, fmt.Sprintf("%s-%s-%s-%s.tar.gz", p.Name, p.Version, goos, goarch))
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(path.Dir(rel))), 0o755); err != nil { //nolint:gosec // public, served as it is
			return Package{}, err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), data, 0o644); err != nil { //nolint:gosec // a repository is public, served as it is
			return Package{}, err
		}
		sum := sha256.Sum256(data)
		p.Artifacts = append(p.Artifacts, Artifact{OS: goos, Arch: goarch, Path: rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])})
	}
	sort.Slice(p.Artifacts, func(i, j int) bool {
		return p.Artifacts[i].OS+"/"+p.Artifacts[i].Arch < p.Artifacts[j].OS+"/"+p.Artifacts[j].Arch
	})
	return p, nil
}

// Resign signs the repository in dir again, unchanged but for a new
// version and an expiry validFor from now: what a publisher runs before
// the index expires, so gateways keep trusting it.
func Resign(dir string, key ed25519.PrivateKey, validFor time.Duration) error {
	ix, err := readOwnIndex(dir)
	if err != nil {
		return err
	}
	ix.Expires = time.Now().Add(validFor)
	return WriteIndex(dir, key, ix)
}

// WriteIndex writes ix into dir at the version after ix.Version (so an
// index written by this package always has a higher version than the one
// it was read from) and signs it with key. ix.Expires is kept, in UTC to
// the second.
func WriteIndex(dir string, key ed25519.PrivateKey, ix Index) error {
	ix.Version++
	ix.Expires = ix.Expires.UTC().Truncate(time.Second)
	if ix.Packages == nil {
		ix.Packages = []Package{}
	}
	index, err := json.MarshalIndent(ix, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, IndexFile), index, 0o644); err != nil { //nolint:gosec // public, served as it is
		return err
	}
	return os.WriteFile(filepath.Join(dir, SignatureFile), Sign(key, index), 0o644) //nolint:gosec // public, served as it is
}

// readOwnIndex reads the publisher's own index in dir, empty when there is
// none yet.
func readOwnIndex(dir string) (Index, error) {
	var ix Index
	switch b, err := os.ReadFile(filepath.Join(dir, IndexFile)); { //nolint:gosec // the publisher's own repository
	case err == nil:
		if err := json.Unmarshal(b, &ix); err != nil {
			return Index{}, fmt.Errorf("%s: %w", IndexFile, err)
		}
	case !errors.Is(err, os.ErrNotExist):
		return Index{}, err
	}
	return ix, nil
}

// CompareVersions compares dotted versions numerically part by part
// ("1.10.0" > "1.9.2"); non-numeric parts compare as strings.
func CompareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y string
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		var nx, ny int
		_, ex := fmt.Sscanf(x, "%d", &nx)
		_, ey := fmt.Sscanf(y, "%d", &ny)
		switch {
		case ex == nil && ey == nil && nx != ny:
			if nx < ny {
				return -1
			}
			return 1
		case (ex != nil || ey != nil) && x != y:
			return strings.Compare(x, y)
		}
	}
	return 0
}

// Latest returns the newest version of package name in ix, or the version
// pinned when pinned is not "" or "latest".
func (ix *Index) Latest(name, pinned string) (Package, bool) {
	var best Package
	found := false
	for _, p := range ix.Packages {
		if p.Name != name {
			continue
		}
		if pinned != "" && pinned != "latest" {
			if p.Version == pinned {
				return p, true
			}
			continue
		}
		if !found || CompareVersions(p.Version, best.Version) > 0 {
			best, found = p, true
		}
	}
	return best, found
}
