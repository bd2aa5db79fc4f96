package dbtest_test

import (
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestWithDatabase(t *testing.T) {
	tests := []struct {
		name string
		dsn  string
		db   string
		want string
	}{
		{name: "key value", dsn: "host=/tmp/pg port=54329 user=postgres dbname=edged sslmode=disable", db: "t1",
			want: "host=/tmp/pg port=54329 user=postgres dbname=t1 sslmode=disable"},
		{name: "key value first", dsn: "dbname=edged host=/tmp/pg", db: "t1", want: "dbname=t1 host=/tmp/pg"},
		{name: "key value spaced and quoted", dsn: "host=h dbname = 'my db' sslmode=disable", db: "t1", want: "host=h dbname=t1 sslmode=disable"},
		{name: "key value without dbname", dsn: "host=h sslmode=disable", db: "t1", want: "host=h sslmode=disable dbname=t1"},
		{name: "key value name needing quotes", dsn: "host=h dbname=x", db: "a b'c", want: `host=h dbname='a b\'c'`},
		{name: "key value other key ending in dbname", dsn: "host=h mydbname=x", db: "t1", want: "host=h mydbname=x dbname=t1"},
		{name: "url", dsn: "postgres://postgres@127.0.0.1:54329/edged?sslmode=disable", db: "t1",
			want: "postgres://postgres@127.0.0.1:54329/t1?sslmode=disable"},
		{name: "url socket", dsn: "postgresql://postgres@/edged?host=/tmp/pg&port=54329&sslmode=disable", db: "t1",
			want: "postgresql://postgres@/t1?host=/tmp/pg&port=54329&sslmode=disable"},
		{name: "url without database", dsn: "postgres://u:p@h:5432?sslmode=disable", db: "t1", want: "postgres://u:p@h:5432/t1?sslmode=disable"},
		{name: "url dbname parameter", dsn: "postgres://u@h/?dbname=edged&sslmode=disable", db: "t1", want: "postgres://u@h/t1?dbname=t1&sslmode=disable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dbtest.WithDatabase(tt.dsn, tt.db)
			if err != nil {
				t.Fatalf("WithDatabase(%q, %q): %v", tt.dsn, tt.db, err)
			}
			if got != tt.want {
				t.Errorf("WithDatabase(%q, %q) = %q, want %q", tt.dsn, tt.db, got, tt.want)
			}
		})
	}
}

func TestEachGivesFreshDatabases(t *testing.T) {
	var seen []*db.DB
	for range 2 {
		dbtest.Each(t, func(t *testing.T, d *db.DB) {
			seen = append(seen, d)
			// A fresh database has no categories even though an earlier
			// run of this closure created one.
			cats, err := d.ListCategories(t.Context())
			if err != nil {
				t.Fatalf("ListCategories: %v", err)
			}
			if len(cats) != 0 {
				t.Errorf("fresh database has %d categories", len(cats))
			}
			if _, _, err := d.SaveCategory(t.Context(), "x", func(c db.Category, _ bool) (db.Category, error) { return c, nil }); err != nil {
				t.Fatalf("SaveCategory: %v", err)
			}
		})
	}
	if len(seen) < 2 || seen[0] == seen[1] {
		t.Errorf("Each did not open a new database per call")
	}
}
