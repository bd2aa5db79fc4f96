package db_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// TestReadingsWithLongAssetCodesStayUsable checks that readings stored
// before ingest limited asset codes to 255 characters — codes of 300
// characters on both stores, of 2,800 on SQLite, which took them — are
// listed, read and purged like any other: by asset, by age and all at
// once.
func TestReadingsWithLongAssetCodesStayUsable(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		codes := []string{strings.Repeat("m", 300), strings.Repeat("é", 300)}
		if d.Dialect() == db.SQLite {
			codes = append(codes, incompressible(2800))
		}
		insert := func(t *testing.T) {
			t.Helper()
			var batch []db.Reading
			for _, c := range codes {
				batch = append(batch, reading(c, t0, `{"v":1}`), reading(c, t0.Add(time.Second), `{"v":2}`))
			}
			if err := d.InsertReadings(t.Context(), batch); err != nil {
				t.Fatalf("InsertReadings: %v", err)
			}
		}
		insert(t)
		assets, err := d.ListAssets(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range codes {
			i := slices.IndexFunc(assets, func(a db.AssetCount) bool { return a.AssetCode == c })
			if i < 0 || assets[i].Count != 2 {
				t.Errorf("ListAssets lacks the %d-byte code or miscounts it: %+v", len(c), assets)
			}
			rs, err := d.AssetReadings(t.Context(), c, db.Window{})
			if err != nil || len(rs) != 2 {
				t.Errorf("AssetReadings of the %d-byte code = %d readings, %v; want 2", len(c), len(rs), err)
			}
		}

		n, err := d.PurgeAssetReadings(t.Context(), codes[0])
		if err != nil || n != 2 {
			t.Errorf("PurgeAssetReadings = %d, %v; want 2", n, err)
		}
		res, err := d.PurgeReadings(t.Context(), db.PurgePolicy{Before: t0.Add(time.Second)})
		if err != nil || res.Removed != int64(len(codes)-1) {
			t.Errorf("PurgeReadings by age = %+v, %v; want %d removed", res, err, len(codes)-1)
		}
		n, err = d.PurgeAllReadings(t.Context())
		if err != nil || n != int64(len(codes)-1) {
			t.Errorf("PurgeAllReadings = %d, %v; want %d", n, err, len(codes)-1)
		}
		for _, c := range codes {
			if rs, err := d.AssetReadings(t.Context(), c, db.Window{}); err != nil || len(rs) != 0 {
				t.Errorf("after the purges the %d-byte code has %d readings (%v)", len(c), len(rs), err)
			}
		}
	})
}
