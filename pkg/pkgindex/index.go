// Package pkgindex is the format of edged's package repositories, shared
// by the gateway (which verifies them) and edgepkg (which writes them), and
// importable by any other tool: a repository is static files served over
// HTTP(S) holding an index of packages (index.json), a detached ed25519
// signature over the index's exact bytes (index.json.sig, base64) and one
// gzip'd tar artifact per package, version, OS and architecture, listed in
// the index with its size and SHA-256. The index carries a version that
// grows with every publication and an expiry time. A gateway trusts an
// index only under a signature of one of its trusted keys (Verify), not
// expired and not older than the last one it accepted from the repository
// (Check), and an artifact only when its size and digest match the trusted
// index. The package depends on the standard library only.
package pkgindex

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// File names of a repository.
const (
	IndexFile     = "index.json"
	SignatureFile = "index.json.sig"
)

// Package types and kinds.
const (
	TypeService = "service"
	TypePlugin  = "plugin"
)

// Errors of verification.
var (
	ErrUnsigned     = errors.New("the repository index is not signed")
	ErrBadSignature = errors.New("the repository index is not signed by a trusted key")
	ErrTampered     = errors.New("the artifact does not match the repository index")
	ErrInvalidIndex = errors.New("the repository index is not valid")
	// ErrRollback is an index older than one the gateway accepted before:
	// a mirror or attacker serving a stale index.
	ErrRollback = errors.New("the repository index is older than one accepted before")
	// ErrExpired is an index past its expiry time: a repository frozen
	// by a mirror or attacker, or a publisher who did not re-sign it.
	ErrExpired = errors.New("the repository index has expired")
)

// Index is a repository's list of packages.
type Index struct {
	// Version grows with every publication of the repository (1, 2, …):
	// a gateway refuses an index older than the last it accepted.
	Version int64 `json:"version"`
	// Expires is when the index stops being trusted; the publisher
	// re-signs the repository before then.
	Expires  time.Time `json:"expires"`
	Packages []Package `json:"packages"`
}

// Check tells whether ix may be used at now by a gateway that accepted
// index version accepted from this repository before (0: none): not
// expired (ErrExpired) and not older (ErrRollback).
func (ix *Index) Check(now time.Time, accepted int64) error {
	if !now.Before(ix.Expires) {
		return fmt.Errorf("%w: version %d expired at %s", ErrExpired, ix.Version, ix.Expires.UTC().Format(time.RFC3339))
	}
	if ix.Version < accepted {
		return fmt.Errorf("%w: version %d, version %d accepted before", ErrRollback, ix.Version, accepted)
	}
	return nil
}

// Package is one version of a package: its manifest and its artifacts.
type Package struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Type        string `json:"type"`           // TypeService or TypePlugin
	Kind        string `json:"kind,omitempty"` // south, north or filter
	Description string `json:"description"`
	// Config are configuration defaults by item name.
	Config    map[string]string `json:"config,omitempty"`
	Artifacts []Artifact        `json:"artifacts"`
}

// Artifact is the archive of a package for one OS and architecture.
type Artifact struct {
	OS     string `json:"os"`
	Arch   string `json:"arch"`
	Path   string `json:"path"` // relative to the repository's URL
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"` // hex
}

// Artifact returns p's artifact for goos/goarch.
func (p Package) Artifact(goos, goarch string) (Artifact, bool) {
	for _, a := range p.Artifacts {
		if a.OS == goos && a.Arch == goarch {
			return a, true
		}
	}
	return Artifact{}, false
}

// ParseKey parses a trusted public key: base64 of the 32 key bytes.
func ParseKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%q is not a base64 ed25519 public key", s)
	}
	return ed25519.PublicKey(b), nil
}

// ParseKeys parses a list of trusted public keys separated by commas,
// spaces or line breaks (the form of Installation.trustedKeys); an empty
// list gives none.
func ParseKeys(list string) ([]ed25519.PublicKey, error) {
	var keys []ed25519.PublicKey
	for _, k := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' }) {
		key, err := ParseKey(k)
		if err != nil {
			return nil, err
		}
		keys = append(keys, key)
	}
	return keys, nil
}

// Sign returns the detached signature file's content for index.
func Sign(key ed25519.PrivateKey, index []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(ed25519.Sign(key, index)) + "\n")
}

// Verify parses index once sig, the content of the signature file, is a
// signature of it by one of keys.
func Verify(index, sig []byte, keys []ed25519.PublicKey) (*Index, error) {
	if len(bytes.TrimSpace(sig)) == 0 {
		return nil, ErrUnsigned
	}
	raw, err := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(sig)))
	if err != nil || len(raw) != ed25519.SignatureSize {
		return nil, ErrBadSignature
	}
	trusted := false
	for _, k := range keys {
		if ed25519.Verify(k, index, raw) {
			trusted = true
			break
		}
	}
	if !trusted {
		return nil, ErrBadSignature
	}
	var ix Index
	dec := json.NewDecoder(bytes.NewReader(index))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ix); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidIndex, err) //nolint:errorlint // the decoder's text, not its type

	}
	if ix.Version < 1 || ix.Expires.IsZero() {
		return nil, fmt.Errorf("%w: it has no version or no expiry (publish it again with edgepkg)", ErrInvalidIndex)
	}
	for _, p := range ix.Packages {
		if p.Name == "" || p.Version == "" || (p.Type != TypeService && p.Type != TypePlugin) {
			return nil, fmt.Errorf("%w: it lists a package without name, version or type (%q)", ErrInvalidIndex, p.Name)
		}
	}
	return &ix, nil
}
