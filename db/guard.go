package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
)

// The guard: every pool opens its connections through a guardConnector,
// which wraps the driver's connections, statements, transactions and rows.
// It does two things, in one place for every query the package runs:
//
//   - it classifies driver errors that mean "storage cannot be used right
//     now" (see unavailable) and returns them wrapping ErrUnavailable, with
//     the driver's error still in the chain (errors.Is(err,
//     driver.ErrBadConn) keeps working for database/sql's retries);
//   - it keeps the pool's health: such an error marks the pool down, a
//     later success marks it up again (see tracker).
//
// Everything else passes through unchanged; io.EOF, driver.ErrSkip and
// driver.ErrRemoveArgument in particular are compared by identity in
// database/sql and are never wrapped.

// ErrUnavailable means storage cannot be used right now: the database
// server is down or unreachable, a connection broke, the disk is full or
// failing, or the database is locked beyond the busy timeout. Retrying
// later may succeed; nothing was written by the failed call.
var ErrUnavailable = errors.New("storage unavailable")

// unavailableError is a driver error classified as ErrUnavailable.
type unavailableError struct{ err error }

func (e *unavailableError) Error() string   { return "storage unavailable: " + e.err.Error() }
func (e *unavailableError) Unwrap() []error { return []error{ErrUnavailable, e.err} }

// Health is the state of storage as the last calls found it.
type Health struct {
	// Available is false from a call that failed because storage was
	// unavailable until a later call succeeds.
	Available bool
	// Since is when the current outage began (zero while available).
	Since time.Time
	// Cause is the driver's message of the failure that began it.
	Cause string
	// NoReserve: the database keeps a disk reserve (a SQLite file, see
	// reserve.go) and it is not in place; Probe makes it when there is
	// room.
	NoReserve bool
}

// outage is a pool's current outage.
type outage struct {
	since time.Time
	cause string
	// full: the disk is full and the pool keeps a disk reserve (see
	// reserve.go): only a probe finding room ends the outage, and only
	// deletions of readings may write until then.
	full bool
}

// tracker keeps one pool's health. Which successes end an outage depends
// on the pool: on a pool that writes, only a write (an Exec or a Commit)
// proves storage usable again — a disk that is full still answers reads —
// and on a read-only pool a query does.
type tracker struct {
	writes bool
	// reserved: the pool writes a database with a disk reserve, whose
	// full disk is an outage of its own kind (see outage.full).
	reserved bool
	out      atomic.Pointer[outage]
}

// fail marks the pool down when err means storage is unavailable and
// returns err classified; other errors are returned unchanged. Either way
// a failure is counted (see Failures).
func (t *tracker) fail(err error) error {
	if !unavailable(err) {
		countFailure(err, false)
		return err
	}
	countFailure(err, true)
	full := t.reserved && diskFull(err)
	for {
		o := t.out.Load()
		if o != nil && (o.full || !full) {
			break
		}
		next := &outage{since: time.Now().UTC(), cause: err.Error(), full: full}
		if o != nil {
			next.since = o.since
		}
		if t.out.CompareAndSwap(o, next) {
			break
		}
	}
	return &unavailableError{err: err}
}

// wrote records a successful write. It does not end a full disk: a small
// write may still fit where the next one will not.
func (t *tracker) wrote() {
	if o := t.out.Load(); t.writes && o != nil && !o.full {
		t.out.CompareAndSwap(o, nil)
	}
}

// isFull reports whether the pool found the disk full (see outage.full).
func (t *tracker) isFull() bool {
	o := t.out.Load()
	return o != nil && o.full
}

// endFull ends a full-disk outage; the next write decides whether storage
// is available.
func (t *tracker) endFull() {
	if o := t.out.Load(); o != nil && o.full {
		t.out.CompareAndSwap(o, &outage{since: o.since, cause: o.cause})
	}
}

// refuse returns the error a write of ctx gets while the disk is full,
// unless it deletes readings (see reserve.go); nil lets it run.
func (t *tracker) refuse(ctx context.Context) error {
	if !t.isFull() || isFreeing(ctx) {
		return nil
	}
	countFailure(errDiskFull, true)
	return &unavailableError{err: errDiskFull}
}

// refuseQuery is refuse for a statement run outside a transaction: reads
// and pragmas (a checkpoint frees the log's room) always run.
func (t *tracker) refuseQuery(ctx context.Context, query string) error {
	if !t.isFull() {
		return nil
	}
	q := strings.ToUpper(strings.TrimLeft(query, " \t\r\n("))
	if strings.HasPrefix(q, "SELECT") || strings.HasPrefix(q, "PRAGMA") {
		return nil
	}
	return t.refuse(ctx)
}

// read records a successful read.
func (t *tracker) read() {
	if !t.writes && t.out.Load() != nil {
		t.out.Store(nil)
	}
}

// health returns the pool's state.
func (t *tracker) health() Health {
	if o := t.out.Load(); o != nil {
		return Health{Since: o.since, Cause: o.cause}
	}
	return Health{Available: true}
}

// Health reports whether storage was usable at the last calls, from
// memory: it never touches the database. A pool that found storage
// unavailable stays down until a later call on it succeeds (see Probe).
func (d *DB) Health() Health {
	h := d.wh.health()
	if d.rh != d.wh {
		if r := d.rh.health(); !r.Available && (h.Available || r.Since.Before(h.Since)) {
			h = r
		}
	}
	h.NoReserve = d.reserve != nil && !d.reserve.inPlace()
	return h
}

// Probe tries storage once, as a health check would: on a database with a
// disk reserve, the room on its disk (see probeRoom), then a write
// transaction that rewrites one statistic with its own value (so a
// database that refuses writes fails it) and a query on the read pool. It
// changes no value. It returns the first error, classified like any other.
func (d *DB) Probe(ctx context.Context) error {
	if d.reserve != nil {
		if err := d.probeRoom(ctx); err != nil {
			return err
		}
	}
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE statistics SET value = value
			WHERE key = (SELECT MIN(key) FROM statistics)`)
		return err
	})
	if err != nil {
		return err
	}
	if d.r != d.w {
		var one int
		if err := d.r.GetContext(ctx, &one, "SELECT 1"); err != nil {
			return err
		}
	}
	return nil
}

// guardConnector opens the driver's connections and wraps them.
type guardConnector struct {
	inner driver.Connector
	t     *tracker
}

func (c *guardConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, c.t.fail(err)
	}
	return &guardConn{inner: conn, t: c.t}, nil
}

func (c *guardConnector) Driver() driver.Driver { return c.inner.Driver() }

// guardConn wraps a driver connection. It implements every optional
// interface database/sql looks for and falls back to what database/sql
// itself does when the driver's connection lacks one.
type guardConn struct {
	inner driver.Conn
	t     *tracker
}

var (
	_ driver.ConnBeginTx        = (*guardConn)(nil)
	_ driver.ConnPrepareContext = (*guardConn)(nil)
	_ driver.ExecerContext      = (*guardConn)(nil)
	_ driver.QueryerContext     = (*guardConn)(nil)
	_ driver.Pinger             = (*guardConn)(nil)
	_ driver.SessionResetter    = (*guardConn)(nil)
	_ driver.Validator          = (*guardConn)(nil)
	_ driver.NamedValueChecker  = (*guardConn)(nil)
)

func (c *guardConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *guardConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	var (
		s   driver.Stmt
		err error
	)
	if p, ok := c.inner.(driver.ConnPrepareContext); ok {
		s, err = p.PrepareContext(ctx, query)
	} else {
		s, err = c.inner.Prepare(query)
	}
	if err != nil {
		return nil, c.t.fail(err)
	}
	return &guardStmt{inner: s, conn: c.inner, t: c.t}, nil
}

func (c *guardConn) Close() error { return c.inner.Close() }

func (c *guardConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *guardConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := c.t.refuse(ctx); err != nil {
		return nil, err
	}
	var (
		tx  driver.Tx
		err error
	)
	if b, ok := c.inner.(driver.ConnBeginTx); ok {
		tx, err = b.BeginTx(ctx, opts)
	} else {
		if opts.Isolation != 0 || opts.ReadOnly {
			return nil, errors.New("db: the driver supports no transaction options")
		}
		tx, err = c.inner.Begin() //nolint:staticcheck // the fallback database/sql uses too
	}
	if err != nil {
		return nil, c.t.fail(err)
	}
	return &guardTx{inner: tx, t: c.t}, nil
}

func (c *guardConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.inner.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip // database/sql prepares a statement instead
	}
	if err := c.t.refuseQuery(ctx, query); err != nil {
		return nil, err
	}
	res, err := e.ExecContext(ctx, query, args)
	if err != nil {
		return nil, c.t.fail(err)
	}
	c.t.wrote()
	return res, nil
}

func (c *guardConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.inner.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	if err := c.t.refuseQuery(ctx, query); err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, query, args)
	if err != nil {
		return nil, c.t.fail(err)
	}
	c.t.read()
	return &guardRows{inner: rows, t: c.t}, nil
}

func (c *guardConn) Ping(ctx context.Context) error {
	if p, ok := c.inner.(driver.Pinger); ok {
		return c.t.fail(p.Ping(ctx))
	}
	return nil
}

func (c *guardConn) ResetSession(ctx context.Context) error {
	if r, ok := c.inner.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *guardConn) IsValid() bool {
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *guardConn) CheckNamedValue(nv *driver.NamedValue) error {
	if n, ok := c.inner.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(nv)
	}
	return driver.ErrSkip // the default conversion, as without a checker
}

// guardTx wraps a driver transaction.
type guardTx struct {
	inner driver.Tx
	t     *tracker
}

func (x *guardTx) Commit() error {
	if err := x.inner.Commit(); err != nil {
		return x.t.fail(err)
	}
	x.t.wrote()
	return nil
}

func (x *guardTx) Rollback() error { return x.t.fail(x.inner.Rollback()) }

// guardStmt wraps a prepared statement. conn is the driver connection it
// was prepared on, whose NamedValueChecker database/sql would consult when
// the statement has none.
type guardStmt struct {
	inner driver.Stmt
	conn  driver.Conn
	t     *tracker
}

var (
	_ driver.StmtExecContext   = (*guardStmt)(nil)
	_ driver.StmtQueryContext  = (*guardStmt)(nil)
	_ driver.NamedValueChecker = (*guardStmt)(nil)
)

func (s *guardStmt) Close() error  { return s.inner.Close() }
func (s *guardStmt) NumInput() int { return s.inner.NumInput() }

func (s *guardStmt) Exec(args []driver.Value) (driver.Result, error) {
	res, err := s.inner.Exec(args) //nolint:staticcheck // forwarded as called
	if err != nil {
		return nil, s.t.fail(err)
	}
	s.t.wrote()
	return res, nil
}

func (s *guardStmt) Query(args []driver.Value) (driver.Rows, error) {
	rows, err := s.inner.Query(args) //nolint:staticcheck // forwarded as called
	if err != nil {
		return nil, s.t.fail(err)
	}
	s.t.read()
	return &guardRows{inner: rows, t: s.t}, nil
}

func (s *guardStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	e, ok := s.inner.(driver.StmtExecContext)
	if !ok {
		values, err := namedValues(args)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return s.Exec(values)
	}
	if err := s.t.refuse(ctx); err != nil {
		return nil, err
	}
	res, err := e.ExecContext(ctx, args)
	if err != nil {
		return nil, s.t.fail(err)
	}
	s.t.wrote()
	return res, nil
}

func (s *guardStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := s.inner.(driver.StmtQueryContext)
	if !ok {
		values, err := namedValues(args)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return s.Query(values)
	}
	rows, err := q.QueryContext(ctx, args)
	if err != nil {
		return nil, s.t.fail(err)
	}
	s.t.read()
	return &guardRows{inner: rows, t: s.t}, nil
}

// CheckNamedValue consults the statement's checker, else its connection's,
// in database/sql's order.
func (s *guardStmt) CheckNamedValue(nv *driver.NamedValue) error {
	if n, ok := s.inner.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(nv)
	}
	if n, ok := s.conn.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

// namedValues turns named arguments into positional values for a driver
// statement without the context methods, as database/sql does.
func namedValues(args []driver.NamedValue) ([]driver.Value, error) {
	out := make([]driver.Value, len(args))
	for i, a := range args {
		if a.Name != "" {
			return nil, errors.New("db: the driver does not support named parameters")
		}
		out[i] = a.Value
	}
	return out, nil
}

// guardRows wraps a result set: an error while iterating (a connection
// lost mid-query) is classified too.
type guardRows struct {
	inner driver.Rows
	t     *tracker
}

var (
	_ driver.RowsNextResultSet              = (*guardRows)(nil)
	_ driver.RowsColumnTypeScanType         = (*guardRows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*guardRows)(nil)
	_ driver.RowsColumnTypeLength           = (*guardRows)(nil)
	_ driver.RowsColumnTypeNullable         = (*guardRows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*guardRows)(nil)
)

func (r *guardRows) Columns() []string { return r.inner.Columns() }

// Close classifies its error too: SQLite reports a write of an INSERT …
// RETURNING that failed (a full disk) when its statement is reset, after
// the row was read.
func (r *guardRows) Close() error { return r.t.fail(r.inner.Close()) }

func (r *guardRows) Next(dest []driver.Value) error {
	err := r.inner.Next(dest)
	if err == nil || err == io.EOF { //nolint:errorlint // database/sql compares io.EOF by identity
		return err
	}
	return r.t.fail(err)
}

func (r *guardRows) HasNextResultSet() bool {
	if n, ok := r.inner.(driver.RowsNextResultSet); ok {
		return n.HasNextResultSet()
	}
	return false
}

func (r *guardRows) NextResultSet() error {
	if n, ok := r.inner.(driver.RowsNextResultSet); ok {
		return n.NextResultSet()
	}
	return io.EOF
}

func (r *guardRows) ColumnTypeScanType(index int) reflect.Type {
	if c, ok := r.inner.(driver.RowsColumnTypeScanType); ok {
		return c.ColumnTypeScanType(index)
	}
	return reflect.TypeFor[any]()
}

func (r *guardRows) ColumnTypeDatabaseTypeName(index int) string {
	if c, ok := r.inner.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return c.ColumnTypeDatabaseTypeName(index)
	}
	return ""
}

func (r *guardRows) ColumnTypeLength(index int) (int64, bool) {
	if c, ok := r.inner.(driver.RowsColumnTypeLength); ok {
		return c.ColumnTypeLength(index)
	}
	return 0, false
}

func (r *guardRows) ColumnTypeNullable(index int) (nullable, ok bool) {
	if c, ok := r.inner.(driver.RowsColumnTypeNullable); ok {
		return c.ColumnTypeNullable(index)
	}
	return false, false
}

func (r *guardRows) ColumnTypePrecisionScale(index int) (precision, scale int64, ok bool) {
	if c, ok := r.inner.(driver.RowsColumnTypePrecisionScale); ok {
		return c.ColumnTypePrecisionScale(index)
	}
	return 0, 0, false
}
