package pkgrepo

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Unpack unpacks the gzip'd tar archive into dir, which it creates. It
// refuses (before writing anything) absolute names, names with "..",
// links, devices, and archives unpacking to more than maxBytes.
func Unpack(archive []byte, dir string, maxBytes int64) error {
	type entry struct {
		hdr  *tar.Header
		data []byte
	}
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	tr := tar.NewReader(zr)
	var (
		entries []entry
		total   int64
	)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("archive: %w", err)
		}
		name := hdr.Name
		clean := path.Clean(name)
		if path.IsAbs(name) || strings.HasPrefix(name, `\`) || clean == ".." || strings.HasPrefix(clean, "../") ||
			strings.Contains(name, `\`) || filepath.VolumeName(name) != "" {
			return fmt.Errorf("%q: %w", name, ErrUnsafe)
		}
		switch hdr.Typeflag {
		case tar.TypeReg, tar.TypeDir:
		default: // links may point outside the target; a package has none
			return fmt.Errorf("%q is a link or special file: %w", name, ErrUnsafe)
		}
		var data []byte
		if hdr.Typeflag == tar.TypeReg {
			if total+hdr.Size > maxBytes {
				return ErrTooLarge
			}
			data, err = io.ReadAll(io.LimitReader(tr, maxBytes-total+1))
			if err != nil {
				return fmt.Errorf("archive: %w", err)
			}
			total += int64(len(data))
			if total > maxBytes {
				return ErrTooLarge
			}
		}
		entries = append(entries, entry{hdr: hdr, data: data})
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	for _, e := range entries {
		target := filepath.Join(dir, filepath.FromSlash(path.Clean(e.hdr.Name)))
		if e.hdr.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(target, 0o750); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o750); err != nil {
			return err
		}
		mode := os.FileMode(0o640)
		if e.hdr.Mode&0o111 != 0 {
			mode = 0o750
		}
		if err := os.WriteFile(target, e.data, mode); err != nil {
			return err
		}
	}
	return nil
}
