// Package configmgr is the gateway's configuration manager: categories of
// typed configuration items, their validation, their audit trail (CONAD,
// CONCH) and in-process change listeners.
//
// Storage is reached only through the Store interface and audit only
// through the Auditor interface, both declared here. Errors a client may
// see are *fault.Fault values (kind Invalid or NotFound); any other error
// is a storage failure, returned wrapped.
package configmgr

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/fault"
)

// Store is the storage the manager needs; *db.DB implements it.
type Store interface {
	// ListCategories returns every category, sorted by key.
	ListCategories(ctx context.Context) ([]db.Category, error)
	// GetCategory returns one category; the error wraps db.ErrNotFound
	// when it does not exist.
	GetCategory(ctx context.Context, key string) (db.Category, error)
	// SaveCategory runs fn in one transaction on the current row (locked)
	// and writes what fn returns: an insert when !exists, else an update.
	// An error from fn rolls back and is returned wrapped (%w).
	SaveCategory(ctx context.Context, key string, fn func(cur db.Category, exists bool) (db.Category, error)) (saved db.Category, created bool, err error)
	// UpdateCategory is like SaveCategory for an existing category; the
	// error wraps db.ErrNotFound when it is missing.
	UpdateCategory(ctx context.Context, key string, fn func(cur *db.Category) error) (db.Category, error)
	// TreeStore holds the category tree.
	TreeStore
	// DeleteCategory removes a category with its parent and child links
	// and reports whether it existed.
	DeleteCategory(ctx context.Context, key string) (bool, error)
}

// Auditor writes audit entries.
type Auditor interface {
	// Record writes one entry with a source code (e.g. CONCH), a severity
	// and JSON-encodable details.
	Record(ctx context.Context, source, severity string, details any) error
}

// Audit source codes and severity written by the manager.
const (
	AuditCategoryAdded   = auditcode.ConfigAdded
	AuditCategoryChanged = auditcode.ConfigChanged
)

// Manager manages configuration categories. It is safe for concurrent use
// by multiple goroutines.
type Manager struct {
	store   Store
	auditor Auditor
	log     *slog.Logger

	// seq numbers writes. It is advanced inside the storage transaction,
	// while the category row is locked, so for one category the numbers
	// increase in commit order.
	seq atomic.Uint64

	mu    sync.Mutex             // guards subs and notes
	subs  map[string][]*listener // category key → listeners in subscription order
	notes map[string]*noteState  // category key → notification progress
}

// listener is one subscription.
type listener struct {
	fn     func(ctx context.Context, c Category) error
	active atomic.Bool // cleared by cancel
}

// noteState tracks the notifications of one category so that listeners
// see its states in commit order.
type noteState struct {
	latest     Category // newest committed state not yet delivered
	latestSeq  uint64   // seq of latest
	delivered  uint64   // seq of the newest state delivered
	delivering bool     // a goroutine is delivering
}

// New returns a Manager over store, writing audit entries to auditor and
// logging to logger (nil discards). store and auditor must not be nil.
func New(store Store, auditor Auditor, logger *slog.Logger) *Manager {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Manager{
		store:   store,
		auditor: auditor,
		log:     logger,
		subs:    map[string][]*listener{},
		notes:   map[string]*noteState{},
	}
}

// translate turns a storage error into the error the manager returns: a
// fault raised inside a transaction as is, db.ErrNotFound as a NotFound
// fault naming what (e.g. `category "x"`), anything else wrapped.
func translate(err error, op, what string) error {
	if f, ok := fault.As(err); ok {
		return f
	}
	if errors.Is(err, db.ErrNotFound) {
		return fault.New(fault.NotFound, "%s not found", what)
	}
	return fmt.Errorf("configmgr: %s: %w", op, err)
}

func categoryName(key string) string { return fmt.Sprintf("category %q", key) }

// Categories returns every category sorted by key, passwords masked.
// Errors are storage failures. Safe for concurrent use.
func (m *Manager) Categories(ctx context.Context) ([]Category, error) {
	rows, err := m.store.ListCategories(ctx)
	if err != nil {
		return nil, translate(err, "list categories", "categories")
	}
	out := make([]Category, 0, len(rows))
	for _, row := range rows {
		c, err := decodeCategory(row)
		if err != nil {
			return nil, err
		}
		out = append(out, c.masked())
	}
	slices.SortFunc(out, func(a, b Category) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// category reads one category, unmasked.
func (m *Manager) category(ctx context.Context, key string) (Category, error) {
	row, err := m.store.GetCategory(ctx, key)
	if err != nil {
		return Category{}, translate(err, "get category "+key, categoryName(key))
	}
	return decodeCategory(row)
}

// Category returns the category key with its items, passwords masked. An
// unknown key is a fault of kind NotFound; other errors are storage
// failures. Safe for concurrent use.
func (m *Manager) Category(ctx context.Context, key string) (Category, error) {
	c, err := m.category(ctx, key)
	if err != nil {
		return Category{}, err
	}
	return c.masked(), nil
}

// lookup returns item name of c, or a NotFound fault naming it.
func lookup(c Category, name string) (Item, error) {
	it, ok := c.Items[name]
	if !ok {
		return Item{}, fault.New(fault.NotFound, "%s not found", where{category: c.Key, item: name})
	}
	return it, nil
}

// Item returns one item of category key, password masked. An unknown
// category or item is a fault of kind NotFound naming it; other errors are
// storage failures. Safe for concurrent use.
func (m *Manager) Item(ctx context.Context, key, item string) (Item, error) {
	c, err := m.category(ctx, key)
	if err != nil {
		return Item{}, err
	}
	it, err := lookup(c, item)
	if err != nil {
		return Item{}, err
	}
	return it.masked(), nil
}

// Value returns the raw current value of an item, passwords included, for
// internal consumers; it must never be sent to a client as is. Errors are
// as for Item. Safe for concurrent use.
func (m *Manager) Value(ctx context.Context, key, item string) (string, error) {
	c, err := m.category(ctx, key)
	if err != nil {
		return "", err
	}
	it, err := lookup(c, item)
	if err != nil {
		return "", err
	}
	return it.Value, nil
}

// SetValue validates value against the item's type and attributes and
// stores it (booleans in lower case, integers in canonical form). After the
// commit it writes a CONCH audit entry and notifies the category's
// listeners, both only when the stored value actually changed. It returns
// the stored item, password masked.
//
// An invalid value or a readonly item is a fault of kind Invalid; an
// unknown category or item a fault of kind NotFound; other errors are
// storage failures, and then nothing was written. Failures of the audit
// write or of listeners are logged, not returned. Safe for concurrent use;
// the check runs on the locked current state.
func (m *Manager) SetValue(ctx context.Context, key, item, value string) (Item, error) {
	return m.change(ctx, key, item, "set", func(w where, it Item) (string, error) {
		if isTrue(it.Readonly) {
			return "", invalid("%s is read-only", w)
		}
		return checkValue(w, it, "value", value)
	})
}

// ResetValue sets the item's value back to its default, or to "" when it
// has none. Audit, notification, errors and concurrency are as for
// SetValue; a readonly item is refused with a fault of kind Invalid.
func (m *Manager) ResetValue(ctx context.Context, key, item string) (Item, error) {
	return m.change(ctx, key, item, "reset", func(w where, it Item) (string, error) {
		if isTrue(it.Readonly) {
			return "", invalid("%s is read-only", w)
		}
		return it.Default, nil
	})
}

// change stores the value next computes from the locked current item.
func (m *Manager) change(ctx context.Context, key, name, op string, next func(where, Item) (string, error)) (Item, error) {
	c, err := m.changeItems(ctx, key, []string{name}, op, next)
	if err != nil {
		return Item{}, err
	}
	it, err := lookup(c, name)
	if err != nil {
		return Item{}, fmt.Errorf("configmgr: %s %s/%s: item missing after the write", op, key, name)
	}
	return it.masked(), nil
}

// changeItems stores, in one transaction, the value next computes for each
// of the items names from the locked current category: all of them or, at
// the first unknown item or error of next, none. After the commit it writes
// a CONCH entry per item whose value changed and, if any did, notifies the
// category's listeners once. It returns the stored category, unmasked.
func (m *Manager) changeItems(ctx context.Context, key string, names []string, op string, next func(where, Item) (string, error)) (Category, error) {
	var (
		old map[string]string // item name → value before the change
		seq uint64
	)
	row, err := m.store.UpdateCategory(ctx, key, func(cur *db.Category) error {
		c, err := decodeCategory(*cur)
		if err != nil {
			return err
		}
		old = make(map[string]string, len(names))
		for _, name := range names {
			it, err := lookup(c, name)
			if err != nil {
				return err
			}
			v, err := next(where{category: key, item: name}, it)
			if err != nil {
				return err
			}
			old[name] = it.Value
			it.Value = v
			c.Items[name] = it
		}
		enc, err := encodeCategory(c)
		if err != nil {
			return err
		}
		cur.Items = enc.Items
		seq = m.seq.Add(1)
		return nil
	})
	what := key
	if len(names) == 1 {
		what = key + "/" + names[0]
	}
	if err != nil {
		return Category{}, translate(err, op+" "+what, categoryName(key))
	}
	c, err := decodeCategory(row)
	if err != nil {
		return Category{}, err
	}
	changed := false
	for _, name := range slices.Sorted(maps.Keys(old)) {
		it, ok := c.Items[name]
		if !ok {
			return Category{}, fmt.Errorf("configmgr: %s %s/%s: item missing after the write", op, key, name)
		}
		if it.Value == old[name] {
			continue
		}
		changed = true
		m.log.DebugContext(ctx, "configuration value changed", "category", key, "item", name)
		m.audit(ctx, AuditCategoryChanged, conch{
			Category: key,
			Item:     name,
			OldValue: maskValue(it.Type, old[name]),
			NewValue: maskValue(it.Type, it.Value),
		})
	}
	if changed {
		m.notify(ctx, c, seq)
	}
	return c, nil
}

// SetValues validates and stores the values of several items of category
// key at once (item name → value), all or nothing: each as SetValue would,
// in one transaction. Afterwards a CONCH entry is written per item whose
// value changed and the listeners are notified once. It returns the whole
// category, passwords masked.
//
// No values, an invalid value or a readonly item is a fault of kind
// Invalid naming the item; an unknown category or item a fault of kind
// NotFound, and then nothing was written; other errors are storage
// failures. Safe for concurrent use.
func (m *Manager) SetValues(ctx context.Context, key string, values map[string]string) (Category, error) {
	if len(values) == 0 {
		return Category{}, invalid("no item values given for category %q", key)
	}
	c, err := m.changeItems(ctx, key, slices.Sorted(maps.Keys(values)), "set", func(w where, it Item) (string, error) {
		if isTrue(it.Readonly) {
			return "", invalid("%s is read-only", w)
		}
		return checkValue(w, it, "value", values[w.item])
	})
	if err != nil {
		return Category{}, err
	}
	return c.masked(), nil
}

// conch is the details of a CONCH audit entry.
type conch struct {
	Category string `json:"category"`
	Item     string `json:"item"`
	OldValue string `json:"oldValue"`
	NewValue string `json:"newValue"`
}

// conad is the details of a CONAD audit entry.
type conad struct {
	Name     string          `json:"name"`
	Category map[string]Item `json:"category"`
}

// audit writes an entry after a commit; a failure is logged, since the
// change it records is already stored.
func (m *Manager) audit(ctx context.Context, source string, details any) {
	if err := m.auditor.Record(context.WithoutCancel(ctx), source, auditcode.Information, details); err != nil {
		m.log.ErrorContext(ctx, "configuration audit entry not written", "source", source, "error", err)
	}
}

// Create validates the category definition in and stores it.
//
// The key must be 1..255 characters without control characters; every
// item definition must name a known type and carry valid attributes and a
// default valid for its type. A new category gets each item's value set to
// its default ("" without one) and a CONAD audit entry. An existing
// category is merged: new items are added at their default; existing items
// take the new definition and keep their current value, unless that value
// is invalid under the new definition (or the item is readonly), in which
// case the new default is stored and a CONCH entry written; items not named
// stay; description and display name are replaced when given. Listeners
// are notified after the commit when anything changed. It returns the
// stored category, passwords masked.
//
// An invalid definition is a fault of kind Invalid and nothing is stored;
// other errors are storage failures. Safe for concurrent use: a create
// racing another create of the same new key is retried once as a merge.
func (m *Manager) Create(ctx context.Context, in CategoryInput) (Category, error) {
	if err := checkKey(in.Key); err != nil {
		return Category{}, err
	}
	if c, ok := Lookalike(in.Key); ok {
		return Category{}, invalid("category key %q differs from the protected category %q only by case or surrounding space", in.Key, c)
	}
	defs := make(map[string]Item, len(in.Items))
	for _, name := range slices.Sorted(maps.Keys(in.Items)) {
		def, err := checkDefinition(in.Key, name, in.Items[name])
		if err != nil {
			return Category{}, err
		}
		defs[name] = def
	}
	c, err := m.save(ctx, in, defs)
	if err != nil && errors.Is(err, db.ErrConflict) {
		if _, isFault := fault.As(err); !isFault {
			c, err = m.save(ctx, in, defs)
		}
	}
	if err != nil {
		return Category{}, translate(err, "save category "+in.Key, categoryName(in.Key))
	}
	return c, nil
}

// save runs one SaveCategory for Create, then audits and notifies.
func (m *Manager) save(ctx context.Context, in CategoryInput, defs map[string]Item) (Category, error) {
	var (
		before, after Category
		seq           uint64
	)
	row, created, err := m.store.SaveCategory(ctx, in.Key, func(cur db.Category, exists bool) (db.Category, error) {
		var next Category
		if exists {
			old, err := decodeCategory(cur)
			if err != nil {
				return db.Category{}, err
			}
			before = old
			next = merge(old, in, defs)
		} else {
			before = Category{}
			display := in.DisplayName
			if display == "" {
				display = in.Key // a new category is labelled by its key unless told otherwise
			}
			next = Category{Key: in.Key, Description: in.Description, DisplayName: display, Items: make(map[string]Item, len(defs))}
			for name, def := range defs {
				def.Value = def.Default
				next.Items[name] = def
			}
		}
		next.Key = in.Key
		after = next
		seq = m.seq.Add(1)
		return encodeCategory(next)
	})
	if err != nil {
		return Category{}, err
	}
	stored, err := decodeCategory(row)
	if err != nil {
		return Category{}, err
	}
	switch {
	case created:
		m.log.InfoContext(ctx, "configuration category added", "category", in.Key)
		m.audit(ctx, AuditCategoryAdded, conad{Name: in.Key, Category: after.masked().Items})
		m.notify(ctx, stored, seq)
	case !before.equal(after):
		for _, name := range slices.Sorted(maps.Keys(after.Items)) {
			prev, ok := before.Items[name]
			now := after.Items[name]
			if ok && prev.Value != now.Value {
				m.audit(ctx, AuditCategoryChanged, conch{
					Category: in.Key,
					Item:     name,
					OldValue: maskValue(prev.Type, prev.Value),
					NewValue: maskValue(now.Type, now.Value),
				})
			}
		}
		m.notify(ctx, stored, seq)
	}
	return stored.masked(), nil
}

// merge applies the definitions of in to the stored category old.
func merge(old Category, in CategoryInput, defs map[string]Item) Category {
	next := old.clone()
	if in.Description != "" {
		next.Description = in.Description
	}
	if in.DisplayName != "" {
		next.DisplayName = in.DisplayName
	}
	for name, def := range defs {
		def.Value = def.Default
		if prev, ok := old.Items[name]; ok && !isTrue(def.Readonly) {
			if v, err := checkValue(where{category: old.Key, item: name}, def, "value", prev.Value); err == nil {
				def.Value = v
			}
		}
		next.Items[name] = def
	}
	return next
}

// Subscribe registers fn to be called after every committed change to the
// category key (SetValue, ResetValue, Create), with the new unmasked
// category. Listeners run synchronously in the writing goroutine, in
// subscription order, with a context that is not cancelled with the
// writer's. A listener's error or panic is logged; it neither rolls back
// the write nor reaches the writer. Listeners of one category see its
// states in commit order: when a write commits while that category's
// listeners are still running for an earlier write (in another goroutine,
// or from a listener itself), the running delivery passes on the newest
// state once the current round ends, and the later writer returns without
// waiting. cancel removes the subscription and may be called more than
// once; after it returns the listener is not called for later changes,
// though a call already under way may finish. Safe for concurrent use.
func (m *Manager) Subscribe(key string, fn func(ctx context.Context, c Category) error) (cancel func()) {
	if fn == nil {
		return func() {}
	}
	l := &listener{fn: fn}
	l.active.Store(true)
	m.mu.Lock()
	m.subs[key] = append(m.subs[key], l)
	m.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			l.active.Store(false)
			rest := slices.DeleteFunc(slices.Clone(m.subs[key]), func(x *listener) bool { return x == l })
			if len(rest) == 0 {
				delete(m.subs, key)
			} else {
				m.subs[key] = rest
			}
		})
	}
}

// notify delivers the committed state c (write number seq) to the
// listeners of its category, unless a newer state was already delivered.
func (m *Manager) notify(ctx context.Context, c Category, seq uint64) {
	ctx = context.WithoutCancel(ctx)
	m.mu.Lock()
	st := m.notes[c.Key]
	if st == nil {
		st = &noteState{}
		m.notes[c.Key] = st
	}
	if seq > st.latestSeq {
		st.latest, st.latestSeq = c, seq
	}
	if st.delivering {
		m.mu.Unlock()
		return
	}
	st.delivering = true
	for st.latestSeq > st.delivered {
		state, stateSeq := st.latest, st.latestSeq
		subs := m.subs[c.Key] // never modified in place
		m.mu.Unlock()
		for _, l := range subs {
			m.call(ctx, l, state)
		}
		m.mu.Lock()
		st.delivered = stateSeq
	}
	st.delivering = false
	st.latest = Category{}
	m.mu.Unlock()
}

// call runs one listener, logging its error or panic.
func (m *Manager) call(ctx context.Context, l *listener, c Category) {
	if !l.active.Load() {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			m.log.ErrorContext(ctx, "configuration listener panicked",
				"category", c.Key, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		}
	}()
	if err := l.fn(ctx, c.clone()); err != nil {
		m.log.ErrorContext(ctx, "configuration listener failed", "category", c.Key, "error", err)
	}
}
