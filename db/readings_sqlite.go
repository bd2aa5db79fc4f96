package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"unsafe"

	"github.com/jmoiron/sqlx"
)

// sqliteInsertMaxRows is the largest multi-row INSERT of readings: 4
// parameters a row, far below SQLite's limit of 32766.
const sqliteInsertMaxRows = 256

// insertStmts caches SQLite's prepared multi-row INSERTs of readings, one
// per row count sqliteInsertChunk returns, so any batch is written by at
// most a handful of statements that are parsed once. They are
// prepared on the write pool, whose one connection every write transaction
// uses, so a transaction reuses them without preparing again.
type insertStmts struct {
	mu    sync.Mutex // guards stmts
	stmts map[int]*sql.Stmt
}

// get returns the prepared INSERT of n rows, preparing it on w at first use.
func (c *insertStmts) get(ctx context.Context, w *sqlx.DB, n int) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.stmts[n]; s != nil {
		return s, nil
	}
	//nolint:sqlclosecheck // cached for the DB's lifetime; insertStmts.close closes it
	s, err := w.PrepareContext(ctx, "INSERT INTO readings (asset_code, reading, user_ts, ts) VALUES "+
		repeatJoin("(?, ?, ?, ?)", n))
	if err != nil {
		return nil, fmt.Errorf("prepare insert of %d readings: %w", n, err)
	}
	if c.stmts == nil {
		c.stmts = make(map[int]*sql.Stmt)
	}
	c.stmts[n] = s
	return s, nil
}

// close closes every cached statement.
func (c *insertStmts) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for n, s := range c.stmts {
		errs = append(errs, s.Close())
		delete(c.stmts, n)
	}
	return errors.Join(errs...)
}

// sqliteInsertStep is the multiple of rows the prepared INSERTs are sized
// by below sqliteInsertMaxRows.
const sqliteInsertStep = 16

// sqliteInsertChunk returns the rows of the next statement that inserts n
// rows: sqliteInsertMaxRows while that many are left, then the rest rounded
// down to a multiple of sqliteInsertStep, then powers of two. A batch of
// 100 is 96 + 4 rows, 400 is 256 + 144: two statements where powers of two
// alone took three, from at most 16 + 4 statements kept prepared.
func sqliteInsertChunk(n int) int {
	switch {
	case n >= sqliteInsertMaxRows:
		return sqliteInsertMaxRows
	case n >= sqliteInsertStep:
		return n &^ (sqliteInsertStep - 1)
	}
	for n&(n-1) != 0 {
		n &= n - 1
	}
	return n
}

// sqliteInsertPlan returns the prepared statements that insert n rows, in
// sqliteInsertChunk's sizes. It must run outside a write transaction:
// preparing a new statement needs the write pool's one connection.
func (d *DB) sqliteInsertPlan(ctx context.Context, n int) ([]*sql.Stmt, error) {
	var plan []*sql.Stmt
	for n > 0 {
		size := sqliteInsertChunk(n)
		s, err := d.inserts.get(ctx, d.w, size) //nolint:sqlclosecheck // cached, closed with the DB
		if err != nil {
			return nil, err
		}
		plan = append(plan, s)
		n -= size
	}
	return plan, nil
}

// sqliteInsertReadings writes rows in tx with the statements of
// sqliteInsertPlan(len(rows)). Times are bound as integer microseconds and
// JSON as text.
func sqliteInsertReadings(ctx context.Context, tx *sqlx.Tx, plan []*sql.Stmt, rows []Reading) error {
	args := make([]any, 0, 4*min(len(rows), sqliteInsertMaxRows))
	// A batch repeats a few asset codes and mostly one ingest time: each
	// distinct run of them is boxed once, not once per row.
	var code, ts any
	var lastCode string
	var lastTS int64
	for _, s := range plan {
		n := sqliteInsertChunk(len(rows)) // as in the plan
		args = args[:0]
		for _, r := range rows[:n] {
			if code == nil || r.AssetCode != lastCode {
				code, lastCode = r.AssetCode, r.AssetCode
			}
			if us := r.TS.UnixMicro(); ts == nil || us != lastTS {
				ts, lastTS = us, us
			}
			args = append(args, code, textOf(r.Reading), r.UserTS.UnixMicro(), ts)
		}
		if err := execInTx(ctx, tx, s, args); err != nil {
			return fmt.Errorf("insert %d readings: %w", n, translate(err))
		}
		rows = rows[n:]
	}
	return nil
}

// textOf returns doc as a string without copying it: the driver copies a
// bound text into SQLite's memory before the statement runs, and doc is not
// changed while it does (InsertReadings' callers hand it over until it
// returns).
func textOf(doc []byte) string {
	return unsafe.String(unsafe.SliceData(doc), len(doc)) //nolint:gosec // read-only view, see above
}

// execInTx runs the cached statement s in tx. The write pool's one
// connection already has s prepared, so nothing is prepared again; closing
// the transaction's handle leaves s itself open.
func execInTx(ctx context.Context, tx *sqlx.Tx, s *sql.Stmt, args []any) error {
	ts := tx.StmtContext(ctx, s)
	defer func() { _ = ts.Close() }()
	_, err := ts.ExecContext(ctx, args...)
	return err
}

// sqliteJSON holds SQLite's JSON expressions. The key is passed as a JSON
// path whose label is quoted and escaped, so any key works (dots, quotes,
// brackets, a leading $).
var sqliteJSON = jsonSQL{
	keyArg:   sqliteKeyPath,
	value:    "(reading -> ?)",
	isNumber: "json_type(reading, ?) IN ('integer', 'real')",
	number:   "json_extract(reading, ?)",
	bucket:   sqliteBucket,
}

// sqliteKeyPath returns the JSON path of a top-level key: $."key" with the
// label escaped as a JSON string (SQLite decodes the escapes).
func sqliteKeyPath(key string) any {
	label, _ := json.Marshal(key) // a string always marshals
	return "$." + string(label)
}

// sqliteBucket returns the start of user_ts's bucket in microseconds: a
// floor division that is exact for times before 1970 too.
func sqliteBucket(b Bucket) string {
	w := strconv.FormatInt(int64(b)/1000, 10)
	return "(user_ts - ((user_ts % " + w + ") + " + w + ") % " + w + ")"
}
