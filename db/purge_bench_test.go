package db_test

import (
	"context"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/db"
)

// BenchmarkIngestDuringPurge measures what a purge of one asset holding
// one million readings costs the ingest that goes on meanwhile: two
// writers (as two south services would) insert batches of 100 readings of
// other assets as fast as they can, alone for five seconds, then while the
// purge runs, then alone again for five seconds. It reports the ingest
// rate alone (the mean of before and after, so that a drift of the
// machine's load does not pass for the purge's cost) and during the purge,
// their ratio, the slowest insert alone and during the purge, how many
// inserts took over 100 ms, and how long the purge took (asset-swept: the
// deletion and the sweep of its rows that follows it in the background). It seeds one million readings, so it needs
// EDGE_BENCH_LARGE=1; run it with -benchtime 1x.
func BenchmarkIngestDuringPurge(b *testing.B) {
	if os.Getenv("EDGE_BENCH_LARGE") == "" {
		b.Skip("set EDGE_BENCH_LARGE=1 to seed 1 million readings")
	}
	const n = 1_000_000
	// The readings to purge were ingested yesterday: on PostgreSQL they
	// fill yesterday's partition, which the purge by age drops whole,
	// while the purge of the asset deletes them row by row.
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	purges := []struct {
		name  string
		purge func(ctx context.Context, d *db.DB) (int64, error)
	}{
		{name: "asset", purge: func(ctx context.Context, d *db.DB) (int64, error) {
			return d.PurgeAssetReadings(ctx, "old")
		}},
		// The deletion and then the sweep of its rows, which the gateway
		// does in the background: what reclaiming the space costs.
		{name: "asset-swept", purge: func(ctx context.Context, d *db.DB) (int64, error) {
			d.StopSweeper()
			n, err := d.PurgeAssetReadings(ctx, "old")
			if err != nil {
				return n, err
			}
			return n, d.SweepDeletions(ctx, db.PurgeBlock)
		}},
		{name: "age", purge: func(ctx context.Context, d *db.DB) (int64, error) {
			res, err := d.PurgeReadings(ctx, db.PurgePolicy{Before: t0.Add(time.Duration(n) * 100 * time.Millisecond)})
			return res.Removed, err
		}},
	}
	for _, p := range purges {
		b.Run(p.name, func(b *testing.B) {
			eachBenchDB(b, func(b *testing.B, d *db.DB) {
				for b.Loop() {
					b.StopTimer()
					if d.Dialect() == db.Postgres {
						if err := d.EnsurePartitionsAt(b.Context(), yesterday); err != nil {
							b.Fatal(err)
						}
					}
					seedAt(b, d, "old", n, yesterday)
					b.StartTimer()
					r := ingestDuringPurge(b, d, func(ctx context.Context) (int64, error) { return p.purge(ctx, d) })
					if r.removed != n {
						b.Fatalf("purge removed %d readings, want %d", r.removed, n)
					}
					b.ReportMetric(r.before, "readings/s-alone")
					b.ReportMetric(r.during, "readings/s-during")
					b.ReportMetric(r.during/r.before, "ratio")
					b.ReportMetric(float64(r.slowestBefore.Microseconds())/1000, "max-insert-ms-alone")
					b.ReportMetric(float64(r.slowest.Microseconds())/1000, "max-insert-ms")
					b.ReportMetric(float64(r.p99.Microseconds())/1000, "p99-insert-ms")
					b.ReportMetric(float64(r.over100ms), "inserts-over-100ms")
					b.ReportMetric(float64(r.over100msAlone), "inserts-over-100ms-alone")
					b.ReportMetric(float64(r.inserts), "inserts-during")
					b.ReportMetric(r.purge.Seconds(), "purge-s")
				}
			})
		})
	}
}

// ingestRun is what ingestDuringPurge measured.
type ingestRun struct {
	before, during float64       // readings/s: alone (before and after), during the purge
	slowestBefore  time.Duration // alone
	slowest, p99   time.Duration
	over100ms      int
	over100msAlone int
	inserts        int // during the purge
	purge          time.Duration
	removed        int64
}

// ingestDuringPurge runs two inserting writers, measures their rate alone
// for a while, then runs purge and measures their rate and latencies until
// it returns.
func ingestDuringPurge(b *testing.B, d *db.DB, purge func(ctx context.Context) (int64, error)) ingestRun {
	b.Helper()
	const writers, size, warm = 2, 100, 5 * time.Second
	ctx, cancel := context.WithCancel(b.Context())
	defer cancel()
	var (
		inserted atomic.Int64
		measure  atomic.Int32 // 1: before the purge, 2: during it
		mu       sync.Mutex   // guards lat
		lat      [3][]time.Duration
		wg       sync.WaitGroup
		failed   = make(chan error, writers)
	)
	base := time.Now().UTC()
	for w := range writers {
		wg.Go(func() {
			rs := benchReadings("live-"+strconv.Itoa(w), base, 0, size)
			for i := 0; ctx.Err() == nil; i++ {
				for k := range rs {
					rs[k].UserTS = base.Add(time.Duration(i*size+k) * time.Millisecond)
				}
				start := time.Now()
				if err := d.InsertReadings(ctx, rs); err != nil {
					if ctx.Err() == nil {
						failed <- err
					}
					return
				}
				took := time.Since(start)
				inserted.Add(size)
				if m := measure.Load(); m > 0 {
					mu.Lock()
					lat[m] = append(lat[m], took)
					mu.Unlock()
				}
			}
		})
	}
	rate := func(d time.Duration, from int64) float64 { return float64(inserted.Load()-from) / d.Seconds() }

	time.Sleep(warm / 2) // let the writers reach their pace
	measure.Store(1)
	from, start := inserted.Load(), time.Now()
	time.Sleep(warm)
	var r ingestRun
	r.before = rate(time.Since(start), from)

	measure.Store(2)
	from, start = inserted.Load(), time.Now()
	removed, err := purge(ctx)
	r.purge = time.Since(start)
	r.during = rate(r.purge, from)
	measure.Store(1)
	from, start = inserted.Load(), time.Now()
	time.Sleep(warm)
	r.before = (r.before + rate(time.Since(start), from)) / 2
	measure.Store(0)
	cancel()
	wg.Wait()
	close(failed)
	if err != nil {
		b.Fatalf("purge: %v", err)
	}
	for err := range failed {
		b.Fatalf("insert: %v", err)
	}
	r.removed = removed
	for _, l := range lat[1:] {
		slices.Sort(l)
	}
	if l := lat[1]; len(l) > 0 {
		r.slowestBefore = l[len(l)-1]
		for _, x := range l {
			if x > 100*time.Millisecond {
				r.over100msAlone++
			}
		}
	}
	r.inserts = len(lat[2])
	if l := lat[2]; len(l) > 0 {
		r.slowest = l[len(l)-1]
		r.p99 = l[len(l)*99/100]
		for _, x := range l {
			if x > 100*time.Millisecond {
				r.over100ms++
			}
		}
	}
	return r
}
