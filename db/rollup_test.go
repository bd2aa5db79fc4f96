package db_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// The rollup tests check summaries and series, which read the per-minute
// rollups, against a reference computed here from a scan of the readings
// table: the documents decoded with encoding/json, sums taken exactly with
// math/big.

// storedReading is one row of the readings table as the reference sees it.
type storedReading struct {
	Code   string `db:"asset_code"`
	UserTS int64  `db:"us"` // sensor time, Unix microseconds
	Doc    string `db:"doc"`
}

// scanReadings returns every reading the gateway holds (none a deletion
// still being swept covers).
func scanReadings(t *testing.T, d *db.DB) []storedReading {
	t.Helper()
	return scanReadingsWhere(t, d, liveReadings)
}

// scanAllRows returns every row of readings, also at a schema version
// before deletions were swept.
func scanAllRows(t *testing.T, d *db.DB) []storedReading {
	t.Helper()
	return scanReadingsWhere(t, d, "1 = 1")
}

func scanReadingsWhere(t *testing.T, d *db.DB, cond string) []storedReading {
	t.Helper()
	q := `SELECT asset_code, user_ts AS us, reading AS doc FROM readings WHERE ` + cond
	if d.Dialect() == db.Postgres {
		q = `SELECT asset_code, (EXTRACT(EPOCH FROM user_ts) * 1000000)::bigint AS us, reading::text AS doc FROM readings
			WHERE ` + cond
	}
	var rows []storedReading
	if err := d.SelectSQL(t.Context(), &rows, q); err != nil {
		t.Fatalf("scan readings: %v", err)
	}
	return rows
}

// refAgg is the reference aggregate of some values.
type refAgg struct {
	n        int64
	sum      big.Float
	min, max float64
}

func (a *refAgg) add(v float64) {
	if a.n == 0 || v < a.min {
		a.min = v
	}
	if a.n == 0 || v > a.max {
		a.max = v
	}
	a.sum.Add(&a.sum, new(big.Float).SetFloat64(v))
	a.n++
}

func (a *refAgg) mean() float64 {
	m, _ := new(big.Float).Quo(&a.sum, new(big.Float).SetInt64(a.n)).Float64()
	return m
}

// refNumbers returns the top-level members of doc whose value is a JSON
// number float64 holds.
func refNumbers(t *testing.T, doc string) map[string]float64 {
	t.Helper()
	var members map[string]json.RawMessage
	if err := json.Unmarshal([]byte(doc), &members); err != nil {
		t.Fatalf("stored reading %s: %v", doc, err)
	}
	out := map[string]float64{}
	for k, raw := range members {
		if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
			continue
		}
		v, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || math.IsInf(v, 0) {
			continue
		}
		out[k] = v
	}
	return out
}

// refKey names a reference aggregate: an asset's key, in a bucket starting
// at start (Unix microseconds; 0 for the summary).
type refKey struct {
	code, key string
	start     int64
}

// reference aggregates rows by asset and key, into buckets of width us
// microseconds (0: one aggregate per key), keeping the readings with a
// sensor time in [from, to) (zero: open).
func reference(t *testing.T, rows []storedReading, us int64, from, to time.Time) map[refKey]*refAgg {
	t.Helper()
	out := map[refKey]*refAgg{}
	for _, r := range rows {
		if !from.IsZero() && r.UserTS < from.UnixMicro() || !to.IsZero() && r.UserTS >= to.UnixMicro() {
			continue
		}
		var start int64
		if us > 0 {
			start = r.UserTS - ((r.UserTS%us)+us)%us
		}
		for k, v := range refNumbers(t, r.Doc) {
			rk := refKey{code: r.Code, key: k, start: start}
			if out[rk] == nil {
				out[rk] = &refAgg{}
			}
			out[rk].add(v)
		}
	}
	return out
}

// closeTo reports whether an average matches the reference: averages are
// sums of rounded terms, so they agree to a tolerance relative to the
// largest magnitude aggregated.
func closeTo(got float64, want *refAgg) bool {
	scale := math.Max(math.Abs(want.min), math.Abs(want.max))
	return math.Abs(got-want.mean()) <= 1e-9*scale && got >= want.min && got <= want.max
}

// wantRollupsExact fails unless every summary, and series of every bucket
// width over window, agree with the readings table.
func wantRollupsExact(t *testing.T, d *db.DB, windows ...db.Window) {
	t.Helper()
	ctx := t.Context()
	rows := scanReadings(t, d)
	ref := reference(t, rows, 0, time.Time{}, time.Time{})
	byAsset := map[string][]db.DatapointSummary{}
	for rk, a := range ref {
		byAsset[rk.code] = append(byAsset[rk.code], db.DatapointSummary{Datapoint: rk.key,
			Summary: db.Summary{Min: a.min, Max: a.max, Count: a.n, Average: a.mean()}})
	}
	codes := map[string]bool{}
	for _, r := range rows {
		codes[r.Code] = true
	}
	for code := range codes {
		want := byAsset[code]
		slices.SortFunc(want, func(a, b db.DatapointSummary) int { return cmp.Compare(a.Datapoint, b.Datapoint) })
		got, err := d.AssetSummaries(ctx, code)
		if err != nil {
			t.Fatalf("AssetSummaries(%q): %v", code, err)
		}
		if len(got) != len(want) {
			t.Errorf("AssetSummaries(%q) = %v, want %v", code, got, want)
			continue
		}
		for i, w := range want {
			g := got[i]
			ra := ref[refKey{code: code, key: w.Datapoint}]
			if g.Datapoint != w.Datapoint || g.Count != w.Count || g.Min != w.Min || g.Max != w.Max || !closeTo(g.Average, ra) {
				t.Errorf("AssetSummaries(%q)[%d] = %+v, want %+v", code, i, g, w)
			}
			s, err := d.ReadingSummary(ctx, code, w.Datapoint)
			if err != nil || s.Count != w.Count || s.Min != w.Min || s.Max != w.Max || !closeTo(s.Average, ra) {
				t.Errorf("ReadingSummary(%q, %q) = %+v, %v; want %+v", code, w.Datapoint, s, err, w.Summary)
			}
		}
	}
	for _, w := range windows {
		for _, b := range []db.Bucket{db.BucketSecond, db.BucketMinute, db.BucketHour} {
			ref := reference(t, rows, int64(time.Duration(b)/time.Microsecond), w.From, w.To)
			series := map[[2]string][]int64{}
			for rk := range ref {
				series[[2]string{rk.code, rk.key}] = append(series[[2]string{rk.code, rk.key}], rk.start)
			}
			for ck, starts := range series {
				slices.Sort(starts)
				slices.Reverse(starts)
				starts = starts[min(w.Skip, len(starts)):]
				if w.Limit > 0 && len(starts) > w.Limit {
					starts = starts[:w.Limit]
				}
				got, err := d.ReadingSeries(ctx, ck[0], ck[1], b, w)
				if err != nil {
					t.Fatalf("ReadingSeries(%q, %q, %v, %+v): %v", ck[0], ck[1], time.Duration(b), w, err)
				}
				if len(got) != len(starts) {
					t.Errorf("ReadingSeries(%q, %q, %v, %+v) has %d buckets, want %d", ck[0], ck[1], time.Duration(b), w, len(got), len(starts))
					continue
				}
				for i, s := range starts {
					a := ref[refKey{code: ck[0], key: ck[1], start: s}]
					g := got[i]
					if g.Start.UnixMicro() != s || g.Count != a.n || g.Min != a.min || g.Max != a.max || !closeTo(g.Average, a) {
						t.Errorf("ReadingSeries(%q, %q, %v, %+v)[%d] = %+v, want start %v count %d min %g max %g avg %g",
							ck[0], ck[1], time.Duration(b), w, i, g, time.UnixMicro(s).UTC(), a.n, a.min, a.max, a.mean())
					}
				}
			}
		}
	}
}

// randomValue returns a random JSON value: mostly numbers (float64's edges
// included), sometimes other types.
func randomValue(rng *rand.Rand) string {
	switch rng.IntN(20) {
	case 0:
		return `"text"`
	case 1:
		return `true`
	case 2:
		return `null`
	case 3:
		return `{"n": 1}`
	case 4:
		return `[1, 2]`
	case 5:
		return `1e400` // beyond float64: not a number the rollups hold
	case 6:
		return []string{"1.7976931348623157e308", "1.7e308", "5e-324", "-1.7976931348623157e308"}[rng.IntN(4)]
	case 7, 8, 9:
		return strconv.Itoa(rng.IntN(2001) - 1000)
	}
	return strconv.FormatFloat(rng.NormFloat64()*100, 'g', -1, 64)
}

// randomReadings returns n random readings of the given assets: keys a, b
// and c present at random, sensor times within a few hours of t0 (a few
// just before 1970), in random order.
func randomReadings(rng *rand.Rand, assets []string, n int) []db.Reading {
	rs := make([]db.Reading, n)
	for i := range rs {
		ts := t0.Add(time.Duration(rng.Int64N(int64(5*time.Hour))) - 2*time.Hour).Truncate(time.Microsecond)
		if rng.IntN(50) == 0 {
			ts = time.Unix(0, 0).Add(-time.Duration(rng.Int64N(int64(90 * time.Second)))).Truncate(time.Microsecond)
		}
		doc := "{"
		for _, k := range []string{"a", "b", "c"} {
			if rng.IntN(4) == 0 {
				continue
			}
			if len(doc) > 1 {
				doc += ", "
			}
			doc += fmt.Sprintf("%q: %s", k, randomValue(rng))
		}
		rs[i] = reading(assets[rng.IntN(len(assets))], ts, doc+"}")
	}
	return rs
}

// TestRollupsMatchAScanOfTheReadings is the property test of the rollups:
// over random readings, inserted in random batches and purged in every way
// a purge can (by age, by size, keeping unsent readings, an asset at a
// time) in random small steps, every summary and series agrees with a scan
// of the readings that remain.
func TestRollupsMatchAScanOfTheReadings(t *testing.T) {
	assets := []string{"p1", "p/2", "p3"}
	windows := []db.Window{
		{},
		{Limit: 7},
		{Limit: 3, Skip: 2},
		{From: t0.Add(-37*time.Minute - 12*time.Second), To: t0.Add(81*time.Minute + 500*time.Millisecond)},
		{From: t0.Add(-90 * time.Minute), Limit: 5},
		{From: t0.Add(10*time.Minute + 5*time.Second), To: t0.Add(10*time.Minute + 40*time.Second)},
		{From: t0.Add(20*time.Minute + 30*time.Second), To: t0.Add(21*time.Minute + 10*time.Second)},
		{To: t0.Add(time.Hour + 30*time.Second), Limit: 4, Skip: 1},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		rng := rand.New(rand.NewPCG(11, 7))
		for round := range 6 {
			for range 4 {
				insertReadings(t, d, randomReadings(rng, assets, 1+rng.IntN(150))...)
			}
			wantRollupsExact(t, d, windows...)
			block := 1 + rng.IntN(40)
			var op string
			var err error
			switch round % 4 {
			case 0:
				cutoff := t0.Add(time.Duration(rng.Int64N(int64(3*time.Hour))) - 2*time.Hour)
				op = fmt.Sprintf("purge by age before %v in blocks of %d", cutoff, block)
				_, err = d.PurgeReadingsInBlocks(ctx, db.PurgePolicy{Before: cutoff}, block)
			case 1:
				maxRows := int64(rng.IntN(300))
				op = fmt.Sprintf("purge by size to %d in blocks of %d", maxRows, block)
				_, err = d.PurgeReadingsInBlocks(ctx, db.PurgePolicy{MaxRows: maxRows}, block)
			case 2:
				// A north destination sent about half: keep the rest.
				var ids []stored
				if err := d.SelectSQL(ctx, &ids, `SELECT id, asset_code FROM readings ORDER BY ts, id`); err != nil {
					t.Fatal(err)
				}
				half := ids[len(ids)/2]
				if err := d.ExecSQL(ctx, `INSERT INTO stream_positions (name, last_ts, last_id, updated_at)
					SELECT 'north', ts, id, ts FROM readings WHERE id = ?`, half.ID); err != nil {
					t.Fatal(err)
				}
				op = fmt.Sprintf("purge all sent in blocks of %d", block)
				_, err = d.PurgeReadingsInBlocks(ctx, db.PurgePolicy{Before: t0.Add(24 * time.Hour), Retain: db.RetainUnsentAll}, block)
				if err := d.ExecSQL(ctx, `DELETE FROM stream_positions`); err != nil {
					t.Fatal(err)
				}
			case 3:
				code := assets[rng.IntN(len(assets))]
				op = fmt.Sprintf("purge asset %q in blocks of %d", code, block)
				_, err = d.PurgeAssetReadingsInBlocks(ctx, code, block)
			}
			if err != nil {
				t.Fatalf("round %d: %s: %v", round, op, err)
			}
			t.Logf("round %d: %s: %d readings left", round, op, len(scanReadings(t, d)))
			wantRollupsExact(t, d, windows...)
			wantAssetsExact(t, d, countedAssets(t, d))
		}
	})
}

// TestSummaryAndSeriesAtTheFloat64Edges stores values whose sum is beyond
// float64 and checks that summary and series are finite and right.
func TestSummaryAndSeriesAtTheFloat64Edges(t *testing.T) {
	const maxF = math.MaxFloat64
	tests := []struct {
		name              string
		values            []string
		min, max, average float64
	}{
		{name: "two of 1.7e308", values: []string{"1.7e308", "1.7e308"}, min: 1.7e308, max: 1.7e308, average: 1.7e308},
		{name: "the largest float64 three times", values: []string{"1.7976931348623157e308", "1.7976931348623157e308", "1.7976931348623157e308"},
			min: maxF, max: maxF, average: maxF},
		{name: "the most negative float64 twice", values: []string{"-1.7976931348623157e308", "-1.7976931348623157e308"},
			min: -maxF, max: -maxF, average: -maxF},
		{name: "both ends", values: []string{"1.7976931348623157e308", "-1.7976931348623157e308"}, min: -maxF, max: maxF, average: 0},
		{name: "the smallest subnormal twice", values: []string{"5e-324", "5e-324"}, min: 5e-324, max: 5e-324, average: 5e-324},
		{name: "beyond float64 is not a number", values: []string{"1e400", "-1e400", "7"}, min: 7, max: 7, average: 7},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		for i, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				code := fmt.Sprintf("edge-%d", i)
				var rs []db.Reading
				for k, v := range tc.values { // one second apart, all in one minute
					rs = append(rs, reading(code, t0.Add(time.Duration(k)*time.Second), `{"v": `+v+`}`))
				}
				insertReadings(t, d, rs...)
				check := func(what string, count int64, lo, hi, avg float64) {
					t.Helper()
					if lo != tc.min || hi != tc.max || avg != tc.average || math.IsInf(avg, 0) || math.IsNaN(avg) {
						t.Errorf("%s = count %d min %g max %g average %g; want min %g max %g average %g",
							what, count, lo, hi, avg, tc.min, tc.max, tc.average)
					}
				}
				s, err := d.ReadingSummary(ctx, code, "v")
				if err != nil {
					t.Fatalf("ReadingSummary: %v", err)
				}
				check("summary", s.Count, s.Min, s.Max, s.Average)
				for _, b := range []db.Bucket{db.BucketSecond, db.BucketMinute, db.BucketHour} {
					ps, err := d.ReadingSeries(ctx, code, "v", b, db.Window{Limit: 20})
					if err != nil {
						t.Fatalf("ReadingSeries(%v): %v", time.Duration(b), err)
					}
					var all db.SeriesPoint
					for j, p := range ps {
						if math.IsInf(p.Average, 0) || math.IsNaN(p.Average) {
							t.Errorf("series %v bucket %d average %g", time.Duration(b), j, p.Average)
						}
					}
					if b != db.BucketSecond {
						if len(ps) != 1 {
							t.Fatalf("series %v = %v, want one bucket", time.Duration(b), ps)
						}
						all = ps[0]
						check(fmt.Sprintf("series %v", time.Duration(b)), all.Count, all.Min, all.Max, all.Average)
					}
				}
			})
		}
	})
}
