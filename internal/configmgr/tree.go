package configmgr

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
)

// The categories form a tree: each category has at most one parent and no
// category is its own ancestor. The parents General, Advanced and
// Utilities hold the seeded categories; clients rearrange the tree through
// AddChildren and RemoveChild. The tree only groups categories for display:
// it changes no item and notifies no listener.

// TreeStore is the storage of the category tree; *db.DB implements it.
type TreeStore interface {
	// AddCategoryChildren attaches children to parent, all or nothing;
	// a child with another parent, or an ancestor of parent, is a
	// *db.ChildConflict, an unknown category wraps db.ErrNotFound.
	AddCategoryChildren(ctx context.Context, parent string, children ...string) error
	// RemoveCategoryChild detaches child from parent; db.ErrNotFound when
	// it is not a child of parent.
	RemoveCategoryChild(ctx context.Context, parent, child string) error
	// ListCategoryChildren returns parent's children, sorted;
	// db.ErrNotFound for an unknown parent.
	ListCategoryChildren(ctx context.Context, parent string) ([]string, error)
	// CategoryParent returns key's parent, ok false for a root;
	// db.ErrNotFound for an unknown key.
	CategoryParent(ctx context.Context, key string) (parent string, ok bool, err error)
	// CategoryParents maps every category that has a parent to it.
	CategoryParents(ctx context.Context) (map[string]string, error)
}

// TreeCategories returns, sorted by key and passwords masked, the roots of
// the tree (the categories without a parent) when roots is true, else the
// categories that have a parent. Errors are storage failures.
func (m *Manager) TreeCategories(ctx context.Context, roots bool) ([]Category, error) {
	parents, err := m.store.CategoryParents(ctx)
	if err != nil {
		return nil, translate(err, "list category parents", "categories")
	}
	all, err := m.Categories(ctx)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(c Category) bool {
		_, hasParent := parents[c.Key]
		return hasParent == roots
	}), nil
}

// Children returns the child categories of key, sorted by key, passwords
// masked. An unknown key is a fault of kind NotFound; other errors are
// storage failures.
func (m *Manager) Children(ctx context.Context, key string) ([]Category, error) {
	keys, err := m.store.ListCategoryChildren(ctx, key)
	if err != nil {
		return nil, translate(err, "list children of "+key, categoryName(key))
	}
	out := make([]Category, 0, len(keys))
	for _, k := range keys {
		c, err := m.Category(ctx, k)
		if errors.Is(err, fault.NotFound) {
			continue // deleted since the list was read
		}
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// AddChildren makes children child categories of parent, all or nothing,
// and returns the keys of all of parent's children, sorted. A child already
// under parent is left as it is. An unknown category is a fault of kind
// NotFound naming it; a child that has another parent, or that is parent or
// one of its ancestors, a fault of kind Conflict; other errors are storage
// failures. Safe for concurrent use.
func (m *Manager) AddChildren(ctx context.Context, parent string, children []string) ([]string, error) {
	err := m.store.AddCategoryChildren(ctx, parent, children...)
	var cc *db.ChildConflict
	switch {
	case errors.As(err, &cc) && cc.Cycle:
		return nil, fault.New(fault.Conflict, "category %q cannot become a child of %q: it is %q or one of its ancestors", cc.Child, parent, parent)
	case errors.As(err, &cc):
		return nil, fault.New(fault.Conflict, "category %q already has the parent %q: remove it there first", cc.Child, cc.Parent)
	case errors.Is(err, db.ErrNotFound):
		if merr := m.missing(ctx, append([]string{parent}, children...)); merr != nil {
			return nil, merr
		}
		return nil, fmt.Errorf("configmgr: add children to %s: %w", parent, err)
	case err != nil:
		return nil, fmt.Errorf("configmgr: add children to %s: %w", parent, err)
	}
	m.log.InfoContext(ctx, "configuration categories attached", "parent", parent, "children", children)
	return m.childKeys(ctx, parent)
}

// RemoveChild detaches child from parent, which leaves child a root, and
// returns the keys of parent's remaining children. An unknown category, or
// a child that is not parent's, is a fault of kind NotFound; other errors
// are storage failures.
func (m *Manager) RemoveChild(ctx context.Context, parent, child string) ([]string, error) {
	err := m.store.RemoveCategoryChild(ctx, parent, child)
	if errors.Is(err, db.ErrNotFound) {
		if merr := m.missing(ctx, []string{parent, child}); merr != nil {
			return nil, merr
		}
		return nil, fault.New(fault.NotFound, "category %q is not a child of %q", child, parent)
	}
	if err != nil {
		return nil, fmt.Errorf("configmgr: remove child %s of %s: %w", child, parent, err)
	}
	m.log.InfoContext(ctx, "configuration category detached", "parent", parent, "child", child)
	return m.childKeys(ctx, parent)
}

// Parent returns the parent of the category key, passwords masked, and ok
// false for a root. An unknown key is a fault of kind NotFound; other
// errors are storage failures.
func (m *Manager) Parent(ctx context.Context, key string) (parent Category, ok bool, err error) {
	p, ok, err := m.store.CategoryParent(ctx, key)
	if err != nil {
		return Category{}, false, translate(err, "parent of "+key, categoryName(key))
	}
	if !ok {
		return Category{}, false, nil
	}
	c, err := m.Category(ctx, p)
	if err != nil {
		return Category{}, false, err
	}
	return c, true, nil
}

// childKeys returns the keys of parent's children.
func (m *Manager) childKeys(ctx context.Context, parent string) ([]string, error) {
	keys, err := m.store.ListCategoryChildren(ctx, parent)
	if err != nil {
		return nil, translate(err, "list children of "+parent, categoryName(parent))
	}
	return keys, nil
}

// missing returns a NotFound fault naming the first of keys that is not a
// category, or nil when all exist (errors reading are returned as they are).
func (m *Manager) missing(ctx context.Context, keys []string) error {
	for _, k := range keys {
		if _, err := m.store.GetCategory(ctx, k); err != nil {
			return translate(err, "get category "+k, categoryName(k))
		}
	}
	return nil
}
