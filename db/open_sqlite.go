package db

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/jmoiron/sqlx"
)

// sqliteDriver is the database/sql driver name modernc.org/sqlite registers.
const sqliteDriver = "sqlite"

var bindSQLiteOnce sync.Once

// sqliteParams are the DSN parameters of every SQLite connection, in order:
// busy_timeout must come first so the pragmas after it wait for locks
// instead of failing. Times bound as time.Time are stored as integer
// microseconds (a Go-side convention; the schema declares INTEGER).
const sqliteParams = "_pragma=busy_timeout(5000)" +
	"&_pragma=journal_mode(WAL)" +
	"&_pragma=foreign_keys(1)" +
	"&_pragma=synchronous(NORMAL)" +
	"&_time_integer_format=unix_micro"

// openSQLite opens path (or ":memory:") with a one-connection write pool
// and a read-only read pool, and migrates it.
func openSQLite(ctx context.Context, path string) (*DB, error) {
	bindSQLiteOnce.Do(func() { sqlx.BindDriver(sqliteDriver, sqlx.QUESTION) })

	memory := path == ":memory:"
	// The write connection never checkpoints: the checkpointer does, from
	// a read connection (checkpoint_sqlite.go). An in-memory database has
	// no log.
	writeParams := sqliteParams + "&_txlock=immediate"
	if !memory {
		writeParams += "&_pragma=wal_autocheckpoint(0)"
	}
	w, err := sqlx.Open(sqliteDriver, path+"?"+writeParams)
	if err != nil {
		return nil, fmt.Errorf("db: open sqlite %s: %w", path, err)
	}
	// One writer: SQLite allows one write transaction at a time anyway, and
	// queueing in the pool beats spinning on SQLITE_BUSY.
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := w.PingContext(ctx); err != nil {
		closeAll(w)
		return nil, fmt.Errorf("db: open sqlite %s: %w", path, err)
	}

	d := &DB{dialect: SQLite, w: w, r: w}
	if err := d.migrateUp(ctx); err != nil {
		closeAll(w)
		return nil, err
	}
	if err := d.rebuildPendingRollups(ctx); err != nil {
		closeAll(w)
		return nil, err
	}

	if !memory { // every connection to :memory: is a new database
		r, err := sqlx.Open(sqliteDriver, path+"?"+sqliteParams+"&_pragma=query_only(1)")
		if err != nil {
			closeAll(w)
			return nil, fmt.Errorf("db: open sqlite readers %s: %w", path, err)
		}
		n := max(4, runtime.GOMAXPROCS(0))
		r.SetMaxOpenConns(n)
		r.SetMaxIdleConns(n)
		if err := r.PingContext(ctx); err != nil {
			closeAll(r, w)
			return nil, fmt.Errorf("db: open sqlite readers %s: %w", path, err)
		}
		d.r = r
		d.ckpt = startCheckpointer(r, nil)
	}
	return d, nil
}
