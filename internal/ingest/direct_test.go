package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/stats"
)

// writeCounting is a *db.DB counting the writer's two ways of storing a
// group, and how many of its writes ran at once; the first durable write
// waits for hold to close when hold is set.
type writeCounting struct {
	*db.DB
	durable, deferred atomic.Int64
	running, most     atomic.Int64
	hold              chan struct{}
	held              chan struct{} // closed once the first durable write waits
	first             atomic.Bool
	on                atomic.Int64 // the goroutine of the last durable write
}

// goid returns the calling goroutine's id, from its stack trace's header.
func goid() int64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	buf = bytes.TrimPrefix(buf, []byte("goroutine "))
	id, _ := strconv.ParseInt(string(buf[:bytes.IndexByte(buf, ' ')]), 10, 64)
	return id
}

func (c *writeCounting) enter() func() {
	n := c.running.Add(1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	return func() { c.running.Add(-1) }
}

func (c *writeCounting) InsertReadingsDurable(ctx context.Context, rs []db.Reading, track []db.TrackingEvent) error {
	defer c.enter()()
	c.durable.Add(1)
	c.on.Store(goid())
	if c.hold != nil && c.first.CompareAndSwap(false, true) {
		close(c.held)
		<-c.hold
	}
	return c.DB.InsertReadingsDurable(ctx, rs, track)
}

func (c *writeCounting) InsertReadingsTracked(ctx context.Context, rs []db.Reading, track []db.TrackingEvent) (func(context.Context) error, error) {
	defer c.enter()()
	c.deferred.Add(1)
	return c.DB.InsertReadingsTracked(ctx, rs, track)
}

func directBuffer(t *testing.T, store *writeCounting) (*Buffer, *Counters) {
	t.Helper()
	clk := clock.Real{}
	counters := NewCounters(store.DB, nil)
	buf := New(Options{Service: "svc", Plugin: "http_south", Store: store, Counters: counters,
		Tracker: NewTracker(store.DB, func(context.Context) (string, error) { return "edge", nil }, clk),
		Clock:   clk, Limits: DefaultLimits})
	return buf, counters
}

func oneReading(asset string, i int) []plugin.Reading {
	return []plugin.Reading{{Asset: asset, Timestamp: epoch.Add(time.Duration(i) * time.Millisecond),
		Values: json.RawMessage(`{"v": 1}`)}}
}

// TestSubmitAndWaitWritesALoneSubmission checks the producer's own write
// of a lone submission (Buffer.SubmitAndWait): it is stored durably in one
// step (DurableStore), counted and tracked like any other; submissions
// arriving while it is written queue and go together in the next write,
// never beside it; and Close waits for it.
func TestSubmitAndWaitWritesALoneSubmission(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		t.Run("lone", func(t *testing.T) {
			store := &writeCounting{DB: d}
			buf, counters := directBuffer(t, store)
			defer func() { _ = buf.Close(context.Background()) }()
			for i := range 3 {
				submitted, err := buf.SubmitAndWait(t.Context(), oneReading("lone", i))
				if !submitted || err != nil {
					t.Fatalf("SubmitAndWait = %v, %v", submitted, err)
				}
				if on, self := store.on.Load(), goid(); on != self {
					t.Errorf("submission %d written on goroutine %d, want the producer's (%d)", i, on, self)
				}
			}
			if got, want := [2]int64{store.durable.Load(), store.deferred.Load()}, [2]int64{3, 0}; got != want {
				t.Errorf("durable, deferred writes = %v, want %v", got, want)
			}
			if n := counters.Value(stats.IngestKey("svc")); n != 3 {
				t.Errorf("ingested statistic = %d, want 3", n)
			}
			ac, err := d.ListAssets(t.Context())
			if err != nil || len(ac) != 1 || ac[0].Count != 3 {
				t.Errorf("asset counts = %+v, %v; want lone: 3", ac, err)
			}
			events, err := d.ListTrackingEvents(t.Context(), db.TrackingFilter{Service: "svc"})
			if err != nil || len(events) != 1 {
				t.Errorf("tracking events = %d, %v; want 1", len(events), err)
			}
		})
		t.Run("arrivals during the write", func(t *testing.T) {
			store := &writeCounting{DB: d, hold: make(chan struct{}), held: make(chan struct{})}
			buf, _ := directBuffer(t, store)
			results := make(chan error, 5)
			go func() {
				_, err := buf.SubmitAndWait(context.Background(), oneReading("during", 0))
				results <- err
			}()
			<-store.held
			for i := 1; i < 5; i++ {
				go func() {
					_, err := buf.SubmitAndWait(context.Background(), oneReading("during", i))
					results <- err
				}()
			}
			closed := make(chan error, 1)
			deadline := time.Now().Add(10 * time.Second)
			for buf.Depth() < 5 { // the held write's reading and four queued
				if time.Now().After(deadline) {
					t.Fatalf("depth = %d, want 5", buf.Depth())
				}
				time.Sleep(time.Millisecond)
			}
			go func() { closed <- buf.Close(context.Background()) }()
			select {
			case err := <-closed:
				t.Fatalf("Close returned (%v) while a producer's write was running", err)
			case err := <-results:
				t.Fatalf("a submission was answered (%v) while the first write was held", err)
			case <-time.After(50 * time.Millisecond):
			}
			close(store.hold)
			for range 5 {
				if err := <-results; err != nil {
					t.Fatal(err)
				}
			}
			if err := <-closed; err != nil {
				t.Fatal(err)
			}
			if n := store.most.Load(); n != 1 {
				t.Errorf("%d writes ran at once, want 1", n)
			}
			if n := store.durable.Load() + store.deferred.Load(); n != 2 {
				t.Errorf("writes = %d, want 2 (the producer's, then the four queued together)", n)
			}
			ac, err := d.AssetTimespan(t.Context(), "during")
			if err != nil {
				t.Fatal(err)
			}
			rs, err := d.AssetReadings(t.Context(), "during", db.Window{})
			if err != nil || len(rs) != 5 {
				t.Errorf("stored %d readings (%v), span %+v; want 5", len(rs), err, ac)
			}
		})
	})
}
