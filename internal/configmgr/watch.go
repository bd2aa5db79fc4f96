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
