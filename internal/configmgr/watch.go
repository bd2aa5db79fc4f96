package configmgr

import (
	"context"
	"sync/atomic"
)

// Watched is the value of one item kept in memory: read once, then
// updated by every committed change of its category, so that a hot path
// (ping's instance name) never reads storage for it. Safe for concurrent
// use.
type Watched struct {
	v      atomic.Pointer[string]
	cancel func()
}

// Watch reads the value of item of category key and follows its changes
// until Close. Errors are those of Value.
func (m *Manager) Watch(ctx context.Context, key, item string) (*Watched, error) {
	w := &Watched{}
	w.cancel = m.Subscribe(key, func(_ context.Context, c Category) error {
		if it, ok := c.Items[item]; ok {
			v := it.Value
			w.v.Store(&v)
		}
		return nil
	})
	v, err := m.Value(ctx, key, item)
	if err != nil {
		w.cancel()
		return nil, err
	}
	w.v.CompareAndSwap(nil, &v) // a change delivered meanwhile is newer
	return w, nil
}

// Value returns the item's current value.
func (w *Watched) Value() string { return *w.v.Load() }

// Close stops following changes.
func (w *Watched) Close() { w.cancel() }

// Source is what Follow reads a category from and follows its changes
// through; *Manager implements it.
type Source interface {
	Category(ctx context.Context, key string) (Category, error)
	Subscribe(key string, fn func(ctx context.Context, c Category) error) (cancel func())
}

// Followed is a value parsed from one category, kept in memory and
// replaced by every committed change of the category. Safe for concurrent
// use.
type Followed[T any] struct {
	cur    atomic.Pointer[T]
	cancel func()
}

// Follow reads category key from src, parses it and follows its changes
// until Close. parse must not fail: a value that does not parse keeps its
// default (values are checked when written). Errors are those of reading
// the category.
func Follow[T any](ctx context.Context, src Source, key string, parse func(Category) T) (*Followed[T], error) {
	f := &Followed[T]{}
	// Subscribed first, so no change between the read and the
	// subscription is lost; a change delivered meanwhile is newer than
	// the read.
	f.cancel = src.Subscribe(key, func(_ context.Context, c Category) error {
		v := parse(c)
		f.cur.Store(&v)
		return nil
	})
	c, err := src.Category(ctx, key)
	if err != nil {
		f.cancel()
		return nil, err
	}
	v := parse(c)
	f.cur.CompareAndSwap(nil, &v)
	return f, nil
}

// Load returns the value in force.
func (f *Followed[T]) Load() T { return *f.cur.Load() }

// Close stops following changes.
func (f *Followed[T]) Close() { f.cancel() }
