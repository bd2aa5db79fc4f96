package db_test

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestCategoryTree(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		for _, k := range []string{"root", "a", "b", "c", "other"} {
			saveCategory(t, d, db.Category{Key: k})
		}
		mustAdd := func(t *testing.T, parent string, children ...string) {
			t.Helper()
			if err := d.AddCategoryChildren(ctx, parent, children...); err != nil {
				t.Fatalf("AddCategoryChildren(%s, %v): %v", parent, children, err)
			}
		}
		mustAdd(t, "root", "a")
		mustAdd(t, "a", "b")

		conflicts := []struct {
			name     string
			parent   string
			children []string
			want     db.ChildConflict
		}{
			{name: "another parent", parent: "other", children: []string{"b"}, want: db.ChildConflict{Child: "b", Parent: "a"}},
			{name: "own child", parent: "c", children: []string{"c"}, want: db.ChildConflict{Child: "c", Cycle: true}},
			{name: "parent under its child", parent: "b", children: []string{"a"}, want: db.ChildConflict{Child: "a", Cycle: true}},
			{name: "root under a descendant", parent: "b", children: []string{"c", "root"}, want: db.ChildConflict{Child: "root", Cycle: true}},
		}
		for _, tt := range conflicts {
			t.Run(tt.name, func(t *testing.T) {
				err := d.AddCategoryChildren(ctx, tt.parent, tt.children...)
				var cc *db.ChildConflict
				if !errors.As(err, &cc) || !errors.Is(err, db.ErrConflict) || *cc != tt.want {
					t.Fatalf("AddCategoryChildren(%s, %v) = %v, want %+v wrapping ErrConflict", tt.parent, tt.children, err, tt.want)
				}
				// All or nothing: c, named before root, was not attached.
				if _, ok, err := d.CategoryParent(ctx, "c"); err != nil || ok {
					t.Errorf("c has a parent after the refused call (%v)", err)
				}
			})
		}

		t.Run("unknown child attaches nothing", func(t *testing.T) {
			err := d.AddCategoryChildren(ctx, "other", "c", "ghost")
			if !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("err = %v, want ErrNotFound", err)
			}
			if got, _ := d.ListCategoryChildren(ctx, "other"); len(got) != 0 {
				t.Errorf("children of other = %v, want none", got)
			}
		})

		t.Run("parent", func(t *testing.T) {
			for _, c := range []struct {
				key, want string
				ok        bool
			}{{key: "b", want: "a", ok: true}, {key: "a", want: "root", ok: true}, {key: "root"}} {
				got, ok, err := d.CategoryParent(ctx, c.key)
				if err != nil || ok != c.ok || got != c.want {
					t.Errorf("CategoryParent(%s) = %q, %v, %v; want %q, %v", c.key, got, ok, err, c.want, c.ok)
				}
			}
			if _, _, err := d.CategoryParent(ctx, "ghost"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("CategoryParent(ghost) error = %v, want ErrNotFound", err)
			}
		})

		t.Run("parents", func(t *testing.T) {
			got, err := d.CategoryParents(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[string]string{"a": "root", "b": "a"}; !maps.Equal(got, want) {
				t.Errorf("CategoryParents = %v, want %v", got, want)
			}
		})

		t.Run("remove", func(t *testing.T) {
			if err := d.RemoveCategoryChild(ctx, "root", "b"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("removing a grandchild: %v, want ErrNotFound", err)
			}
			if err := d.RemoveCategoryChild(ctx, "a", "b"); err != nil {
				t.Fatalf("RemoveCategoryChild(a, b): %v", err)
			}
			if err := d.RemoveCategoryChild(ctx, "a", "b"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("removing twice: %v, want ErrNotFound", err)
			}
			if _, ok, _ := d.CategoryParent(ctx, "b"); ok {
				t.Error("b still has a parent")
			}
			// Detached, b may go under another parent, and a under b.
			mustAdd(t, "other", "b")
			if err := d.RemoveCategoryChild(ctx, "root", "a"); err != nil {
				t.Fatal(err)
			}
			mustAdd(t, "b", "a")
			if got, _ := d.ListCategoryChildren(ctx, "b"); !slices.Equal(got, []string{"a"}) {
				t.Errorf("children of b = %v, want [a]", got)
			}
		})
	})
}

// TestCategoryTreeConcurrent races two attachments that would together
// close a cycle (x under y, y under x): exactly one may win.
func TestCategoryTreeConcurrent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		for round := range 10 {
			x, y := "x"+string(rune('a'+round)), "y"+string(rune('a'+round))
			saveCategory(t, d, db.Category{Key: x})
			saveCategory(t, d, db.Category{Key: y})
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, pair := range [][2]string{{x, y}, {y, x}} {
				wg.Go(func() { errs[i] = d.AddCategoryChildren(ctx, pair[0], pair[1]) })
			}
			wg.Wait()
			ok := 0
			for _, err := range errs {
				switch {
				case err == nil:
					ok++
				case !errors.Is(err, db.ErrConflict):
					t.Fatalf("round %d: %v", round, err)
				}
			}
			if ok != 1 {
				t.Fatalf("round %d: %d attachments succeeded (%v), want exactly 1", round, ok, errs)
			}
		}
	})
}
