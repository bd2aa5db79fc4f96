package backup

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/durable"
	"github.com/edged/edged/internal/fault"
)

// requestFile names the restore the next start of the gateway carries out.
const requestFile = "restore-request.json"

// maxManifest bounds the manifest entry read from a file.
const maxManifest = 1 << 20

// request is the content of the request file.
type request struct {
	ID int64 `json:"id"`
}

// archive reads a backup file entry by entry.
type archive struct {
	f  *os.File
	gz *gzip.Reader
	tr *tar.Reader
}

// openArchive opens path and reads its manifest.
func openArchive(path string) (*archive, Manifest, error) {
	f, err := os.Open(path) //nolint:gosec // a backup file name made from its numeric id
	if err != nil {
		return nil, Manifest{}, err
	}
	a := &archive{f: f}
	man, err := a.manifest()
	if err != nil {
		a.Close()
		return nil, Manifest{}, err
	}
	return a, man, nil
}

func (a *archive) manifest() (Manifest, error) {
	var err error
	if a.gz, err = gzip.NewReader(bufio.NewReader(a.f)); err != nil {
		return Manifest{}, fmt.Errorf("not a gzip file: %w", err)
	}
	a.tr = tar.NewReader(a.gz)
	h, err := a.tr.Next()
	if err != nil || h.Name != "manifest.json" {
		return Manifest{}, errors.New("not a backup of this gateway: manifest.json is not its first entry")
	}
	var man Manifest
	if err := json.NewDecoder(io.LimitReader(a.tr, maxManifest)).Decode(&man); err != nil {
		return Manifest{}, fmt.Errorf("the manifest does not parse: %w", err)
	}
	return man, nil
}

// Close closes the file.
func (a *archive) Close() { _ = a.f.Close() }

// check says whether a backup with manifest man can be restored on a
// gateway of store kind dialect at schema version schema; its error is a
// fault.Invalid naming the reason.
func check(man Manifest, id int64, dialect db.Dialect, schema uint) error {
	switch {
	case man.Format != FormatVersion:
		return fault.New(fault.Invalid, "backup %d has file format %d; this gateway reads format %d", id, man.Format, FormatVersion)
	case man.Store != string(dialect):
		return fault.New(fault.Invalid, "backup %d was taken from a %s store; this gateway uses %s: a backup is restored on the store kind it was taken from", id, man.Store, dialect)
	case man.SchemaVersion > schema:
		return fault.New(fault.Invalid, "backup %d was taken with schema version %d, newer than this gateway's %d: restore it on a gateway at version %d or later", id, man.SchemaVersion, schema, man.SchemaVersion)
	case man.SchemaVersion < schema:
		return fault.New(fault.Invalid, "backup %d was taken with schema version %d, older than this gateway's %d: restore it on a gateway of its version, then upgrade", id, man.SchemaVersion, schema)
	}
	for _, t := range man.Tables {
		if !slices.Contains(db.BackupConfigTables, t) && !slices.Contains(db.BackupReadingTables, t) {
			return fault.New(fault.Invalid, "backup %d holds table %q, which a backup never holds", id, t)
		}
	}
	return nil
}

// Restore checks that backup id can be restored here and asks for it to be
// restored at the next start (audited BKRST); the caller then restarts the
// gateway. Unknown: NotFound; not complete: Conflict; a backup of another
// store kind, another schema version or an unreadable file: Invalid.
func (m *Manager) Restore(ctx context.Context, id int64) error {
	f, _, err := m.Open(ctx, id)
	if err != nil {
		return err
	}
	_ = f.Close()
	a, man, err := openArchive(m.FilePath(id))
	if err != nil {
		return fault.Wrap(fault.Invalid, err, "backup %d cannot be restored: its file is not a backup of this gateway", id)
	}
	a.Close()
	schema, err := m.o.Store.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if err := check(man, id, m.o.Store.Dialect(), schema); err != nil {
		return err
	}
	data, _ := json.Marshal(request{ID: id})
	if err := durable.WriteFile(filepath.Join(m.dir, requestFile), data, 0o600); err != nil {
		return fault.Wrap(fault.Unavailable, err, "the restore of backup %d cannot be requested", id)
	}
	if err := m.o.Audit.Record(ctx, AuditRestoreStart, auditcode.Information, map[string]any{
		"id": id, "createdAt": man.CreatedAt, "readings": man.Readings,
	}); err != nil {
		m.o.Logger.Error("audit BKRST", "error", err)
	}
	return nil
}

// ApplyPending carries out a restore that Manager.Restore requested, if
// any: the tables of the backup replace the store's in one transaction,
// its certificates replace the certificate store's files, and, when the
// backup holds no readings, the north services and tasks it names that
// have no position here start at this gateway's newest reading. The
// request is consumed whether the restore succeeded or not; the outcome
// is audited BKRSC (FAILURE with the reason when it failed, and the
// gateway goes on with its state unchanged). Call it once storage is open
// and before anything else uses it.
func ApplyPending(ctx context.Context, dataDir string, store Store, audit Auditor, log *slog.Logger) {
	dir := filepath.Join(dataDir, Dir)
	reqPath := filepath.Join(dir, requestFile)
	data, err := os.ReadFile(reqPath) //nolint:gosec // the fixed request file of the backup directory
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var req request
	if err == nil {
		err = json.Unmarshal(data, &req)
	}
	if err == nil {
		err = apply(ctx, dataDir, filepath.Join(dir, fmt.Sprintf("backup-%d.tar.gz", req.ID)), req.ID, store, log)
	}
	if rerr := os.Remove(reqPath); rerr != nil {
		log.Error("restore request not removed", "error", rerr)
	}
	details := map[string]any{"id": req.ID}
	sev := auditcode.Success
	if err != nil {
		sev, details["reason"] = auditcode.Failure, err.Error()
		log.Error("restore failed; the gateway goes on with its state before the restore", "backup", req.ID, "error", err)
	} else {
		log.Info("backup restored", "backup", req.ID)
	}
	if err := audit.Record(ctx, AuditRestoreEnd, sev, details); err != nil {
		log.Error("audit BKRSC", "error", err)
	}
}

// apply restores the backup file at path.
func apply(ctx context.Context, dataDir, path string, id int64, store Store, log *slog.Logger) error {
	a, man, err := openArchive(path)
	if err != nil {
		return err
	}
	defer a.Close()
	schema, err := store.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if err := check(man, id, store.Dialect(), schema); err != nil {
		return err
	}
	load := slices.Clone(man.Tables)
	var positions []string // north names, when readings are not restored
	if !man.Readings {
		load = slices.DeleteFunc(load, func(t string) bool { return t == "stream_positions" })
	}
	next := func(table string) (*tar.Header, error) {
		for {
			h, err := a.tr.Next()
			if err != nil {
				return nil, fmt.Errorf("the file ends before table %s: %w", table, err)
			}
			name := strings.TrimSuffix(strings.TrimPrefix(h.Name, "tables/"), ".jsonl")
			if name == "stream_positions" && !man.Readings {
				if positions, err = positionNames(a.tr); err != nil {
					return nil, err
				}
				continue
			}
			if name != table {
				return nil, fmt.Errorf("table %s expected, %s found", table, h.Name)
			}
			return h, nil
		}
	}
	err = store.Import(ctx, load, func(table string) (db.RowSource, error) {
		if _, err := next(table); err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(a.tr)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		return func() ([]byte, error) {
			if sc.Scan() {
				return sc.Bytes(), nil
			}
			if err := sc.Err(); err != nil {
				return nil, err
			}
			return nil, io.EOF
		}, nil
	})
	if err != nil {
		return err
	}
	certs, err := restoreCerts(a.tr, filepath.Join(dataDir, "certs"), &positions, man.Readings)
	if err != nil {
		return fmt.Errorf("certificates (the tables are restored): %w", err)
	}
	if !man.Readings {
		if err := store.StartNorthAtNewest(ctx, positions); err != nil {
			return err
		}
	}
	log.Info("restored", "backup", id, "tables", len(load), "certificates", certs)
	return nil
}

// positionNames returns the names of the rows of stream_positions read
// from r.
func positionNames(r io.Reader) ([]string, error) {
	var names []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var row struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("stream_positions: %w", err)
		}
		names = append(names, row.Name)
	}
	return names, sc.Err()
}

// restoreCerts replaces the files of the certificate store dir with the
// certs/ entries that follow in tr, and returns how many it wrote. A
// stream_positions entry still ahead (when it is the last table) is read
// into positions.
func restoreCerts(tr *tar.Reader, dir string, positions *[]string, readings bool) (int, error) {
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, err
		}
		if h.Name == "tables/stream_positions.jsonl" && !readings {
			if *positions, err = positionNames(tr); err != nil {
				return 0, err
			}
			continue
		}
		name, ok := strings.CutPrefix(h.Name, "certs/")
		if !ok || name == "" || path.Base(name) != name || name == "." || name == ".." {
			return 0, fmt.Errorf("unexpected entry %q", h.Name)
		}
		data, err := io.ReadAll(io.LimitReader(tr, 16<<20))
		if err != nil {
			return 0, err
		}
		files[name] = data
	}
	if len(files) == 0 {
		return 0, nil // the store stays as it is
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	old, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	for name, data := range files {
		if err := durable.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return 0, err
		}
	}
	for _, e := range old {
		if _, keep := files[e.Name()]; !keep && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return 0, err
			}
		}
	}
	return len(files), durable.SyncDir(dir)
}
