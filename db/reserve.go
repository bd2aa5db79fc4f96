package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// The disk reserve of a SQLite file database. A full disk must not lock the
// operator out: deleting readings needs room too (SQLite writes the pages
// it changes to its log before the database file). So a file of
// ReserveSize bytes, allocated on the disk, sits beside the database
// (<database>-reserve) while there is room for it:
//
//   - When a write fails because the disk is full, the write pool is marked
//     full (see tracker): ping is red, and every write but the deletion of
//     readings (and what an operator needs to reach the API: a login, a
//     session's activity; see OnFullDisk) answers ErrUnavailable at once,
//     so new readings cannot take the room the deletion needs.
//   - A deletion of readings (PurgeReadings, PurgeAssetReadings,
//     PurgeAllReadings) on a full disk first removes the reserve file, then
//     runs in the room it leaves; a deletion that finds the disk full
//     before the pool was marked removes it and runs again.
//   - The full state ends when the probe (Probe, which the storage watcher
//     runs while storage is unavailable) finds room for ReserveSize bytes
//     of writes again: free space on the file system plus the free pages
//     inside the database (what a deletion left), the room a missing
//     reserve will take again not counted. The reserve is made again once
//     the file system has room for it twice over, so making it never fills
//     the disk.
//
// PostgreSQL's disk is the server's, which the gateway does not manage:
// there a full disk answers 503 like any outage, and there is no reserve.

// ReserveSize is the size of a SQLite file database's disk reserve: room
// for the log of a deletion of several purge steps (PurgeBlock readings
// each) on a disk that is otherwise full.
const ReserveSize = 8 << 20

// errDiskFull is the cause of the writes refused while the disk is full.
var errDiskFull = errors.New("the disk is full: only deleting readings (DELETE /edge/asset…, a purge) can write until there is room again")

// reserve is the reserve file of one database.
type reserve struct {
	path string
	size int64

	mu      sync.Mutex // guards present
	present bool
}

// newReserve returns the reserve of the SQLite database at dbPath and makes
// its file when there is room for it (twice over).
func newReserve(dbPath string) *reserve {
	r := &reserve{path: dbPath + "-reserve", size: ReserveSize}
	if fi, err := os.Stat(r.path); err == nil && fi.Size() >= r.size {
		r.present = true
		return r
	}
	_ = r.make() // no room now: the probe tries again
	return r
}

// make allocates the reserve file when the file system has room for it
// twice over; it reports whether the reserve is in place.
func (r *reserve) make() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.present {
		return true
	}
	if free, err := freeBytes(filepath.Dir(r.path)); err != nil || free < 2*r.size {
		return false
	}
	f, err := os.OpenFile(r.path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600) //nolint:gosec // beside the database
	if err != nil {
		return false
	}
	err = allocate(f, r.size)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(r.path)
		return false
	}
	r.present = true
	return true
}

// release removes the reserve file, giving its room to the database; it
// reports whether there was one to remove.
func (r *reserve) release() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.present {
		return false
	}
	if err := os.Remove(r.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false
	}
	r.present = false
	return true
}

// inPlace reports whether the reserve file is there.
func (r *reserve) inPlace() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.present
}

// allocate gives f size bytes of disk blocks: fallocate where the file
// system has it, else written zeros (which allocate blocks as well).
func allocate(f *os.File, size int64) error {
	err := syscall.Fallocate(int(f.Fd()), 0, 0, size)
	if err == nil || !errors.Is(err, syscall.EOPNOTSUPP) {
		return err
	}
	zeros := make([]byte, 1<<16)
	for left := size; left > 0; left -= int64(len(zeros)) {
		n := min(left, int64(len(zeros)))
		if _, err := f.Write(zeros[:n]); err != nil {
			return err
		}
	}
	return nil
}

// freeBytes returns the bytes an unprivileged process may still write on
// the file system holding dir.
func freeBytes(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * st.Bsize, nil //nolint:gosec // block counts of a real file system fit
}

// diskFull reports whether err says the disk is full, in either dialect.
func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, errDiskFull) || sqliteFull(err) || postgresDiskFull(err)
}

// freeing marks a context whose writes delete readings, which the write
// pool lets through while the disk is full.
type freeingKey struct{}

// OnFullDisk returns ctx marked so that its writes run on a full disk (see
// reserve.go). A login (its lockout accounting and its session) and the
// activity of a session need it: without them an operator could not reach
// the API to delete readings. Their rows are small.
func OnFullDisk(ctx context.Context) context.Context {
	return context.WithValue(ctx, freeingKey{}, true)
}

// isFreeing reports whether ctx belongs to a deletion of readings or was
// marked OnFullDisk.
func isFreeing(ctx context.Context) bool {
	v, _ := ctx.Value(freeingKey{}).(bool)
	return v
}

// freeSpace runs fn, a deletion of readings, so that it works on a full
// disk: its writes pass the full state's refusal, the reserve is released
// first when the disk is known to be full, and when fn finds the disk full
// while the reserve was still there, the reserve is released and fn runs
// again.
func (d *DB) freeSpace(ctx context.Context, fn func(ctx context.Context) error) error {
	if d.reserve == nil {
		return fn(ctx)
	}
	ctx = OnFullDisk(ctx)
	if d.wh.isFull() {
		d.reserve.release()
	}
	err := fn(ctx)
	if err != nil && diskFull(err) && d.reserve.release() {
		err = fn(ctx)
	}
	return err
}

// onFullDisk runs fn, a write of a context marked OnFullDisk (a login's
// lockout accounting, a session), as freeSpace runs a deletion of
// readings, so that on a full disk it may use the reserve: an operator
// logging in to delete readings needs a few rows written first. Any other
// context runs fn as it is.
func (d *DB) onFullDisk(ctx context.Context, fn func(ctx context.Context) error) error {
	if !isFreeing(ctx) {
		return fn(ctx)
	}
	return d.freeSpace(ctx, fn)
}

// probeRoom is Probe's part for a database with a reserve: it makes the
// reserve again when there is room, and while the write pool is marked
// full it ends that state once there is room for ReserveSize bytes of
// writes (free space on the file system and free pages in the database),
// or else returns the error that keeps it.
func (d *DB) probeRoom(ctx context.Context) error {
	d.reserve.make()
	if !d.wh.isFull() {
		return nil
	}
	free, err := freeBytes(filepath.Dir(d.reserve.path))
	if err != nil {
		return d.wh.fail(fmt.Errorf("free space: %w", err))
	}
	var pages, pageSize int64
	if err := d.r.GetContext(ctx, &pages, "PRAGMA freelist_count"); err != nil {
		return err
	}
	if err := d.r.GetContext(ctx, &pageSize, "PRAGMA page_size"); err != nil {
		return err
	}
	if !d.reserve.inPlace() {
		free -= d.reserve.size // the room the reserve will take again
	}
	if max(free, 0)+pages*pageSize < d.reserve.size {
		return &unavailableError{err: errDiskFull}
	}
	d.wh.endFull()
	return nil
}
