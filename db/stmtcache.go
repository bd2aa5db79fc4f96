package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/jmoiron/sqlx"
)

// stmtCache keeps statements prepared once on the write pool, keyed by
// their text: SQLite's one write connection then runs them in every
// transaction without parsing them again, and each PostgreSQL connection
// prepares them once (database/sql re-prepares a statement on a
// connection that has not seen it). Statements must be fetched before the
// transaction begins, since on SQLite preparing needs that connection.
type stmtCache struct {
	mu    sync.Mutex // guards stmts
	stmts map[string]*sql.Stmt
}

// get returns query prepared on w, preparing it at first use.
func (c *stmtCache) get(ctx context.Context, w *sqlx.DB, query string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.stmts[query]; s != nil {
		return s, nil
	}
	//nolint:sqlclosecheck // cached for the DB's lifetime; close closes it
	s, err := w.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if c.stmts == nil {
		c.stmts = make(map[string]*sql.Stmt)
	}
	c.stmts[query] = s
	return s, nil
}

// close closes every cached statement.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for q, s := range c.stmts {
		errs = append(errs, s.Close())
		delete(c.stmts, q)
	}
	return errors.Join(errs...)
}
