package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
)

// fakeReadings records InsertReadings calls. When gate is set, every call
// waits for a value on it before returning.
type fakeReadings struct {
	calls chan []db.Reading
	gate  chan error
}

func newFakeReadings(gated bool) *fakeReadings {
	f := &fakeReadings{calls: make(chan []db.Reading, 100)}
	if gated {
		f.gate = make(chan error)
	}
	return f
}

func (f *fakeReadings) InsertReadings(_ context.Context, rs []db.Reading) error {
	f.calls <- slices.Clone(rs)
	if f.gate != nil {
		return <-f.gate
	}
	return nil
}

// next returns the next InsertReadings call.
func (f *fakeReadings) next(t *testing.T) []db.Reading {
	t.Helper()
	select {
	case rs := <-f.calls:
		return rs
	case <-t.Context().Done():
		t.Fatal("no InsertReadings call")
		return nil
	}
}

// none asserts that no InsertReadings call has been made.
func (f *fakeReadings) none(t *testing.T) {
	t.Helper()
	select {
	case rs := <-f.calls:
		t.Fatalf("unexpected InsertReadings of %d readings", len(rs))
	default:
	}
}

// fakeStats records statistics writes.
type fakeStats struct {
	mu      sync.Mutex
	values  map[string]int64
	descs   map[string]string
	adds    int
	failAdd error
}

func newFakeStats() *fakeStats {
	return &fakeStats{values: map[string]int64{}, descs: map[string]string{}}
}

func (f *fakeStats) EnsureStatistics(_ context.Context, stats ...db.Statistic) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range stats {
		if _, ok := f.descs[s.Key]; !ok {
			f.descs[s.Key] = s.Description
		}
	}
	return nil
}

func (f *fakeStats) AddStatistics(_ context.Context, deltas map[string]int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failAdd != nil {
		return f.failAdd
	}
	f.adds++
	for k, v := range deltas {
		f.values[k] += v
	}
	return nil
}

func (f *fakeStats) snapshot() map[string]int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.values)
}

// fakeTrack records TrackAsset calls.
type fakeTrack struct {
	mu     sync.Mutex
	events []db.TrackingEvent
	known  map[string]bool
}

func (f *fakeTrack) TrackAsset(_ context.Context, e db.TrackingEvent) (db.TrackOutcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, e)
	if f.known == nil {
		f.known = map[string]bool{}
	}
	k := e.Service + "/" + e.Asset
	if f.known[k] {
		return db.TrackUndeprecated, nil
	}
	f.known[k] = true
	return db.TrackCreated, nil
}

func (f *fakeTrack) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.events)
}

type harness struct {
	clk     *clock.Fake
	store   *fakeReadings
	stats   *fakeStats
	track   *fakeTrack
	counter *Counters
	tracker *Tracker
	buf     *Buffer
}

var epoch = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

func newHarness(t *testing.T, limits Limits, gated bool) *harness {
	t.Helper()
	h := &harness{clk: clock.NewFake(epoch), store: newFakeReadings(gated), stats: newFakeStats(), track: &fakeTrack{}}
	h.counter = NewCounters(h.stats, nil)
	h.tracker = NewTracker(h.track, func(context.Context) (string, error) { return "Line 4", nil }, h.clk)
	h.buf = New(Options{Service: "svc", Plugin: "http_south", Store: h.store, Counters: h.counter,
		Tracker: h.tracker, Clock: h.clk, Limits: limits})
	t.Cleanup(func() {
		if h.store.gate != nil {
			go func() { // release writes still waiting so Close can drain
				for range h.store.calls {
					h.store.gate <- nil
				}
			}()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := h.buf.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return h
}

// readings returns n readings of asset.
func readings(asset string, n int) []plugin.Reading {
	out := make([]plugin.Reading, n)
	for i := range out {
		out[i] = plugin.Reading{Asset: asset, Timestamp: epoch.Add(time.Duration(i) * time.Millisecond),
			Values: json.RawMessage(fmt.Sprintf(`{"i": %d}`, i))}
	}
	return out
}

func submit(t *testing.T, b *Buffer, rs []plugin.Reading) plugin.Receipt {
	t.Helper()
	r, err := b.Submit(rs)
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	return r
}

// pending reports whether the receipt is still unresolved.
func pending(r plugin.Receipt) bool {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return errors.Is(r.Wait(ctx), context.Canceled)
}

func TestSubmissionIsWrittenAtOnce(t *testing.T) {
	// An idle writer writes a submission at once: no latency, however
	// long, and no batch size delays it.
	h := newHarness(t, Limits{BatchSize: 1000, MaxLatency: time.Hour, Capacity: 10_000}, false)
	r := submit(t, h.buf, readings("a", 1))
	if got := len(h.store.next(t)); got != 1 {
		t.Errorf("write of %d readings, want 1", got)
	}
	if err := r.Wait(t.Context()); err != nil {
		t.Errorf("Wait: %v", err)
	}
}

func TestGroupCommit(t *testing.T) {
	cases := []struct {
		name       string
		batchSize  int
		queued     []int // readings per submission queued while the first write is in flight
		wantWrites []int // readings per later InsertReadings call, in order
	}{
		{name: "everything queued goes in one transaction", batchSize: 1000, queued: []int{1, 10, 100}, wantWrites: []int{111}},
		{name: "the batch size bounds a transaction", batchSize: 10, queued: []int{4, 4, 4, 4}, wantWrites: []int{12, 4}},
		{name: "a transaction holds whole submissions", batchSize: 10, queued: []int{6, 6}, wantWrites: []int{12}},
		{name: "a large submission is a transaction of its own", batchSize: 10, queued: []int{25, 1}, wantWrites: []int{25, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Limits{BatchSize: c.batchSize, MaxLatency: time.Hour, Capacity: 1000}, true)
			first := submit(t, h.buf, readings("first", 1))
			h.store.next(t) // in flight until the gate opens
			var receipts []plugin.Receipt
			for i, n := range c.queued {
				receipts = append(receipts, submit(t, h.buf, readings(fmt.Sprintf("a%d", i), n)))
			}
			h.store.none(t) // they wait for the write in flight
			h.store.gate <- nil
			if err := first.Wait(t.Context()); err != nil {
				t.Fatalf("first: %v", err)
			}
			for k, want := range c.wantWrites {
				if got := len(h.store.next(t)); got != want {
					t.Errorf("transaction of %d readings, want %d", got, want)
				}
				if k == 0 {
					for _, r := range receipts {
						if !pending(r) {
							t.Error("a submission was acknowledged before its commit")
						}
					}
				}
				h.store.gate <- nil
			}
			for i, r := range receipts {
				if err := r.Wait(t.Context()); err != nil {
					t.Errorf("submission %d: Wait = %v", i, err)
				}
			}
			h.store.none(t)
		})
	}
}

func TestPutIsHeldUpToTheLatency(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 100, MaxLatency: 500 * time.Millisecond, Capacity: 1000}, false)
	h.buf.Put(readings("polled", 3))
	h.clk.BlockUntil(1)
	h.clk.Advance(200 * time.Millisecond)
	h.buf.Put(readings("polled", 2)) // joins the group; the oldest reading's deadline holds
	h.clk.Advance(299 * time.Millisecond)
	h.clk.BlockUntil(1)
	h.store.none(t)
	h.clk.Advance(time.Millisecond)
	if got := len(h.store.next(t)); got != 5 {
		t.Errorf("write of %d readings at the latency limit, want 5", got)
	}
}

func TestPutGoesWithASubmission(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 100, MaxLatency: time.Hour, Capacity: 1000}, false)
	h.buf.Put(readings("polled", 3))
	h.clk.BlockUntil(1)
	r := submit(t, h.buf, readings("pushed", 1)) // someone waits: written at once, the held readings with it
	if got := len(h.store.next(t)); got != 4 {
		t.Errorf("write of %d readings, want 4", got)
	}
	if err := r.Wait(t.Context()); err != nil {
		t.Errorf("Wait: %v", err)
	}
}

func TestPutIsWrittenAtTheBatchSize(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 10, MaxLatency: time.Hour, Capacity: 1000}, false)
	h.buf.Put(readings("polled", 6))
	h.clk.BlockUntil(1)
	h.buf.Put(readings("polled", 4))
	if got := len(h.store.next(t)); got != 10 {
		t.Errorf("write of %d readings, want 10", got)
	}
}

func TestSetLimitsAppliesToTheForming(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 100, MaxLatency: time.Hour, Capacity: 1000}, false)
	h.buf.Put(readings("a", 20))
	h.clk.BlockUntil(1)
	h.buf.SetLimits(Limits{BatchSize: 10, MaxLatency: time.Hour, Capacity: 1000})
	if got := len(h.store.next(t)); got != 20 {
		t.Errorf("write of %d readings after lowering the size, want 20", got)
	}
}

// refusingStore fails every InsertReadings call holding a reading of the
// asset "bad" with a data error, as PostgreSQL does for a value it cannot
// store, after the first call waited for its gate.
type refusingStore struct {
	*fakeReadings
	failure error
}

func (s refusingStore) InsertReadings(ctx context.Context, rs []db.Reading) error {
	err := s.fakeReadings.InsertReadings(ctx, rs)
	for _, r := range rs {
		if r.AssetCode == "bad" {
			return s.failure
		}
	}
	return err
}

func TestRefusedGroupIsRetriedOneByOne(t *testing.T) {
	cases := []struct {
		name      string
		failure   error
		wantCalls []int // readings per InsertReadings call after the gated first one
		wantOK    []bool
	}{
		{name: "a data error fails only its submission", failure: fmt.Errorf("copy: %w: invalid byte sequence", db.ErrInvalidData),
			wantCalls: []int{6, 1, 2, 3}, wantOK: []bool{true, false, true}},
		{name: "any other error fails the group", failure: errors.New("disk full"),
			wantCalls: []int{6}, wantOK: []bool{false, false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := &harness{clk: clock.NewFake(epoch), store: newFakeReadings(false), stats: newFakeStats(), track: &fakeTrack{}}
			h.counter = NewCounters(h.stats, nil)
			h.tracker = NewTracker(h.track, func(context.Context) (string, error) { return "Line 4", nil }, h.clk)
			gate := make(chan struct{})
			gated := &gatedStore{next: refusingStore{fakeReadings: h.store, failure: c.failure}, gate: gate}
			h.buf = New(Options{Service: "svc", Plugin: "http_south", Store: gated, Counters: h.counter,
				Tracker: h.tracker, Clock: h.clk, Limits: Limits{BatchSize: 1000, MaxLatency: time.Hour, Capacity: 1000}})
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				if err := h.buf.Close(ctx); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			first := submit(t, h.buf, readings("first", 1))
			h.store.next(t) // in flight, held by the gate
			group := []plugin.Receipt{
				submit(t, h.buf, readings("good", 1)),
				submit(t, h.buf, readings("bad", 2)),
				submit(t, h.buf, readings("other", 3)),
			}
			close(gate)
			if err := first.Wait(t.Context()); err != nil {
				t.Fatal(err)
			}
			for _, want := range c.wantCalls {
				if got := len(h.store.next(t)); got != want {
					t.Errorf("InsertReadings of %d readings, want %d", got, want)
				}
			}
			for i, r := range group {
				err := r.Wait(t.Context())
				switch {
				case c.wantOK[i] && err != nil:
					t.Errorf("submission %d: %v, want it stored", i, err)
				case !c.wantOK[i] && err == nil:
					t.Errorf("submission %d stored, want an error", i)
				}
				if err != nil && errors.Is(err, plugin.ErrRefused) != errors.Is(c.failure, db.ErrInvalidData) {
					t.Errorf("submission %d: %v; ErrRefused only for data errors", i, err)
				}
			}
			h.store.none(t)
			if err := h.counter.Flush(t.Context()); err != nil {
				t.Fatal(err)
			}
			got := h.stats.snapshot()
			stored, discarded := int64(1), int64(0)
			for i, n := range []int64{1, 2, 3} {
				if c.wantOK[i] {
					stored += n
				} else {
					discarded += n
				}
			}
			if got["BUFFERED"] != stored || got["DISCARDED"] != discarded || got["bad"] != 0 {
				t.Errorf("statistics = %v, want BUFFERED %d, DISCARDED %d", got, stored, discarded)
			}
		})
	}
}

// gatedStore holds the first InsertReadings call until gate closes.
type gatedStore struct {
	next ReadingStore
	gate chan struct{}
	once sync.Once
}

func (g *gatedStore) InsertReadings(ctx context.Context, rs []db.Reading) error {
	err := g.next.InsertReadings(ctx, rs)
	g.once.Do(func() { <-g.gate })
	return err
}

func TestReceiptWaitsForCommit(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 2, MaxLatency: time.Hour, Capacity: 100}, true)
	r := submit(t, h.buf, readings("a", 2))
	rows := h.store.next(t) // the write has started but not committed
	if !pending(r) {
		t.Fatal("receipt resolved before the commit")
	}
	if rows[0].AssetCode != "a" || string(rows[0].Reading) != `{"i": 0}` || !rows[0].UserTS.Equal(epoch) || !rows[0].TS.Equal(epoch) {
		t.Errorf("stored row = %+v", rows[0])
	}
	h.store.gate <- nil
	if err := r.Wait(t.Context()); err != nil {
		t.Errorf("Wait after commit: %v", err)
	}
}

func TestStoreFailure(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 3, MaxLatency: time.Hour, Capacity: 100}, true)
	r := submit(t, h.buf, readings("a", 3))
	h.store.next(t)
	h.store.gate <- errors.New("disk on fire")
	if err := r.Wait(t.Context()); err == nil {
		t.Fatal("Wait after a failed write = nil")
	}
	if err := h.counter.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := h.stats.snapshot()
	if got["READINGS"] != 3 || got["DISCARDED"] != 3 || got["BUFFERED"] != 0 || got["a"] != 0 {
		t.Errorf("statistics after a failed write = %v", got)
	}
	if h.track.count() != 0 {
		t.Errorf("asset tracked although nothing was stored")
	}
}

func TestFullBuffer(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 5, MaxLatency: time.Hour, Capacity: 10}, true)
	first := submit(t, h.buf, readings("a", 5))
	h.store.next(t) // 5 in flight, blocked
	second := submit(t, h.buf, readings("a", 5))

	if _, err := h.buf.Submit(readings("a", 1)); !errors.Is(err, plugin.ErrBufferFull) {
		t.Errorf("Submit to a full buffer = %v, want ErrBufferFull", err)
	}
	if _, err := h.buf.Submit(readings("a", 11)); !errors.Is(err, plugin.ErrTooLarge) {
		t.Errorf("Submit above capacity = %v, want ErrTooLarge", err)
	}
	h.buf.Put(readings("polled", 3)) // no room: discarded and counted

	h.store.gate <- nil // first batch commits, the second starts
	if got := len(h.store.next(t)); got != 5 {
		t.Errorf("second batch = %d readings, want 5", got)
	}
	h.store.gate <- nil
	for _, r := range []plugin.Receipt{first, second} {
		if err := r.Wait(t.Context()); err != nil {
			t.Errorf("Wait: %v", err)
		}
	}
	if err := h.counter.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := h.stats.snapshot()
	want := map[string]int64{"READINGS": 13, "DISCARDED": 3, "BUFFERED": 10, "a": 10, "svc-Ingest": 10}
	if !maps.Equal(got, want) {
		t.Errorf("statistics = %v, want %v", got, want)
	}
}

func TestPutTakesWhatFits(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 4, MaxLatency: time.Hour, Capacity: 4}, true)
	h.buf.Put(readings("a", 6)) // 4 fit, 2 are discarded
	if got := len(h.store.next(t)); got != 4 {
		t.Errorf("batch = %d readings, want 4", got)
	}
	h.store.gate <- nil
	if err := h.buf.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := h.counter.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := h.stats.snapshot()
	if got["READINGS"] != 6 || got["DISCARDED"] != 2 || got["BUFFERED"] != 4 {
		t.Errorf("statistics = %v", got)
	}
}

func TestCloseDrains(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 100, MaxLatency: time.Hour, Capacity: 1000}, false)
	h.buf.Put(readings("b", 2)) // held for the latency
	h.clk.BlockUntil(1)
	if err := h.buf.Close(t.Context()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if got := len(h.store.next(t)); got != 2 {
		t.Errorf("drained batch = %d readings, want 2", got)
	}
	if _, err := h.buf.Submit(readings("a", 1)); !errors.Is(err, plugin.ErrStopped) {
		t.Errorf("Submit after Close = %v, want ErrStopped", err)
	}
	h.buf.Put(readings("a", 1))
	h.store.none(t)
}

func TestCountersAndTracking(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 1, MaxLatency: time.Hour, Capacity: 1000}, false)
	batches := [][]plugin.Reading{
		append(readings("bar/one", 2), readings("two", 1)...),
		readings("bar/one", 4),
	}
	for _, b := range batches {
		if err := submit(t, h.buf, b).Wait(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.stats.snapshot(); len(got) != 0 {
		t.Fatalf("statistics written before a flush: %v", got)
	}
	if err := h.counter.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"READINGS": 7, "BUFFERED": 7, "bar/one": 6, "two": 1, "svc-Ingest": 7}
	if got := h.stats.snapshot(); !maps.Equal(got, want) {
		t.Errorf("statistics = %v, want %v", got, want)
	}
	if d := h.stats.descs["svc-Ingest"]; d != "Readings ingested by service svc" {
		t.Errorf("description of svc-Ingest = %q", d)
	}
	if h.stats.adds != 1 {
		t.Errorf("%d AddStatistics calls for one flush", h.stats.adds)
	}
	if err := h.counter.Flush(t.Context()); err != nil || h.stats.adds != 1 {
		t.Errorf("an empty flush wrote (%d adds, %v)", h.stats.adds, err)
	}

	// One tracking write per asset, however many readings.
	if got := h.track.count(); got != 2 {
		t.Fatalf("%d TrackAsset calls, want 2 (first sightings)", got)
	}
	e := h.track.events[0]
	if e.Asset != "bar/one" || e.Event != db.EventIngest || e.Service != "svc" || e.Plugin != "http_south" || e.Edge != "Line 4" || !e.TS.Equal(epoch) {
		t.Errorf("tracked %+v", e)
	}
	// After a deprecation the next sighting is written again (and clears it).
	h.tracker.Forget("svc", "bar/one", db.EventIngest)
	if err := submit(t, h.buf, readings("bar/one", 1)).Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := h.track.count(); got != 3 {
		t.Errorf("%d TrackAsset calls after Forget, want 3", got)
	}
}

func TestCountersFlushFailureKeepsCounts(t *testing.T) {
	stats := newFakeStats()
	c := NewCounters(stats, nil)
	c.Add("READINGS", "Readings received", 5)
	stats.failAdd = errors.New("down")
	if err := c.Flush(t.Context()); err == nil {
		t.Fatal("Flush = nil with a failing store")
	}
	c.Add("READINGS", "Readings received", 2)
	stats.failAdd = nil
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := stats.snapshot()["READINGS"]; got != 7 {
		t.Errorf("READINGS = %d after a failed and a good flush, want 7", got)
	}
	c.Forget("READINGS")
	if c.Value("READINGS") != 0 {
		t.Error("Forget kept the count")
	}
}

func TestCountersRun(t *testing.T) {
	stats := newFakeStats()
	c := NewCounters(stats, nil)
	clk := clock.NewFake(epoch)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Run(ctx, clk, time.Second)
	}()
	c.Add("READINGS", "", 1)
	clk.BlockUntil(1)
	clk.Advance(time.Second) // periodic flush
	clk.BlockUntil(1)        // the next interval started after the flush
	if got := stats.snapshot()["READINGS"]; got != 1 {
		t.Errorf("READINGS after one interval = %d, want 1", got)
	}
	c.Add("READINGS", "", 2)
	cancel() // final flush
	<-done
	if got := stats.snapshot()["READINGS"]; got != 3 {
		t.Errorf("READINGS after the final flush = %d, want 3", got)
	}
}

func TestWriterWaitsForTheProducersItAnswered(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 1000, MaxLatency: time.Second, Capacity: 1000}, true)
	first := submit(t, h.buf, readings("a", 1))
	h.store.next(t)                     // the first write is in flight
	h.clk.Advance(5 * time.Millisecond) // and takes 5 ms
	queued := submit(t, h.buf, readings("b", 1))
	h.store.gate <- nil
	if err := first.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	// Producer a, just answered, may come back: the writer waits up to
	// the 5 ms the commit took instead of writing b alone.
	h.clk.BlockUntil(1)
	h.store.none(t)
	again := submit(t, h.buf, readings("a", 1))
	if got := len(h.store.next(t)); got != 2 {
		t.Errorf("write of %d readings, want a's and b's together", got)
	}
	// Producers that do not come back delay the queued one by at most
	// the time the commit took.
	h.clk.Advance(3 * time.Millisecond) // the write of a and b takes 3 ms
	third := submit(t, h.buf, readings("c", 1))
	h.store.gate <- nil
	for _, r := range []plugin.Receipt{queued, again} {
		if err := r.Wait(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	h.clk.BlockUntil(1)
	h.store.none(t)
	h.clk.Advance(3 * time.Millisecond)
	if got := len(h.store.next(t)); got != 1 {
		t.Fatalf("write of %d readings, want c's alone", got)
	}
	h.store.gate <- nil
	if err := third.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestLoneProducerNeverWaits(t *testing.T) {
	h := newHarness(t, Limits{BatchSize: 1000, MaxLatency: time.Second, Capacity: 1000}, true)
	for i := range 3 {
		r := submit(t, h.buf, readings("a", 1))
		h.store.next(t)
		h.clk.Advance(5 * time.Millisecond) // a slow commit
		h.store.gate <- nil
		if err := r.Wait(t.Context()); err != nil {
			t.Fatalf("submission %d: %v", i, err)
		}
	}
}

// TestAssetCodeLimit: a reading whose asset code is longer than
// plugin.MaxAssetCode never reaches storage, whichever way it comes. A
// submission holding one is refused whole, naming the reading; Put drops
// it alone, counting it discarded.
func TestAssetCodeLimit(t *testing.T) {
	long := strings.Repeat("ü", plugin.MaxAssetCode+1)
	mixed := func() []plugin.Reading {
		rs := readings("ok", 3)
		rs[1].Asset = long
		return rs
	}
	t.Run("submit", func(t *testing.T) {
		h := newHarness(t, Limits{BatchSize: 10, MaxLatency: time.Hour, Capacity: 100}, false)
		_, err := h.buf.Submit(mixed())
		if !errors.Is(err, plugin.ErrAssetCode) || !strings.Contains(err.Error(), "reading 1") ||
			!strings.Contains(err.Error(), "256 characters") {
			t.Fatalf("Submit = %v; want ErrAssetCode naming reading 1 and its 256 characters", err)
		}
		if _, err := h.buf.Submit([]plugin.Reading{{Asset: "", Values: json.RawMessage(`{}`)}}); !errors.Is(err, plugin.ErrAssetCode) {
			t.Errorf("Submit of an empty code = %v; want ErrAssetCode", err)
		}
		at := readings(strings.Repeat("ü", plugin.MaxAssetCode), 1)
		if err := submit(t, h.buf, at).Wait(t.Context()); err != nil {
			t.Errorf("a code of exactly %d characters: %v", plugin.MaxAssetCode, err)
		}
		if got := h.store.next(t); len(got) != 1 {
			t.Errorf("stored %d readings, want the one at the limit", len(got))
		}
		h.store.none(t)
	})
	t.Run("put", func(t *testing.T) {
		h := newHarness(t, Limits{BatchSize: 2, MaxLatency: time.Hour, Capacity: 100}, false)
		h.buf.Put(mixed())
		got := h.store.next(t)
		if len(got) != 2 || got[0].AssetCode != "ok" || got[1].AssetCode != "ok" {
			t.Fatalf("stored %+v; want the two readings of ok", got)
		}
		if err := h.buf.Close(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := h.counter.Flush(t.Context()); err != nil {
			t.Fatal(err)
		}
		if s := h.stats.snapshot(); s["READINGS"] != 3 || s["DISCARDED"] != 1 || s["BUFFERED"] != 2 {
			t.Errorf("statistics = %v; want 3 received, 1 discarded, 2 buffered", s)
		}
	})
}
