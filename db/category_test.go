package db_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// saveCategory stores c with SaveCategory, replacing any current row, and
// fails the test on error.
func saveCategory(t *testing.T, d *db.DB, c db.Category) db.Category {
	t.Helper()
	saved, _, err := d.SaveCategory(t.Context(), c.Key, func(db.Category, bool) (db.Category, error) { return c, nil })
	if err != nil {
		t.Fatalf("SaveCategory(%q): %v", c.Key, err)
	}
	return saved
}

// boomError is a distinct error type, to check that errors.As sees fn's error.
type boomError struct{ msg string }

func (e *boomError) Error() string { return e.msg }

func TestSaveCategory(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()

		t.Run("create", func(t *testing.T) {
			var sawExists bool
			var sawCur db.Category
			saved, created, err := d.SaveCategory(ctx, "rest_api", func(cur db.Category, exists bool) (db.Category, error) {
				sawCur, sawExists = cur, exists
				cur.Description = "REST API"
				cur.DisplayName = "Admin API"
				cur.Items = json.RawMessage(`{"httpPort":{"type":"integer","default":"8081","value":"8081"}}`)
				return cur, nil
			})
			if err != nil {
				t.Fatalf("SaveCategory: %v", err)
			}
			if sawExists || sawCur.Key != "rest_api" || sawCur.Description != "" || len(sawCur.Items) != 0 {
				t.Errorf("fn saw cur %+v exists %v, want {Key: rest_api} and false", sawCur, sawExists)
			}
			if !created {
				t.Error("created = false, want true")
			}
			got, err := d.GetCategory(ctx, "rest_api")
			if err != nil {
				t.Fatalf("GetCategory: %v", err)
			}
			if got.Key != "rest_api" || got.Description != "REST API" || got.DisplayName != "Admin API" ||
				!jsonEqual(t, got.Items, []byte(`{"httpPort":{"type":"integer","default":"8081","value":"8081"}}`)) {
				t.Errorf("GetCategory = %+v (items %s)", got, got.Items)
			}
			if saved.Key != got.Key || saved.Description != got.Description || string(saved.Items) != string(got.Items) {
				t.Errorf("SaveCategory returned %+v, stored %+v", saved, got)
			}
		})

		t.Run("merge existing", func(t *testing.T) {
			saved, created, err := d.SaveCategory(ctx, "rest_api", func(cur db.Category, exists bool) (db.Category, error) {
				if !exists {
					return cur, errors.New("want exists")
				}
				var items map[string]any
				if err := json.Unmarshal(cur.Items, &items); err != nil {
					return cur, err
				}
				items["allowPing"] = map[string]any{"type": "boolean", "default": "true", "value": "true"}
				b, err := json.Marshal(items)
				cur.Items = b
				return cur, err
			})
			if err != nil {
				t.Fatalf("SaveCategory: %v", err)
			}
			if created {
				t.Error("created = true, want false")
			}
			want := `{"httpPort":{"type":"integer","default":"8081","value":"8081"},"allowPing":{"type":"boolean","default":"true","value":"true"}}`
			if saved.Description != "REST API" || !jsonEqual(t, saved.Items, []byte(want)) {
				t.Errorf("saved %+v (items %s), want description kept and items %s", saved, saved.Items, want)
			}
		})

		t.Run("fn error rolls back", func(t *testing.T) {
			before, err := d.GetCategory(ctx, "rest_api")
			if err != nil {
				t.Fatalf("GetCategory: %v", err)
			}
			boom := &boomError{"boom"}
			_, _, err = d.SaveCategory(ctx, "rest_api", func(cur db.Category, _ bool) (db.Category, error) {
				cur.Description = "changed"
				return cur, fmt.Errorf("validate: %w", boom)
			})
			var be *boomError
			if !errors.Is(err, boom) || !errors.As(err, &be) {
				t.Fatalf("SaveCategory error = %v, want it to wrap fn's error", err)
			}
			after, err := d.GetCategory(ctx, "rest_api")
			if err != nil {
				t.Fatalf("GetCategory: %v", err)
			}
			if after.Description != before.Description || string(after.Items) != string(before.Items) {
				t.Errorf("after failed save: %+v, want unchanged %+v", after, before)
			}
		})

		t.Run("fn error on create stores nothing", func(t *testing.T) {
			boom := &boomError{"no"}
			_, created, err := d.SaveCategory(ctx, "never", func(cur db.Category, _ bool) (db.Category, error) { return cur, boom })
			if !errors.Is(err, boom) || created {
				t.Fatalf("SaveCategory = created %v, error %v; want false and fn's error", created, err)
			}
			if _, err := d.GetCategory(ctx, "never"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("GetCategory(never) error = %v, want ErrNotFound", err)
			}
		})

		t.Run("invalid results", func(t *testing.T) {
			tests := []struct {
				name string
				fn   func(cur db.Category, exists bool) (db.Category, error)
			}{
				{name: "key changed", fn: func(cur db.Category, _ bool) (db.Category, error) { cur.Key = "other"; return cur, nil }},
				{name: "items not JSON", fn: func(cur db.Category, _ bool) (db.Category, error) {
					cur.Items = json.RawMessage(`{"a":`)
					return cur, nil
				}},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					_, _, err := d.SaveCategory(ctx, "invalid", tt.fn)
					if err == nil || errors.Is(err, db.ErrConflict) || errors.Is(err, db.ErrNotFound) {
						t.Errorf("SaveCategory error = %v, want a non-sentinel error", err)
					}
					if _, err := d.GetCategory(ctx, "invalid"); !errors.Is(err, db.ErrNotFound) {
						t.Errorf("GetCategory(invalid) error = %v, want ErrNotFound", err)
					}
				})
			}
		})

		t.Run("nil items stored as empty object", func(t *testing.T) {
			saved := saveCategory(t, d, db.Category{Key: "empty", Description: "no items"})
			if !jsonEqual(t, saved.Items, []byte(`{}`)) {
				t.Errorf("Items = %s, want {}", saved.Items)
			}
		})
	})
}

func TestGetAndUpdateCategory(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		saveCategory(t, d, db.Category{Key: "General", Description: "General", Items: json.RawMessage(`{"n":1}`)})

		t.Run("get missing", func(t *testing.T) {
			if c, err := d.GetCategory(ctx, "nope"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("GetCategory(nope) = %+v, %v; want ErrNotFound", c, err)
			}
		})
		t.Run("update missing", func(t *testing.T) {
			called := false
			_, err := d.UpdateCategory(ctx, "nope", func(*db.Category) error { called = true; return nil })
			if !errors.Is(err, db.ErrNotFound) {
				t.Errorf("UpdateCategory(nope) error = %v, want ErrNotFound", err)
			}
			if called {
				t.Error("fn was called for a missing category")
			}
			if _, err := d.GetCategory(ctx, "nope"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("UpdateCategory created the category: %v", err)
			}
		})
		t.Run("update", func(t *testing.T) {
			got, err := d.UpdateCategory(ctx, "General", func(c *db.Category) error {
				c.DisplayName = "General settings"
				c.Items = json.RawMessage(`{"n":2}`)
				return nil
			})
			if err != nil {
				t.Fatalf("UpdateCategory: %v", err)
			}
			stored, err := d.GetCategory(ctx, "General")
			if err != nil {
				t.Fatalf("GetCategory: %v", err)
			}
			for _, c := range []db.Category{got, stored} {
				if c.Key != "General" || c.Description != "General" || c.DisplayName != "General settings" || !jsonEqual(t, c.Items, []byte(`{"n":2}`)) {
					t.Errorf("category = %+v (items %s)", c, c.Items)
				}
			}
		})
		t.Run("update fn error", func(t *testing.T) {
			boom := &boomError{"refused"}
			_, err := d.UpdateCategory(ctx, "General", func(c *db.Category) error {
				c.Description = "changed"
				return boom
			})
			var be *boomError
			if !errors.As(err, &be) {
				t.Fatalf("UpdateCategory error = %v, want fn's error", err)
			}
			if c, _ := d.GetCategory(ctx, "General"); c.Description != "General" {
				t.Errorf("Description = %q after failed update, want unchanged", c.Description)
			}
		})
		t.Run("update key change", func(t *testing.T) {
			_, err := d.UpdateCategory(ctx, "General", func(c *db.Category) error { c.Key = "Other"; return nil })
			if err == nil {
				t.Error("UpdateCategory changing Key succeeded, want an error")
			}
		})
	})
}

func TestListCategories(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		got, err := d.ListCategories(t.Context())
		if err != nil || got == nil || len(got) != 0 {
			t.Fatalf("ListCategories on empty database = %v, %v; want empty non-nil", got, err)
		}
		keys := []string{"b", "SCHEDULER", "a", "_x", "A", "rest_api", "c/d", "Advanced"}
		for i, k := range keys {
			saveCategory(t, d, db.Category{Key: k, Description: "d " + k, Items: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))})
		}
		got, err = d.ListCategories(t.Context())
		if err != nil {
			t.Fatalf("ListCategories: %v", err)
		}
		var gotKeys []string
		for _, c := range got {
			gotKeys = append(gotKeys, c.Key)
			i := slices.Index(keys, c.Key)
			if c.Description != "d "+c.Key || !jsonEqual(t, c.Items, []byte(fmt.Sprintf(`{"i":%d}`, i))) {
				t.Errorf("category %+v (items %s)", c, c.Items)
			}
		}
		want := []string{"A", "Advanced", "SCHEDULER", "_x", "a", "b", "c/d", "rest_api"}
		if !slices.Equal(gotKeys, want) {
			t.Errorf("keys = %v, want bytewise order %v", gotKeys, want)
		}
	})
}

func TestCategoryChildren(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		for _, k := range []string{"parent", "c2", "c1", "c3", "lonely"} {
			saveCategory(t, d, db.Category{Key: k})
		}
		tests := []struct {
			name     string
			parent   string
			children []string
			wantErr  error // nil: must succeed
			want     []string
		}{
			{name: "add", parent: "parent", children: []string{"c2", "c1"}, want: []string{"c1", "c2"}},
			{name: "again is idempotent", parent: "parent", children: []string{"c1", "c2"}, want: []string{"c1", "c2"}},
			{name: "overlapping", parent: "parent", children: []string{"c3", "c1", "c3"}, want: []string{"c1", "c2", "c3"}},
			{name: "none", parent: "parent", want: []string{"c1", "c2", "c3"}},
			{name: "missing child", parent: "parent", children: []string{"c1", "ghost"}, wantErr: db.ErrNotFound, want: []string{"c1", "c2", "c3"}},
			{name: "missing parent", parent: "ghost", children: []string{"c1"}, wantErr: db.ErrNotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := d.AddCategoryChildren(ctx, tt.parent, tt.children...)
				if tt.wantErr == nil && err != nil {
					t.Fatalf("AddCategoryChildren: %v", err)
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Fatalf("AddCategoryChildren error = %v, want %v", err, tt.wantErr)
				}
				if tt.want == nil {
					return
				}
				got, err := d.ListCategoryChildren(ctx, tt.parent)
				if err != nil {
					t.Fatalf("ListCategoryChildren: %v", err)
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("children = %v, want %v", got, tt.want)
				}
			})
		}

		t.Run("own child", func(t *testing.T) {
			if err := d.AddCategoryChildren(ctx, "c1", "c1"); err == nil {
				t.Error("AddCategoryChildren(c1, c1) succeeded, want an error")
			}
		})
		t.Run("no children", func(t *testing.T) {
			got, err := d.ListCategoryChildren(ctx, "lonely")
			if err != nil || got == nil || len(got) != 0 {
				t.Errorf("ListCategoryChildren(lonely) = %v, %v; want empty non-nil", got, err)
			}
		})
		t.Run("list of missing parent", func(t *testing.T) {
			if got, err := d.ListCategoryChildren(ctx, "ghost"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("ListCategoryChildren(ghost) = %v, %v; want ErrNotFound", got, err)
			}
		})
	})
}

func TestDeleteCategory(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		for _, k := range []string{"parent", "gone", "child", "sibling"} {
			saveCategory(t, d, db.Category{Key: k})
		}
		if err := d.AddCategoryChildren(ctx, "parent", "gone", "sibling"); err != nil {
			t.Fatalf("AddCategoryChildren: %v", err)
		}
		if err := d.AddCategoryChildren(ctx, "gone", "child"); err != nil {
			t.Fatalf("AddCategoryChildren: %v", err)
		}

		existed, err := d.DeleteCategory(ctx, "gone")
		if err != nil || !existed {
			t.Fatalf("DeleteCategory(gone) = %v, %v; want true, nil", existed, err)
		}
		if _, err := d.GetCategory(ctx, "gone"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("GetCategory(gone) after delete: %v, want ErrNotFound", err)
		}
		if got, err := d.ListCategoryChildren(ctx, "parent"); err != nil || !slices.Equal(got, []string{"sibling"}) {
			t.Errorf("children of parent = %v, %v; want [sibling]: the link to the deleted category goes with it", got, err)
		}
		if _, err := d.GetCategory(ctx, "child"); err != nil {
			t.Errorf("the deleted category's child is gone too: %v", err)
		}

		existed, err = d.DeleteCategory(ctx, "gone")
		if err != nil || existed {
			t.Errorf("DeleteCategory(gone) again = %v, %v; want false, nil", existed, err)
		}
	})
}

// TestUpdateCategoryConcurrent proves read-modify-write has no lost updates:
// every increment of a counter inside Items survives.
func TestUpdateCategoryConcurrent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		const workers = 20
		saveCategory(t, d, db.Category{Key: "counter", Items: json.RawMessage(`{"count":{"value":0}}`)})

		var wg sync.WaitGroup
		errs := make(chan error, workers)
		start := make(chan struct{})
		for range workers {
			wg.Go(func() {
				<-start
				_, err := d.UpdateCategory(t.Context(), "counter", func(c *db.Category) error {
					var items struct {
						Count struct {
							Value int `json:"value"`
						} `json:"count"`
					}
					if err := json.Unmarshal(c.Items, &items); err != nil {
						return err
					}
					items.Count.Value++
					b, err := json.Marshal(items)
					c.Items = b
					return err
				})
				errs <- err
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("UpdateCategory: %v", err)
			}
		}
		c, err := d.GetCategory(t.Context(), "counter")
		if err != nil {
			t.Fatalf("GetCategory: %v", err)
		}
		if !jsonEqual(t, c.Items, []byte(fmt.Sprintf(`{"count":{"value":%d}}`, workers))) {
			t.Errorf("Items = %s, want count %d", c.Items, workers)
		}
	})
}

// TestSaveCategoryConcurrentCreate has many callers create the same new
// category at once: exactly one creates it and the others merge into it.
func TestSaveCategoryConcurrentCreate(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		const workers = 10
		var wg sync.WaitGroup
		var mu sync.Mutex // guards created and errs
		created := 0
		var errs []error
		start := make(chan struct{})
		for i := range workers {
			wg.Go(func() {
				<-start
				_, c, err := d.SaveCategory(t.Context(), "race", func(cur db.Category, exists bool) (db.Category, error) {
					items := map[string]int{}
					if exists {
						if err := json.Unmarshal(cur.Items, &items); err != nil {
							return cur, err
						}
					}
					items[fmt.Sprintf("w%02d", i)] = i
					b, err := json.Marshal(items)
					cur.Items = b
					return cur, err
				})
				mu.Lock()
				defer mu.Unlock()
				if c {
					created++
				}
				if err != nil {
					errs = append(errs, err)
				}
			})
		}
		close(start)
		wg.Wait()
		if len(errs) > 0 {
			t.Fatalf("SaveCategory errors: %v", errs)
		}
		if created != 1 {
			t.Errorf("%d callers created the category, want 1", created)
		}
		c, err := d.GetCategory(t.Context(), "race")
		if err != nil {
			t.Fatalf("GetCategory: %v", err)
		}
		var items map[string]int
		if err := json.Unmarshal(c.Items, &items); err != nil || len(items) != workers {
			t.Errorf("Items = %s, want %d entries", c.Items, workers)
		}
	})
}
