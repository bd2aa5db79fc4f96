package external

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/edged/edged/internal/plugin"
)

// ErrChanged is a plugin executable whose content is no longer the one
// installed: it is not started.
var ErrChanged = errors.New("the plugin executable changed since it was installed")

// LoadChecked is Load for an executable installed with SHA-256 digest
// (hex): the file is hashed before every start, Load's included, and a
// start of a file that hashes otherwise fails with an error wrapping
// ErrChanged, so a swapped executable never runs.
func LoadChecked(ctx context.Context, path, digest string, log *slog.Logger) (plugin.Definition, error) {
	if digest == "" {
		return plugin.Definition{}, fmt.Errorf("%s: no digest to check the executable against", path)
	}
	return load(ctx, path, digest, log)
}

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
