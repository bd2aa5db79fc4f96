package db

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"

	"github.com/edged/edged/internal/fileperm"
)

// sqliteDriver is the database/sql driver name modernc.org/sqlite registers.
const sqliteDriver = "sqlite"

var bindSQLiteOnce sync.Once

// sqliteParams are the DSN parameters of every SQLite connection, in order:
// busy_timeout must come first so the pragmas after it wait for locks
// instead of failing. Times bound as time.Time are stored as integer
// microseconds (a Go-side convention; the schema declares INTEGER).
// synchronous (FULL or NORMAL, by durability level) is appended per pool.
const sqliteParams = "_pragma=busy_timeout(5000)" +
	"&_pragma=journal_mode(WAL)" +
	"&_pragma=foreign_keys(1)" +
	"&_time_integer_format=unix_micro"

// logSizeLimit is the size in bytes a SQLite log file is cut back to when
// it starts over: above what steady ingest writes between two checkpoints,
// so that it is cut only after a burst.
const logSizeLimit = 64 << 20

// privateFiles makes the database file path and its companions readable by
// the owner only: it holds password and token hashes. The file is created
// with mode 0600 before SQLite opens it, since SQLite gives the -wal, -shm
// and -journal files it makes later the mode of the database file; files
// an older version left with a wider mode are tightened.
func privateFiles(path string) error {
	if err := fileperm.CreateFile(path); err != nil {
		return err
	}
	return fileperm.Tighten(path+"-wal", path+"-shm", path+"-journal")
}

// openSQLite opens path (or ":memory:") with a one-connection write pool
// and a read-only read pool, both guarded (guard.go), and migrates it. With
// Power, the directory holding the file and its parent are synced once the
// file exists, so that the file itself survives a power cut (SQLite syncs
// the directory for its WAL file only).
func openSQLite(ctx context.Context, path string, durability Durability) (*DB, error) {
	bindSQLiteOnce.Do(func() { sqlx.BindDriver(sqliteDriver, sqlx.QUESTION) })

	memory := path == ":memory:"
	if !memory {
		if err := privateFiles(path); err != nil {
			return nil, fmt.Errorf("db: open sqlite %s: %w", path, err)
		}
	}
	params := sqliteParams + "&_pragma=synchronous(" + durability.sqliteSynchronous() + ")"
	// The write connection never checkpoints: the checkpointer does
	// (checkpoint_sqlite.go). When the log starts over, a file that grew
	// past logSizeLimit in a burst (a purge, a migration) is cut back to it.
	// An in-memory database has no log.
	writeParams := params + "&_txlock=immediate"
	if !memory {
		writeParams += "&_pragma=wal_autocheckpoint(0)&_pragma=journal_size_limit(" + strconv.Itoa(logSizeLimit) + ")"
	}
	wt := &tracker{writes: true, reserved: !memory}
	w, err := openGuarded(path+"?"+writeParams, wt)
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

	d := &DB{dialect: SQLite, w: w, r: w, wh: wt, rh: wt}
	if err := d.migrateUp(ctx); err != nil {
		closeAll(w)
		return nil, err
	}
	if err := d.rebuildPendingRollups(ctx); err != nil {
		closeAll(w)
		return nil, err
	}
	if !memory && durability == Power {
		d.logs = newLogSync(path)
		// The file's name in its directory, and the directory's in its
		// parent (the data directory may have been created just before).
		dir := filepath.Dir(path)
		for _, d := range []string{dir, filepath.Dir(dir)} {
			if err := syncDir(d); err != nil {
				closeAll(w)
				return nil, err
			}
		}
	}

	if !memory { // every connection to :memory: is a new database
		rt := &tracker{}
		r, err := openGuarded(path+"?"+params+"&_pragma=query_only(1)", rt)
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
		d.r, d.rh = r, rt
		d.ckpt = startCheckpointer(r, w, nil)
		d.reserve = newReserve(path)
	}
	d.startSweeper()
	return d, nil
}

// openGuarded returns a pool of modernc SQLite connections to dsn, guarded
// by t (guard.go). Nothing is opened before the first use.
func openGuarded(dsn string, t *tracker) (*sqlx.DB, error) {
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sqlx.NewDb(sql.OpenDB(&guardConnector{inner: connector, t: t}), sqliteDriver), nil
}
