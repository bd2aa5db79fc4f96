package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// Categories form a tree (the parents General, Advanced and Utilities over
// the seeded categories, and whatever clients arrange): the table
// category_children holds one row per link, and every change goes through
// AddCategoryChildren and RemoveCategoryChild, which keep each category to
// at most one parent and the links free of cycles.

// ChildConflict is the error of AddCategoryChildren for a child that cannot
// be attached: it has another parent, or it is the parent itself or one of
// its ancestors (Cycle). It wraps ErrConflict.
type ChildConflict struct {
	Child string
	// Parent is the child's current parent (empty when Cycle).
	Parent string
	Cycle  bool
}

func (e *ChildConflict) Error() string {
	if e.Cycle {
		return fmt.Sprintf("category %q is the parent or one of its ancestors", e.Child)
	}
	return fmt.Sprintf("category %q already has the parent %q", e.Child, e.Parent)
}

// Unwrap makes errors.Is(err, ErrConflict) hold.
func (e *ChildConflict) Unwrap() error { return ErrConflict }

// lockTree serialises the tree changes of concurrent transactions on
// PostgreSQL, so that two attachments cannot each pass the cycle check and
// together close a cycle. SQLite's write transactions are serial already.
func (d *DB) lockTree(ctx context.Context, tx *sqlx.Tx) error {
	if d.dialect != Postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext('edged.category_children'))")
	return err
}

// AddCategoryChildren makes children child categories of parent, all or
// nothing, in one transaction. A child already under parent is left alone,
// so it is idempotent. Every category named must exist: otherwise it
// returns an error wrapping ErrNotFound naming it. A child with another
// parent, or that is parent itself or one of parent's ancestors, is a
// *ChildConflict (wrapping ErrConflict). Driver errors are returned
// wrapped.
func (d *DB) AddCategoryChildren(ctx context.Context, parent string, children ...string) error {
	if len(children) == 0 {
		return nil
	}
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := d.lockTree(ctx, tx); err != nil {
			return translate(err)
		}
		for _, k := range append([]string{parent}, children...) {
			if err := categoryExists(ctx, tx, k); err != nil {
				return err
			}
		}
		ancestors, err := categoryAncestors(ctx, tx, parent)
		if err != nil {
			return err
		}
		for _, c := range children {
			if c == parent || ancestors[c] {
				return &ChildConflict{Child: c, Cycle: true}
			}
			cur, ok, err := categoryParent(ctx, tx, c)
			if err != nil {
				return err
			}
			switch {
			case ok && cur == parent:
				continue
			case ok:
				return &ChildConflict{Child: c, Parent: cur}
			}
			q := tx.Rebind("INSERT INTO category_children (parent, child) VALUES (?, ?)")
			if _, err := tx.ExecContext(ctx, q, parent, c); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: add children to category %q: %w", parent, err)
	}
	return nil
}

// RemoveCategoryChild detaches child from parent; both categories stay. It
// returns an error wrapping ErrNotFound when child is not a child of parent
// (either may not exist). Driver errors are returned wrapped.
func (d *DB) RemoveCategoryChild(ctx context.Context, parent, child string) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := d.lockTree(ctx, tx); err != nil {
			return translate(err)
		}
		q := tx.Rebind("DELETE FROM category_children WHERE parent = ? AND child = ?")
		res, err := tx.ExecContext(ctx, q, parent, child)
		if err != nil {
			return translate(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%w: %q is not a child of %q", ErrNotFound, child, parent)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: remove child %q of category %q: %w", child, parent, err)
	}
	return nil
}

// CategoryParent returns the parent of the category key, and ok false for a
// root. An unknown key gives an error wrapping ErrNotFound. Driver errors
// are returned wrapped.
func (d *DB) CategoryParent(ctx context.Context, key string) (parent string, ok bool, err error) {
	err = d.inReadTx(ctx, func(tx *sqlx.Tx) error {
		if err := categoryExists(ctx, tx, key); err != nil {
			return err
		}
		parent, ok, err = categoryParent(ctx, tx, key)
		return err
	})
	if err != nil {
		return "", false, fmt.Errorf("db: parent of category %q: %w", key, err)
	}
	return parent, ok, nil
}

// CategoryParents returns the parent of every category that has one, keyed
// by the child's key. Driver errors are returned wrapped.
func (d *DB) CategoryParents(ctx context.Context) (map[string]string, error) {
	var rows []struct {
		Parent string `db:"parent"`
		Child  string `db:"child"`
	}
	// Ordered so that, should a category have several parents (links
	// written before the tree rules), the first parent by key wins, as in
	// CategoryParent.
	if err := d.r.SelectContext(ctx, &rows, "SELECT parent, child FROM category_children ORDER BY child, parent DESC"); err != nil {
		return nil, fmt.Errorf("db: list category parents: %w", translate(err))
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Child] = r.Parent
	}
	return out, nil
}

// categoryExists returns an error wrapping ErrNotFound naming key when there
// is no such category.
func categoryExists(ctx context.Context, tx *sqlx.Tx, key string) error {
	var n int
	if err := tx.GetContext(ctx, &n, tx.Rebind("SELECT COUNT(*) FROM categories WHERE key = ?"), key); err != nil {
		return translate(err)
	}
	if n == 0 {
		return fmt.Errorf("%w: category %q", ErrNotFound, key)
	}
	return nil
}

// categoryParent returns key's parent (the first by key should there be
// several), and ok false when it has none.
func categoryParent(ctx context.Context, tx *sqlx.Tx, key string) (string, bool, error) {
	var parent string
	q := tx.Rebind("SELECT parent FROM category_children WHERE child = ? ORDER BY parent LIMIT 1")
	err := tx.GetContext(ctx, &parent, q, key)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, translate(err)
	}
	return parent, true, nil
}

// categoryAncestors returns the keys above key in the tree (its parent, the
// parent's parent, …). Every link is followed, so a category with several
// parents has all their lines in the set.
func categoryAncestors(ctx context.Context, tx *sqlx.Tx, key string) (map[string]bool, error) {
	var keys []string
	q := tx.Rebind(`WITH RECURSIVE up(k) AS (
			SELECT parent FROM category_children WHERE child = ?
			UNION
			SELECT cc.parent FROM category_children cc JOIN up ON cc.child = up.k
		) SELECT k FROM up`)
	if err := tx.SelectContext(ctx, &keys, q, key); err != nil {
		return nil, translate(err)
	}
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out, nil
}
