package external

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrChanged is a plugin executable whose content is no longer the one
// installed: it is not started.
var ErrChanged = errors.New("the plugin executable changed since it was installed")

// FileDigest returns the hex SHA-256 of the file at path.
func FileDigest(path string) (string, error) {
	f, err := os.Open(path) //nolint:gosec // a plugin executable of the package directory
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkDigest fails unless the file at path hashes to digest ("" checks
// nothing).
func checkDigest(path, digest string) error {
	if digest == "" {
		return nil
	}
	got, err := FileDigest(path)
	if err != nil {
		return fmt.Errorf("plugin executable %s: %w", path, err)
	}
	if got != digest {
		return fmt.Errorf("%w: %s has SHA-256 %s, installed as %s; it is not started (install the package again)", ErrChanged, path, got, digest)
	}
	return nil
}
