package db

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestNumericMembers(t *testing.T) {
	type kv struct {
		k string
		v float64
	}
	tests := []struct {
		name string
		doc  string
		want []kv
	}{
		{name: "numbers of every form", doc: `{"a": 1, "b": -2.5, "c": 1e3, "d": 0, "e": -0.0, "f": 1.5E-2}`,
			want: []kv{{"a", 1}, {"b", -2.5}, {"c", 1000}, {"d", 0}, {"e", 0}, {"f", 0.015}}},
		{name: "other types skipped", doc: `{"s": "3", "t": true, "f": false, "n": null, "o": {"x": 1}, "a": [1, 2], "v": 7}`,
			want: []kv{{"v", 7}}},
		{name: "nested strings with braces and quotes", doc: `{"o": {"s": "}\"{", "a": ["]"]}, "v": 1}`, want: []kv{{"v", 1}}},
		{name: "escaped key", doc: `{"a\"b": 1, "\u00e9": 2, "c\\d": 3}`, want: []kv{{`a"b`, 1}, {"é", 2}, {`c\d`, 3}}},
		{name: "whitespace everywhere", doc: " \n{ \"a\" :\t1 ,\r\n \"b\": 2 } ", want: []kv{{"a", 1}, {"b", 2}}},
		{name: "float64 edges", doc: `{"max": 1.7976931348623157e308, "min": -1.7976931348623157e308, "tiny": 5e-324}`,
			want: []kv{{"max", math.MaxFloat64}, {"min", -math.MaxFloat64}, {"tiny", 5e-324}}},
		{name: "beyond float64 skipped", doc: `{"big": 1e400, "neg": -1e400, "ok": 1}`, want: []kv{{"ok", 1}}},
		{name: "a 400-digit integer skipped", doc: `{"n": ` + "1" + strings.Repeat("0", 400) + `, "ok": 2}`, want: []kv{{"ok", 2}}},
		{name: "duplicate key keeps the last value", doc: `{"v": 1, "w": 5, "v": 2}`, want: []kv{{"w", 5}, {"v", 2}}},
		{name: "duplicate key whose last value is not a number", doc: `{"v": 1, "v": "x"}`, want: nil},
		{name: "empty object", doc: `{}`, want: nil},
		{name: "not an object", doc: `[1, 2]`, want: nil},
		{name: "empty", doc: ``, want: nil},
		{name: "truncated", doc: `{"a": 1, "b": `, want: []kv{{"a", 1}}},
		{name: "unterminated string", doc: `{"a": 1, "b": "x`, want: []kv{{"a", 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []kv
			numericMembers([]byte(tc.doc), nil, func(k []byte, v float64) { got = append(got, kv{string(k), v}) })
			if !slices.Equal(got, tc.want) {
				t.Errorf("numericMembers(%s) = %v, want %v", tc.doc, got, tc.want)
			}
		})
	}
}

func TestAggNeverOverflows(t *testing.T) {
	const maxF = math.MaxFloat64
	tests := []struct {
		name               string
		values             []float64
		wantMin, wantMax   float64
		wantMean           float64
		exactMean, anyMean bool
	}{
		{name: "two of 1.7e308", values: []float64{1.7e308, 1.7e308}, wantMin: 1.7e308, wantMax: 1.7e308, wantMean: 1.7e308, exactMean: true},
		{name: "largest float64 three times", values: []float64{maxF, maxF, maxF}, wantMin: maxF, wantMax: maxF, wantMean: maxF, exactMean: true},
		{name: "opposite edges", values: []float64{maxF, -maxF}, wantMin: -maxF, wantMax: maxF, wantMean: 0, exactMean: true},
		{name: "most negative twice", values: []float64{-maxF, -maxF}, wantMin: -maxF, wantMax: -maxF, wantMean: -maxF, exactMean: true},
		{name: "smallest subnormal", values: []float64{5e-324, 5e-324}, wantMin: 5e-324, wantMax: 5e-324, wantMean: 5e-324, exactMean: true},
		{name: "subnormal and large", values: []float64{5e-324, 2}, wantMin: 5e-324, wantMax: 2, wantMean: 1, exactMean: true},
		{name: "ordinary", values: []float64{1, 2.5, -4, 1000}, wantMin: -4, wantMax: 1000, wantMean: (1 + 2.5 - 4 + 1000) / 4, exactMean: true},
		{name: "subnormals mixed", values: []float64{5e-324, 1e-323, 0}, wantMin: 0, wantMax: 1e-323, anyMean: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Added one by one, and merged from halves: both ways agree.
			var one, left, right agg
			for i, v := range tc.values {
				one.add(v)
				if i%2 == 0 {
					left.add(v)
				} else {
					right.add(v)
				}
			}
			left.merge(right)
			for _, a := range []agg{one, left} {
				s := a.summary()
				if s.Count != int64(len(tc.values)) || s.Min != tc.wantMin || s.Max != tc.wantMax {
					t.Errorf("summary = %+v, want count %d min %g max %g", s, len(tc.values), tc.wantMin, tc.wantMax)
				}
				if math.IsInf(s.Average, 0) || math.IsNaN(s.Average) || s.Average < s.Min || s.Average > s.Max {
					t.Errorf("average %g is not finite within [%g, %g]", s.Average, s.Min, s.Max)
				}
				if tc.exactMean && s.Average != tc.wantMean {
					t.Errorf("average = %g, want %g", s.Average, tc.wantMean)
				}
			}
		})
	}
}

func TestBucketsPageNewestFirst(t *testing.T) {
	base := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	bs := newBuckets(BucketMinute, 0)
	for i := range 5 {
		bs.addValue(base.Add(time.Duration(i)*time.Minute+time.Second), float64(i))
	}
	bs.addValue(base.Add(-30*time.Second), -1) // before base: its own, floored bucket
	got := bs.points(1, 3)
	var starts []time.Time
	for _, p := range got {
		starts = append(starts, p.Start)
	}
	want := []time.Time{base.Add(3 * time.Minute), base.Add(2 * time.Minute), base.Add(time.Minute)}
	if !slices.EqualFunc(starts, want, time.Time.Equal) {
		t.Errorf("points(1, 3) starts = %v, want %v", starts, want)
	}
	all := bs.points(0, 0)
	if len(all) != 6 || !all[5].Start.Equal(base.Add(-time.Minute)) || all[5].Average != -1 {
		t.Errorf("points(0, 0) = %v, want 6 buckets, the oldest at %v", all, base.Add(-time.Minute))
	}
}

func BenchmarkRollupsOf(b *testing.B) {
	base := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	rs := make([]Reading, 100)
	for i := range rs {
		rs[i] = Reading{AssetCode: "asset-" + string(rune('a'+i%10)), UserTS: base.Add(time.Duration(i) * time.Millisecond),
			Reading: []byte(`{"sinusoid": 0.5878, "seq": 1234}`)}
	}
	for b.Loop() {
		if len(rollupsOf(rs)) != 20 {
			b.Fatal("want 20 rollup rows")
		}
	}
}

// TestRollupsOfMatchOneByOne checks rollupsOf against aggregating every
// value on its own, for readings whose datapoints come and go and change
// order, assets and minutes interleaved or in runs, and minutes with more
// datapoints than are looked through one by one.
func TestRollupsOfMatchOneByOne(t *testing.T) {
	base := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	keys := make([]string, 3*minuteAggsScan)
	for i := range keys {
		keys[i] = "k" + strings.Repeat("x", i%5) + string(rune('a'+i))
	}
	cases := []struct {
		name string
		rs   func() []Reading
	}{
		{"runs of one asset", func() []Reading {
			return rollupReadings(base, keys[:3], 200, func(i int) string { return []string{"a", "b"}[i/100] })
		}},
		{"assets interleaved", func() []Reading {
			return rollupReadings(base, keys[:3], 200, func(i int) string { return []string{"a", "b", "c"}[i%3] })
		}},
		{"many datapoints", func() []Reading {
			return rollupReadings(base, keys, 300, func(i int) string { return []string{"a", "b"}[i%2] })
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs := tc.rs()
			want := map[rollupKey]*agg{}
			for _, r := range rs {
				numericMembers(r.Reading, nil, func(key []byte, v float64) {
					k := rollupKey{asset: r.AssetCode, datapoint: string(key), minute: minuteOf(r.UserTS)}
					if want[k] == nil {
						want[k] = &agg{}
					}
					want[k].add(v)
				})
			}
			got := rollupsOf(rs)
			if len(got) != len(want) {
				t.Fatalf("%d rollup rows, want %d", len(got), len(want))
			}
			for i, g := range got {
				if w := want[g.rollupKey]; w == nil || *w != g.agg {
					t.Errorf("row %+v = %+v, want %+v", g.rollupKey, g.agg, w)
				}
				if i > 0 {
					p := got[i-1]
					if cmp.Or(cmp.Compare(p.asset, g.asset), cmp.Compare(p.datapoint, g.datapoint), cmp.Compare(p.minute, g.minute)) >= 0 {
						t.Errorf("rows %+v and %+v are out of order", p.rollupKey, g.rollupKey)
					}
				}
			}
		})
	}
}

// rollupReadings returns n readings 500 ms apart (several minutes), of the
// asset assetOf(i), each holding a varying subset of keys in a varying
// order, and a string value that is not aggregated.
func rollupReadings(base time.Time, keys []string, n int, assetOf func(i int) string) []Reading {
	rs := make([]Reading, n)
	for i := range rs {
		var b strings.Builder
		b.WriteString(`{"s": "text"`)
		for j := range keys {
			k := keys[(i+j)%len(keys)]
			if (i*7+j)%5 == 0 {
				continue
			}
			b.WriteString(`, "` + k + `": ` + strconv.Itoa(i*j%97-40))
		}
		b.WriteString("}")
		rs[i] = Reading{AssetCode: assetOf(i), UserTS: base.Add(time.Duration(i) * 500 * time.Millisecond), Reading: []byte(b.String())}
	}
	return rs
}
