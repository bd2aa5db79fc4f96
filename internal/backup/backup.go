// Package backup makes, keeps and restores backups of the gateway.
//
// A backup is a gzip-compressed tar file in <data dir>/backup:
//
//	manifest.json          Manifest: format, schema version, store kind, date, contents
//	tables/<table>.jsonl   each row of a table as one JSON object a line
//	certs/<file>           the certificate store's files
//
// The tables are the gateway's own export (db.DB.Export): configuration,
// users, schedules, services, filters, asset tracking and package records,
// and, when BACKUP.includeReadings is true, the buffered readings with the
// north positions in them; all read in one snapshot, so a backup taken
// while readings arrive is consistent. The same mechanism serves SQLite and
// PostgreSQL; no database tool (pg_dump) is needed.
//
// Next to each backup file a record backup-<id>.json holds its status,
// date and size. A backup runs as a task of the schedule "backup" (process
// "backup"), whether the schedule's timing or the API started it; after a
// complete backup only the newest BACKUP.retainCount complete backups are
// kept.
//
// A restore is prepared while the gateway runs (Manager.Restore checks the
// backup and leaves a request file) and carried out by ApplyPending when
// the gateway starts again, before anything else uses storage.
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
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/durable"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/scheduler"
)

// Dir is the backups' directory inside the data directory.
const Dir = "backup"

// Schedule and process of backups.
const (
	ScheduleName = "backup"
	ProcessName  = "backup"
)

// Category and items of the backup settings.
const (
	Category            = configmgr.CategoryBackup
	ItemRetainCount     = configmgr.ItemBackupRetainCount
	ItemIncludeReadings = configmgr.ItemBackupIncludeReadings
)

// Audit codes.
const (
	AuditBackup       = auditcode.BackupComplete   // backup complete (FAILURE when it failed)
	AuditRestoreStart = auditcode.RestoreRequested // restore requested; the gateway restarts
	AuditRestoreEnd   = auditcode.RestoreComplete  // restore complete (FAILURE when it failed)
)

// Statuses of a backup.
const (
	StatusRunning     = "RUNNING"
	StatusCompleted   = "COMPLETED"
	StatusFailed      = "FAILED"
	StatusInterrupted = "INTERRUPTED" // was running when the gateway stopped
)

// Statuses lists the statuses in the order of their indexes (1-based).
var Statuses = []string{StatusRunning, StatusCompleted, StatusFailed, StatusInterrupted}

// FormatVersion is the version of the file layout this package writes and
// reads.
const FormatVersion = 1

// Manifest describes a backup file; it is its first entry.
type Manifest struct {
	Format         int            `json:"format"`
	SchemaVersion  uint           `json:"schemaVersion"`
	Store          string         `json:"store"` // "sqlite" or "postgres"
	CreatedAt      time.Time      `json:"createdAt"`
	GatewayVersion string         `json:"gatewayVersion"`
	Readings       bool           `json:"readings"`
	Certificates   bool           `json:"certificates"`
	Tables         []string       `json:"tables"` // in load order
	Rows           map[string]int `json:"rows"`
}

// Backup is one backup's record.
type Backup struct {
	ID       int64     `json:"id"`
	Status   string    `json:"status"`
	Date     time.Time `json:"date"` // when it started, UTC
	Size     int64     `json:"size"` // bytes of the file; 0 until complete
	Readings bool      `json:"readings"`
	TaskID   string    `json:"taskId,omitempty"`
	Reason   string    `json:"reason,omitempty"` // why it failed
}

// Store is the storage a backup reads and a restore writes.
type Store interface {
	Dialect() db.Dialect
	SchemaVersion(ctx context.Context) (uint, error)
	Export(ctx context.Context, tables []string, fn db.ExportRow) (uint, error)
	Import(ctx context.Context, tables []string, rows func(table string) (db.RowSource, error)) error
	StartNorthAtNewest(ctx context.Context, names []string) error
}

// Config reads the backup settings.
type Config interface {
	Value(ctx context.Context, key, item string) (string, error)
}

// Auditor writes audit entries.
type Auditor interface {
	Record(ctx context.Context, source, severity string, details any) error
}

// Options configure a Manager.
type Options struct {
	DataDir string // backups go to <DataDir>/backup, certificates come from <DataDir>/certs
	Store   Store
	Config  Config
	Audit   Auditor
	Clock   clock.Clock
	Logger  *slog.Logger
	Version string // the gateway's version, written into manifests
	// Trigger starts a run of the backup schedule now and returns its task
	// id (scheduler.Scheduler.Trigger of the schedule's id).
	Trigger func(ctx context.Context) (string, error)
}

// Manager makes, lists and deletes backups and prepares restores. Safe for
// concurrent use.
type Manager struct {
	o   Options
	dir string

	mu       sync.Mutex       // guards the fields below and the records on disk
	running  map[int64]bool   // backups this process is making
	taken    map[int64]bool   // ids handed out (records written or being written)
	beginErr map[string]error // task id → why its run could not begin a backup
	changed  chan struct{}    // closed and replaced when a run began or failed to
}

// New returns a Manager.
func New(o Options) *Manager {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	m := &Manager{o: o, dir: filepath.Join(o.DataDir, Dir), running: map[int64]bool{},
		taken: map[int64]bool{}, beginErr: map[string]error{}, changed: make(chan struct{})}
	m.removeLeftovers()
	return m
}

// removeLeftovers deletes the work directories and partial files of
// backups and uploads a stopped gateway left; their records say
// INTERRUPTED.
func (m *Manager) removeLeftovers() {
	for _, pattern := range []string{".work-*", "backup-*.tar.gz.part"} {
		found, _ := filepath.Glob(filepath.Join(m.dir, pattern))
		for _, p := range found {
			if err := os.RemoveAll(p); err != nil {
				m.o.Logger.Warn("backup leftover not removed", "path", p, "error", err)
			}
		}
	}
}

var recordName = regexp.MustCompile(`^backup-([0-9]{1,18})\.json$`)

func (m *Manager) recordPath(id int64) string {
	return filepath.Join(m.dir, fmt.Sprintf("backup-%d.json", id))
}

// FilePath returns where the file of backup id is.
func (m *Manager) FilePath(id int64) string {
	return filepath.Join(m.dir, fmt.Sprintf("backup-%d.tar.gz", id))
}

func (m *Manager) writeRecord(b Backup) error {
	data, err := json.Marshal(b)
	if err != nil {
		return err
	}
	return durable.WriteFile(m.recordPath(b.ID), data, 0o600)
}

// readRecords returns every record, oldest (smallest id) first; m.mu held.
func (m *Manager) readRecords() ([]Backup, error) {
	entries, err := os.ReadDir(m.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []Backup{}, nil
	}
	if err != nil {
		return nil, fault.Wrap(fault.Unavailable, err, "the backup directory cannot be read")
	}
	out := []Backup{}
	for _, e := range entries {
		if !recordName.MatchString(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(m.dir, e.Name()))
		if err != nil {
			return nil, fault.Wrap(fault.Unavailable, err, "the backup record %s cannot be read", e.Name())
		}
		var b Backup
		if err := json.Unmarshal(data, &b); err != nil {
			m.o.Logger.Warn("backup record unreadable, skipped", "file", e.Name(), "error", err)
			continue
		}
		if b.Status == StatusRunning && !m.running[b.ID] {
			b.Status = StatusInterrupted
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b Backup) int { return int(a.ID - b.ID) })
	return out, nil
}

// nextID returns an id no backup has had: one more than the largest record
// and the sequence file; m.mu held.
func (m *Manager) nextID(records []Backup) (int64, error) {
	var last int64
	if data, err := os.ReadFile(filepath.Join(m.dir, "sequence")); err == nil {
		last, _ = strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	}
	for _, b := range records {
		last = max(last, b.ID)
	}
	for id := range m.taken {
		last = max(last, id)
	}
	id := last + 1
	if err := durable.WriteFile(filepath.Join(m.dir, "sequence"), []byte(strconv.FormatInt(id, 10)), 0o600); err != nil {
		return 0, err
	}
	m.taken[id] = true
	return id, nil
}

// Filter selects backups for List.
type Filter struct {
	Status string // "" any
	Limit  int    // 0 no limit
	Skip   int
}

// List returns the backups matching f, newest first.
func (m *Manager) List(_ context.Context, f Filter) ([]Backup, error) {
	m.mu.Lock()
	all, err := m.readRecords()
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	slices.Reverse(all)
	out := []Backup{}
	for _, b := range all {
		if f.Status == "" || strings.EqualFold(f.Status, b.Status) {
			out = append(out, b)
		}
	}
	if f.Skip >= len(out) {
		return []Backup{}, nil
	}
	out = out[f.Skip:]
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, nil
}

// Get returns backup id; unknown: NotFound.
func (m *Manager) Get(_ context.Context, id int64) (Backup, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.get(id)
}

func (m *Manager) get(id int64) (Backup, error) {
	all, err := m.readRecords()
	if err != nil {
		return Backup{}, err
	}
	for _, b := range all {
		if b.ID == id {
			return b, nil
		}
	}
	return Backup{}, fault.New(fault.NotFound, "backup %d not found", id)
}

// Delete removes backup id and its file. Unknown: NotFound; running:
// Conflict.
func (m *Manager) Delete(_ context.Context, id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.get(id)
	if err != nil {
		return err
	}
	if b.Status == StatusRunning {
		return fault.New(fault.Conflict, "backup %d is running; it can be deleted once it ended", id)
	}
	return m.remove(id)
}

// remove deletes the file and the record of id; m.mu held.
func (m *Manager) remove(id int64) error {
	for _, p := range []string{m.FilePath(id), m.FilePath(id) + ".part", m.recordPath(id)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fault.Wrap(fault.Unavailable, err, "backup %d cannot be deleted", id)
		}
	}
	return durable.SyncDir(m.dir)
}

// Open returns the file of the complete backup id and its size. Unknown:
// NotFound; not complete: Conflict.
func (m *Manager) Open(_ context.Context, id int64) (*os.File, Backup, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, err := m.get(id)
	if err != nil {
		return nil, Backup{}, err
	}
	if b.Status != StatusCompleted {
		return nil, Backup{}, fault.New(fault.Conflict, "backup %d is %s; only a COMPLETED backup can be downloaded or restored", id, b.Status)
	}
	f, err := os.Open(m.FilePath(id))
	if err != nil {
		return nil, Backup{}, fault.Wrap(fault.Unavailable, err, "the file of backup %d cannot be read", id)
	}
	return f, b, nil
}

// createWait bounds how long Create waits for the task it started to
// begin its backup.
const createWait = 30 * time.Second

// Create starts a backup in the background, as a task of the backup
// schedule, and returns its record (status RUNNING). A backup already
// running: Conflict (the schedule is exclusive).
func (m *Manager) Create(ctx context.Context) (Backup, error) {
	if m.o.Trigger == nil {
		return Backup{}, fault.New(fault.Unavailable, "backups are not available in this gateway")
	}
	taskID, err := m.o.Trigger(ctx)
	if errors.Is(err, fault.Conflict) {
		return Backup{}, fault.New(fault.Conflict, "a backup is running already; start another once it ended")
	}
	if err != nil {
		return Backup{}, err
	}
	timeout := m.o.Clock.NewTimer(createWait)
	defer timeout.Stop()
	for {
		m.mu.Lock()
		if err, ok := m.beginErr[taskID]; ok {
			delete(m.beginErr, taskID)
			m.mu.Unlock()
			return Backup{}, fault.Wrap(fault.Unavailable, err, "the backup could not start")
		}
		all, err := m.readRecords()
		changed := m.changed
		m.mu.Unlock()
		if err != nil {
			return Backup{}, err
		}
		for _, b := range all {
			if b.TaskID == taskID {
				return b, nil
			}
		}
		select {
		case <-changed:
		case <-timeout.C():
			return Backup{}, fault.New(fault.Unavailable, "the backup task %s did not start its backup in time", taskID)
		case <-ctx.Done():
			return Backup{}, ctx.Err()
		}
	}
}

// Run is the process of the backup schedule: it makes one backup, audits
// BKEXC and applies the retention count.
func (m *Manager) Run(ctx context.Context, run scheduler.Run) error {
	id, err := m.begin(ctx, run.TaskID)
	m.mu.Lock()
	if err != nil {
		m.beginErr[run.TaskID] = err
	}
	close(m.changed)
	m.changed = make(chan struct{})
	m.mu.Unlock()
	if err != nil {
		return err
	}
	b, err := m.make(ctx, id)
	keep, kerr := m.retainCount(ctx)
	m.finish(ctx, b, err, keep)
	if err != nil {
		return err
	}
	return kerr
}

// begin writes the record of a new running backup.
func (m *Manager) begin(ctx context.Context, taskID string) (int64, error) {
	readings, err := m.includeReadings(ctx)
	if err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := os.MkdirAll(m.dir, 0o700); err != nil {
		return 0, fmt.Errorf("backup directory: %w", err)
	}
	all, err := m.readRecords()
	if err != nil {
		return 0, err
	}
	id, err := m.nextID(all)
	if err != nil {
		return 0, fmt.Errorf("backup id: %w", err)
	}
	b := Backup{ID: id, Status: StatusRunning, Date: m.o.Clock.Now().UTC(), Readings: readings, TaskID: taskID}
	if err := m.writeRecord(b); err != nil {
		delete(m.taken, id)
		return 0, fmt.Errorf("backup record: %w", err)
	}
	m.running[id] = true
	return id, nil
}

func (m *Manager) includeReadings(ctx context.Context) (bool, error) {
	v, err := m.o.Config.Value(ctx, Category, ItemIncludeReadings)
	if err != nil {
		return false, fmt.Errorf("read %s.%s: %w", Category, ItemIncludeReadings, err)
	}
	return v == "true", nil
}

// make writes backup id's file and returns its record, complete.
func (m *Manager) make(ctx context.Context, id int64) (Backup, error) {
	m.mu.Lock()
	b, err := m.get(id)
	m.mu.Unlock()
	if err != nil {
		return Backup{ID: id}, err
	}
	tables := slices.Clone(db.BackupConfigTables)
	if b.Readings {
		tables = append(tables, db.BackupReadingTables...)
	} else {
		// Only the names are used: north services restored without
		// readings start at the restoring gateway's newest reading.
		tables = append(tables, "stream_positions")
	}
	work, err := os.MkdirTemp(m.dir, fmt.Sprintf(".work-%d-", id))
	if err != nil {
		return b, err
	}
	defer func() { _ = os.RemoveAll(work) }()
	man := Manifest{Format: FormatVersion, Store: string(m.o.Store.Dialect()), CreatedAt: b.Date,
		GatewayVersion: m.o.Version, Readings: b.Readings, Certificates: true, Tables: tables, Rows: map[string]int{}}
	files := map[string]*bufio.Writer{}
	handles := map[string]*os.File{}
	defer func() {
		for _, f := range handles {
			_ = f.Close()
		}
	}()
	for _, t := range tables {
		f, err := os.OpenFile(filepath.Join(work, t+".jsonl"), os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600) //nolint:gosec // a table name of db's fixed list, in the backup directory
		if err != nil {
			return b, err
		}
		handles[t], files[t] = f, bufio.NewWriterSize(f, 256<<10)
		man.Rows[t] = 0
	}
	man.SchemaVersion, err = m.o.Store.Export(ctx, tables, func(table string, row []byte) error {
		w := files[table]
		man.Rows[table]++
		if _, err := w.Write(row); err != nil {
			return err
		}
		return w.WriteByte('\n')
	})
	if err != nil {
		return b, fmt.Errorf("export: %w", err)
	}
	for t, w := range files {
		if err := w.Flush(); err != nil {
			return b, err
		}
		if err := handles[t].Close(); err != nil {
			return b, err
		}
		delete(handles, t)
	}
	part := m.FilePath(id) + ".part"
	if err := m.writeArchive(part, man, work); err != nil {
		_ = os.Remove(part)
		return b, err
	}
	if err := os.Rename(part, m.FilePath(id)); err != nil {
		return b, err
	}
	st, err := os.Stat(m.FilePath(id))
	if err != nil {
		return b, err
	}
	b.Size, b.Status = st.Size(), StatusCompleted
	return b, durable.SyncDir(m.dir)
}

// writeArchive writes the tar.gz of man, the table files in work and the
// certificate store to path, and syncs it.
func (m *Manager) writeArchive(path string, man Manifest, work string) (err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600) //nolint:gosec // a backup file name made from its numeric id
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	manData, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return err
	}
	if err := addBytes(tw, "manifest.json", manData, man.CreatedAt); err != nil {
		return err
	}
	for _, t := range man.Tables {
		if err := addFile(tw, "tables/"+t+".jsonl", filepath.Join(work, t+".jsonl")); err != nil {
			return err
		}
	}
	certDir := filepath.Join(m.o.DataDir, "certs")
	entries, err := os.ReadDir(certDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			if err := addFile(tw, "certs/"+e.Name(), filepath.Join(certDir, e.Name())); err != nil {
				return err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return f.Sync()
}

func addBytes(tw *tar.Writer, name string, data []byte, at time.Time) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(data)), ModTime: at, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	_, err := tw.Write(data)
	return err
}

func addFile(tw *tar.Writer, name, path string) error {
	f, err := os.Open(path) //nolint:gosec // a table file or a file of the certificate store
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: st.Size(), ModTime: st.ModTime(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	_, err = io.Copy(tw, f)
	return err
}

// finish records how backup b ended and audits it.
func (m *Manager) finish(ctx context.Context, b Backup, runErr error, keep int) {
	ctx = context.WithoutCancel(ctx)
	m.mu.Lock()
	delete(m.running, b.ID)
	cur, err := m.get(b.ID)
	if err == nil {
		cur.Status, cur.Size = b.Status, b.Size
		if runErr != nil {
			cur.Status, cur.Reason, cur.Size = StatusFailed, runErr.Error(), 0
			_ = os.Remove(m.FilePath(b.ID))
		}
		err = m.writeRecord(cur)
	}
	if err == nil && runErr == nil && keep > 0 {
		// Under the same lock, so no list shows more than keep complete
		// backups.
		if rerr := m.retainLocked(keep); rerr != nil {
			m.o.Logger.Error("backup retention", "error", rerr)
		}
	}
	m.mu.Unlock()
	if err != nil {
		m.o.Logger.Error("backup record not updated", "backup", b.ID, "error", err)
	}
	details := map[string]any{"id": b.ID, "readings": cur.Readings}
	sev := auditcode.Success
	if runErr != nil {
		sev, details["reason"] = auditcode.Failure, runErr.Error()
		m.o.Logger.Error("backup failed", "backup", b.ID, "error", runErr)
	} else {
		details["size"] = b.Size
		m.o.Logger.Info("backup complete", "backup", b.ID, "size", b.Size)
	}
	if err := m.o.Audit.Record(ctx, AuditBackup, sev, details); err != nil {
		m.o.Logger.Error("audit BKEXC", "error", err)
	}
}

// retainCount reads BACKUP.retainCount; 0 with an error when it cannot.
func (m *Manager) retainCount(ctx context.Context) (int, error) {
	v, err := m.o.Config.Value(ctx, Category, ItemRetainCount)
	if err != nil {
		return 0, fmt.Errorf("read %s.%s: %w", Category, ItemRetainCount, err)
	}
	keep, err := strconv.Atoi(v)
	if err != nil || keep < 1 {
		return 0, fmt.Errorf("%s.%s %q is not a positive integer", Category, ItemRetainCount, v)
	}
	return keep, nil
}

// retainLocked deletes the oldest complete backups beyond keep; m.mu held.
func (m *Manager) retainLocked(keep int) error {
	all, err := m.readRecords()
	if err != nil {
		return err
	}
	all = slices.DeleteFunc(all, func(b Backup) bool { return b.Status != StatusCompleted })
	for len(all) > keep {
		if err := m.remove(all[0].ID); err != nil {
			return err
		}
		m.o.Logger.Info("backup deleted by the retention count", "backup", all[0].ID, "retainCount", keep)
		all = all[1:]
	}
	return nil
}

// Upload adds the backup file read from r as a new COMPLETED backup, dated
// as its manifest says. A file that is not a backup of this format:
// Invalid. Whether it can be restored here (store kind, schema version)
// is checked by Restore.
func (m *Manager) Upload(ctx context.Context, r io.Reader) (Backup, error) {
	m.mu.Lock()
	if err := os.MkdirAll(m.dir, 0o700); err != nil {
		m.mu.Unlock()
		return Backup{}, fault.Wrap(fault.Unavailable, err, "the backup directory cannot be made")
	}
	all, err := m.readRecords()
	var id int64
	if err == nil {
		id, err = m.nextID(all)
	}
	m.mu.Unlock()
	if err != nil {
		return Backup{}, err
	}
	part := m.FilePath(id) + ".part"
	n, err := writeFile(part, r)
	if err != nil {
		_ = os.Remove(part)
		return Backup{}, err // a body over the limit stays *http.MaxBytesError: 413
	}
	a, man, err := openArchive(part)
	if err == nil {
		a.Close()
		if man.Format != FormatVersion {
			err = fmt.Errorf("file format %d, this gateway reads format %d", man.Format, FormatVersion)
		}
	}
	if err != nil || n == 0 {
		_ = os.Remove(part)
		if err == nil {
			err = errors.New("the body is empty")
		}
		return Backup{}, fault.Wrap(fault.Invalid, err, "the body is not a backup file of this gateway: %v", err)
	}
	if err := os.Rename(part, m.FilePath(id)); err != nil {
		_ = os.Remove(part)
		return Backup{}, fault.Wrap(fault.Unavailable, err, "the uploaded backup cannot be stored")
	}
	b := Backup{ID: id, Status: StatusCompleted, Date: man.CreatedAt.UTC(), Size: n, Readings: man.Readings}
	m.mu.Lock()
	err = m.writeRecord(b)
	m.mu.Unlock()
	if err != nil {
		return Backup{}, fault.Wrap(fault.Unavailable, err, "the uploaded backup cannot be recorded")
	}
	m.o.Logger.Info("backup uploaded", "backup", id, "size", n, "createdAt", man.CreatedAt)
	return b, nil
}

// writeFile copies r to a new file at path and syncs it.
func writeFile(path string, r io.Reader) (n int64, err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600) //nolint:gosec // a backup file name made from its numeric id
	if err != nil {
		return 0, fault.Wrap(fault.Unavailable, err, "the uploaded backup cannot be stored")
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fault.Wrap(fault.Unavailable, cerr, "the uploaded backup cannot be stored")
		}
	}()
	n, err = io.Copy(f, readErrors{r})
	var re readError
	if errors.As(err, &re) {
		return n, fmt.Errorf("read the body: %w", re.err) // the caller's to classify (too large, cut off)
	}
	if err != nil {
		return n, fault.Wrap(fault.Unavailable, err, "the uploaded backup cannot be stored")
	}
	if err := f.Sync(); err != nil {
		return n, fault.Wrap(fault.Unavailable, err, "the uploaded backup cannot be stored")
	}
	return n, nil
}

// readErrors marks the errors of reading its reader, so that writeFile
// tells a failed upload (the client's) from a failed write (the disk's).
type readErrors struct{ r io.Reader }

type readError struct{ err error }

func (e readError) Error() string { return e.err.Error() }
func (e readError) Unwrap() error { return e.err }

func (r readErrors) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		return n, readError{err}
	}
	return n, err
}
