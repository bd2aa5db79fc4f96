package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// TestBackupTablesClassified makes every table of the schema either part of
// a backup or named as left out, so a new table is a decision, not an
// accident.
func TestBackupTablesClassified(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		got, err := d.Tables(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Concat(db.BackupConfigTables, db.BackupReadingTables, db.NotBackedUpTables)
		slices.Sort(want)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("tables %v, classified %v", got, want)
		}
	})
}

// exportAll returns every row of tables as decoded JSON values by table.
func exportAll(t *testing.T, d *db.DB, tables []string) (map[string][]any, uint) {
	t.Helper()
	out := map[string][]any{}
	v, err := d.Export(context.Background(), tables, func(table string, row []byte) error {
		var x any
		if err := json.Unmarshal(row, &x); err != nil {
			return fmt.Errorf("row of %s %q: %w", table, row, err)
		}
		out[table] = append(out[table], x)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, v
}

// importAll loads rows (as exported) into d.
func importAll(t *testing.T, d *db.DB, tables []string, rows map[string][]any) error {
	t.Helper()
	return d.Import(context.Background(), tables, func(table string) (db.RowSource, error) {
		left := rows[table]
		return func() ([]byte, error) {
			if len(left) == 0 {
				return nil, io.EOF
			}
			b, err := json.Marshal(left[0])
			left = left[1:]
			return b, err
		}, nil
	})
}

func TestBackupExportImport(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, src *db.DB) {
		ctx := context.Background()
		if _, err := src.InsertUser(ctx, db.NewUser{Username: "operator", PasswordHash: "$2a$10$hash", RoleID: 2, RealName: "Op"}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := src.SaveCategory(ctx, "plant", func(db.Category, bool) (db.Category, error) {
			return db.Category{Key: "plant", Description: "the plant", Items: json.RawMessage(`{"x": {"type": "integer", "value": "3"}}`)}, nil
		}); err != nil {
			t.Fatal(err)
		}
		base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
		var rs []db.Reading
		for i := range 1200 { // more than one import batch
			rs = append(rs, db.Reading{AssetCode: "pump", Reading: json.RawMessage(fmt.Sprintf(`{"v": %d, "f": 1.5}`, i)), UserTS: base.Add(time.Duration(i) * time.Second)})
		}
		if err := src.InsertReadings(ctx, rs); err != nil {
			t.Fatal(err)
		}
		if err := src.CreateStreamPosition(ctx, "north one"); err != nil {
			t.Fatal(err)
		}
		tables := slices.Concat(db.BackupConfigTables, db.BackupReadingTables)
		rows, version := exportAll(t, src, tables)
		if want, err := src.SchemaVersion(ctx); err != nil || version != want || version == 0 {
			t.Fatalf("export version %d, schema %d (%v)", version, want, err)
		}
		if len(rows["readings"]) != 1200 || len(rows["users"]) != 1 {
			t.Fatalf("exported %d readings, %d users", len(rows["readings"]), len(rows["users"]))
		}

		dst := dbtest.SQLite(t)
		if src.Dialect() == db.Postgres {
			dst = dbtest.Postgres(t)
		}
		if _, err := dst.InsertUser(ctx, db.NewUser{Username: "someone-else", PasswordHash: "x", RoleID: 2}); err != nil {
			t.Fatal(err)
		}
		if err := importAll(t, dst, tables, rows); err != nil {
			t.Fatal(err)
		}
		again, _ := exportAll(t, dst, tables)
		for _, tbl := range tables {
			if !reflect.DeepEqual(again[tbl], rows[tbl]) {
				t.Errorf("table %s after import:\n got %v\nwant %v", tbl, again[tbl], rows[tbl])
			}
		}
		if _, err := dst.GetUserByName(ctx, "someone-else"); err == nil {
			t.Error("a user of the restoring gateway survived the import")
		}
		// New rows continue after the loaded ids.
		if err := dst.InsertReadings(ctx, []db.Reading{{AssetCode: "pump", Reading: json.RawMessage(`{"v": -1}`), UserTS: base}}); err != nil {
			t.Fatal(err)
		}
		u, err := dst.InsertUser(ctx, db.NewUser{Username: "later", PasswordHash: "x", RoleID: 2})
		if err != nil {
			t.Fatal(err)
		}
		if u.ID <= 1 {
			t.Errorf("new user id %d reuses a loaded id", u.ID)
		}
	})
}

func TestBackupImportIsAllOrNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if _, err := d.InsertUser(ctx, db.NewUser{Username: "keeper", PasswordHash: "x", RoleID: 2}); err != nil {
			t.Fatal(err)
		}
		rows, _ := exportAll(t, d, db.BackupConfigTables)
		rows["categories"] = append(rows["categories"], map[string]any{"nonsense": 1}) // key missing: NOT NULL fails
		if err := importAll(t, d, db.BackupConfigTables, rows); err == nil {
			t.Fatal("an import of an invalid row succeeded")
		}
		if _, err := d.GetUserByName(ctx, "keeper"); err != nil {
			t.Fatalf("a failed import changed the users: %v", err)
		}
	})
}

func TestStartNorthAtNewest(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := d.StartNorthAtNewest(ctx, []string{"n"}); err != nil {
			t.Fatal(err)
		}
		if p, err := d.GetStreamPosition(ctx, "n"); err == nil && p.Sent {
			t.Fatalf("a position %+v with no readings buffered", p)
		}
		base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
		if err := d.InsertReadings(ctx, []db.Reading{
			{AssetCode: "a", Reading: json.RawMessage(`{"v": 1}`), UserTS: base},
			{AssetCode: "a", Reading: json.RawMessage(`{"v": 2}`), UserTS: base.Add(time.Second)},
		}); err != nil {
			t.Fatal(err)
		}
		if err := d.CreateStreamPosition(ctx, "kept"); err != nil {
			t.Fatal(err)
		}
		if err := d.StartNorthAtNewest(ctx, []string{"n", "kept"}); err != nil {
			t.Fatal(err)
		}
		got, err := d.ReadStream(ctx, mustPosition(t, d, "n"), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 0 {
			t.Errorf("north restored without readings would re-send %d readings", len(got))
		}
		if p := mustPosition(t, d, "kept"); p.Sent {
			t.Errorf("an existing position moved: %+v", p)
		}
		if err := d.InsertReadings(ctx, []db.Reading{{AssetCode: "a", Reading: json.RawMessage(`{"v": 3}`), UserTS: base}}); err != nil {
			t.Fatal(err)
		}
		got, err = d.ReadStream(ctx, mustPosition(t, d, "n"), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || string(got[0].Reading) == "" {
			t.Fatalf("after a new reading the stream gives %d readings, want it alone", len(got))
		}
	})
}

func mustPosition(t *testing.T, d *db.DB, name string) db.StreamPosition {
	t.Helper()
	p, err := d.GetStreamPosition(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
