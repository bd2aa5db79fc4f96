// Package fileperm keeps the gateway's files private to the operating-system
// user it runs as. The data directory holds password hashes, token hashes,
// private keys and the initial admin password: its directories are mode
// 0700 and every file in it 0600, whatever the umask, and files left with
// wider modes by an older version or by hand are tightened at start.
package fileperm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Modes of what the gateway creates.
const (
	Dir  fs.FileMode = 0o700
	File fs.FileMode = 0o600
)

// shared are the mode bits no file or directory of the gateway keeps: every
// permission of the group and of others.
const shared fs.FileMode = 0o077

// PrivateDir creates dir (and missing parents, mode Dir) and makes dir
// itself accessible to its owner only. Parents that exist already are left
// as they are: they may be shared directories such as /var/lib.
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, Dir); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	return tighten(dir)
}

// Tighten takes the group's and others' permissions away from each path
// that exists (a missing one is skipped), so files created with a wider
// mode, before this rule or by hand, become private.
func Tighten(paths ...string) error {
	for _, p := range paths {
		if err := tighten(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// TightenDir makes dir and every file directly in it private, as Tighten.
// A missing dir is not an error; subdirectories are not entered.
func TightenDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read directory: %w", err)
	}
	paths := []string{dir}
	for _, e := range entries {
		if e.Type().IsRegular() {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return Tighten(paths...)
}

// CreateFile creates the empty file path with mode File if it does not
// exist, so that a program creating it later (SQLite) finds it private
// instead of creating it with a mode of its own.
func CreateFile(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, File) //nolint:gosec // the path is the gateway's own configuration, not request input
	switch {
	case errors.Is(err, fs.ErrExist):
		return tighten(path)
	case err != nil:
		return fmt.Errorf("create file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("create file: %w", err)
	}
	return nil
}

// tighten removes the shared bits from path's mode when it has any.
func tighten(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if perm := fi.Mode().Perm(); perm&shared != 0 {
		if err := os.Chmod(path, perm&^shared); err != nil {
			return fmt.Errorf("restrict permissions: %w", err)
		}
	}
	return nil
}
