package db

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jmoiron/sqlx"

	"github.com/edged/edged/internal/fileperm"
)

// DefaultFile is the SQLite file name Open uses inside the data directory
// when the DSN is empty.
const DefaultFile = "edged.db"

// DB is an open, migrated database. It is safe for concurrent use; Close it
// once when done.
type DB struct {
	dialect Dialect
	// w runs every write and every read-modify-write transaction. On SQLite
	// it holds exactly one connection and its transactions begin IMMEDIATE.
	w *sqlx.DB
	// r runs plain reads. On SQLite it is a separate read-only pool (or w
	// itself for an in-memory database); on PostgreSQL it is w.
	r *sqlx.DB
	// inserts caches the prepared multi-row reading INSERTs of SQLite.
	inserts insertStmts
	// prepared caches other statements of the SQLite write path (asset
	// counts, rollup upserts).
	prepared stmtCache
	// scratch recycles InsertReadings' normalised copies of its batches
	// (*[]Reading).
	scratch sync.Pool
	// fence orders the readings stream north services read (stream.go).
	fence streamFence
	// wh and rh keep the health of w and r (guard.go); the same tracker
	// when w and r are one pool.
	wh, rh *tracker
	// ingest tells purges whether readings are being inserted, so they
	// yield the writer (purge.go).
	ingest ingestActivity
	// ckpt checkpoints a SQLite file database off the write connection
	// (checkpoint_sqlite.go); nil otherwise.
	ckpt *checkpointer
	// sweeper removes the rows of deleted assets' readings (deletions.go).
	sweeper *sweeper
	// locking counts the transactions waiting for (or holding) a table
	// lock on readings (inLockedTx): purge and sweep steps hold off until
	// none is, so the lock waits for inserts only.
	locking atomic.Int32
	// swept, when set (tests), is called after each committed step of a
	// sweep (deletions.go).
	swept func()
	// logs syncs the log of a SQLite file database at durability Power
	// for the readings' relaxed commits (logsync_sqlite.go); nil
	// otherwise.
	logs *logSync
	// reserve is the disk reserve of a SQLite file database (reserve.go);
	// nil otherwise.
	reserve *reserve
}

// ingestActivity counts InsertReadings calls.
type ingestActivity struct {
	started  atomic.Int64 // calls begun
	inFlight atomic.Int64 // calls not yet returned
}

// begin records a call; the returned function records its end.
func (a *ingestActivity) begin() (end func()) {
	a.started.Add(1)
	a.inFlight.Add(1)
	return func() { a.inFlight.Add(-1) }
}

// Open opens the database named by dsn, applies pending migrations and
// returns it. The DSN forms are described in the package documentation: ""
// selects the SQLite file <dataDir>/edged.db (creating dataDir with mode
// 0700 if needed, and making an existing one private to its owner),
// "sqlite:PATH" a SQLite file (mode 0600, with its -wal and -shm files), and a postgres:// or
// postgresql:// URL or a lib/pq key=value string PostgreSQL. Open returns an
// error for any other DSN, if the database cannot be reached, or if a
// migration fails; nothing stays open in that case.
//
// Commits are durable at level Power; OpenDurable chooses the level.
func Open(ctx context.Context, dsn, dataDir string) (*DB, error) {
	return OpenDurable(ctx, dsn, dataDir, Power)
}

// OpenDurable is Open with the durability level of every commit.
func OpenDurable(ctx context.Context, dsn, dataDir string, durability Durability) (*DB, error) {
	if _, err := ParseDurability(string(durability)); err != nil {
		return nil, err
	}
	dialect, target, err := parseDSN(dsn, dataDir)
	if err != nil {
		return nil, err
	}
	switch dialect {
	case SQLite:
		if dsn == "" {
			if err := mkdirDurable(dataDir, durability, fileperm.PrivateDir); err != nil {
				return nil, fmt.Errorf("db: data directory %s: %w", dataDir, err)
			}
		}
		return openSQLite(ctx, target, durability)
	default:
		if target, err = durability.postgresDSN(target); err != nil {
			return nil, err
		}
		return openPostgres(ctx, target)
	}
}

// parseDSN classifies dsn. For SQLite it returns the file path (or
// ":memory:"), for PostgreSQL the DSN unchanged.
func parseDSN(dsn, dataDir string) (Dialect, string, error) {
	switch {
	case dsn == "":
		if dataDir == "" {
			return "", "", errors.New("db: an empty DSN needs a data directory for " + DefaultFile)
		}
		return SQLite, filepath.Join(dataDir, DefaultFile), nil
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(dsn, "sqlite:")
		if p, ok := strings.CutPrefix(path, "//"); ok {
			path = p // sqlite:///abs/file.db and sqlite://rel/file.db
		}
		switch {
		case path == "":
			return "", "", errors.New("db: sqlite DSN has no path (want sqlite:PATH)")
		case strings.Contains(path, "?"):
			return "", "", errors.New("db: sqlite path must not contain '?'")
		}
		return SQLite, path, nil
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return Postgres, dsn, nil
	case strings.Contains(dsn, "host=") || strings.Contains(dsn, "dbname="):
		return Postgres, dsn, nil
	}
	return "", "", errors.New(`db: unrecognised DSN; want "" (SQLite in the data directory), ` +
		`"sqlite:PATH", "postgres://…", "postgresql://…" or a key=value PostgreSQL DSN with host= or dbname=`)
}

// Dialect reports which SQL database d uses.
func (d *DB) Dialect() Dialect { return d.dialect }

// Ping checks that the database answers, on every pool. It returns the
// first driver error or the context's error.
func (d *DB) Ping(ctx context.Context) error {
	if err := d.w.PingContext(ctx); err != nil {
		return fmt.Errorf("db: ping: %w", err)
	}
	if d.r != d.w {
		if err := d.r.PingContext(ctx); err != nil {
			return fmt.Errorf("db: ping readers: %w", err)
		}
	}
	return nil
}

// Close closes every pool and returns the pools' close errors joined (nil
// when all close cleanly). Callers stop using d first; any method called
// after Close returns an error.
func (d *DB) Close() error {
	d.sweeper.close()
	d.ckpt.close()
	var errR error
	if d.r != d.w {
		errR = d.r.Close()
	}
	return errors.Join(d.inserts.close(), d.prepared.close(), errR, d.w.Close())
}

// closeAll closes the pools opened so far when Open fails part-way.
func closeAll(pools ...*sqlx.DB) {
	for _, p := range pools {
		if p != nil {
			_ = p.Close()
		}
	}
}
