package db

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

// Filter is a filter instance: a named instance of a filter plugin, whose
// configuration is the category of the same name. Users are the services
// whose pipelines hold it, sorted.
type Filter struct {
	Name      string
	Plugin    string
	CreatedAt time.Time
	Users     []string
}

type filterRow struct {
	Name      string `db:"name"`
	Plugin    string `db:"plugin"`
	CreatedAt dbTime `db:"created_at"`
}

// CreateFilter stores the filter instance f. A name already used by a
// filter gives an error wrapping ErrConflict. It returns the stored filter.
func (d *DB) CreateFilter(ctx context.Context, f Filter) (Filter, error) {
	at := now()
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO filters (name, plugin, created_at) VALUES (?, ?, ?)`),
			f.Name, f.Plugin, at)
		return translate(err)
	})
	if err != nil {
		return Filter{}, fmt.Errorf("db: create filter %q: %w", f.Name, err)
	}
	return Filter{Name: f.Name, Plugin: f.Plugin, CreatedAt: at, Users: []string{}}, nil
}

// filterUsers returns the services using each filter (only name's unless
// name is "").
func (d *DB) filterUsers(ctx context.Context, name string) (map[string][]string, error) {
	query, args := `SELECT filter, service FROM filter_pipelines`, []any{}
	if name != "" {
		query += ` WHERE filter = ?`
		args = append(args, name)
	}
	var rows []struct {
		Filter  string `db:"filter"`
		Service string `db:"service"`
	}
	if err := d.r.SelectContext(ctx, &rows, d.r.Rebind(query+` ORDER BY service`), args...); err != nil {
		return nil, translate(err)
	}
	out := map[string][]string{}
	for _, r := range rows {
		out[r.Filter] = append(out[r.Filter], r.Service)
	}
	return out, nil
}

// GetFilter returns the filter instance name with its users; an error
// wrapping ErrNotFound when there is none.
func (d *DB) GetFilter(ctx context.Context, name string) (Filter, error) {
	var r filterRow
	if err := d.r.GetContext(ctx, &r, d.r.Rebind(`SELECT name, plugin, created_at FROM filters WHERE name = ?`), name); err != nil {
		return Filter{}, fmt.Errorf("db: get filter %q: %w", name, translate(err))
	}
	users, err := d.filterUsers(ctx, name)
	if err != nil {
		return Filter{}, fmt.Errorf("db: get filter %q: %w", name, err)
	}
	return Filter{Name: r.Name, Plugin: r.Plugin, CreatedAt: r.CreatedAt.Time, Users: nonNil(users[name])}, nil
}

// ListFilters returns every filter instance with its users, sorted by name
// (bytewise). None is an empty, non-nil slice.
func (d *DB) ListFilters(ctx context.Context) ([]Filter, error) {
	var rows []filterRow
	if err := d.r.SelectContext(ctx, &rows, `SELECT name, plugin, created_at FROM filters ORDER BY name`); err != nil {
		return nil, fmt.Errorf("db: list filters: %w", translate(err))
	}
	users, err := d.filterUsers(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("db: list filters: %w", err)
	}
	out := make([]Filter, 0, len(rows))
	for _, r := range rows {
		out = append(out, Filter{Name: r.Name, Plugin: r.Plugin, CreatedAt: r.CreatedAt.Time, Users: nonNil(users[r.Name])})
	}
	return out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// DeleteFilter removes, in one transaction, the filter instance name, its
// configuration category and the data it persisted in any service. An
// unknown filter gives an error wrapping ErrNotFound; a filter a pipeline
// holds an error wrapping ErrConflict, and nothing is removed.
func (d *DB) DeleteFilter(ctx context.Context, name string) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		var plugin string
		if err := tx.GetContext(ctx, &plugin, tx.Rebind(`SELECT plugin FROM filters WHERE name = ?`+d.forUpdate()), name); err != nil {
			return translate(err)
		}
		var users int
		if err := tx.GetContext(ctx, &users, tx.Rebind(`SELECT COUNT(*) FROM filter_pipelines WHERE filter = ?`), name); err != nil {
			return translate(err)
		}
		if users > 0 {
			return fmt.Errorf("%w: filter %q is in %d pipelines", ErrConflict, name, users)
		}
		for _, q := range []string{
			`DELETE FROM filters WHERE name = ?`,
			`DELETE FROM categories WHERE key = ?`,
			`DELETE FROM plugin_data WHERE plugin_name = ?`,
		} {
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), name); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: delete filter %q: %w", name, err)
	}
	return nil
}

// GetPipeline returns the filter instances of the service's pipeline, in
// order; an empty, non-nil slice when it has none. An unknown service gives
// an error wrapping ErrNotFound.
func (d *DB) GetPipeline(ctx context.Context, service string) ([]string, error) {
	var out []string
	err := d.inReadTx(ctx, func(tx *sqlx.Tx) error {
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM services WHERE name = ?`), service); err != nil {
			return translate(err)
		}
		if n == 0 {
			return ErrNotFound
		}
		return translate(tx.SelectContext(ctx, &out,
			tx.Rebind(`SELECT filter FROM filter_pipelines WHERE service = ? ORDER BY position`), service))
	})
	if err != nil {
		return nil, fmt.Errorf("db: get pipeline of service %q: %w", service, err)
	}
	return nonNil(out), nil
}

// SetPipeline replaces the pipeline of service by filters, in order, in
// one transaction, and keeps the category tree in step within the tree's
// rules (one parent a category, no cycles): a filter's category that has
// no parent becomes a child of the service's; one that already has a
// parent (another service whose pipeline holds it, or wherever a client
// put it) keeps it. A filter leaving the pipeline stops being the
// service's child, and moves under another service whose pipeline still
// holds it, if any. An unknown service or filter gives an error wrapping
// ErrNotFound; a filter named twice an error wrapping ErrConflict; then
// nothing changes.
func (d *DB) SetPipeline(ctx context.Context, service string, filters []string) error {
	for i, f := range filters {
		if slices.Contains(filters[:i], f) {
			return fmt.Errorf("db: set pipeline of service %q: %w: filter %q is named twice", service, ErrConflict, f)
		}
	}
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM services WHERE name = ?`), service); err != nil {
			return translate(err)
		}
		if n == 0 {
			return fmt.Errorf("%w: service %q", ErrNotFound, service)
		}
		var old []string
		if err := tx.SelectContext(ctx, &old, tx.Rebind(`SELECT filter FROM filter_pipelines WHERE service = ?`), service); err != nil {
			return translate(err)
		}
		for _, f := range filters {
			if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM filters WHERE name = ?`), f); err != nil {
				return translate(err)
			}
			if n == 0 {
				return fmt.Errorf("%w: filter %q", ErrNotFound, f)
			}
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM filter_pipelines WHERE service = ?`), service); err != nil {
			return translate(err)
		}
		ins := tx.Rebind(`INSERT INTO filter_pipelines (service, position, filter) VALUES (?, ?, ?)`)
		for i, f := range filters {
			if _, err := tx.ExecContext(ctx, ins, service, i, f); err != nil {
				return translate(err)
			}
		}
		if err := d.lockTree(ctx, tx); err != nil {
			return translate(err)
		}
		for _, f := range old {
			if slices.Contains(filters, f) {
				continue
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM category_children WHERE parent = ? AND child = ?`), service, f); err != nil {
				return translate(err)
			}
			var others []string
			if err := tx.SelectContext(ctx, &others,
				tx.Rebind(`SELECT service FROM filter_pipelines WHERE filter = ? ORDER BY service`), f); err != nil {
				return translate(err)
			}
			for _, o := range others {
				attached, err := attachFilterCategory(ctx, tx, o, f)
				if err != nil {
					return err
				}
				if attached {
					break
				}
			}
		}
		for _, f := range filters {
			if _, err := attachFilterCategory(ctx, tx, service, f); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: set pipeline of service %q: %w", service, err)
	}
	return nil
}

// attachFilterCategory makes the category of filter f a child of service's
// category when both exist, f's has no parent and the link closes no
// cycle; it reports whether f's category is now service's child. The
// caller holds the tree lock.
func attachFilterCategory(ctx context.Context, tx *sqlx.Tx, service, f string) (bool, error) {
	for _, k := range []string{service, f} {
		if err := categoryExists(ctx, tx, k); errors.Is(err, ErrNotFound) {
			return false, nil
		} else if err != nil {
			return false, err
		}
	}
	switch parent, ok, err := categoryParent(ctx, tx, f); {
	case err != nil:
		return false, err
	case ok:
		return parent == service, nil
	}
	ancestors, err := categoryAncestors(ctx, tx, service)
	if err != nil {
		return false, err
	}
	if ancestors[f] {
		return false, nil
	}
	q := tx.Rebind("INSERT INTO category_children (parent, child) VALUES (?, ?)")
	if _, err := tx.ExecContext(ctx, q, service, f); err != nil {
		return false, translate(err)
	}
	return true, nil
}
