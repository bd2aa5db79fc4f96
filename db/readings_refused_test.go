package db_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// TestInsertReadingsRefusedData checks that a value PostgreSQL cannot store
// is reported as ErrInvalidData (so the ingest writer can retry the other
// submissions of its group) and that nothing of the batch is stored. SQLite
// stores any text, so there the same batch is stored; ingest validation
// keeps such values out on both stores alike.
func TestInsertReadingsRefusedData(t *testing.T) {
	tests := []struct {
		name string
		bad  db.Reading
	}{
		{name: "invalid UTF-8 in a value", bad: reading("a", t0, "{\"k\":\"\xff\"}")},
		{name: "invalid UTF-8 in the asset code", bad: reading("a\xc3\x28", t0, `{"k":1}`)},
		{name: "lone surrogate escape", bad: reading("a", t0, `{"k":"\ud800"}`)},
		{name: "NUL escape", bad: reading("a", t0, `{"k":"\u0000"}`)},
		// PostgreSQL's btree index on asset codes takes at most about
		// 2,700 bytes after compression (program_limit_exceeded): never
		// worth a retry.
		{name: "asset code longer than an index row", bad: reading(incompressible(2800), t0, `{"k":1}`)},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				batch := []db.Reading{reading("good-"+tc.name, t0, `{"v":1}`), tc.bad}
				err := d.InsertReadings(t.Context(), batch)
				if d.Dialect() == db.SQLite {
					if err != nil {
						t.Fatalf("SQLite refused text it can store: %v", err)
					}
					return
				}
				if !errors.Is(err, db.ErrInvalidData) {
					t.Fatalf("InsertReadings = %v, want ErrInvalidData", err)
				}
				rs, err := d.AssetReadings(t.Context(), "good-"+tc.name, db.Window{})
				if err != nil || len(rs) != 0 {
					t.Errorf("the refused batch left %d readings (%v)", len(rs), err)
				}
			})
		}
	})
}

// incompressible returns n characters that compression barely shortens,
// the same every time.
func incompressible(n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}
