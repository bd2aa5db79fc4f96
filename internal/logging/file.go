package logging

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/edged/edged/internal/fileperm"
)

// FileName is the name of the log file in its directory; rotated files
// add .1 (the newest) to .N.
const FileName = "edged.log"

// fileLine is one line of the log file: a JSON object per line.
type fileLine struct {
	Time    time.Time       `json:"time"`
	Level   string          `json:"level"`
	Source  string          `json:"source"`
	Message string          `json:"message"`
	Attrs   json.RawMessage `json:"attrs,omitempty"`
	// Run and Seq identify the line: the process that wrote it and its
	// number there, so a query does not give a line both from the ring
	// and from the file.
	Run string `json:"run"`
	Seq uint64 `json:"seq"`
}

// logFile is the log file being written.
type logFile struct {
	path string
	max  int64 // the size from which the next line rotates the file
	keep int   // rotated files kept
	f    *os.File
	size int64
	err  error // the last line's failure to rotate or write, nil when none
}

// SetFile makes the journal append every line to the file path, rotated
// when a line would take it past maxBytes, keeping keep rotated files
// (path.1 the newest … path.keep). maxBytes ≤ 0 or an empty path stops
// writing a file. The lines of the ring not yet in a file are written
// first, so the lines logged before the file was set (at start) are in it
// too. The file and its directory are private (fileperm).
func (j *Journal) SetFile(path string, maxBytes int64, keep int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if maxBytes <= 0 || path == "" {
		j.closeFileLocked()
		return nil
	}
	if j.file != nil && j.file.path == path {
		j.file.max, j.file.keep = maxBytes, max(keep, 0)
		return nil
	}
	j.closeFileLocked()
	f := &logFile{path: path, max: maxBytes, keep: max(keep, 0)}
	if err := f.open(); err != nil {
		return err
	}
	j.file = f
	var backlog []record // copied: a failing write adds a line to the ring
	for i := range j.n {
		if r := j.ring[(j.head+i)%j.maxEntries]; r.seq > j.written {
			backlog = append(backlog, r)
		}
	}
	for i := range backlog {
		j.writeLocked(&backlog[i])
	}
	return nil
}

func (j *Journal) closeFileLocked() {
	if j.file != nil {
		j.file.close()
		j.file = nil
	}
}

// writeLocked appends r to the log file, rotating it first when r would
// take it past its size, unless a query is reading the files: then the
// file grows a little until a later line. When writing or rotating starts
// failing (a full disk), an error line says so in the ring, once until
// both succeed again; a file that cannot be rotated keeps growing.
func (j *Journal) writeLocked(r *record) {
	f := j.file
	line := encodeLine(j.run, r)
	var errs []error
	if f.f != nil && f.size > 0 && f.size+int64(len(line)) > f.max && j.rotation.TryLock() {
		errs = append(errs, f.rotate())
		j.rotation.Unlock()
	}
	if f.f == nil {
		errs = append(errs, f.open())
	}
	if f.f != nil {
		n, err := f.f.Write(line)
		f.size += int64(n)
		errs = append(errs, err)
	}
	j.written = r.seq
	failing := f.err != nil
	f.err = errors.Join(errs...)
	if f.err != nil && !failing {
		j.addLocked(Entry{Time: time.Now(), Level: slog.LevelError, Source: SourceCore,
			Message: "the log file could not be written or rotated",
			Attrs:   map[string]any{"path": f.path, "error": f.err.Error()}}, false)
	}
}

// encodeLine is r as a line of the log file.
func encodeLine(run string, r *record) []byte {
	l := fileLine{Time: r.Time.UTC(), Level: LevelName(r.Level), Source: r.Source, Message: r.Message, Run: run, Seq: r.seq}
	if len(r.Attrs) > 0 {
		if a, err := json.Marshal(r.Attrs); err == nil {
			l.Attrs = a
		} else {
			l.Attrs, _ = json.Marshal(map[string]string{"attrs": "not encodable: " + err.Error()})
		}
	}
	b, err := json.Marshal(l)
	if err != nil { // only attrs could fail, and they are encoded above
		b, _ = json.Marshal(fileLine{Time: l.Time, Level: l.Level, Source: l.Source, Message: l.Message, Run: run, Seq: r.seq})
	}
	return append(b, '\n')
}

func (f *logFile) open() error {
	if err := fileperm.PrivateDir(filepath.Dir(f.path)); err != nil {
		return fmt.Errorf("log file %s: %w", f.path, err)
	}
	file, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, fileperm.File) //nolint:gosec // the path is the gateway's own, in its data directory
	if err != nil {
		return fmt.Errorf("log file: %w", err)
	}
	if err := fileperm.Tighten(f.path); err != nil {
		_ = file.Close()
		return fmt.Errorf("log file %s: %w", f.path, err)
	}
	fi, err := file.Stat()
	if err != nil {
		_ = file.Close()
		return fmt.Errorf("log file: %w", err)
	}
	f.f, f.size = file, fi.Size()
	return nil
}

func (f *logFile) close() {
	if f.f != nil {
		_ = f.f.Close()
		f.f = nil
	}
}

// rotate renames the file to path.1 (path.1 to path.2, …), removes the
// rotated files beyond keep and opens a new file. A rename that fails
// leaves the files where they are and the current file is opened again.
func (f *logFile) rotate() error {
	f.close()
	var err error
	for k := f.keep + 1; ; k++ { // files left by a larger keep, too
		if rerr := os.Remove(f.rotated(k)); rerr != nil {
			if !errors.Is(rerr, fs.ErrNotExist) {
				err = fmt.Errorf("rotate log file: %w", rerr)
			}
			break
		}
	}
	if f.keep == 0 {
		if rerr := os.Remove(f.path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = fmt.Errorf("rotate log file: %w", rerr)
		}
	}
	for k := f.keep; k >= 1 && err == nil; k-- {
		from := f.path
		if k > 1 {
			from = f.rotated(k - 1)
		}
		if rerr := os.Rename(from, f.rotated(k)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = fmt.Errorf("rotate log file: %w", rerr)
		}
	}
	return errors.Join(err, f.open())
}

func (f *logFile) rotated(k int) string { return f.path + "." + strconv.Itoa(k) }

// paths are the files to read, oldest first.
func (f *logFile) paths() []string {
	out := make([]string, 0, f.keep+1)
	for k := f.keep; k >= 1; k-- {
		out = append(out, f.rotated(k))
	}
	return append(out, f.path)
}

// readFile reads the log file path (a missing file, or anything but a
// regular file, has no lines) and
// counts the lines that fresh accepts and q matches, adding each to
// window. It returns the count.
func readFile(path string, fresh func(*fileLine) bool, q Query, window *tail) (int, error) {
	// Checked before opening: opening a FIFO put there would block.
	if fi, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) || err == nil && !fi.Mode().IsRegular() {
		return 0, nil // none, or not a log file the gateway wrote
	}
	file, err := os.Open(path) //nolint:gosec // the gateway's own log file
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read log file: %w", err)
	}
	defer func() { _ = file.Close() }()
	r := bufio.NewReaderSize(file, 64<<10)
	n := 0
	for {
		b, err := r.ReadBytes('\n')
		if len(b) > 0 {
			var l fileLine
			if json.Unmarshal(b, &l) == nil && fresh(&l) {
				e := Entry{Time: l.Time, Source: l.Source, Message: l.Message}
				level, lerr := ParseLevel(l.Level)
				e.Level = level
				if lerr == nil && q.match(&e) {
					n++
					if window.limit > 0 {
						e.Attrs = decodeAttrs(l.Attrs)
						window.add(e)
					}
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return 0, fmt.Errorf("read log file %s: %w", path, err)
		}
	}
}

// decodeAttrs decodes the attributes of a file line, numbers kept exact.
func decodeAttrs(raw json.RawMessage) map[string]any {
	if len(raw) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return nil
	}
	return m
}
