package configmgr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
)

// fakeStore is an in-memory Store. Every call is serialised by one mutex,
// which SaveCategory and UpdateCategory hold while fn runs, as a locked row
// would be.
type fakeStore struct {
	mu           sync.Mutex // guards everything below
	rows         map[string]db.Category
	children     map[string][]string
	writes       int   // committed writes
	fail         error // returned by every call when set
	conflictOnce bool  // the next SaveCategory fails with db.ErrConflict

	inTx atomic.Bool // fn is running
}

func newFakeStore() *fakeStore {
	return &fakeStore{rows: map[string]db.Category{}, children: map[string][]string{}}
}

func copyRow(c db.Category) db.Category {
	c.Items = bytes.Clone(c.Items)
	return c
}

func (s *fakeStore) ListCategories(ctx context.Context) ([]db.Category, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, fmt.Errorf("fake: list: %w", s.fail)
	}
	out := make([]db.Category, 0, len(s.rows))
	for _, r := range s.rows {
		out = append(out, copyRow(r))
	}
	slices.SortFunc(out, func(a, b db.Category) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

func (s *fakeStore) GetCategory(ctx context.Context, key string) (db.Category, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return db.Category{}, fmt.Errorf("fake: get: %w", s.fail)
	}
	r, ok := s.rows[key]
	if !ok {
		return db.Category{}, fmt.Errorf("fake: category %s: %w", key, db.ErrNotFound)
	}
	return copyRow(r), nil
}

func (s *fakeStore) SaveCategory(ctx context.Context, key string, fn func(cur db.Category, exists bool) (db.Category, error)) (db.Category, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return db.Category{}, false, fmt.Errorf("fake: save: %w", s.fail)
	}
	if s.conflictOnce {
		s.conflictOnce = false
		return db.Category{}, false, fmt.Errorf("fake: insert %s: %w", key, db.ErrConflict)
	}
	cur, exists := s.rows[key]
	if !exists {
		cur = db.Category{Key: key}
	}
	s.inTx.Store(true)
	next, err := fn(copyRow(cur), exists)
	s.inTx.Store(false)
	if err != nil {
		return db.Category{}, false, fmt.Errorf("fake: save %s: %w", key, err)
	}
	next.Key = key
	s.rows[key] = copyRow(next)
	s.writes++
	return copyRow(next), !exists, nil
}

func (s *fakeStore) UpdateCategory(ctx context.Context, key string, fn func(cur *db.Category) error) (db.Category, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return db.Category{}, fmt.Errorf("fake: update: %w", s.fail)
	}
	cur, ok := s.rows[key]
	if !ok {
		return db.Category{}, fmt.Errorf("fake: category %s: %w", key, db.ErrNotFound)
	}
	next := copyRow(cur)
	s.inTx.Store(true)
	err := fn(&next)
	s.inTx.Store(false)
	if err != nil {
		return db.Category{}, fmt.Errorf("fake: update %s: %w", key, err)
	}
	next.Key = key
	s.rows[key] = copyRow(next)
	s.writes++
	return copyRow(next), nil
}

func (s *fakeStore) AddCategoryChildren(ctx context.Context, parent string, children ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return fmt.Errorf("fake: children: %w", s.fail)
	}
	for _, k := range append([]string{parent}, children...) {
		if _, ok := s.rows[k]; !ok {
			return fmt.Errorf("fake: category %s: %w", k, db.ErrNotFound)
		}
	}
	ancestors := map[string]bool{}
	for k, ok := s.parentOf(parent); ok; k, ok = s.parentOf(k) {
		ancestors[k] = true
	}
	var add []string
	for _, c := range children {
		if c == parent || ancestors[c] {
			return &db.ChildConflict{Child: c, Cycle: true}
		}
		switch p, ok := s.parentOf(c); {
		case ok && p == parent, slices.Contains(add, c):
		case ok:
			return &db.ChildConflict{Child: c, Parent: p}
		default:
			add = append(add, c)
		}
	}
	s.children[parent] = append(s.children[parent], add...)
	return nil
}

func (s *fakeStore) DeleteCategory(ctx context.Context, key string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return false, fmt.Errorf("fake: delete: %w", s.fail)
	}
	if _, ok := s.rows[key]; !ok {
		return false, nil
	}
	delete(s.rows, key)
	delete(s.children, key)
	for parent, children := range s.children {
		s.children[parent] = slices.DeleteFunc(children, func(c string) bool { return c == key })
	}
	s.writes++
	return true, nil
}

// parentOf returns key's parent; s.mu must be held.
func (s *fakeStore) parentOf(key string) (string, bool) {
	for p, cs := range s.children {
		if slices.Contains(cs, key) {
			return p, true
		}
	}
	return "", false
}

func (s *fakeStore) RemoveCategoryChild(ctx context.Context, parent, child string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return fmt.Errorf("fake: remove child: %w", s.fail)
	}
	i := slices.Index(s.children[parent], child)
	if i < 0 {
		return fmt.Errorf("fake: %s is not a child of %s: %w", child, parent, db.ErrNotFound)
	}
	s.children[parent] = slices.Delete(s.children[parent], i, i+1)
	return nil
}

func (s *fakeStore) ListCategoryChildren(ctx context.Context, parent string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, fmt.Errorf("fake: children: %w", s.fail)
	}
	if _, ok := s.rows[parent]; !ok {
		return nil, fmt.Errorf("fake: category %s: %w", parent, db.ErrNotFound)
	}
	out := slices.Clone(s.children[parent])
	slices.Sort(out)
	return append([]string{}, out...), nil
}

func (s *fakeStore) CategoryParent(ctx context.Context, key string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return "", false, fmt.Errorf("fake: parent: %w", s.fail)
	}
	if _, ok := s.rows[key]; !ok {
		return "", false, fmt.Errorf("fake: category %s: %w", key, db.ErrNotFound)
	}
	p, ok := s.parentOf(key)
	return p, ok, nil
}

func (s *fakeStore) CategoryParents(ctx context.Context) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, fmt.Errorf("fake: parents: %w", s.fail)
	}
	out := map[string]string{}
	for p, cs := range s.children {
		for _, c := range cs {
			out[c] = p
		}
	}
	return out, nil
}

// row returns the stored items of key decoded, or ok false.
func (s *fakeStore) row(t *testing.T, key string) (Category, bool) {
	t.Helper()
	s.mu.Lock()
	r, ok := s.rows[key]
	s.mu.Unlock()
	if !ok {
		return Category{}, false
	}
	c, err := decodeCategory(r)
	if err != nil {
		t.Fatalf("stored category %q: %v", key, err)
	}
	return c, true
}

func (s *fakeStore) writeCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}

func (s *fakeStore) setFail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = err
}

// auditEntry is one recorded audit entry, details as JSON.
type auditEntry struct {
	Source, Severity string
	Details          string
}

// fakeAuditor records entries.
type fakeAuditor struct {
	mu      sync.Mutex // guards entries and fail
	entries []auditEntry
	fail    error
}

func (a *fakeAuditor) Record(ctx context.Context, source, severity string, details any) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fail != nil {
		return a.fail
	}
	raw, err := json.Marshal(details)
	if err != nil {
		return err
	}
	a.entries = append(a.entries, auditEntry{Source: source, Severity: severity, Details: string(raw)})
	return nil
}

// bySource returns the recorded entries of source.
func (a *fakeAuditor) bySource(source string) []auditEntry {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []auditEntry
	for _, e := range a.entries {
		if e.Source == source {
			out = append(out, e)
		}
	}
	return out
}

func (a *fakeAuditor) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.entries = nil
}

// logBuffer is a concurrency-safe log sink.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// fixture is a manager over fakes.
type fixture struct {
	m     *Manager
	store *fakeStore
	audit *fakeAuditor
	logs  *logBuffer
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{store: newFakeStore(), audit: &fakeAuditor{}, logs: &logBuffer{}}
	f.m = New(f.store, f.audit, slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	return f
}

// testCategory is a category with one item of every type.
const testCategory = "test"

func testInput() CategoryInput {
	return CategoryInput{
		Key: testCategory, Description: "Test category", DisplayName: "Test",
		Items: map[string]Item{
			"flag":   {Description: "a boolean", Type: TypeBoolean, Default: "true"},
			"port":   {Description: "an integer", Type: TypeInteger, Default: "8081", Minimum: "1", Maximum: "65535"},
			"count":  {Description: "an integer without default", Type: TypeInteger},
			"ratio":  {Description: "a float", Type: TypeFloat, Default: "0.5", Minimum: "0", Maximum: "1.5"},
			"label":  {Description: "a string", Type: TypeString, Default: "abc", Length: "5"},
			"free":   {Description: "a string without default", Type: TypeString},
			"needed": {Description: "a mandatory string", Type: TypeString, Default: "x", Mandatory: "true"},
			"mode":   {Description: "an enumeration", Type: TypeEnumeration, Default: "a", Options: []string{"a", "b"}},
			"doc":    {Description: "a JSON", Type: TypeJSON, Default: `{"k": 1}`},
			"v4":     {Description: "an IPv4", Type: TypeIPv4, Default: "127.0.0.1"},
			"v6":     {Description: "an IPv6", Type: TypeIPv6, Default: "::1"},
			"link":   {Description: "a URL", Type: TypeURL, Default: "http://localhost:8081/x"},
			"secret": {Description: "a password", Type: TypePassword, Default: "s3cret", Length: "10"},
			"fixed":  {Description: "a readonly item", Type: TypeString, Default: "1.0", Readonly: "true"},
			"cond":   {Description: "a conditional item", Type: TypeString, Validity: `flag == "false"`},
		},
	}
}

// newTestFixture returns a fixture holding the test category, with the
// audit trail cleared.
func newTestFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	if _, err := f.m.Create(t.Context(), testInput()); err != nil {
		t.Fatalf("create test category: %v", err)
	}
	f.audit.reset()
	return f
}

// stored returns the stored value of an item of the test category.
func (f *fixture) stored(t *testing.T, item string) string {
	t.Helper()
	c, ok := f.store.row(t, testCategory)
	if !ok {
		t.Fatalf("category %q not stored", testCategory)
	}
	it, ok := c.Items[item]
	if !ok {
		t.Fatalf("item %q not stored", item)
	}
	return it.Value
}

// wantFault checks that err is a fault of kind with message msg (any
// message when msg is empty).
func wantFault(t *testing.T, err error, kind *fault.Kind, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want a %v fault", kind)
	}
	f, ok := fault.As(err)
	if !ok {
		t.Fatalf("got error %v (%T), want a fault", err, err)
	}
	if !errors.Is(err, kind) {
		t.Fatalf("got fault kind %v, want %v (%q)", f.Kind, kind, f.Message)
	}
	if msg != "" && f.Message != msg {
		t.Fatalf("got message\n  %q\nwant\n  %q", f.Message, msg)
	}
}
