package db_test

import (
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestInsertFirstAdmin(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		created, id, err := d.InsertFirstAdmin(ctx, "hash-1")
		if err != nil {
			t.Fatal(err)
		}
		if !created || id != 1 {
			t.Fatalf("first call: created=%v id=%d, want true 1", created, id)
		}
		created, _, err = d.InsertFirstAdmin(ctx, "hash-2")
		if err != nil {
			t.Fatal(err)
		}
		if created {
			t.Fatal("second call created another admin")
		}
		n, err := d.CountUsers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("CountUsers = %d, want 1", n)
		}
	})
}
