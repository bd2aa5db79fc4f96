// Package ingest is the hot path between south plugins and storage: a
// bounded buffer per service whose writer commits readings in groups (one
// InsertReadings call, one transaction, for everything that queued while
// the previous one was being written), acknowledgements for producers that
// must know their readings are committed, in-memory statistics flushed
// periodically, and the asset tracker's first sightings.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/stats"
)

// ReadingStore is the storage readings are written to; *db.DB implements
// it.
type ReadingStore interface {
	// InsertReadings stores readings in one transaction.
	InsertReadings(ctx context.Context, readings []db.Reading) error
}

// InDoubt is a store's error for a write whose commit may or may not have
// been applied (*db.CommitUnknownError: the connection broke after the
// COMMIT was sent). Committed tells which once storage answers again; while
// it cannot tell yet its error wraps db.ErrOutcomeUnknown.
type InDoubt interface {
	error
	Committed(ctx context.Context) (bool, error)
}

var _ InDoubt = (*db.CommitUnknownError)(nil)

// DeferredStore is a ReadingStore that can commit without waiting for the
// commit to reach stable storage: InsertReadingsDeferred returns once the
// readings are committed, and wait (nil when there is nothing to wait for)
// returns once that commit is on stable storage. The buffer then writes
// its next group while the previous one is being synced, and acknowledges
// readings only once wait returned. *db.DB implements it.
type DeferredStore interface {
	InsertReadingsDeferred(ctx context.Context, readings []db.Reading) (wait func(context.Context) error, err error)
}

// TrackedStore is a DeferredStore that also records asset tracking
// events in the transaction of the readings: the writer hands it the
// first sightings of its batch (Tracker.Unseen), so an asset new to the
// process costs a row in the batch's commit instead of a commit of its
// own. *db.DB implements it.
type TrackedStore interface {
	InsertReadingsTracked(ctx context.Context, readings []db.Reading, track []db.TrackingEvent) (wait func(context.Context) error, err error)
}

// DurableStore is a store that can also commit a batch, with its first
// sightings, durably in one step: InsertReadingsDurable returns once the
// commit is on stable storage. The writer uses it for a small group that
// is all it has to write (see durableMax), and acknowledges that group
// itself rather than through its acknowledging goroutine: a lone request
// costs one commit step and one goroutine hand-off less. *db.DB implements
// it.
type DurableStore interface {
	InsertReadingsDurable(ctx context.Context, readings []db.Reading, track []db.TrackingEvent) error
}

// durableMax is the most readings a group written durably in one step
// (DurableStore) holds. Such a group is written only when nothing is
// queued behind it and every earlier group has been acknowledged. A small
// group's commit costs mostly its fixed part (the pages it touches, the
// sync), so the requests that arrive during its sync are better grouped
// into the next commit (the writer lingers for the senders it just
// answered) than committed alone while it runs; a larger group's insert
// takes long enough that writing the next one while it syncs pays more.
const durableMax = 64

// maxUnsynced bounds the committed groups of a buffer waiting for their
// sync: beyond it the writer waits too.
const maxUnsynced = 8

// Limits are a buffer's per-service settings. Both grouping settings are
// upper bounds, never a wait imposed on readings someone waits for.
type Limits struct {
	// BatchSize is the most readings one transaction groups (the
	// service's bufferThreshold). A transaction holds whole submissions:
	// it takes queued submissions while it holds fewer than BatchSize
	// readings, so one submission larger than BatchSize is a transaction
	// of its own.
	BatchSize int
	// MaxLatency is the longest readings delivered with Put (polled
	// plugins, which nobody waits for) are held to share a transaction
	// (the service's maxSendLatency): they are written when BatchSize of
	// them are queued, when the oldest has waited MaxLatency, or with the
	// next submission someone waits for, whichever comes first. Submitted
	// readings are never held: the writer writes them at once when it is
	// free.
	MaxLatency time.Duration
	// Capacity is the most readings the buffer holds, queued and being
	// written together.
	Capacity int
}

// DefaultLimits are the limits of a new service. A transaction of 1 000
// readings costs SQLite's fsync (durability "power") a few percent
// (docs/benchmarks.md), and groups the requests of many senders.
var DefaultLimits = Limits{BatchSize: 1000, MaxLatency: 100 * time.Millisecond, Capacity: 100_000}

// writeTimeout bounds one InsertReadings call.
const writeTimeout = time.Minute

// Options configure a Buffer.
type Options struct {
	Service  string // the south service's name
	Plugin   string // its plugin's name, for asset tracking
	Store    ReadingStore
	Counters *Counters
	Tracker  *Tracker
	Clock    clock.Clock
	Logger   *slog.Logger
	Limits   Limits
	// Observer, when set, is told how long each batch's write took.
	Observer Observer
	// Listener, when set, is handed the readings of each committed write.
	Listener Listener
}

// Listener is told of readings once they are committed, e.g. to evaluate
// notification rules on them. Committed is called on the buffer's writer
// goroutine: it must return at once, and may keep the slice but must not
// change it or the readings in it.
type Listener interface {
	Committed(service string, readings []plugin.Reading)
}

// Observer watches a buffer's writes, e.g. for metrics.
type Observer interface {
	// Committed reports one InsertReadings call of service's buffer: its
	// duration and whether it stored the batch.
	Committed(service string, d time.Duration, ok bool)
}

// Buffer is a south service's ingest buffer. It implements plugin.Sink and
// is safe for concurrent use. Close it once to drain it.
type Buffer struct {
	o    Options
	log  *slog.Logger
	wake chan struct{} // cap 1: the writer has something to look at
	done chan struct{} // closed when the writer has drained and stopped

	mu       sync.Mutex // guards the fields below
	limits   Limits
	queue    []*entry
	queued   int // readings in queue
	awaited  int // entries in queue whose producer waits for the commit
	inflight int // readings in the batch being written
	// writing: a group is being written, by the writer goroutine or by a
	// producer writing its own submission (SubmitAndWait); the one who
	// writes owns the scratch fields below.
	writing  bool
	closing  bool
	dropping bool // Put is discarding; logged once until it takes all again
	// Readings refused for their asset code since refusedLogged, when
	// they were last logged (see refused).
	refusedSince  int
	refusedLogged time.Time
	// After a write that answered waiting producers while others were
	// queued, the next write may wait until lingerUntil for submissions
	// to make up lingerWant queued ones (see next).
	lingerUntil time.Time
	lingerWant  int

	// unacked counts the groups handed to the acknowledging goroutine
	// that it has not acknowledged yet.
	unacked atomic.Int64

	// Owned by whoever writes (see writing): reused from one write to the
	// next.
	rows []db.Reading
	// distinct and distinctList are the writer's scratch for the assets of
	// a batch (store); perAsset and assets are the acknowledger's.
	distinct     map[string]struct{}
	distinctList []string
	perAsset     map[string]int64
	assets       []string
}

// entry is one Put or Submit call.
type entry struct {
	readings []plugin.Reading
	at       time.Time // when it was queued
	receipt  *receipt  // nil for Put
}

var (
	_ plugin.Sink       = (*Buffer)(nil)
	_ plugin.DirectSink = (*Buffer)(nil)
)

// New returns a running buffer; its writer goroutine stops after Close.
func New(o Options) *Buffer {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	b := &Buffer{o: o, log: o.Logger, limits: sane(o.Limits), wake: make(chan struct{}, 1), done: make(chan struct{})}
	go b.run()
	return b
}

// sane replaces unusable limits by the defaults.
func sane(l Limits) Limits {
	if l.BatchSize < 1 {
		l.BatchSize = DefaultLimits.BatchSize
	}
	if l.MaxLatency < 0 {
		l.MaxLatency = 0
	}
	if l.Capacity <= 0 {
		l.Capacity = DefaultLimits.Capacity
	}
	l.Capacity = max(l.Capacity, l.BatchSize)
	return l
}

// SetLimits changes the limits; they apply to the batch being formed.
func (b *Buffer) SetLimits(l Limits) {
	b.mu.Lock()
	b.limits = sane(l)
	b.mu.Unlock()
	b.signal()
}

func (b *Buffer) signal() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// received counts readings the service received.
func (b *Buffer) received(n int) {
	b.o.Counters.Add(stats.Readings, "Readings received", int64(n))
}

// discarded counts readings dropped before they were buffered.
func (b *Buffer) discarded(n int) {
	b.o.Counters.Add(stats.Discarded, "Readings discarded by a south service before buffering", int64(n))
}

// Depth returns the readings the buffer holds: queued and being written.
func (b *Buffer) Depth() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.queued + b.inflight
}

// Put queues as many of readings as there is room for and discards (and
// counts) the rest. After Close it discards everything.
func (b *Buffer) Put(readings []plugin.Reading) {
	if len(readings) == 0 {
		return
	}
	readings = b.checkPut(readings)
	if len(readings) == 0 {
		return
	}
	b.mu.Lock()
	room := b.limits.Capacity - b.queued - b.inflight
	if b.closing {
		room = 0
	}
	take := min(max(room, 0), len(readings))
	if take > 0 {
		b.enqueue(&entry{readings: readings[:take]})
	}
	dropped := len(readings) - take
	startedDropping := dropped > 0 && !b.dropping
	stoppedDropping := dropped == 0 && b.dropping
	b.dropping = dropped > 0
	b.mu.Unlock()
	b.received(len(readings))
	if dropped > 0 {
		b.discarded(dropped)
	}
	switch {
	case startedDropping:
		b.log.Warn("ingest buffer full; readings are discarded (statistic DISCARDED) until it has room", "service", b.o.Service)
	case stoppedDropping:
		b.log.Info("ingest buffer has room again; readings are no longer discarded", "service", b.o.Service)
	}
}

// Submit queues all of readings or none; see plugin.Sink.
func (b *Buffer) Submit(readings []plugin.Reading) (plugin.Receipt, error) {
	r, _, err := b.submit(readings, false)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// SubmitAndWait is Submit followed by Wait on its receipt; see
// plugin.DirectSink. A submission the writer would write alone (no
// group being written, nothing queued, every earlier group acknowledged,
// at most durableMax readings, a DurableStore) is written durably on the
// caller's goroutine instead of being queued, so neither the writer nor
// the acknowledging goroutine has to be woken and the caller need not be
// woken by them: a lone request's write costs no goroutine hand-off.
func (b *Buffer) SubmitAndWait(ctx context.Context, readings []plugin.Reading) (bool, error) {
	r, direct, err := b.submit(readings, true)
	if err != nil {
		return false, err
	}
	if direct != nil {
		b.write([]*entry{direct}, nil, true)
		// The writer goroutine waits while a producer writes: wake it for
		// what queued meanwhile, or to stop.
		b.mu.Lock()
		wake := len(b.queue) > 0 || b.closing
		b.mu.Unlock()
		if wake {
			b.signal()
		}
	}
	return true, r.Wait(ctx)
}

// submit is Submit; with direct, a submission that may be written at once
// by its producer is returned as the entry to write (already counted as
// being written) instead of being queued.
func (b *Buffer) submit(readings []plugin.Reading, direct bool) (*receipt, *entry, error) {
	r := &receipt{done: make(chan struct{})}
	if len(readings) == 0 {
		close(r.done)
		return r, nil, nil
	}
	for i, rd := range readings {
		if err := plugin.CheckAsset(rd.Asset); err != nil {
			b.refused(1, err)
			return nil, nil, fmt.Errorf("reading %d: %w", i, err)
		}
	}
	e := &entry{readings: readings, receipt: r}
	b.mu.Lock()
	switch {
	case b.closing:
		b.mu.Unlock()
		return nil, nil, plugin.ErrStopped
	case len(readings) > b.limits.Capacity:
		b.mu.Unlock()
		return nil, nil, plugin.ErrTooLarge
	case b.queued+b.inflight+len(readings) > b.limits.Capacity:
		b.mu.Unlock()
		return nil, nil, plugin.ErrBufferFull
	}
	if direct && b.writableNow(len(readings)) {
		e.at = b.o.Clock.Now()
		b.writing, b.inflight = true, len(readings)
		b.mu.Unlock()
		b.received(len(readings))
		return r, e, nil
	}
	b.enqueue(e)
	b.mu.Unlock()
	b.received(len(readings))
	return r, nil, nil
}

// writableNow reports whether a submission of n readings may be written
// by its producer at once: nothing is being written or queued, every
// earlier group is acknowledged, and it is small enough to be written
// durably in one step (see durableMax); b.mu is held.
func (b *Buffer) writableNow(n int) bool {
	if _, ok := b.o.Store.(DurableStore); !ok {
		return false
	}
	return !b.writing && len(b.queue) == 0 && n <= durableMax && b.unacked.Load() == 0
}

// checkPut returns readings without those whose asset code the gateway
// refuses (plugin.CheckAsset), which it counts discarded and logs; readings
// itself when all pass.
func (b *Buffer) checkPut(readings []plugin.Reading) []plugin.Reading {
	var kept []plugin.Reading
	for i, rd := range readings {
		err := plugin.CheckAsset(rd.Asset)
		switch {
		case err == nil && kept != nil:
			kept = append(kept, rd)
		case err != nil:
			if kept == nil {
				kept = append(make([]plugin.Reading, 0, len(readings)-1), readings[:i]...)
			}
			b.received(1)
			b.discarded(1)
			b.refused(1, err)
		}
	}
	if kept == nil {
		return readings
	}
	return kept
}

// refusedLogEvery is how often at most a buffer logs the readings it
// refuses for their asset code, so a plugin producing them at every poll
// does not flood the log.
const refusedLogEvery = time.Minute

// refused logs n readings refused before buffering because of err, at most
// once per refusedLogEvery with the number refused since the last line.
func (b *Buffer) refused(n int, err error) {
	now := b.o.Clock.Now()
	b.mu.Lock()
	b.refusedSince += n
	if !b.refusedLogged.IsZero() && now.Sub(b.refusedLogged) < refusedLogEvery {
		b.mu.Unlock()
		return
	}
	count := b.refusedSince
	b.refusedSince, b.refusedLogged = 0, now
	b.mu.Unlock()
	b.log.Warn("readings refused before buffering; nothing of them is stored", "service", b.o.Service,
		"readings", count, "error", err)
}

// enqueue appends e and wakes the writer when it has something to do: a
// submission someone waits for (written as soon as the writer is free), the
// first entry (the writer starts its latency timer) or a full batch; b.mu
// is held.
func (b *Buffer) enqueue(e *entry) {
	e.at = b.o.Clock.Now()
	wasEmpty := len(b.queue) == 0
	b.queue = append(b.queue, e)
	b.queued += len(e.readings)
	if e.receipt != nil {
		b.awaited++
	}
	if e.receipt != nil || wasEmpty || b.queued >= b.limits.BatchSize {
		b.signal()
	}
}

// Close stops taking readings, writes everything queued and stops the
// writer. It returns ctx's error if ctx ends first (the writer then keeps
// draining in the background). Calling it again waits again.
func (b *Buffer) Close(ctx context.Context) error {
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	b.signal()
	select {
	case <-b.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("ingest: buffer of service %q not drained: %w", b.o.Service, ctx.Err())
	}
}

// run is the writer: it takes groups and writes them until closed and
// drained.
func (b *Buffer) run() {
	defer close(b.done)
	// Groups are counted, tracked and acknowledged in commit order by
	// their own goroutine, once their commit is on stable storage, so
	// that one group's sync overlaps the next group's write.
	acks := make(chan ack, maxUnsynced)
	acked := make(chan struct{})
	go func() {
		defer close(acked)
		for a := range acks {
			b.acknowledge(a)
			b.unacked.Add(-1)
		}
	}()
	defer func() {
		close(acks)
		<-acked
	}()
	for {
		batch, ok := b.next()
		if !ok {
			return
		}
		b.write(batch, acks, b.alone(batch))
	}
}

// ack is a written group on its way to its acknowledgement: the outcome of
// its write, and what to wait for before it is durable.
type ack struct {
	entries []*entry
	wait    func(context.Context) error // nil: nothing
	err     error
}

// acknowledge waits for a group's commit to be durable, then counts,
// tracks and acknowledges it.
func (b *Buffer) acknowledge(a ack) {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	err := a.err
	if err == nil && a.wait != nil {
		if err = a.wait(ctx); err != nil {
			err = fmt.Errorf("sync the commit to stable storage: %w", err)
		}
	}
	b.finish(ctx, a.entries, err)
}

// next waits until the queue holds something due and takes it: at once
// when a submission someone waits for is queued (this is group commit:
// while the previous write was in flight, arrivals queued, and they go
// together now), and for readings nobody waits for when BatchSize of them
// are queued, the oldest has waited MaxLatency, or the buffer closes. It
// returns false when the buffer is closed and empty.
func (b *Buffer) next() ([]*entry, bool) {
	b.mu.Lock()
	for {
		if len(b.queue) == 0 || b.writing {
			// A producer writing its own submission (SubmitAndWait)
			// signals when it is done.
			if len(b.queue) == 0 && b.closing && !b.writing {
				b.mu.Unlock()
				return nil, false
			}
			b.mu.Unlock()
			<-b.wake
			b.mu.Lock()
			continue
		}
		now := b.o.Clock.Now()
		wait := b.queue[0].at.Add(b.limits.MaxLatency).Sub(now)
		if b.awaited > 0 && !b.closing && b.queued < b.limits.BatchSize &&
			b.awaited < b.lingerWant && now.Before(b.lingerUntil) {
			wait = b.lingerUntil.Sub(now) // the producers just answered may be back soon
		} else if b.awaited > 0 || b.closing || b.queued >= b.limits.BatchSize || wait <= 0 {
			b.lingerUntil, b.lingerWant = time.Time{}, 0
			batch := b.take()
			b.mu.Unlock()
			return batch, true
		}
		b.mu.Unlock()
		t := b.o.Clock.NewTimer(wait)
		select {
		case <-b.wake:
		case <-t.C():
		}
		t.Stop()
		b.mu.Lock()
	}
}

// take removes whole entries from the queue while they hold fewer than
// BatchSize readings (at least one entry); b.mu is held.
func (b *Buffer) take() []*entry {
	n, i := 0, 0
	for i < len(b.queue) && (i == 0 || n < b.limits.BatchSize) {
		n += len(b.queue[i].readings)
		if b.queue[i].receipt != nil {
			b.awaited--
		}
		i++
	}
	batch := b.queue[:i:i]
	b.queue = b.queue[i:]
	if len(b.queue) == 0 {
		b.queue = nil // let the taken entries go with the batch
	}
	b.queued -= n
	b.inflight = n
	b.writing = true
	return batch
}

// write stores one group in one transaction, then counts, tracks and
// acknowledges it: durable, in one step and on the calling goroutine (see
// DurableStore), else through acks. When storage refuses the group's data (a value it cannot
// hold that validation let through), the group's entries are written again
// one by one, so that only the offending entry fails and the others are
// stored and acknowledged.
func (b *Buffer) write(batch []*entry, acks chan<- ack, durable bool) {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	// A group that is all the writer has is committed durably and
	// acknowledged here (see DurableStore); any other goes to the
	// acknowledging goroutine, in commit order, while the writer goes on.
	deliver := func(a ack) {
		if durable {
			b.acknowledge(a)
			return
		}
		b.unacked.Add(1)
		acks <- a
	}
	began := b.o.Clock.Now()
	wait, err := b.store(ctx, batch, durable)
	took := b.o.Clock.Now().Sub(began)
	b.mu.Lock()
	queued := b.awaited // waiting producers queued during the write
	b.mu.Unlock()
	if err != nil && len(batch) > 1 && errors.Is(err, db.ErrInvalidData) {
		b.log.Warn("storage refused a group of readings; writing its submissions one by one",
			"service", b.o.Service, "submissions", len(batch), "error", err)
		for _, e := range batch {
			one := batch[:0:0]
			one = append(one, e)
			wait, err := b.store(ctx, one, durable)
			deliver(ack{entries: one, wait: wait, err: err})
		}
	} else {
		deliver(ack{entries: batch, wait: wait, err: err})
	}
	answered := 0
	for _, e := range batch {
		if e.receipt != nil {
			answered++
		}
	}
	b.mu.Lock()
	b.inflight = 0
	b.writing = false
	// Many producers are waiting: some are queued, and this write just
	// answered others, who typically send again within a commit's time.
	// Letting the next write wait for them, at most as long as this commit
	// took (and never beyond maxSendLatency), makes one commit serve them
	// all instead of alternating half groups; it pays most where a commit
	// costs a sync. A lone producer finds the queue empty and never waits.
	// With a deferred sync the senders are answered only after it, and
	// the next group is better written while it runs than held back. After
	// a small group written durably in one step (which took its sync), the
	// requests that queued meanwhile are written at once too: over HTTP
	// the answered senders are rarely back within that time, and waiting
	// for them cost small requests a fifth of their rate
	// (docs/benchmarks.md).
	if queued > 0 && answered > 0 && took > 0 && wait == nil && !durable {
		b.lingerUntil = b.o.Clock.Now().Add(min(took, b.limits.MaxLatency))
		b.lingerWant = queued + answered
	}
	b.mu.Unlock()
}

// alone reports whether batch is to be written durably in one step: the
// store is a DurableStore, batch holds at most durableMax readings,
// nothing is queued behind it and every earlier group has been
// acknowledged.
func (b *Buffer) alone(batch []*entry) bool {
	if _, ok := b.o.Store.(DurableStore); !ok || b.unacked.Load() != 0 {
		return false
	}
	n := 0
	for _, e := range batch {
		n += len(e.readings)
	}
	if n > durableMax {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue) == 0
}

// store writes the readings of entries with one InsertReadings call (or,
// from a DeferredStore, InsertReadingsDeferred; durable, from a
// DurableStore, InsertReadingsDurable) and returns what to wait for before
// they are durable.
func (b *Buffer) store(ctx context.Context, entries []*entry, durable bool) (wait func(context.Context) error, err error) {
	stored := b.o.Clock.Now().UTC().Truncate(time.Microsecond)
	b.rows = b.rows[:0]
	for _, e := range entries {
		for _, r := range e.readings {
			b.rows = append(b.rows, db.Reading{AssetCode: r.Asset, Reading: r.Values, UserTS: r.Timestamp, TS: stored})
		}
	}
	track := b.firstSightings(ctx)
	began := time.Now() // the real clock: the observer measures storage, not the plugin's time
	if d, ok := b.o.Store.(DurableStore); ok && durable {
		err = d.InsertReadingsDurable(ctx, b.rows, track)
		if err == nil && track != nil {
			b.o.Tracker.Seen(track)
		}
	} else if t, ok := b.o.Store.(TrackedStore); ok && b.o.Tracker != nil {
		wait, err = t.InsertReadingsTracked(ctx, b.rows, track)
		if err == nil {
			b.o.Tracker.Seen(track)
		}
	} else if d, ok := b.o.Store.(DeferredStore); ok {
		wait, err = d.InsertReadingsDeferred(ctx, b.rows)
	} else {
		err = b.o.Store.InsertReadings(ctx, b.rows)
	}
	if b.o.Observer != nil {
		b.o.Observer.Committed(b.o.Service, time.Since(began), err == nil)
	}
	clear(b.rows) // drop the references to the readings' values
	return wait, err
}

// firstSightings returns the tracking events of the assets in b.rows that
// the tracker has not recorded yet, for a TrackedStore to store with the
// readings. Should they not be had, none are returned: the
// acknowledgement tracks the assets one by one (Tracker.Track), as for any
// other store.
func (b *Buffer) firstSightings(ctx context.Context) []db.TrackingEvent {
	if b.o.Tracker == nil {
		return nil
	}
	if _, ok := b.o.Store.(TrackedStore); !ok {
		return nil
	}
	if b.distinct == nil {
		b.distinct = map[string]struct{}{}
	}
	clear(b.distinct)
	b.distinctList = b.distinctList[:0]
	for _, r := range b.rows {
		if _, ok := b.distinct[r.AssetCode]; !ok {
			b.distinct[r.AssetCode] = struct{}{}
			b.distinctList = append(b.distinctList, r.AssetCode)
		}
	}
	track, err := b.o.Tracker.Unseen(ctx, db.EventIngest, b.o.Service, b.o.Plugin, b.distinctList)
	if err != nil {
		b.log.Warn("first sightings not recorded with the readings; tracked after them", "service", b.o.Service, "error", err)
		return nil
	}
	return track
}

// finish counts, tracks and acknowledges entries after their write ended
// with err.
func (b *Buffer) finish(ctx context.Context, entries []*entry, err error) {
	n := 0
	for _, e := range entries {
		n += len(e.readings)
	}
	var doubt InDoubt
	if errors.As(err, &doubt) {
		// Neither stored nor lost as far as anyone knows: the producers
		// are told the readings were not stored (they may send them
		// again), and the statistics wait for the outcome.
		b.log.Warn("storage failed while committing readings; their outcome is learnt once it answers again",
			"service", b.o.Service, "readings", n, "error", err)
		for _, e := range entries {
			e.receipt.resolve(fmt.Errorf("ingest: store readings: %w", err))
		}
		go b.settle(entries, n, doubt) //nolint:gosec // outlives the write on purpose: it waits for storage to answer again
		return
	}
	if err != nil {
		b.discarded(n)
		outcome := fmt.Errorf("ingest: store readings: %w", err)
		if errors.Is(err, db.ErrInvalidData) {
			b.log.Warn("storage refused readings; discarded", "service", b.o.Service, "readings", n, "error", err)
			outcome = fmt.Errorf("%w: %w", plugin.ErrRefused, err)
		} else {
			b.log.Error("readings not stored; discarded", "service", b.o.Service, "readings", n, "error", err)
		}
		for _, e := range entries {
			e.receipt.resolve(outcome)
		}
		return
	}
	if b.perAsset == nil {
		b.perAsset = map[string]int64{}
	}
	b.assets = b.counted(ctx, entries, n, b.perAsset, b.assets)
	if l := b.o.Listener; l != nil {
		for _, e := range entries {
			l.Committed(b.o.Service, e.readings)
		}
	}
	for _, e := range entries {
		e.receipt.resolve(nil)
	}
}

// counted counts and tracks the n stored readings of entries, using
// perAsset and assets as scratch; it returns assets for reuse.
func (b *Buffer) counted(ctx context.Context, entries []*entry, n int, perAsset map[string]int64, assets []string) []string {
	clear(perAsset)
	assets = assets[:0]
	for _, e := range entries {
		for _, r := range e.readings {
			if perAsset[r.Asset] == 0 {
				assets = append(assets, r.Asset)
			}
			perAsset[r.Asset]++
		}
	}
	c := b.o.Counters
	c.Add(stats.Buffered, "Readings currently in the buffer", int64(n))
	c.Add(stats.IngestKey(b.o.Service), "Readings ingested by service "+b.o.Service, int64(n))
	for _, a := range assets {
		c.Add(a, "Readings received from asset "+a, perAsset[a])
		if err := b.o.Tracker.Track(ctx, db.EventIngest, b.o.Service, b.o.Plugin, a); err != nil {
			b.log.Error("asset tracking failed", "service", b.o.Service, "asset", a, "error", err)
		}
	}
	return assets
}

// settleWithin bounds how long a buffer keeps asking what became of a
// commit whose outcome is unknown; settleRetry is the longest pause
// between two questions.
const (
	settleWithin = time.Hour
	settleRetry  = 5 * time.Second
)

// settle learns what became of n readings of entries whose commit failed
// with its outcome unknown, asking until storage tells, and counts them:
// stored (BUFFERED, the service's and the assets' statistics, as any
// stored readings) or discarded. Notification rules see only readings
// committed in the write itself. Readings whose outcome cannot be learnt
// within settleWithin are counted in neither.
func (b *Buffer) settle(entries []*entry, n int, doubt InDoubt) {
	ctx, cancel := context.WithTimeout(context.Background(), settleWithin)
	defer cancel()
	pause := 100 * time.Millisecond
	for {
		stored, err := doubt.Committed(ctx)
		switch {
		case err == nil && stored:
			b.log.Info("readings whose commit was in doubt are stored", "service", b.o.Service, "readings", n)
			b.counted(ctx, entries, n, map[string]int64{}, nil)
			return
		case err == nil:
			b.log.Warn("readings whose commit was in doubt were not stored; discarded", "service", b.o.Service, "readings", n)
			b.discarded(n)
			return
		case !errors.Is(err, db.ErrOutcomeUnknown):
			b.log.Error("the outcome of a commit of readings cannot be learnt; they are counted neither stored nor discarded",
				"service", b.o.Service, "readings", n, "error", err)
			return
		}
		t := b.o.Clock.NewTimer(pause)
		select {
		case <-t.C():
		case <-ctx.Done():
			t.Stop()
			b.log.Error("the outcome of a commit of readings was not learnt in time; they are counted neither stored nor discarded",
				"service", b.o.Service, "readings", n, "error", err)
			return
		}
		pause = min(2*pause, settleRetry)
	}
}

// receipt is the plugin.Receipt of a Submit.
type receipt struct {
	done chan struct{}
	err  error
}

// resolve records the outcome; a nil receipt (a Put) ignores it.
func (r *receipt) resolve(err error) {
	if r == nil {
		return
	}
	r.err = err
	close(r.done)
}

// Wait implements plugin.Receipt.
func (r *receipt) Wait(ctx context.Context) error {
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
