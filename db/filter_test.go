package db_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestFilters(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		mkCategory := func(key string) {
			t.Helper()
			if _, _, err := d.SaveCategory(ctx, key, func(cur db.Category, _ bool) (db.Category, error) {
				cur.Description, cur.Items = key, json.RawMessage(`{}`)
				return cur, nil
			}); err != nil {
				t.Fatalf("SaveCategory %q: %v", key, err)
			}
		}
		for i, name := range []string{"svc", "other"} {
			if _, err := d.CreateService(ctx, db.Service{Name: name, Type: db.ServiceSouth, Plugin: "sinusoid"},
				startupSchedule(i+1, name, true)); err != nil {
				t.Fatalf("CreateService: %v", err)
			}
			mkCategory(name)
		}
		if got, err := d.ListFilters(ctx); err != nil || got == nil || len(got) != 0 {
			t.Fatalf("ListFilters on empty database = %v, %v; want empty non-nil", got, err)
		}
		for _, f := range []db.Filter{{Name: "scale1", Plugin: "scale"}, {Name: "delta1", Plugin: "delta"}} {
			got, err := d.CreateFilter(ctx, f)
			if err != nil || got.CreatedAt.IsZero() || got.Plugin != f.Plugin || len(got.Users) != 0 {
				t.Fatalf("CreateFilter %q = %+v, %v", f.Name, got, err)
			}
			mkCategory(f.Name)
		}
		if _, err := d.CreateFilter(ctx, db.Filter{Name: "scale1", Plugin: "rename"}); !errors.Is(err, db.ErrConflict) {
			t.Errorf("CreateFilter duplicate = %v, want ErrConflict", err)
		}
		if _, err := d.GetFilter(ctx, "nope"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("GetFilter unknown = %v, want ErrNotFound", err)
		}

		if got, err := d.GetPipeline(ctx, "svc"); err != nil || got == nil || len(got) != 0 {
			t.Errorf("GetPipeline of a service without one = %v, %v; want empty non-nil", got, err)
		}
		if err := d.SetPipeline(ctx, "svc", []string{"scale1", "delta1"}); err != nil {
			t.Fatalf("SetPipeline: %v", err)
		}
		if got, err := d.GetPipeline(ctx, "svc"); err != nil || !slices.Equal(got, []string{"scale1", "delta1"}) {
			t.Errorf("GetPipeline = %v, %v", got, err)
		}
		if kids, err := d.ListCategoryChildren(ctx, "svc"); err != nil || !slices.Equal(kids, []string{"delta1", "scale1"}) {
			t.Errorf("children of svc = %v, %v; want both filters", kids, err)
		}
		if err := d.SetPipeline(ctx, "other", []string{"scale1"}); err != nil {
			t.Fatalf("SetPipeline other: %v", err)
		}
		// A category has one parent: scale1's stays the first service's.
		if p, ok, err := d.CategoryParent(ctx, "scale1"); err != nil || !ok || p != "svc" {
			t.Errorf("parent of scale1 in two pipelines = %q, %v, %v; want svc", p, ok, err)
		}
		f, err := d.GetFilter(ctx, "scale1")
		if err != nil || !slices.Equal(f.Users, []string{"other", "svc"}) {
			t.Errorf("GetFilter users = %+v, %v", f, err)
		}
		all, err := d.ListFilters(ctx)
		if err != nil || len(all) != 2 || all[0].Name != "delta1" || !slices.Equal(all[0].Users, []string{"svc"}) ||
			all[1].Name != "scale1" || len(all[1].Users) != 2 {
			t.Errorf("ListFilters = %+v, %v", all, err)
		}

		refused := []struct {
			name    string
			service string
			filters []string
			want    error
		}{
			{name: "unknown service", service: "nope", filters: []string{"scale1"}, want: db.ErrNotFound},
			{name: "unknown filter", service: "svc", filters: []string{"scale1", "nope"}, want: db.ErrNotFound},
			{name: "filter twice", service: "svc", filters: []string{"scale1", "scale1"}, want: db.ErrConflict},
		}
		for _, c := range refused {
			t.Run(c.name, func(t *testing.T) {
				if err := d.SetPipeline(ctx, c.service, c.filters); !errors.Is(err, c.want) {
					t.Errorf("SetPipeline = %v, want %v", err, c.want)
				}
				if got, _ := d.GetPipeline(ctx, "svc"); !slices.Equal(got, []string{"scale1", "delta1"}) {
					t.Errorf("pipeline after a refused change = %v", got)
				}
			})
		}
		if _, err := d.GetPipeline(ctx, "nope"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("GetPipeline unknown service = %v, want ErrNotFound", err)
		}

		if err := d.DeleteFilter(ctx, "delta1"); !errors.Is(err, db.ErrConflict) {
			t.Errorf("DeleteFilter in use = %v, want ErrConflict", err)
		}
		if err := d.SetPipeline(ctx, "svc", []string{"scale1"}); err != nil {
			t.Fatalf("SetPipeline shorter: %v", err)
		}
		if kids, _ := d.ListCategoryChildren(ctx, "svc"); !slices.Equal(kids, []string{"scale1"}) {
			t.Errorf("children of svc after delta1 left = %v", kids)
		}
		if err := d.SavePluginData(ctx, "svc", "delta1", json.RawMessage(`{"x":1}`)); err != nil {
			t.Fatal(err)
		}
		if err := d.DeleteFilter(ctx, "delta1"); err != nil {
			t.Fatalf("DeleteFilter: %v", err)
		}
		if _, err := d.GetCategory(ctx, "delta1"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("category of a deleted filter = %v, want ErrNotFound", err)
		}
		if _, err := d.GetPluginData(ctx, "svc", "delta1"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("plugin data of a deleted filter = %v, want ErrNotFound", err)
		}
		if err := d.DeleteFilter(ctx, "delta1"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("DeleteFilter again = %v, want ErrNotFound", err)
		}

		// A filter leaving a pipeline moves under another service that
		// holds it, and back again.
		if err := d.SetPipeline(ctx, "svc", nil); err != nil {
			t.Fatalf("SetPipeline empty: %v", err)
		}
		if p, ok, err := d.CategoryParent(ctx, "scale1"); err != nil || !ok || p != "other" {
			t.Errorf("parent of scale1 after it left svc = %q, %v, %v; want other", p, ok, err)
		}
		if err := d.SetPipeline(ctx, "svc", []string{"scale1"}); err != nil {
			t.Fatalf("SetPipeline again: %v", err)
		}
		if kids, _ := d.ListCategoryChildren(ctx, "svc"); len(kids) != 0 {
			t.Errorf("children of svc while scale1 is other's child = %v", kids)
		}

		// Deleting a service releases its pipeline.
		if err := d.DeleteService(ctx, "svc", nil); err != nil {
			t.Fatalf("DeleteService: %v", err)
		}
		if f, err := d.GetFilter(ctx, "scale1"); err != nil || !slices.Equal(f.Users, []string{"other"}) {
			t.Errorf("users after the service was deleted = %+v, %v", f, err)
		}
	})
}
