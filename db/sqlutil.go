package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// now is the time every write stamps: UTC, truncated to the microsecond
// that both dialects store.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// dbTime scans a time column of either dialect: integer microseconds since
// the epoch (SQLite) or a timestamptz (PostgreSQL). NULL scans as the zero
// Time with Valid false. Times are bound as time.Time on both dialects: the
// SQLite DSN stores them as microseconds.
type dbTime struct {
	Time  time.Time
	Valid bool
}

// Scan implements sql.Scanner.
func (t *dbTime) Scan(v any) error {
	switch x := v.(type) {
	case nil:
		*t = dbTime{}
	case int64:
		*t = dbTime{Time: time.UnixMicro(x).UTC(), Valid: true}
	case time.Time:
		*t = dbTime{Time: x.UTC(), Valid: true}
	default:
		return fmt.Errorf("db: cannot scan %T into a time", v)
	}
	return nil
}

// rollback ends tx after a failure; a rollback error cannot add anything
// useful to the original one.
func rollback(tx *sqlx.Tx) { _ = tx.Rollback() }

// inTx runs fn in a write transaction and commits it if fn returns nil. On
// SQLite the transaction begins IMMEDIATE on the single write connection,
// so it holds the write lock from its first statement; fn must use tx only,
// never d.w or d.r's write side. A panic in fn rolls back and re-panics.
func (d *DB) inTx(ctx context.Context, fn func(tx *sqlx.Tx) error) (err error) {
	tx, err := d.w.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	return d.runTx(tx, fn)
}

// inShortTx is inTx for a write transaction of a few short statements on
// SQLite, as an ingest write is: it waits for the write connection as long
// as ctx lets it, then begins, runs and commits the transaction without
// ctx's end (fn must run its statements with the context it is given, not
// ctx). The driver watches a statement run with a context that can end
// from a goroutine of its own, so as to interrupt it: for statements of
// microseconds that cost more than it could save (a goroutine started and
// woken for each, about a tenth of a one-reading commit's user CPU,
// docs/benchmarks.md). Waits for a lock end with the connection's
// busy_timeout.
func (d *DB) inShortTx(ctx context.Context, fn func(ctx context.Context, tx *sqlx.Tx) error) error {
	conn, err := d.w.Connx(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", translate(err))
	}
	defer func() { _ = conn.Close() }()
	ctx = context.WithoutCancel(ctx)
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", translate(err))
	}
	return d.runTx(tx, func(tx *sqlx.Tx) error { return fn(ctx, tx) })
}

// runTx runs fn in tx and commits it, or rolls it back when fn fails or
// panics.
func (d *DB) runTx(tx *sqlx.Tx, fn func(tx *sqlx.Tx) error) error {
	defer func() {
		if p := recover(); p != nil {
			rollback(tx)
			panic(p)
		}
	}()
	if err := fn(tx); err != nil {
		rollback(tx)
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", translate(err))
	}
	d.ckpt.wrote()
	return nil
}

// inReadTx runs fn in a read-only transaction on the read pool, so several
// queries see one snapshot (REPEATABLE READ on PostgreSQL; SQLite's read
// transactions are snapshots).
func (d *DB) inReadTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	opts := &sql.TxOptions{ReadOnly: true}
	if d.dialect == Postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	tx, err := d.r.BeginTxx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer rollback(tx) // read-only: nothing to commit
	return fn(tx)
}

// forUpdate is the row-locking suffix of a SELECT that is followed by an
// UPDATE in the same transaction. SQLite needs none: its write transaction
// already holds the database's write lock.
func (d *DB) forUpdate() string {
	if d.dialect == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// limitOffset returns the paging clause for limit (0 = no limit) and skip,
// with its arguments. SQLite needs a LIMIT before OFFSET (-1 means none);
// PostgreSQL rejects a negative LIMIT.
func (d *DB) limitOffset(limit, skip int) (string, []any, error) {
	if limit < 0 || skip < 0 {
		return "", nil, errors.New("negative limit or skip")
	}
	var b strings.Builder
	var args []any
	switch {
	case limit > 0:
		b.WriteString(" LIMIT ?")
		args = append(args, limit)
	case skip > 0 && d.dialect == SQLite:
		b.WriteString(" LIMIT -1")
	}
	if skip > 0 {
		b.WriteString(" OFFSET ?")
		args = append(args, skip)
	}
	return b.String(), args, nil
}

// jsonArg returns a JSON document as a string parameter, "{}" when empty.
// Binding []byte would send bytea to PostgreSQL and a BLOB to SQLite.
func jsonArg(doc []byte) string {
	if len(doc) == 0 {
		return "{}"
	}
	return string(doc)
}

// errStopRows ends eachRow early without an error.
var errStopRows = errors.New("stop")

// eachRow runs q on tx and calls fn for each row until fn returns an
// error; errStopRows ends the walk with no error. Driver errors are
// translated.
func eachRow(ctx context.Context, tx *sqlx.Tx, q string, args []any, fn func(rows *sqlx.Rows) error) error {
	rows, err := tx.QueryxContext(ctx, q, args...)
	if err != nil {
		return translate(err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		if err := fn(rows); err != nil {
			if errors.Is(err, errStopRows) {
				return nil
			}
			return err
		}
	}
	return translate(rows.Err())
}
