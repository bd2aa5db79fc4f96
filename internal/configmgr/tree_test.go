package configmgr

import (
	"slices"
	"testing"

	"github.com/edged/edged/internal/fault"
)

// keysOf returns the keys of cs in order.
func keysOf(cs []Category) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Key)
	}
	return out
}

// newTreeFixture seeds the gateway's categories and adds "pump" and
// "valve" as roots.
func newTreeFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	mustSeed(t, f)
	for _, k := range []string{"pump", "valve"} {
		if _, err := f.m.Create(t.Context(), CategoryInput{Key: k}); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestTreeCategories(t *testing.T) {
	f := newTreeFixture(t)
	roots, err := f.m.TreeCategories(t.Context(), true)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{CategoryAdvanced, CategoryGeneral, CategoryUtilities, "pump", "valve"}; !slices.Equal(keysOf(roots), want) {
		t.Errorf("roots %q, want %q", keysOf(roots), want)
	}
	children, err := f.m.TreeCategories(t.Context(), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{CategoryBackup, CategoryInstallation, CategoryLDAP, CategoryLogging, CategoryPurge, CategoryScheduler, CategoryServiceMonitor,
		CategoryStatistics, CategoryPassword, CategoryRESTAPI, CategoryService}; !slices.Equal(keysOf(children), want) {
		t.Errorf("categories with a parent %q, want %q", keysOf(children), want)
	}
	for _, c := range children {
		if c.Key == CategoryRESTAPI && len(c.Items) == 0 {
			t.Error("rest_api listed without its items")
		}
	}
}

func TestTreeChanges(t *testing.T) {
	f := newTreeFixture(t)
	ctx := t.Context()

	got, err := f.m.AddChildren(ctx, CategoryUtilities, []string{"valve", "pump", "valve"})
	if err != nil {
		t.Fatalf("AddChildren: %v", err)
	}
	if want := []string{CategoryBackup, CategoryPurge, "pump", "valve"}; !slices.Equal(got, want) {
		t.Errorf("children after AddChildren %q, want %q", got, want)
	}
	kids, err := f.m.Children(ctx, CategoryUtilities)
	if err != nil || !slices.Equal(keysOf(kids), got) {
		t.Errorf("Children = %q, %v; want %q", keysOf(kids), err, got)
	}
	p, ok, err := f.m.Parent(ctx, "pump")
	if err != nil || !ok || p.Key != CategoryUtilities {
		t.Errorf("Parent(pump) = %q, %v, %v; want Utilities", p.Key, ok, err)
	}
	if _, ok, err := f.m.Parent(ctx, CategoryUtilities); ok || err != nil {
		t.Errorf("Parent(Utilities) = %v, %v; want a root", ok, err)
	}

	refusals := []struct {
		name     string
		parent   string
		children []string
		kind     *fault.Kind
		msg      string
	}{
		{name: "another parent", parent: CategoryGeneral, children: []string{"pump"}, kind: fault.Conflict,
			msg: `category "pump" already has the parent "Utilities": remove it there first`},
		{name: "cycle", parent: "pump", children: []string{CategoryUtilities}, kind: fault.Conflict,
			msg: `category "Utilities" cannot become a child of "pump": it is "pump" or one of its ancestors`},
		{name: "itself", parent: "pump", children: []string{"pump"}, kind: fault.Conflict,
			msg: `category "pump" cannot become a child of "pump": it is "pump" or one of its ancestors`},
		{name: "unknown child", parent: "pump", children: []string{"valve", "ghost"}, kind: fault.NotFound, msg: `category "ghost" not found`},
		{name: "unknown parent", parent: "ghost", children: []string{"pump"}, kind: fault.NotFound, msg: `category "ghost" not found`},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.m.AddChildren(ctx, tt.parent, tt.children)
			wantFault(t, err, tt.kind, tt.msg)
		})
	}

	t.Run("remove", func(t *testing.T) {
		_, err := f.m.RemoveChild(ctx, CategoryGeneral, "pump")
		wantFault(t, err, fault.NotFound, `category "pump" is not a child of "General"`)
		_, err = f.m.RemoveChild(ctx, "ghost", "pump")
		wantFault(t, err, fault.NotFound, `category "ghost" not found`)
		_, err = f.m.RemoveChild(ctx, CategoryUtilities, "ghost")
		wantFault(t, err, fault.NotFound, `category "ghost" not found`)
		got, err := f.m.RemoveChild(ctx, CategoryUtilities, "pump")
		if err != nil || !slices.Equal(got, []string{CategoryBackup, CategoryPurge, "valve"}) {
			t.Errorf("RemoveChild = %q, %v", got, err)
		}
		if _, ok, _ := f.m.Parent(ctx, "pump"); ok {
			t.Error("pump still has a parent")
		}
	})

	t.Run("unknown category", func(t *testing.T) {
		_, err := f.m.Children(ctx, "ghost")
		wantFault(t, err, fault.NotFound, `category "ghost" not found`)
		_, _, err = f.m.Parent(ctx, "ghost")
		wantFault(t, err, fault.NotFound, `category "ghost" not found`)
	})
}

// TestSeedKeepsTheTree proves that a later start keeps the tree as clients
// left it: moved and detached categories stay where they are.
func TestSeedKeepsTheTree(t *testing.T) {
	f := newFixture(t)
	mustSeed(t, f)
	ctx := t.Context()
	if _, err := f.m.RemoveChild(ctx, CategoryUtilities, CategoryPurge); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.RemoveChild(ctx, CategoryAdvanced, CategoryLogging); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.AddChildren(ctx, CategoryGeneral, []string{CategoryLogging}); err != nil {
		t.Fatal(err)
	}

	mustSeed(t, f)

	for _, c := range []struct{ key, parent string }{
		{key: CategoryPurge},
		{key: CategoryLogging, parent: CategoryGeneral},
		{key: CategoryScheduler, parent: CategoryAdvanced},
	} {
		p, ok, err := f.m.Parent(ctx, c.key)
		if err != nil || ok != (c.parent != "") || p.Key != c.parent {
			t.Errorf("parent of %s = %q (%v, %v), want %q", c.key, p.Key, ok, err, c.parent)
		}
	}
}

// TestSeedAttachesNewCategories: a seeded category missing from an older
// store (created by this start) is attached to its parent.
func TestSeedAttachesNewCategories(t *testing.T) {
	f := newFixture(t)
	mustSeed(t, f)
	f.store.mu.Lock()
	delete(f.store.rows, CategoryStatistics)
	f.store.children[CategoryAdvanced] = slices.DeleteFunc(f.store.children[CategoryAdvanced],
		func(k string) bool { return k == CategoryStatistics })
	f.store.mu.Unlock()

	mustSeed(t, f)

	p, ok, err := f.m.Parent(t.Context(), CategoryStatistics)
	if err != nil || !ok || p.Key != CategoryAdvanced {
		t.Errorf("parent of STATISTICS = %q (%v, %v), want Advanced", p.Key, ok, err)
	}
}
