// Package durable writes the gateway's state files so that they survive a
// power cut: contents synced before a file takes its name, and the
// directory synced after, since syncing a file does not make its name
// durable. The gateway writes few such files (certificates, the initial
// password), each once, so they are always written this way, whatever the
// durability level of storage.
package durable

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// SyncDir makes the entries of directory dir durable: files created,
// renamed or removed in it.
func SyncDir(dir string) error {
	f, err := os.Open(filepath.Clean(dir))
	if err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	defer func() { _ = f.Close() }()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("durable: sync %s: %w", dir, err)
	}
	return nil
}

// WriteFile replaces the file path with data, readable as perm, such that
// after a crash at any moment the file holds either its old contents or
// data: data goes to a new file in the same directory, is synced, and takes
// path's name by a rename, then the directory is synced.
func WriteFile(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(perm); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("durable: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("durable: write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("durable: sync %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	return SyncDir(dir)
}

// SyncTree makes the tree under dir durable before it is renamed into
// place: every regular file's contents and every directory's entries, dir
// included. The rename itself is made durable by syncing the directory it
// lands in (SyncDir). The walk stays inside dir (os.Root).
func SyncTree(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	defer func() { _ = root.Close() }()
	return fs.WalkDir(root.FS(), ".", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("durable: %w", err)
		}
		if !e.Type().IsRegular() && !e.IsDir() {
			return nil // a symbolic link is its entry, synced with its directory
		}
		f, err := root.Open(path)
		if err != nil {
			return fmt.Errorf("durable: %w", err)
		}
		defer func() { _ = f.Close() }()
		if err := f.Sync(); err != nil {
			return fmt.Errorf("durable: sync %s: %w", filepath.Join(dir, path), err)
		}
		return nil
	})
}
