package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// categoryRow is one categories row as scanned.
type categoryRow struct {
	Key         string `db:"key"`
	Description string `db:"description"`
	DisplayName string `db:"display_name"`
	Items       []byte `db:"items"`
}

func (r categoryRow) category() Category {
	return Category{
		Key:         r.Key,
		Description: r.Description,
		DisplayName: r.DisplayName,
		Items:       json.RawMessage(r.Items),
	}
}

const categoryColumns = "key, description, display_name, items"

// saveRetries bounds how often SaveCategory retries after losing a race to
// create the same new category (PostgreSQL only; SQLite serialises writers).
const saveRetries = 3

// errLostInsertRace marks an INSERT that lost to a concurrent one.
var errLostInsertRace = fmt.Errorf("category created concurrently: %w", ErrConflict)

// ListCategories returns every category, Items included, sorted by key
// (bytewise). No categories is an empty, non-nil slice and no error; driver
// errors are returned wrapped.
func (d *DB) ListCategories(ctx context.Context) ([]Category, error) {
	var rows []categoryRow
	if err := d.r.SelectContext(ctx, &rows, "SELECT "+categoryColumns+" FROM categories ORDER BY key"); err != nil {
		return nil, fmt.Errorf("db: list categories: %w", translate(err))
	}
	cats := make([]Category, 0, len(rows))
	for _, r := range rows {
		cats = append(cats, r.category())
	}
	return cats, nil
}

// GetCategory returns the category with key. It returns an error wrapping
// ErrNotFound when there is none; driver errors are returned wrapped.
func (d *DB) GetCategory(ctx context.Context, key string) (Category, error) {
	var r categoryRow
	q := d.r.Rebind("SELECT " + categoryColumns + " FROM categories WHERE key = ?")
	if err := d.r.GetContext(ctx, &r, q, key); err != nil {
		return Category{}, fmt.Errorf("db: get category %q: %w", key, translate(err))
	}
	return r.category(), nil
}

// SaveCategory creates or replaces the category key in one transaction. It
// reads the current row under a write lock (SELECT … FOR UPDATE on
// PostgreSQL; SQLite's IMMEDIATE transaction holds the database's write
// lock), calls fn with it — cur is Category{Key: key} and exists false when
// there is none — and stores what fn returns, whose Key must equal key; nil
// Items are stored as {}. It returns the stored category (JSON as the
// database returns it) and whether it was created.
//
// fn runs inside the transaction, so it must be quick and must not call
// methods of d that write: on SQLite they would wait for the single write
// connection that fn's own transaction holds. fn may be called more than
// once (when two callers create the same new category at the same moment on
// PostgreSQL, the loser retries and sees the winner's row), so it must not
// have side effects beyond its result. If fn
// returns an error, nothing is written and SaveCategory returns that error
// wrapped, so errors.Is and errors.As see it. A Key different from key or
// Items that are not valid JSON is an error wrapping no sentinel. If the
// race keeps being lost the error wraps ErrConflict. Driver errors are
// returned wrapped.
func (d *DB) SaveCategory(ctx context.Context, key string, fn func(cur Category, exists bool) (Category, error)) (saved Category, created bool, err error) {
	for attempt := 1; ; attempt++ {
		saved, created, err = d.saveCategory(ctx, "save", key, fn)
		if errors.Is(err, errLostInsertRace) && attempt < saveRetries && ctx.Err() == nil {
			continue
		}
		return saved, created, err
	}
}

// UpdateCategory changes the existing category key in one transaction, like
// SaveCategory: fn receives the current row, locked, and edits it in place;
// the result is stored and returned. fn must leave Key unchanged, and the
// same rules hold for fn as for SaveCategory's (quick, no writes through
// d). Concurrent updates of one category are serialised, so none is lost.
// It returns
// an error wrapping ErrNotFound when the category does not exist (fn is not
// called); fn's own error is returned wrapped, so errors.Is and errors.As
// see it, and nothing is written. Driver errors are returned wrapped.
func (d *DB) UpdateCategory(ctx context.Context, key string, fn func(cur *Category) error) (Category, error) {
	saved, _, err := d.saveCategory(ctx, "update", key, func(cur Category, exists bool) (Category, error) {
		if !exists {
			return Category{}, errMissing
		}
		err := fn(&cur)
		return cur, err
	})
	return saved, err
}

// errMissing is UpdateCategory's signal, through saveCategory, that the
// category does not exist.
var errMissing = errors.New("missing")

// saveCategory is one attempt of SaveCategory/UpdateCategory; op names the
// operation in error messages.
func (d *DB) saveCategory(ctx context.Context, op, key string, fn func(cur Category, exists bool) (Category, error)) (saved Category, created bool, err error) {
	err = d.inTx(ctx, func(tx *sqlx.Tx) error {
		var r categoryRow
		q := tx.Rebind("SELECT " + categoryColumns + " FROM categories WHERE key = ?" + d.forUpdate())
		err := tx.GetContext(ctx, &r, q, key)
		exists := err == nil
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		cur := Category{Key: key}
		if exists {
			cur = r.category()
		}

		next, err := fn(cur, exists)
		if errors.Is(err, errMissing) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if next.Key != key {
			return fmt.Errorf("key changed to %q", next.Key)
		}
		if len(next.Items) > 0 && !json.Valid(next.Items) {
			return errors.New("items are not valid JSON")
		}

		ts := now()
		if exists {
			q = tx.Rebind(`UPDATE categories SET description = ?, display_name = ?, items = ?, updated_at = ?
				WHERE key = ? RETURNING ` + categoryColumns)
			err = tx.GetContext(ctx, &r, q, next.Description, next.DisplayName, jsonArg(next.Items), ts, key)
		} else {
			q = tx.Rebind(`INSERT INTO categories (key, description, display_name, items, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?) RETURNING ` + categoryColumns)
			err = tx.GetContext(ctx, &r, q, key, next.Description, next.DisplayName, jsonArg(next.Items), ts, ts)
			if isUniqueViolation(err) {
				return errLostInsertRace
			}
		}
		if err != nil {
			return translate(err)
		}
		saved, created = r.category(), !exists
		return nil
	})
	if err != nil {
		return Category{}, false, fmt.Errorf("db: %s category %q: %w", op, key, err)
	}
	return saved, created, nil
}

// DeleteCategory removes the category key with its parent and child links
// (the child categories themselves stay) and reports whether it existed. A
// missing category is not an error. Driver errors are returned wrapped.
func (d *DB) DeleteCategory(ctx context.Context, key string) (bool, error) {
	res, err := d.w.ExecContext(ctx, d.w.Rebind("DELETE FROM categories WHERE key = ?"), key)
	if err != nil {
		return false, fmt.Errorf("db: delete category %q: %w", key, translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("db: delete category %q: %w", key, translate(err))
	}
	return n > 0, nil
}

// ListCategoryChildren returns the keys of parent's child categories,
// sorted. A parent without children gives an empty, non-nil slice; a parent
// that does not exist gives an error wrapping ErrNotFound. Driver errors are
// returned wrapped.
func (d *DB) ListCategoryChildren(ctx context.Context, parent string) ([]string, error) {
	var rows []sql.NullString
	q := d.r.Rebind(`SELECT cc.child FROM categories c
		LEFT JOIN category_children cc ON cc.parent = c.key
		WHERE c.key = ? ORDER BY cc.child`)
	if err := d.r.SelectContext(ctx, &rows, q, parent); err != nil {
		return nil, fmt.Errorf("db: list children of category %q: %w", parent, translate(err))
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("db: list children of category %q: %w", parent, ErrNotFound)
	}
	children := make([]string, 0, len(rows))
	for _, r := range rows {
		if r.Valid {
			children = append(children, r.String)
		}
	}
	return children, nil
}
