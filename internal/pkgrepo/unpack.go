package pkgrepo

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Errors of unpacking.
var (
	ErrUnsafe   = errors.New("the archive holds an unsafe entry")
	ErrTooLarge = errors.New("the archive is larger than allowed")
)

// Unpack unpacks the gzip'd tar archive read from r into dir, which it
// creates, entry by entry, straight to the files: an archive is never held
// in memory, however much it unpacks to. It refuses absolute names, names
// with "..", links, devices, and archives unpacking to more than maxBytes
// (counted as they are written, whatever the headers claim); a refused
// archive leaves no dir behind.
func Unpack(r io.Reader, dir string, maxBytes int64) (err error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(dir)
		}
	}()
	tr := tar.NewReader(zr)
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
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
		target := filepath.Join(dir, filepath.FromSlash(clean))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o750); err != nil {
				return err
			}
			continue
		case tar.TypeReg:
		default: // links may point outside the target; a package has none
			return fmt.Errorf("%q is a link or special file: %w", name, ErrUnsafe)
		}
		if total+hdr.Size > maxBytes {
			return ErrTooLarge
		}
		n, err := writeEntry(target, hdr, io.LimitReader(tr, maxBytes-total+1))
		total += n
		if err != nil {
			return err
		}
		if total > maxBytes {
			return ErrTooLarge
		}
	}
}

// writeEntry writes the regular file of hdr from r to target.
func writeEntry(target string, hdr *tar.Header, r io.Reader) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(target), 0o750); err != nil {
		return 0, err
	}
	mode := os.FileMode(0o640)
	if hdr.Mode&0o111 != 0 {
		mode = 0o750
	}
	// O_EXCL: an archive naming one file twice is refused rather than
	// letting its second entry replace what the first wrote.
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode) //nolint:gosec // target was checked to be inside dir
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return 0, fmt.Errorf("%q twice: %w", hdr.Name, ErrUnsafe)
		}
		return 0, err
	}
	n, err := io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		var pe *os.PathError
		if !errors.As(err, &pe) {
			err = fmt.Errorf("archive: %w", err)
		}
		return n, err
	}
	return n, nil
}
