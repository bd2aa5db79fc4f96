package notification

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Rule items the feed reads to learn what the rules watch.
const (
	ruleAsset     = "asset"
	ruleAuditCode = "auditCode"
	ruleStatistic = "statistic"
)

// maxPending bounds the bytes of readings waiting to be handed to the
// notification service; beyond it readings are dropped for the rules
// (never for storage) and counted.
const maxPending = 16 << 20

// statisticsEvery is how often the statistics are handed over while a
// rule watches them.
const statisticsEvery = 5 * time.Second

// feedGap is the least time between two batches of readings handed to the
// notification service: at full-rate ingest a batch per commit made
// hundreds of calls a second, each costing both processes more than the
// readings in it; 20 ms adds little to a notification's latency.
const feedGap = 20 * time.Millisecond

// interest is what the enabled instances' rules watch.
type interest struct {
	assets     map[string]bool
	codes      map[string]bool
	statistics bool
}

// Feed hands the notification service what its rules watch, without ever
// holding up ingest: committed readings of watched assets are queued, up
// to a bound of their values' bytes, for one goroutine that sends them, in
// batches, while the previous batch is being evaluated. It is safe for
// concurrent use.
type Feed struct {
	services Services
	log      *slog.Logger
	watching atomic.Pointer[interest]

	mu           sync.Mutex // guards pending, pendingBytes, audits and dropped
	pending      []edgeplugin.Reading
	pendingBytes int
	audits       []auditSeen
	dropped      int64
	wake         chan struct{} // cap 1
}

type auditSeen struct {
	code string
	at   time.Time
}

func newFeed(s Services, log *slog.Logger) *Feed {
	f := &Feed{services: s, log: log, wake: make(chan struct{}, 1)}
	f.watching.Store(&interest{})
	return f
}

// watch learns what the enabled instances' rules watch.
func (f *Feed) watch(ws []Wire) {
	in := &interest{assets: map[string]bool{}, codes: map[string]bool{}}
	for _, w := range ws {
		if !w.Enabled {
			continue
		}
		if a := w.RuleConfig[ruleAsset]; a != "" {
			in.assets[a] = true
		}
		if c := w.RuleConfig[ruleAuditCode]; c != "" {
			in.codes[c] = true
		}
		if w.RuleConfig[ruleStatistic] != "" {
			in.statistics = true
		}
	}
	f.watching.Store(in)
}

// Committed implements ingest.Listener: readings of watched assets are
// queued for the notification service.
func (f *Feed) Committed(_ string, rs []plugin.Reading) {
	in := f.watching.Load()
	if len(in.assets) == 0 || !f.services.Running(serviceTypeNotify) {
		return
	}
	f.mu.Lock()
	queued := false
	for _, r := range rs {
		if !in.assets[r.Asset] {
			continue
		}
		if f.pendingBytes > maxPending {
			f.dropped++
			continue
		}
		f.pending = append(f.pending, edgeplugin.Reading{Asset: r.Asset, Timestamp: r.Timestamp.UTC(), Values: r.Values})
		f.pendingBytes += len(r.Asset) + len(r.Values)
		queued = true
	}
	f.mu.Unlock()
	if queued {
		f.signal()
	}
}

// Audited tells the feed an audit entry was written.
func (f *Feed) Audited(code string, at time.Time) {
	if !f.watching.Load().codes[code] {
		return
	}
	f.mu.Lock()
	f.audits = append(f.audits, auditSeen{code: code, at: at.UTC()})
	f.mu.Unlock()
	f.signal()
}

func (f *Feed) signal() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// Run sends what was queued, and the statistics while a rule watches
// them, until ctx ends. counters returns the statistics' totals.
func (f *Feed) Run(ctx context.Context, counters func() map[string]int64) {
	tick := time.NewTicker(statisticsEvery)
	defer tick.Stop()
	var sent time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if f.watching.Load().statistics {
				at, totals := time.Now().UTC(), counters()
				f.send(ctx, "statistics", func(n edgeplugin.NotificationCalls) error { return n.Statistics(ctx, at, totals) })
			}
		case <-f.wake:
			if wait := feedGap - time.Since(sent); wait > 0 {
				select { // what arrives meanwhile goes in the same batch
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
			}
			sent = time.Now()
			f.mu.Lock()
			audits, readings, dropped := f.audits, f.pending, f.dropped
			f.audits, f.pending, f.pendingBytes, f.dropped = nil, nil, 0, 0
			f.mu.Unlock()
			if dropped > 0 {
				f.log.Warn("readings not evaluated by the notification rules: the notification service fell behind", "readings", dropped)
			}
			for _, a := range audits {
				f.send(ctx, "audit", func(n edgeplugin.NotificationCalls) error { return n.Audited(ctx, a.code, a.at) })
			}
			if len(readings) > 0 {
				f.send(ctx, "readings", func(n edgeplugin.NotificationCalls) error { return n.Readings(ctx, readings) })
			}
		}
	}
}

// send hands one message to the notification service; with none
// running it is dropped.
func (f *Feed) send(ctx context.Context, what string, call func(edgeplugin.NotificationCalls) error) {
	n, err := f.services.Notification()
	if err == nil {
		err = call(n)
	}
	if err != nil && !errors.Is(err, fault.Conflict) && ctx.Err() == nil {
		f.log.Warn("notification service did not take what its rules watch", "call", what, "error", err)
	}
}
