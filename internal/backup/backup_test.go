package backup_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/backup"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/scheduler"
)

type config map[string]string

func (c config) Value(_ context.Context, key, item string) (string, error) {
	v, ok := c[key+"."+item]
	if !ok {
		return "", errors.New("no item " + key + "." + item)
	}
	return v, nil
}

type recorder struct {
	mu      sync.Mutex
	entries []string // source/severity
}

func (r *recorder) Record(_ context.Context, source, severity string, _ any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entries = append(r.entries, source+"/"+severity)
	return nil
}

func (r *recorder) has(s string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.entries {
		if e == s {
			return true
		}
	}
	return false
}

type fixture struct {
	dir   string
	store *db.DB
	cfg   config
	audit *recorder
	m     *backup.Manager
	runs  sync.WaitGroup
}

func newFixture(t *testing.T, store *db.DB) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir(), store: store, audit: &recorder{},
		cfg: config{"BACKUP.retainCount": "5", "BACKUP.includeReadings": "true"}}
	f.m = backup.New(backup.Options{DataDir: f.dir, Store: store, Config: f.cfg, Audit: f.audit, Version: "test",
		Trigger: func(context.Context) (string, error) {
			id := uuid.NewString()
			f.runs.Add(1)
			go func() {
				defer f.runs.Done()
				_ = f.m.Run(context.Background(), scheduler.Run{TaskID: id, Schedule: backup.ScheduleName, Process: backup.ProcessName})
			}()
			return id, nil
		}})
	return f
}

// backup makes one backup and waits for it to end.
func (f *fixture) backup(t *testing.T) backup.Backup {
	t.Helper()
	b, err := f.m.Create(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f.runs.Wait()
	b, err = f.m.Get(context.Background(), b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != backup.StatusCompleted {
		t.Fatalf("backup %d is %s (%s)", b.ID, b.Status, b.Reason)
	}
	return b
}

func TestCreateListDelete(t *testing.T) {
	f := newFixture(t, dbtest.SQLite(t))
	ctx := context.Background()
	if err := os.MkdirAll(filepath.Join(f.dir, "certs"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "certs", "server.cert"), []byte("PEM"), 0o600); err != nil {
		t.Fatal(err)
	}
	b := f.backup(t)
	if b.Size == 0 || !b.Readings || b.Date.IsZero() {
		t.Errorf("record %+v", b)
	}
	if !f.audit.has("BKEXC/SUCCESS") {
		t.Errorf("BKEXC not audited: %v", f.audit.entries)
	}
	file, _, err := f.m.Open(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	names := entries(t, file)
	_ = file.Close()
	for _, want := range []string{"manifest.json", "tables/users.jsonl", "tables/readings.jsonl", "certs/server.cert"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("entry %s missing from %v", want, names)
		}
	}
	list, err := f.m.List(ctx, backup.Filter{Status: "completed"})
	if err != nil || len(list) != 1 || list[0].ID != b.ID {
		t.Fatalf("list %+v, %v", list, err)
	}
	if list, _ := f.m.List(ctx, backup.Filter{Status: backup.StatusFailed}); len(list) != 0 {
		t.Errorf("failed backups listed: %+v", list)
	}
	if err := f.m.Delete(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.m.Delete(ctx, b.ID); !errors.Is(err, fault.NotFound) {
		t.Errorf("second delete: %v", err)
	}
	if _, err := os.Stat(f.m.FilePath(b.ID)); !os.IsNotExist(err) {
		t.Errorf("file of a deleted backup: %v", err)
	}
	if b2 := f.backup(t); b2.ID <= b.ID {
		t.Errorf("id %d reused after %d", b2.ID, b.ID)
	}
}

func entries(t *testing.T, r io.Reader) []string {
	t.Helper()
	gz, err := gzip.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
}

func TestRetentionCount(t *testing.T) {
	f := newFixture(t, dbtest.SQLite(t))
	f.cfg["BACKUP.retainCount"] = "2"
	var ids []int64
	for range 4 {
		ids = append(ids, f.backup(t).ID)
	}
	list, err := f.m.List(context.Background(), backup.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != ids[3] || list[1].ID != ids[2] {
		t.Fatalf("kept %+v, want the newest two of %v", list, ids)
	}
}

func TestRestoreRoundTrip(t *testing.T) {
	for _, readings := range []bool{true, false} {
		t.Run(map[bool]string{true: "with readings", false: "without readings"}[readings], func(t *testing.T) {
			dbtest.Each(t, func(t *testing.T, store *db.DB) { restoreRoundTrip(t, store, readings) })
		})
	}
}

func restoreRoundTrip(t *testing.T, store *db.DB, readings bool) {
	ctx := context.Background()
	f := newFixture(t, store)
	f.cfg["BACKUP.includeReadings"] = map[bool]string{true: "true", false: "false"}[readings]
	name := "before-" + uuid.NewString()[:8]
	if _, err := store.InsertUser(ctx, db.NewUser{Username: name, PasswordHash: "x", RoleID: 2}); err != nil {
		t.Fatal(err)
	}
	base := time.Now().UTC()
	if err := store.InsertReadings(ctx, []db.Reading{{AssetCode: "r", Reading: json.RawMessage(`{"v": 1}`), UserTS: base}}); err != nil {
		t.Fatal(err)
	}
	north := "north-" + name
	if err := store.CreateStreamPosition(ctx, north); err != nil {
		t.Fatal(err)
	}
	b := f.backup(t)

	// Changes after the backup, which the restore undoes.
	if _, err := store.InsertUser(ctx, db.NewUser{Username: "after-" + name, PasswordHash: "x", RoleID: 2}); err != nil {
		t.Fatal(err)
	}
	if err := store.DeleteStreamPosition(ctx, north); err != nil {
		t.Fatal(err)
	}
	if err := store.InsertReadings(ctx, []db.Reading{{AssetCode: "r", Reading: json.RawMessage(`{"v": 2}`), UserTS: base}}); err != nil {
		t.Fatal(err)
	}
	if err := f.m.Restore(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if !f.audit.has("BKRST/INFORMATION") {
		t.Errorf("restore start not audited: %v", f.audit.entries)
	}
	backup.ApplyPending(ctx, f.dir, store, f.audit, nil)
	if !f.audit.has("BKRSC/SUCCESS") {
		t.Fatalf("restore end not audited as a success: %v", f.audit.entries)
	}
	if _, err := store.GetUserByName(ctx, name); err != nil {
		t.Errorf("user of the backup: %v", err)
	}
	if _, err := store.GetUserByName(ctx, "after-"+name); err == nil {
		t.Error("a user added after the backup survived the restore")
	}
	rs, err := store.AssetReadings(ctx, "r", db.Window{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	pos, err := store.GetStreamPosition(ctx, north)
	if err != nil {
		t.Fatalf("north position after the restore: %v", err)
	}
	sendable, err := store.ReadStream(ctx, pos, 10)
	if err != nil {
		t.Fatal(err)
	}
	if readings {
		if len(rs) != 1 || pos.Sent || len(sendable) != 1 {
			t.Errorf("with readings: %d readings, position %+v, %d to send; want the backup's one reading, unsent", len(rs), pos, len(sendable))
		}
	} else if len(rs) != 2 || len(sendable) != 0 {
		t.Errorf("without readings: %d readings, %d to send; want this gateway's two kept and none re-sent", len(rs), len(sendable))
	}
	// The request is consumed: a second start restores nothing.
	if _, err := store.InsertUser(ctx, db.NewUser{Username: "later-" + name, PasswordHash: "x", RoleID: 2}); err != nil {
		t.Fatal(err)
	}
	backup.ApplyPending(ctx, f.dir, store, f.audit, nil)
	if _, err := store.GetUserByName(ctx, "later-"+name); err != nil {
		t.Errorf("a second start restored again: %v", err)
	}
}

// rewrite copies the backup file at path with its manifest changed by fn.
func rewrite(t *testing.T, path string, fn func(m map[string]any)) {
	t.Helper()
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == "manifest.json" {
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			fn(m)
			data, _ = json.Marshal(m)
			h.Size = int64(len(data))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestRestoreRefused(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		change     func(m map[string]any)
	}{
		{name: "newer schema", want: "newer than this gateway's", change: func(m map[string]any) { m["schemaVersion"] = m["schemaVersion"].(float64) + 1 }},
		{name: "older schema", want: "older than this gateway's", change: func(m map[string]any) { m["schemaVersion"] = m["schemaVersion"].(float64) - 1 }},
		{name: "other store", want: "taken from a postgres store", change: func(m map[string]any) { m["store"] = "postgres" }},
		{name: "other format", want: "file format 2", change: func(m map[string]any) { m["format"] = 2 }},
		{name: "foreign table", want: `table "sessions"`, change: func(m map[string]any) { m["tables"] = []string{"sessions"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, dbtest.SQLite(t))
			b := f.backup(t)
			rewrite(t, f.m.FilePath(b.ID), tc.change)
			err := f.m.Restore(context.Background(), b.ID)
			if !errors.Is(err, fault.Invalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("restore: %v; want a refusal naming %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(f.dir, backup.Dir, "restore-request.json")); !os.IsNotExist(err) {
				t.Errorf("a refused restore left a request: %v", err)
			}
		})
	}
}

func TestRestoreUnknownOrNotComplete(t *testing.T) {
	f := newFixture(t, dbtest.SQLite(t))
	if err := f.m.Restore(context.Background(), 42); !errors.Is(err, fault.NotFound) {
		t.Errorf("unknown: %v", err)
	}
}

func TestUpload(t *testing.T) {
	f := newFixture(t, dbtest.SQLite(t))
	ctx := context.Background()
	b := f.backup(t)
	data, err := os.ReadFile(f.m.FilePath(b.ID))
	if err != nil {
		t.Fatal(err)
	}
	up, err := f.m.Upload(ctx, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if up.ID == b.ID || up.Status != backup.StatusCompleted || up.Size != int64(len(data)) || !up.Date.Equal(b.Date) || up.Readings != b.Readings {
		t.Errorf("uploaded %+v, from %+v", up, b)
	}
	if err := f.m.Restore(ctx, up.ID); err != nil {
		t.Errorf("restore of the uploaded copy: %v", err)
	}
	for name, body := range map[string][]byte{"empty": {}, "text": []byte("hello"), "gzip without tar": gzipped(t, []byte("x"))} {
		if _, err := f.m.Upload(ctx, bytes.NewReader(body)); !errors.Is(err, fault.Invalid) {
			t.Errorf("upload of %s: %v, want Invalid", name, err)
		}
	}
	list, err := f.m.List(ctx, backup.Filter{})
	if err != nil || len(list) != 2 {
		t.Errorf("refused uploads left records: %+v %v", list, err)
	}
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestLeftoversRemoved(t *testing.T) {
	f := newFixture(t, dbtest.SQLite(t))
	dir := filepath.Join(f.dir, backup.Dir)
	for _, p := range []string{".work-7-123/users.jsonl", "backup-7.tar.gz.part"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "backup-7.json"), []byte(`{"id":7,"status":"RUNNING","date":"2026-11-20T10:00:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	m := backup.New(backup.Options{DataDir: f.dir, Store: f.store, Config: f.cfg, Audit: f.audit})
	left, _ := filepath.Glob(filepath.Join(dir, "*7*"))
	if len(left) != 1 || filepath.Base(left[0]) != "backup-7.json" {
		t.Errorf("left after a new start: %v, want only the record", left)
	}
	b, err := m.Get(context.Background(), 7)
	if err != nil || b.Status != backup.StatusInterrupted {
		t.Fatalf("backup cut short: %+v %v, want INTERRUPTED", b, err)
	}
	if err := m.Delete(context.Background(), 7); err != nil {
		t.Errorf("delete of an interrupted backup: %v", err)
	}
}
