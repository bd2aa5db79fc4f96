package db_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// The readings benchmarks (make bench; results in docs/benchmarks.md). Each
// runs on SQLite and, when EDGE_TEST_PG is set, on PostgreSQL. Benchmarks
// never run under plain go test; the browse benchmark at one million
// readings needs EDGE_BENCH_LARGE=1 (make bench sets it), as seeding it
// takes a while.

// eachBenchDB runs fn on a fresh database of each dialect.
func eachBenchDB(b *testing.B, fn func(b *testing.B, d *db.DB)) {
	b.Run("sqlite", func(b *testing.B) { fn(b, dbtest.SQLite(b)) })
	b.Run("postgres", func(b *testing.B) { fn(b, dbtest.Postgres(b)) })
}

// benchReadings returns n readings of asset, 10 a second from base, shaped
// like a south plugin's.
func benchReadings(asset string, base time.Time, from, n int) []db.Reading {
	rs := make([]db.Reading, n)
	for k := range n {
		i := from + k
		rs[k] = db.Reading{
			AssetCode: asset,
			UserTS:    base.Add(time.Duration(i) * 100 * time.Millisecond),
			Reading:   fmt.Appendf(nil, `{"sinusoid": %.4f, "seq": %d}`, float64(i%200)/100-1, i),
		}
	}
	return rs
}

// seed stores n readings of asset in batches and refreshes the planner's
// statistics, as autovacuum would on a live PostgreSQL.
func seed(b *testing.B, d *db.DB, asset string, n int) { seedAt(b, d, asset, n, time.Time{}) }

// seedAt is seed with ingest time ts (zero: now).
func seedAt(b *testing.B, d *db.DB, asset string, n int, ts time.Time) {
	b.Helper()
	const batch = 5000
	for from := 0; from < n; from += batch {
		rs := benchReadings(asset, t0, from, min(batch, n-from))
		for i := range rs {
			rs[i].TS = ts
		}
		if err := d.InsertReadings(b.Context(), rs); err != nil {
			b.Fatalf("seed: %v", err)
		}
	}
	if d.Dialect() == db.Postgres {
		if err := d.ExecSQL(b.Context(), "ANALYZE readings"); err != nil {
			b.Fatalf("analyze: %v", err)
		}
	}
}

// BenchmarkInsertReadings measures the raw insert rate through
// InsertReadings in batches of 100 readings spread over 10 assets.
func BenchmarkInsertReadings(b *testing.B) {
	const size = 100
	eachBenchDB(b, func(b *testing.B, d *db.DB) {
		// The documents are made once; each batch gets new, increasing
		// sensor times, as a live south service's would.
		batches := make([][]db.Reading, 64)
		for i := range batches {
			batches[i] = benchReadings("bench-"+strconv.Itoa(i%10), t0, i*size, size)
		}
		i := 0
		for b.Loop() {
			batch := batches[i%len(batches)]
			for k := range batch {
				batch[k].UserTS = t0.Add(time.Duration(i*size+k) * time.Millisecond)
			}
			if err := d.InsertReadings(b.Context(), batch); err != nil {
				b.Fatal(err)
			}
			i++
		}
		b.ReportMetric(float64(i*size)/b.Elapsed().Seconds(), "readings/s")
	})
}

// BenchmarkBrowseLatest20 measures the default readings page (latest 20 of
// one asset) at 10 thousand and at 1 million readings of that asset.
func BenchmarkBrowseLatest20(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			if n > 100_000 && os.Getenv("EDGE_BENCH_LARGE") == "" {
				b.Skip("set EDGE_BENCH_LARGE=1 to seed 1 million readings")
			}
			eachBenchDB(b, func(b *testing.B, d *db.DB) {
				seed(b, d, "browse", n)
				for b.Loop() {
					rs, err := d.AssetReadings(b.Context(), "browse", db.Window{Limit: 20})
					if err != nil || len(rs) != 20 {
						b.Fatalf("AssetReadings = %d readings, %v", len(rs), err)
					}
				}
			})
		})
	}
}

// BenchmarkAggregates100k measures summary and 1-second series of one key
// over 100 thousand readings of one asset (10 a second: 10 000 buckets).
func BenchmarkAggregates100k(b *testing.B) {
	const n = 100_000
	eachBenchDB(b, func(b *testing.B, d *db.DB) {
		seed(b, d, "agg", n)
		b.Run("summary", func(b *testing.B) {
			for b.Loop() {
				s, err := d.ReadingSummary(b.Context(), "agg", "sinusoid")
				if err != nil || s.Count != n {
					b.Fatalf("ReadingSummary = %+v, %v", s, err)
				}
			}
		})
		b.Run("series-latest-20", func(b *testing.B) {
			for b.Loop() {
				ps, err := d.ReadingSeries(b.Context(), "agg", "sinusoid", db.BucketSecond, db.Window{Limit: 20})
				if err != nil || len(ps) != 20 {
					b.Fatalf("ReadingSeries = %d buckets, %v", len(ps), err)
				}
			}
		})
		b.Run("series-all", func(b *testing.B) {
			for b.Loop() {
				ps, err := d.ReadingSeries(b.Context(), "agg", "sinusoid", db.BucketSecond, db.Window{})
				if err != nil || len(ps) != n/10 {
					b.Fatalf("ReadingSeries = %d buckets, %v", len(ps), err)
				}
			}
		})
	})
}

// BenchmarkRollups measures what the per-minute rollups serve, at 10
// thousand and at 1 million readings of one asset (10 a second, so 17 and
// 1 667 minutes): the summary of one key, the summaries of every key, a
// series of the latest 20 minutes and one of every hour, and the asset
// list. Each should cost about the same at both sizes. The 1-million case
// needs EDGE_BENCH_LARGE=1.
func BenchmarkRollups(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			if n > 100_000 && os.Getenv("EDGE_BENCH_LARGE") == "" {
				b.Skip("set EDGE_BENCH_LARGE=1 to seed 1 million readings")
			}
			eachBenchDB(b, func(b *testing.B, d *db.DB) {
				seed(b, d, "roll", n)
				b.Run("summary", func(b *testing.B) {
					for b.Loop() {
						s, err := d.ReadingSummary(b.Context(), "roll", "sinusoid")
						if err != nil || s.Count != int64(n) {
							b.Fatalf("ReadingSummary = %+v, %v", s, err)
						}
					}
				})
				b.Run("summaries", func(b *testing.B) {
					for b.Loop() {
						s, err := d.AssetSummaries(b.Context(), "roll")
						if err != nil || len(s) != 2 {
							b.Fatalf("AssetSummaries = %+v, %v", s, err)
						}
					}
				})
				b.Run("series-minutes-20", func(b *testing.B) {
					for b.Loop() {
						ps, err := d.ReadingSeries(b.Context(), "roll", "sinusoid", db.BucketMinute, db.Window{Limit: 20})
						if err != nil || len(ps) != 17 && len(ps) != 20 {
							b.Fatalf("ReadingSeries = %d buckets, %v", len(ps), err)
						}
					}
				})
				b.Run("series-hours-all", func(b *testing.B) {
					for b.Loop() {
						ps, err := d.ReadingSeries(b.Context(), "roll", "sinusoid", db.BucketHour, db.Window{})
						if err != nil || len(ps) == 0 {
							b.Fatalf("ReadingSeries = %d buckets, %v", len(ps), err)
						}
					}
				})
				b.Run("asset-list", func(b *testing.B) {
					for b.Loop() {
						as, err := d.ListAssets(b.Context())
						if err != nil || len(as) != 1 {
							b.Fatalf("ListAssets = %v, %v", as, err)
						}
					}
				})
			})
		})
	}
}
