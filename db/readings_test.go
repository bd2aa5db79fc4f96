package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// t0 is the base sensor time of the readings tests: a whole hour, so
// second, minute and hour buckets all start on it.
var t0 = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// reading builds a reading of asset at sensor time ts with a JSON document.
func reading(asset string, ts time.Time, doc string) db.Reading {
	return db.Reading{AssetCode: asset, UserTS: ts, Reading: json.RawMessage(doc)}
}

// numbered returns n readings of asset, {"i": k, "v": k} at base + k*step.
func numbered(asset string, base time.Time, step time.Duration, n int) []db.Reading {
	rs := make([]db.Reading, n)
	for k := range n {
		rs[k] = reading(asset, base.Add(time.Duration(k)*step), fmt.Sprintf(`{"i": %d, "v": %d}`, k, k))
	}
	return rs
}

func insertReadings(t *testing.T, d *db.DB, rs ...db.Reading) {
	t.Helper()
	if err := d.InsertReadings(t.Context(), rs); err != nil {
		t.Fatalf("InsertReadings: %v", err)
	}
}

func listAssets(t *testing.T, d *db.DB) []db.AssetCount {
	t.Helper()
	got, err := d.ListAssets(t.Context())
	if err != nil {
		t.Fatalf("ListAssets: %v", err)
	}
	return got
}

// assetTruth is what the readings table itself says about an asset.
type assetTruth struct {
	AssetCode string `db:"asset_code"`
	Count     int64  `db:"n"`
	Oldest    int64  `db:"oldest"`
	Newest    int64  `db:"newest"`
}

// liveReadings is the condition that a readings row is not covered by a
// deletion whose rows are still to be swept: the readings the gateway
// holds.
const liveReadings = `NOT EXISTS (SELECT 1 FROM reading_deletions x
	WHERE x.asset_code = readings.asset_code AND x.max_id >= readings.id)`

// countedAssets returns, per asset, the count and the oldest and newest
// sensor times (microseconds) computed from the readings table.
func countedAssets(t *testing.T, d *db.DB) []db.AssetCount {
	t.Helper()
	q := `SELECT asset_code, COUNT(*) AS n, MIN(user_ts) AS oldest, MAX(user_ts) AS newest
		FROM readings WHERE ` + liveReadings + ` GROUP BY asset_code ORDER BY asset_code`
	if d.Dialect() == db.Postgres {
		q = `SELECT asset_code, COUNT(*) AS n,
			(EXTRACT(EPOCH FROM MIN(user_ts)) * 1000000)::bigint AS oldest,
			(EXTRACT(EPOCH FROM MAX(user_ts)) * 1000000)::bigint AS newest
			FROM readings WHERE ` + liveReadings + ` GROUP BY asset_code ORDER BY asset_code`
	}
	var rows []assetTruth
	if err := d.SelectSQL(t.Context(), &rows, q); err != nil {
		t.Fatalf("count readings: %v", err)
	}
	out := make([]db.AssetCount, 0, len(rows))
	for _, r := range rows {
		out = append(out, db.AssetCount{AssetCode: r.AssetCode, Count: r.Count,
			Oldest: time.UnixMicro(r.Oldest).UTC(), Newest: time.UnixMicro(r.Newest).UTC()})
	}
	return out
}

// assetsEqual compares asset lists, times with Equal.
func assetsEqual(a, b []db.AssetCount) bool {
	return slices.EqualFunc(a, b, func(x, y db.AssetCount) bool {
		return x.AssetCode == y.AssetCode && x.Count == y.Count && x.Oldest.Equal(y.Oldest) && x.Newest.Equal(y.Newest)
	})
}

// wantAssetsExact fails unless asset_counts lists want and agrees with the
// readings table.
func wantAssetsExact(t *testing.T, d *db.DB, want []db.AssetCount) {
	t.Helper()
	got := listAssets(t, d)
	if !assetsEqual(got, want) {
		t.Errorf("ListAssets =\n  %v\nwant\n  %v", got, want)
	}
	if truth := countedAssets(t, d); !assetsEqual(got, truth) {
		t.Errorf("ListAssets =\n  %v\nbut the readings table says\n  %v", got, truth)
	}
}

func TestInsertReadingsCounts(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if got := listAssets(t, d); got == nil || len(got) != 0 {
			t.Fatalf("ListAssets on an empty database = %v, want empty, non-nil", got)
		}
		if err := d.InsertReadings(ctx, nil); err != nil {
			t.Fatalf("InsertReadings(nil) = %v, want nil", err)
		}

		// Out of order, several assets in one batch, codes with / and %.
		insertReadings(t, d,
			reading("a/b", t0.Add(5*time.Second), `{"v": 1}`),
			reading("50%", t0.Add(2*time.Second), `{"v": 2}`),
			reading("a/b", t0.Add(1*time.Second), `{"v": 3}`),
			reading("B", t0, `{"v": 4}`),
			reading("a/b", t0.Add(3*time.Second), `{"v": 5}`),
		)
		wantAssetsExact(t, d, []db.AssetCount{
			{AssetCode: "50%", Count: 1, Oldest: t0.Add(2 * time.Second), Newest: t0.Add(2 * time.Second)},
			{AssetCode: "B", Count: 1, Oldest: t0, Newest: t0},
			{AssetCode: "a/b", Count: 3, Oldest: t0.Add(time.Second), Newest: t0.Add(5 * time.Second)},
		})

		// A second batch widens the span on both sides.
		insertReadings(t, d,
			reading("a/b", t0.Add(-time.Hour), `{"v": 6}`),
			reading("a/b", t0.Add(time.Hour), `{"v": 7}`),
			reading("a/b", t0.Add(2*time.Second), `{"v": 8}`),
		)
		wantAssetsExact(t, d, []db.AssetCount{
			{AssetCode: "50%", Count: 1, Oldest: t0.Add(2 * time.Second), Newest: t0.Add(2 * time.Second)},
			{AssetCode: "B", Count: 1, Oldest: t0, Newest: t0},
			{AssetCode: "a/b", Count: 6, Oldest: t0.Add(-time.Hour), Newest: t0.Add(time.Hour)},
		})

		t.Run("empty asset code stores nothing", func(t *testing.T) {
			err := d.InsertReadings(ctx, []db.Reading{reading("a/b", t0, `{}`), reading("", t0, `{}`)})
			if err == nil || errors.Is(err, db.ErrConflict) || errors.Is(err, db.ErrNotFound) {
				t.Fatalf("InsertReadings with an empty asset code = %v, want a plain error", err)
			}
			if got := listAssets(t, d); got[2].Count != 6 {
				t.Errorf("a/b count after the refused batch = %d, want 6", got[2].Count)
			}
		})

		t.Run("zero times", func(t *testing.T) {
			before := time.Now().UTC().Truncate(time.Microsecond)
			insertReadings(t, d, db.Reading{AssetCode: "zero", Reading: json.RawMessage(`{"v": 1}`)},
				db.Reading{AssetCode: "zero", UserTS: t0.Add(123456789 * time.Nanosecond)})
			after := time.Now().UTC()
			rs, err := d.AssetReadings(ctx, "zero", db.Window{})
			if err != nil || len(rs) != 2 {
				t.Fatalf("AssetReadings(zero) = %v, %v; want 2 readings", rs, err)
			}
			got := rs[0] // stamped now: newer than t0
			if got.TS.Before(before) || got.TS.After(after) || !got.UserTS.Equal(got.TS) {
				t.Errorf("zero times stored as TS %v, UserTS %v; want both the insert time in [%v, %v]", got.TS, got.UserTS, before, after)
			}
			if want := t0.Add(123456 * time.Microsecond); !rs[1].UserTS.Equal(want) || string(rs[1].Reading) != "{}" {
				t.Errorf("second reading = %v %s, want UserTS %v truncated to µs and reading {}", rs[1].UserTS, rs[1].Reading, want)
			}
			if rs[1].TS.Location() != time.UTC || rs[1].UserTS.Location() != time.UTC {
				t.Errorf("times are not in UTC: %v, %v", rs[1].TS, rs[1].UserTS)
			}
		})

		t.Run("large batch crosses statement chunks", func(t *testing.T) {
			const n = 1003 // 3×256 + 224 + 8 + 2 + 1 rows on SQLite
			insertReadings(t, d, numbered("large", t0, time.Millisecond, n)...)
			s, err := d.ReadingSummary(ctx, "large", "v")
			if err != nil {
				t.Fatalf("ReadingSummary: %v", err)
			}
			if s.Count != n || s.Min != 0 || s.Max != n-1 || s.Average != float64(n-1)/2 {
				t.Errorf("summary of the large batch = %+v, want every value 0..%d once", s, n-1)
			}
		})
	})
}

// values returns the "i" of each reading, or -1 where it has none.
func values(t *testing.T, rs []db.Reading) []int {
	t.Helper()
	out := make([]int, 0, len(rs))
	for _, r := range rs {
		var doc struct{ I *int }
		if err := json.Unmarshal(r.Reading, &doc); err != nil {
			t.Fatalf("reading %s: %v", r.Reading, err)
		}
		if doc.I == nil {
			out = append(out, -1)
			continue
		}
		out = append(out, *doc.I)
	}
	return out
}

// span returns the integers from hi down to lo.
func span(hi, lo int) []int {
	var out []int
	for i := hi; i >= lo; i-- {
		out = append(out, i)
	}
	return out
}

func TestAssetReadingsOrderAndWindows(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		// 30 readings one second apart, inserted in two batches, newest
		// batch first, plus another asset that must never show up.
		all := numbered("pump", t0, time.Second, 30)
		insertReadings(t, d, all[15:]...)
		insertReadings(t, d, all[:15]...)
		insertReadings(t, d, numbered("pump2", t0, time.Second, 30)...)

		cases := []struct {
			name string
			w    db.Window
			want []int
		}{
			{name: "latest 20", w: db.Window{Limit: 20}, want: span(29, 10)},
			{name: "page", w: db.Window{Limit: 5, Skip: 3}, want: span(26, 22)},
			{name: "last page is short", w: db.Window{Limit: 20, Skip: 20}, want: span(9, 0)},
			{name: "skip past the end", w: db.Window{Limit: 20, Skip: 30}, want: []int{}},
			{name: "no limit", w: db.Window{}, want: span(29, 0)},
			{name: "skip without limit", w: db.Window{Skip: 28}, want: span(1, 0)},
			{name: "range is half open", w: db.Window{From: t0.Add(5 * time.Second), To: t0.Add(10 * time.Second)}, want: span(9, 5)},
			{name: "from only", w: db.Window{From: t0.Add(27 * time.Second)}, want: span(29, 27)},
			{name: "to only", w: db.Window{To: t0.Add(2 * time.Second)}, want: span(1, 0)},
			{name: "range with limit", w: db.Window{From: t0.Add(5 * time.Second), Limit: 2}, want: span(29, 28)},
			{name: "empty range", w: db.Window{From: t0.Add(time.Hour)}, want: []int{}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				rs, err := d.AssetReadings(ctx, "pump", c.w)
				if err != nil {
					t.Fatalf("AssetReadings: %v", err)
				}
				if rs == nil {
					t.Fatal("AssetReadings returned nil, want a non-nil slice")
				}
				if got := values(t, rs); !slices.Equal(got, c.want) {
					t.Errorf("AssetReadings(%+v) = %v, want %v", c.w, got, c.want)
				}
				for _, r := range rs {
					if r.AssetCode != "pump" || r.ID == 0 {
						t.Errorf("reading %+v: want asset pump and an ID", r)
					}
				}
			})
		}

		t.Run("equal timestamps newest ID first", func(t *testing.T) {
			insertReadings(t, d, reading("tie", t0, `{"i": 1}`), reading("tie", t0, `{"i": 2}`))
			insertReadings(t, d, reading("tie", t0, `{"i": 3}`))
			rs, err := d.AssetReadings(ctx, "tie", db.Window{Limit: 20})
			if err != nil {
				t.Fatalf("AssetReadings: %v", err)
			}
			if got := values(t, rs); !slices.Equal(got, []int{3, 2, 1}) {
				t.Errorf("readings with one timestamp = %v, want [3 2 1] (ID descending)", got)
			}
		})

		t.Run("unknown asset", func(t *testing.T) {
			rs, err := d.AssetReadings(ctx, "nobody", db.Window{Limit: 20})
			if err != nil || rs == nil || len(rs) != 0 {
				t.Errorf("AssetReadings(unknown) = %v, %v; want empty, non-nil, no error", rs, err)
			}
		})

		t.Run("negative paging", func(t *testing.T) {
			for _, w := range []db.Window{{Limit: -1}, {Skip: -1}} {
				if _, err := d.AssetReadings(ctx, "pump", w); err == nil {
					t.Errorf("AssetReadings(%+v) succeeded, want an error", w)
				}
			}
		})
	})
}

func TestReadingJSONRoundTrip(t *testing.T) {
	docs := []struct {
		name string
		doc  string
	}{
		{name: "flat", doc: `{"temperature": 21.5, "ok": true, "label": "north"}`},
		{name: "nested", doc: `{"pos": {"x": 1, "y": [1, 2, {"z": null}]}, "tags": ["a", "b"]}`},
		{name: "unicode and escapes", doc: `{"name": "Größe \"q\" \\ \u00e9 \ud83d\ude00", "nl": "a\nb"}`},
		{name: "large integer", doc: `{"counter": 12345678901234567890}`},
		{name: "empty object", doc: `{}`},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		for i, c := range docs {
			t.Run(c.name, func(t *testing.T) {
				asset := fmt.Sprintf("json-%d", i)
				insertReadings(t, d, reading(asset, t0, c.doc))
				rs, err := d.AssetReadings(t.Context(), asset, db.Window{Limit: 1})
				if err != nil || len(rs) != 1 {
					t.Fatalf("AssetReadings = %v, %v; want one reading", rs, err)
				}
				if !jsonEqual(t, rs[0].Reading, []byte(c.doc)) {
					t.Errorf("reading came back as %s, want %s", rs[0].Reading, c.doc)
				}
				if strings.Contains(c.doc, "12345678901234567890") && !strings.Contains(string(rs[0].Reading), "12345678901234567890") {
					t.Errorf("large integer lost its digits: %s", rs[0].Reading)
				}
			})
		}
	})
}

func TestAssetReadingValues(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		insertReadings(t, d,
			reading("dev", t0, `{"x": 1, "s": "str", "n": null, "o": {"a": [1, 2]}, "a.b": 5, "q\"k": 6, "$d": 7, "": 8, "k[0]": 9}`),
			reading("dev", t0.Add(time.Second), `{"y": 2}`),
			reading("dev", t0.Add(2*time.Second), `{"x": 3.5}`),
			reading("dev", t0.Add(3*time.Second), `{"x": "text"}`),
			reading("other", t0.Add(4*time.Second), `{"x": 100}`),
		)
		type tv struct {
			ts    time.Time
			value string
		}
		cases := []struct {
			name string
			key  string
			w    db.Window
			want []tv
		}{
			{name: "newest first, readings without the key left out", key: "x", w: db.Window{Limit: 20},
				want: []tv{{t0.Add(3 * time.Second), `"text"`}, {t0.Add(2 * time.Second), `3.5`}, {t0, `1`}}},
			{name: "paging counts readings with the key", key: "x", w: db.Window{Limit: 1, Skip: 1},
				want: []tv{{t0.Add(2 * time.Second), `3.5`}}},
			{name: "time range", key: "x", w: db.Window{From: t0.Add(time.Second), To: t0.Add(3 * time.Second)},
				want: []tv{{t0.Add(2 * time.Second), `3.5`}}},
			{name: "JSON null is a value", key: "n", want: []tv{{t0, `null`}}},
			{name: "nested object", key: "o", want: []tv{{t0, `{"a": [1, 2]}`}}},
			{name: "key with a dot", key: "a.b", want: []tv{{t0, `5`}}},
			{name: "key with a quote", key: `q"k`, want: []tv{{t0, `6`}}},
			{name: "key starting with $", key: "$d", want: []tv{{t0, `7`}}},
			{name: "key with brackets", key: "k[0]", want: []tv{{t0, `9`}}},
			{name: "path-like key is a plain key", key: "o.a", want: []tv{}},
			{name: "unknown key", key: "missing", want: []tv{}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				got, err := d.AssetReadingValues(ctx, "dev", c.key, c.w)
				if err != nil {
					t.Fatalf("AssetReadingValues: %v", err)
				}
				if got == nil || len(got) != len(c.want) {
					t.Fatalf("AssetReadingValues(%q, %+v) = %v, want %d values", c.key, c.w, got, len(c.want))
				}
				for i, w := range c.want {
					if !got[i].UserTS.Equal(w.ts) || !jsonEqual(t, got[i].Value, []byte(w.value)) {
						t.Errorf("value %d = %v %s, want %v %s", i, got[i].UserTS, got[i].Value, w.ts, w.value)
					}
				}
			})
		}
		t.Run("unknown asset", func(t *testing.T) {
			got, err := d.AssetReadingValues(ctx, "nobody", "x", db.Window{Limit: 20})
			if err != nil || got == nil || len(got) != 0 {
				t.Errorf("AssetReadingValues(unknown asset) = %v, %v; want empty, non-nil", got, err)
			}
		})
	})
}

// near reports whether a and b are equal up to rounding.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestReadingSummary(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		docs := []string{
			`{"v": 1, "w": "a"}`, `{"v": 2.5}`, `{"v": "3"}`, `{"v": true}`, `{"v": null}`,
			`{"v": {"n": 9}}`, `{"v": [4]}`, `{"v": -4, "w": false}`, `{"u": 100}`, `{"v": 1e3}`,
		}
		for i, doc := range docs {
			insertReadings(t, d, reading("meter", t0.Add(time.Duration(i)*time.Second), doc))
		}
		insertReadings(t, d, reading("meter2", t0, `{"v": 1000000}`))

		got, err := d.ReadingSummary(ctx, "meter", "v")
		if err != nil {
			t.Fatalf("ReadingSummary: %v", err)
		}
		want := db.Summary{Min: -4, Max: 1000, Average: (1 + 2.5 - 4 + 1000) / 4, Count: 4}
		if got.Count != want.Count || !near(got.Min, want.Min) || !near(got.Max, want.Max) || !near(got.Average, want.Average) {
			t.Errorf("ReadingSummary(meter, v) = %+v, want %+v (numbers only)", got, want)
		}

		for _, c := range []struct{ name, asset, key string }{
			{name: "only non-numeric values", asset: "meter", key: "w"},
			{name: "unknown key", asset: "meter", key: "missing"},
			{name: "unknown asset", asset: "nobody", key: "v"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := d.ReadingSummary(ctx, c.asset, c.key)
				if !errors.Is(err, db.ErrNotFound) {
					t.Errorf("ReadingSummary(%q, %q) = %v, want ErrNotFound", c.asset, c.key, err)
				}
			})
		}
	})
}

func TestReadingSeries(t *testing.T) {
	// 40 readings a quarter second apart from t0: second s holds the values
	// 4s..4s+3, so its min is 4s, max 4s+3, average 4s+1.5.
	sec := func(s int) db.SeriesPoint {
		return db.SeriesPoint{Start: t0.Add(time.Duration(s) * time.Second),
			Min: float64(4 * s), Max: float64(4*s + 3), Average: float64(4*s) + 1.5, Count: 4}
	}
	secs := func(hi, lo int) []db.SeriesPoint {
		var out []db.SeriesPoint
		for s := hi; s >= lo; s-- {
			out = append(out, sec(s))
		}
		return out
	}
	partial2 := db.SeriesPoint{Start: t0.Add(2 * time.Second), Min: 10, Max: 11, Average: 10.5, Count: 2}
	epoch := time.Unix(0, 0).UTC()

	cases := []struct {
		name   string
		asset  string
		bucket db.Bucket
		w      db.Window
		want   []db.SeriesPoint
	}{
		{name: "latest 3 seconds", asset: "wave", bucket: db.BucketSecond, w: db.Window{Limit: 3}, want: secs(9, 7)},
		{name: "skip counts buckets", asset: "wave", bucket: db.BucketSecond, w: db.Window{Limit: 3, Skip: 8}, want: secs(1, 0)},
		{name: "all buckets", asset: "wave", bucket: db.BucketSecond, w: db.Window{}, want: secs(9, 0)},
		{name: "time range", asset: "wave", bucket: db.BucketSecond,
			w: db.Window{From: t0.Add(2 * time.Second), To: t0.Add(5 * time.Second)}, want: secs(4, 2)},
		{name: "range starting inside a bucket", asset: "wave", bucket: db.BucketSecond,
			w: db.Window{From: t0.Add(2500 * time.Millisecond), To: t0.Add(4 * time.Second)}, want: []db.SeriesPoint{sec(3), partial2}},
		{name: "limit reaching a bucket cut by the range", asset: "wave", bucket: db.BucketSecond,
			w: db.Window{From: t0.Add(2500 * time.Millisecond), Limit: 8}, want: append(secs(9, 3), partial2)},
		{name: "minute", asset: "wave", bucket: db.BucketMinute, w: db.Window{Limit: 20},
			want: []db.SeriesPoint{{Start: t0, Min: 0, Max: 39, Average: 19.5, Count: 40}}},
		{name: "hour", asset: "wave", bucket: db.BucketHour, w: db.Window{Limit: 20},
			want: []db.SeriesPoint{{Start: t0, Min: 0, Max: 39, Average: 19.5, Count: 40}}},
		{name: "newest buckets without numbers are skipped", asset: "gappy", bucket: db.BucketSecond,
			w: db.Window{Limit: 3}, want: secs(9, 7)},
		{name: "before 1970 buckets floor", asset: "old", bucket: db.BucketSecond, w: db.Window{Limit: 20},
			want: []db.SeriesPoint{
				{Start: epoch.Add(-time.Second), Min: 2, Max: 2, Average: 2, Count: 1},
				{Start: epoch.Add(-2 * time.Second), Min: 1, Max: 1, Average: 1, Count: 1},
			}},
		{name: "unknown asset", asset: "nobody", bucket: db.BucketSecond, w: db.Window{Limit: 20}, want: []db.SeriesPoint{}},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		insertReadings(t, d, numbered("wave", t0, 250*time.Millisecond, 40)...)
		insertReadings(t, d, numbered("gappy", t0, 250*time.Millisecond, 40)...)
		for s := 10; s < 13; s++ { // three newer seconds without a number
			insertReadings(t, d, reading("gappy", t0.Add(time.Duration(s)*time.Second), `{"v": "x"}`))
		}
		insertReadings(t, d,
			reading("old", epoch.Add(-1500*time.Millisecond), `{"v": 1}`),
			reading("old", epoch.Add(-500*time.Millisecond), `{"v": 2}`))

		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				got, err := d.ReadingSeries(ctx, c.asset, "v", c.bucket, c.w)
				if err != nil {
					t.Fatalf("ReadingSeries: %v", err)
				}
				if got == nil || len(got) != len(c.want) {
					t.Fatalf("ReadingSeries(%s, %+v) = %v, want %v", c.asset, c.w, got, c.want)
				}
				for i, w := range c.want {
					g := got[i]
					if !g.Start.Equal(w.Start) || g.Count != w.Count || !near(g.Min, w.Min) || !near(g.Max, w.Max) || !near(g.Average, w.Average) {
						t.Errorf("bucket %d = %+v, want %+v", i, g, w)
					}
				}
			})
		}
		t.Run("unsupported bucket", func(t *testing.T) {
			if _, err := d.ReadingSeries(ctx, "wave", "v", db.Bucket(time.Millisecond), db.Window{}); err == nil {
				t.Error("ReadingSeries with a 1 ms bucket succeeded, want an error")
			}
		})
	})
}

func TestTimespans(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		all, err := d.AllTimespans(ctx)
		if err != nil || all == nil || len(all) != 0 {
			t.Fatalf("AllTimespans on an empty database = %v, %v; want empty, non-nil", all, err)
		}
		insertReadings(t, d,
			reading("z", t0.Add(time.Minute), `{}`), reading("z", t0, `{}`),
			reading("a%2Fb", t0.Add(time.Hour), `{}`))
		got, err := d.AssetTimespan(ctx, "z")
		if err != nil || got.AssetCode != "z" || !got.Oldest.Equal(t0) || !got.Newest.Equal(t0.Add(time.Minute)) {
			t.Errorf("AssetTimespan(z) = %+v, %v; want %v..%v", got, err, t0, t0.Add(time.Minute))
		}
		if _, err := d.AssetTimespan(ctx, "a/b"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("AssetTimespan(a/b) = %v, want ErrNotFound (only a%%2Fb exists)", err)
		}
		all, err = d.AllTimespans(ctx)
		if err != nil {
			t.Fatalf("AllTimespans: %v", err)
		}
		want := []db.Timespan{
			{AssetCode: "a%2Fb", Oldest: t0.Add(time.Hour), Newest: t0.Add(time.Hour)},
			{AssetCode: "z", Oldest: t0, Newest: t0.Add(time.Minute)},
		}
		if !slices.EqualFunc(all, want, func(a, b db.Timespan) bool {
			return a.AssetCode == b.AssetCode && a.Oldest.Equal(b.Oldest) && a.Newest.Equal(b.Newest)
		}) {
			t.Errorf("AllTimespans = %v, want %v", all, want)
		}
	})
}

func TestPurgeReadings(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		insertReadings(t, d, numbered("a/b", t0, time.Second, 25)...)
		insertReadings(t, d, numbered("50%", t0, time.Second, 7)...)
		insertReadings(t, d, numbered("keep", t0, time.Second, 5)...)
		keep := db.AssetCount{AssetCode: "keep", Count: 5, Oldest: t0, Newest: t0.Add(4 * time.Second)}

		steps := []struct {
			name  string
			purge func() (int64, error)
			want  int64
			left  []db.AssetCount
		}{
			{name: "unknown asset", purge: func() (int64, error) { return d.PurgeAssetReadings(ctx, "nobody") }, want: 0,
				left: []db.AssetCount{
					{AssetCode: "50%", Count: 7, Oldest: t0, Newest: t0.Add(6 * time.Second)},
					{AssetCode: "a/b", Count: 25, Oldest: t0, Newest: t0.Add(24 * time.Second)}, keep,
				}},
			{name: "one asset in several blocks", purge: func() (int64, error) { return d.PurgeAssetReadingsInBlocks(ctx, "a/b", 10) }, want: 25,
				left: []db.AssetCount{{AssetCode: "50%", Count: 7, Oldest: t0, Newest: t0.Add(6 * time.Second)}, keep}},
			{name: "same asset again", purge: func() (int64, error) { return d.PurgeAssetReadings(ctx, "a/b") }, want: 0,
				left: []db.AssetCount{{AssetCode: "50%", Count: 7, Oldest: t0, Newest: t0.Add(6 * time.Second)}, keep}},
			{name: "block size equal to the count", purge: func() (int64, error) { return d.PurgeAssetReadingsInBlocks(ctx, "50%", 7) }, want: 7,
				left: []db.AssetCount{keep}},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				n, err := s.purge()
				if err != nil || n != s.want {
					t.Fatalf("purge = %d, %v; want %d", n, err, s.want)
				}
				wantAssetsExact(t, d, s.left)
			})
		}

		t.Run("all", func(t *testing.T) {
			insertReadings(t, d, numbered("x", t0, time.Second, 11)...)
			n, err := d.PurgeAllReadingsInBlocks(ctx, 3)
			if err != nil || n != 16 {
				t.Fatalf("PurgeAllReadings = %d, %v; want 16", n, err)
			}
			wantAssetsExact(t, d, []db.AssetCount{})
			if n, err := d.PurgeAllReadings(ctx); err != nil || n != 0 {
				t.Errorf("PurgeAllReadings of nothing = %d, %v; want 0", n, err)
			}
		})

		t.Run("insert after purge starts afresh", func(t *testing.T) {
			insertReadings(t, d, reading("a/b", t0.Add(time.Hour), `{}`))
			wantAssetsExact(t, d, []db.AssetCount{{AssetCode: "a/b", Count: 1, Oldest: t0.Add(time.Hour), Newest: t0.Add(time.Hour)}})
		})
	})
}

func TestConcurrentInsertsKeepCountsExact(t *testing.T) {
	const writers, batches, size = 8, 20, 25
	assets := []string{"c1", "c2", "c3"}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			wg.Go(func() {
				for b := range batches {
					rs := make([]db.Reading, size)
					for k := range rs {
						// Each writer spreads its rows over every asset, in
						// a different order, so batches overlap.
						asset := assets[(w+k)%len(assets)]
						rs[k] = reading(asset, t0.Add(time.Duration((w*batches+b)*size+k)*time.Millisecond), `{"v": 1}`)
					}
					if err := d.InsertReadings(t.Context(), rs); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("concurrent InsertReadings: %v", err)
		}
		got := listAssets(t, d)
		var total int64
		for _, a := range got {
			total += a.Count
		}
		if total != writers*batches*size {
			t.Errorf("asset counts sum to %d, want %d", total, writers*batches*size)
		}
		wantAssetsExact(t, d, countedAssets(t, d))
		wantRollupsExact(t, d)
	})
}

func TestConcurrentInsertAndPurgeKeepCountsExact(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		insertReadings(t, d, numbered("busy", t0, time.Millisecond, 500)...)
		var wg sync.WaitGroup
		errs := make(chan error, 3)
		wg.Go(func() {
			for b := range 40 {
				base := t0.Add(time.Duration(b+1) * time.Second)
				if err := d.InsertReadings(ctx, numbered("busy", base, time.Millisecond, 20)); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Go(func() {
			for range 5 {
				if _, err := d.PurgeAssetReadingsInBlocks(ctx, "busy", 37); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("concurrent insert and purge: %v", err)
		}
		wantAssetsExact(t, d, countedAssets(t, d))
		wantRollupsExact(t, d)
	})
}

func TestBrowseQueriesUseTheIndex(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		insertReadings(t, d, numbered("idx", t0, time.Second, 50)...)
		insertReadings(t, d, numbered("idx2", t0, time.Second, 50)...)
		plans := []struct {
			name    string
			explain func() (string, error)
		}{
			{name: "latest 20", explain: func() (string, error) {
				return d.ExplainAssetReadings(ctx, "idx", db.Window{Limit: 20})
			}},
			{name: "page", explain: func() (string, error) {
				return d.ExplainAssetReadings(ctx, "idx", db.Window{Limit: 20, Skip: 40})
			}},
			{name: "time range", explain: func() (string, error) {
				return d.ExplainAssetReadings(ctx, "idx", db.Window{From: t0, To: t0.Add(time.Minute)})
			}},
			{name: "values of a key", explain: func() (string, error) {
				return d.ExplainAssetReadingValues(ctx, "idx", "v", db.Window{Limit: 20})
			}},
			{name: "series bucket walk", explain: func() (string, error) {
				return d.ExplainSeriesBoundary(ctx, "idx", db.BucketSecond, db.Window{Limit: 20})
			}},
		}
		for _, p := range plans {
			t.Run(p.name, func(t *testing.T) {
				plan, err := p.explain()
				if err != nil {
					t.Fatalf("explain: %v", err)
				}
				wantIndexPlan(t, plan, "readings_asset_user_ts_idx")
			})
		}
	})
}

// TestReadingAggregatesAtFloat64Edges checks that summary and series stay
// finite where sums of the values leave float64's range, and are exact at
// its other edges.
func TestReadingAggregatesAtFloat64Edges(t *testing.T) {
	cases := []struct {
		name   string
		values []string
		want   db.Summary
	}{
		{name: "two values near the maximum", values: []string{"1.7e308", "1.7e308"},
			want: db.Summary{Min: 1.7e308, Max: 1.7e308, Average: 1.7e308, Count: 2}},
		{name: "the largest float64", values: []string{"1.7976931348623157e308", "1.7976931348623157e308", "1.7976931348623157e308"},
			want: db.Summary{Min: math.MaxFloat64, Max: math.MaxFloat64, Average: math.MaxFloat64, Count: 3}},
		{name: "the largest and the lowest", values: []string{"1.7976931348623157e308", "-1.7976931348623157e308"},
			want: db.Summary{Min: -math.MaxFloat64, Max: math.MaxFloat64, Average: 0, Count: 2}},
		{name: "huge negatives", values: []string{"-1.7e308", "-1.7e308", "-1e308"},
			want: db.Summary{Min: -1.7e308, Max: -1e308, Average: -4.4e308 / 3, Count: 3}},
		{name: "the smallest positive", values: []string{"5e-324", "5e-324"},
			want: db.Summary{Min: 5e-324, Max: 5e-324, Average: 5e-324, Count: 2}},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				asset := fmt.Sprintf("edge%d", i)
				for k, v := range c.values {
					insertReadings(t, d, reading(asset, t0.Add(time.Duration(k)*time.Millisecond), `{"v": `+v+`}`))
				}
				got, err := d.ReadingSummary(t.Context(), asset, "v")
				if err != nil {
					t.Fatalf("ReadingSummary: %v", err)
				}
				finite := !math.IsInf(got.Average, 0) && !math.IsNaN(got.Average)
				if !finite || got.Count != c.want.Count || got.Min != c.want.Min || got.Max != c.want.Max || !nearRel(got.Average, c.want.Average) {
					t.Errorf("ReadingSummary = %+v, want %+v", got, c.want)
				}
				// Seconds from the readings, minutes and hours from the
				// rollups, whole and cut by a window.
				windows := map[string]db.Window{
					"all":           {},
					"within minute": {From: t0.Add(-time.Microsecond), To: t0.Add(time.Second)},
					"around minute": {From: t0.Add(-time.Minute - time.Second), To: t0.Add(time.Minute + time.Second)},
				}
				for _, b := range []db.Bucket{db.BucketSecond, db.BucketMinute, db.BucketHour} {
					for wn, w := range windows {
						points, err := d.ReadingSeries(t.Context(), asset, "v", b, w)
						if err != nil {
							t.Fatalf("ReadingSeries by %s, %s: %v", time.Duration(b), wn, err)
						}
						if len(points) != 1 || points[0].Count != c.want.Count || points[0].Min != c.want.Min ||
							points[0].Max != c.want.Max || !nearRel(points[0].Average, c.want.Average) ||
							math.IsInf(points[0].Average, 0) || math.IsNaN(points[0].Average) {
							t.Errorf("ReadingSeries by %s, %s = %+v, want one bucket averaging %g", time.Duration(b), wn, points, c.want.Average)
						}
					}
				}
			})
		}
	})
}

// nearRel reports whether a and b agree to 1e-12 relative to the larger.
func nearRel(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// partitionIndexes maps an index of readings to the names PostgreSQL gives
// its copy on each partition.
var partitionIndexes = map[string]*regexp.Regexp{
	"readings_asset_user_ts_idx": regexp.MustCompile(`readings_(p[0-9]{8}|default)_asset_code_user_ts_id_idx`),
	"readings_ts_id_idx":         regexp.MustCompile(`readings_(p[0-9]{8}|default)_ts_id_idx`),
}

// sortNode matches a sort in a PostgreSQL plan (a Merge Append's "Sort
// Key" merges sorted index scans and is no sort).
var sortNode = regexp.MustCompile(`(^|->\s+)(Incremental )?Sort\s+\(`)

// wantIndexPlan fails unless plan reads readings through index (on
// PostgreSQL, through that index on every partition) and neither scans
// the table nor sorts.
func wantIndexPlan(t *testing.T, plan, index string) {
	t.Helper()
	if !strings.Contains(plan, index) && !partitionIndexes[index].MatchString(plan) {
		t.Errorf("plan does not use %s:\n%s", index, plan)
	}
	for _, bad := range []string{"SCAN readings", "Seq Scan on readings", "TEMP B-TREE"} {
		if strings.Contains(plan, bad) {
			t.Errorf("plan has %q (a scan or a sort):\n%s", bad, plan)
		}
	}
	for _, line := range strings.Split(plan, "\n") {
		if sortNode.MatchString(strings.TrimSpace(line)) {
			t.Errorf("plan sorts:\n%s", plan)
		}
	}
}

// TestInsertReadingsContext checks how the caller's context bounds an
// insert on SQLite: it ends the wait for the write connection, and nothing
// is stored; the database takes the next insert. (Once begun, the
// transaction runs to its end whatever the context does: see inShortTx.)
func TestInsertReadingsContext(t *testing.T) {
	for _, tc := range []struct {
		name string
		// run calls insert with a context that ends as the case says.
		run func(t *testing.T, d *db.DB, insert func(ctx context.Context) error) error
	}{
		{"ended before", func(t *testing.T, _ *db.DB, insert func(ctx context.Context) error) error {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			return insert(ctx)
		}},
		{"ends while the write connection is taken", func(t *testing.T, d *db.DB, insert func(ctx context.Context) error) error {
			release, err := d.HoldWriter(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			ctx, cancel := context.WithCancel(t.Context())
			waits := d.WriterWaits()
			ended := make(chan error, 1)
			go func() { ended <- insert(ctx) }()
			for d.WriterWaits() == waits { // until the insert waits for the connection
				select {
				case err := <-ended:
					t.Fatalf("InsertReadings = %v while the write connection was taken", err)
				default:
					runtime.Gosched()
				}
			}
			cancel()
			select {
			case err := <-ended:
				return err
			case <-time.After(time.Minute):
				t.Fatal("InsertReadings still waits for the write connection a minute after its context ended")
				return nil
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := dbtest.SQLite(t)
			// Another asset's insert of the same size first, so that the
			// statements are prepared and the insert waits in its
			// transaction's begin.
			insertReadings(t, d, numbered("w", t0, time.Second, 3)...)
			err := tc.run(t, d, func(ctx context.Context) error {
				return d.InsertReadings(ctx, numbered("a", t0, time.Second, 3))
			})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("InsertReadings = %v; want context.Canceled", err)
			}
			w := db.AssetCount{AssetCode: "w", Count: 3, Oldest: t0, Newest: t0.Add(2 * time.Second)}
			wantAssetsExact(t, d, []db.AssetCount{w})
			insertReadings(t, d, numbered("a", t0, time.Second, 2)...)
			wantAssetsExact(t, d, []db.AssetCount{{AssetCode: "a", Count: 2, Oldest: t0, Newest: t0.Add(time.Second)}, w})
		})
	}
}
