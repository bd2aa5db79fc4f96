package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/jmoiron/sqlx"
)

// logSync makes the commits of a SQLite file database in WAL mode durable
// after the fact, for durability Power. The readings' transactions commit
// with synchronous=NORMAL — their log frames are written, not synced — and
// release the write lock at once; whoever waits for one of them then syncs
// the log file, which makes every commit written before the sync began
// durable (the log is one file, appended in order). One sync serves every
// commit made before it started, so concurrent waiters share it, and the
// writer commits the next group while the previous one syncs. Every other
// transaction keeps synchronous=FULL, whose own sync also covers the
// readings committed before it. It is safe for concurrent use.
type logSync struct {
	path string // the database file; its log is path+"-wal"

	mu        sync.Mutex
	cond      *sync.Cond
	committed uint64 // commits made, numbered from 1
	synced    uint64 // every commit up to it is durable
	syncing   bool   // a sync is running
}

func newLogSync(path string) *logSync {
	l := &logSync{path: path}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// commit numbers a commit that has just been made.
func (l *logSync) commit() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.committed++
	return l.committed
}

// wait returns once commit n is on stable storage: it syncs the log, or
// waits for a sync that began after commit n.
func (l *logSync) wait(n uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.synced < n {
		if l.syncing {
			l.cond.Wait()
			continue
		}
		l.syncing = true
		target := l.committed
		l.mu.Unlock()
		err := l.sync()
		l.mu.Lock()
		l.syncing = false
		l.cond.Broadcast()
		if err != nil {
			return err
		}
		l.synced = max(l.synced, target)
	}
	return nil
}

// sync syncs the log file. Without one (the last connection closed and
// SQLite folded the log into the database) it syncs the database file.
func (l *logSync) sync() error {
	f, err := os.Open(filepath.Clean(l.path + "-wal"))
	if errors.Is(err, fs.ErrNotExist) {
		f, err = os.Open(filepath.Clean(l.path))
	}
	if err != nil {
		return fmt.Errorf("db: sync the log: %w", err)
	}
	defer func() { _ = f.Close() }()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("db: sync the log: %w", err)
	}
	return nil
}

// inRelaxedTx runs fn in a write transaction committed with
// synchronous=NORMAL on the write connection, which it holds from the
// pragma to its reset so that no other transaction runs relaxed. A
// connection whose setting could not be restored is discarded. As in
// inShortTx, fn runs its statements with the context it is given, which
// does not end with ctx.
func (d *DB) inRelaxedTx(ctx context.Context, fn func(ctx context.Context, tx *sqlx.Tx) error) (err error) {
	conn, err := d.w.Connx(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", translate(err))
	}
	defer func() {
		// The reset runs even when ctx ended, so that the connection
		// goes back to the pool syncing every commit.
		if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA synchronous=FULL"); rerr != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			err = errors.Join(err, fmt.Errorf("restore synchronous=FULL: %w", rerr))
		}
		_ = conn.Close()
	}()
	if _, err := conn.ExecContext(ctx, "PRAGMA synchronous=NORMAL"); err != nil {
		return fmt.Errorf("begin: %w", translate(err))
	}
	ctx = context.WithoutCancel(ctx) // see inShortTx
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", translate(err))
	}
	return d.runTx(tx, func(tx *sqlx.Tx) error { return fn(ctx, tx) })
}
