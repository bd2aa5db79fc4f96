package ingest

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
)

// BenchmarkWriter measures the buffer's group commit against real storage:
// concurrent producers each submit a batch and wait for its commit before
// the next (SubmitAndWait), as http_south senders do, with the default limits. One op is
// one submission; readings/s counts committed readings and readings/tx
// the mean group a transaction wrote. Each case runs on SQLite (with
// durability process, and power: every commit synced before it is
// acknowledged), and, when
// EDGE_TEST_PG is set, on PostgreSQL (make bench; docs/benchmarks.md).
func BenchmarkWriter(b *testing.B) {
	for _, shape := range []struct{ senders, batch int }{{1, 1}, {4, 10}, {16, 10}, {4, 100}} {
		b.Run(fmt.Sprintf("%dx%d", shape.senders, shape.batch), func(b *testing.B) {
			b.Run("sqlite", func(b *testing.B) { benchWriter(b, dbtest.SQLite(b), shape.senders, shape.batch) })
			b.Run("sqlite-power", func(b *testing.B) { benchWriter(b, sqlitePower(b), shape.senders, shape.batch) })
			b.Run("postgres", func(b *testing.B) { benchWriter(b, dbtest.Postgres(b), shape.senders, shape.batch) })
		})
	}
}

// sqlitePower opens a SQLite database whose commits are durable against a
// power cut (db.Power: synchronous=FULL), as a gateway's by default.
func sqlitePower(b *testing.B) *db.DB {
	d, err := db.OpenDurable(b.Context(), "sqlite:"+filepath.Join(b.TempDir(), db.DefaultFile), "", db.Power)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = d.Close() })
	return d
}

// countingStore counts the transactions a *db.DB makes, writing as the
// gateway's buffers do: with the sync deferred where the level asks for
// one (db.Power on SQLite).
type countingStore struct {
	*db.DB
	calls atomic.Int64
}

func (c *countingStore) InsertReadings(ctx context.Context, rs []db.Reading) error {
	c.calls.Add(1)
	return c.DB.InsertReadings(ctx, rs)
}

func (c *countingStore) InsertReadingsTracked(ctx context.Context, rs []db.Reading, track []db.TrackingEvent) (func(context.Context) error, error) {
	c.calls.Add(1)
	return c.DB.InsertReadingsTracked(ctx, rs, track)
}

func (c *countingStore) InsertReadingsDurable(ctx context.Context, rs []db.Reading, track []db.TrackingEvent) error {
	c.calls.Add(1)
	return c.DB.InsertReadingsDurable(ctx, rs, track)
}

func (c *countingStore) InsertReadingsDeferred(ctx context.Context, rs []db.Reading) (func(context.Context) error, error) {
	c.calls.Add(1)
	return c.DB.InsertReadingsDeferred(ctx, rs)
}

func benchWriter(b *testing.B, d *db.DB, senders, size int) {
	clk := clock.Real{}
	store := &countingStore{DB: d}
	buf := New(Options{Service: "bench", Plugin: "http_south", Store: store, Counters: NewCounters(d, nil),
		Tracker: NewTracker(d, func(context.Context) (string, error) { return "bench", nil }, clk),
		Clock:   clk, Limits: DefaultLimits})
	b.Cleanup(func() { _ = buf.Close(context.Background()) })
	// Each sender's batches are made once; the sensor times move on with
	// every submission, as a live sender's would.
	t0 := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	batches := make([][]plugin.Reading, senders)
	for s := range batches {
		batches[s] = make([]plugin.Reading, size)
		for k := range batches[s] {
			batches[s][k] = plugin.Reading{Asset: "bench-" + strconv.Itoa(s),
				Values: fmt.Appendf(nil, `{"sinusoid":%.4f,"seq":%d}`, float64(k%360)/360, k)}
		}
	}
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			rs := make([]plugin.Reading, size)
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				copy(rs, batches[s])
				for k := range rs {
					rs[k].Timestamp = t0.Add(time.Duration(i*int64(size)+int64(k)) * time.Microsecond)
				}
				_, err := buf.SubmitAndWait(context.Background(), rs)
				if err != nil {
					b.Error(err)
					return
				}
				rs = make([]plugin.Reading, size) // the buffer keeps rs until written
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N*size)/b.Elapsed().Seconds(), "readings/s")
	b.ReportMetric(float64(b.N*size)/float64(max(store.calls.Load(), 1)), "readings/tx")
}

// BenchmarkFirstSeen compares requests of 100 readings of 100 assets never
// seen before (each op brings new ones) with the same requests over assets
// already known, side by side on each store: a first sighting is recorded
// in the batch's own transaction (TrackedStore), so both should run at
// about the same rate. One op is one submission of 100 readings from each
// of 4 senders' turn; readings/s counts committed readings (make bench;
// docs/benchmarks.md).
func BenchmarkFirstSeen(b *testing.B) {
	stores := []struct {
		name string
		open func(b *testing.B) *db.DB
	}{
		{"sqlite", func(b *testing.B) *db.DB { return dbtest.SQLite(b) }},
		{"sqlite-power", sqlitePower},
		{"postgres", func(b *testing.B) *db.DB { return dbtest.Postgres(b) }},
	}
	for _, s := range stores {
		b.Run(s.name, func(b *testing.B) {
			b.Run("known", func(b *testing.B) { benchAssets(b, s.open(b), false) })
			b.Run("first-seen", func(b *testing.B) { benchAssets(b, s.open(b), true) })
		})
	}
}

// benchAssets has 4 senders submit 100 readings of 100 distinct assets
// each and wait for their commit; fresh names every submission (fresh) or
// the sender's same 100 names, stored before the timer starts.
func benchAssets(b *testing.B, d *db.DB, fresh bool) {
	const senders, size = 4, 100
	clk := clock.Real{}
	buf := New(Options{Service: "bench", Plugin: "http_south", Store: d, Counters: NewCounters(d, nil),
		Tracker: NewTracker(d, func(context.Context) (string, error) { return "bench", nil }, clk),
		Clock:   clk, Limits: DefaultLimits})
	b.Cleanup(func() { _ = buf.Close(context.Background()) })
	t0 := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	batch := func(s int, i int64) []plugin.Reading {
		rs := make([]plugin.Reading, size)
		for k := range rs {
			name := fmt.Sprintf("known-%d-%d", s, k)
			if fresh {
				name = fmt.Sprintf("new-%d-%d", i, k)
			}
			rs[k] = plugin.Reading{Asset: name, Timestamp: t0.Add(time.Duration(i*size+int64(k)) * time.Microsecond),
				Values: fmt.Appendf(nil, `{"sinusoid":%.4f,"seq":%d}`, float64(k%360)/360, k)}
		}
		return rs
	}
	submit := func(rs []plugin.Reading) error {
		r, err := buf.Submit(rs)
		if err == nil {
			err = r.Wait(context.Background())
		}
		return err
	}
	if !fresh {
		for s := range senders {
			if err := submit(batch(s, -1)); err != nil {
				b.Fatal(err)
			}
		}
	}
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				if err := submit(batch(s, i)); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N*size)/b.Elapsed().Seconds(), "readings/s")
}
