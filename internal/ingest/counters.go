package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
)

// StatsStore is the storage counters are flushed to; *db.DB implements it.
type StatsStore interface {
	// EnsureStatistics creates the statistics that do not exist yet.
	EnsureStatistics(ctx context.Context, stats ...db.Statistic) error
	// AddStatistics adds deltas in one transaction, creating missing keys.
	AddStatistics(ctx context.Context, deltas map[string]int64) error
}

// Counters accumulates statistics in memory and writes them to storage in
// one transaction per flush, never once per reading. It is safe for
// concurrent use.
type Counters struct {
	store StatsStore
	log   *slog.Logger

	mu       sync.Mutex       // guards deltas, flushing, doubtful, stored, pending and ensured
	deltas   map[string]int64 // key → count not yet flushed
	flushing map[string]int64 // key → count being flushed now
	// doubtful holds the counts of a flush whose commit failed with its
	// outcome unknown (doubt): added to storage or not, the next flushes
	// learn which before counting them in either place.
	doubtful map[string]int64
	doubt    InDoubt
	stored   map[string]int64  // key → value in storage, from Load on (see Total)
	pending  map[string]string // key → description, to create before the next add
	ensured  map[string]bool   // keys known to exist in storage

	flushMu sync.Mutex // serialises flushes, so deltas reach storage in order
}

// NewCounters returns counters flushed to store; logger may be nil.
func NewCounters(store StatsStore, logger *slog.Logger) *Counters {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Counters{store: store, log: logger, deltas: map[string]int64{}, stored: map[string]int64{},
		pending: map[string]string{}, ensured: map[string]bool{}}
}

// Add counts n for key. description describes the statistic should key not
// exist in storage yet.
func (c *Counters) Add(key, description string, n int64) {
	if n == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.deltas[key] += n
	if !c.ensured[key] {
		if _, ok := c.pending[key]; !ok {
			c.pending[key] = description
		}
	}
}

// Value returns the count of key not yet flushed (being flushed included).
func (c *Counters) Value(key string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deltas[key] + c.flushing[key] + c.doubtful[key]
}

// Load reads the statistics' values from storage, the base of Total; call
// it once, before counting. store is *db.DB.
func (c *Counters) Load(ctx context.Context, store interface {
	ListStatistics(ctx context.Context) ([]db.Statistic, error)
}) error {
	all, err := store.ListStatistics(ctx)
	if err != nil {
		return fmt.Errorf("ingest: load statistics: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range all {
		c.stored[st.Key] = st.Value
	}
	return nil
}

// Total returns the value of statistic key, from memory: its value in
// storage as of Load, plus what was flushed or Committed since, plus what
// is counted and not flushed yet. Ping reads its figures this way, never
// from storage.
func (c *Counters) Total(key string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stored[key] + c.deltas[key] + c.flushing[key] + c.doubtful[key]
}

// Totals returns Total of every statistic known in memory.
func (c *Counters) Totals() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int64, len(c.stored)+len(c.deltas))
	for k, v := range c.stored {
		out[k] += v
	}
	for k, v := range c.deltas {
		out[k] += v
	}
	for k, v := range c.flushing {
		out[k] += v
	}
	for k, v := range c.doubtful {
		out[k] += v
	}
	return out
}

// Committed tells the counters that deltas were added to storage by other
// means (the purge's counts), so that Total includes them.
func (c *Counters) Committed(deltas map[string]int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, v := range deltas {
		c.stored[k] += v
	}
}

// Forget drops what is known and pending about key, after its statistic
// was removed from storage (a deleted service's `<name>-Ingest`).
func (c *Counters) Forget(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.deltas, key)
	delete(c.stored, key)
	delete(c.pending, key)
	delete(c.ensured, key)
}

// Flush writes the accumulated counts to storage: new statistics are
// created with their descriptions, then every delta is added in one
// transaction. On failure nothing is lost: the counts are kept for the next
// flush, and the error is returned. A flush whose commit failed with its
// outcome unknown (InDoubt) is settled by the next flushes: they first ask
// whether it was applied, and flush nothing until that is known, so no
// count is added twice or dropped.
func (c *Counters) Flush(ctx context.Context) error {
	c.flushMu.Lock()
	defer c.flushMu.Unlock()
	if err := c.settle(ctx); err != nil {
		return err
	}

	c.mu.Lock()
	deltas, pending := c.deltas, c.pending
	c.deltas, c.pending, c.flushing = map[string]int64{}, map[string]string{}, deltas
	c.mu.Unlock()
	if len(deltas) == 0 && len(pending) == 0 {
		return nil
	}

	restore := func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.flushing = nil
		for k, v := range deltas {
			c.deltas[k] += v
		}
		for k, d := range pending {
			if _, ok := c.pending[k]; !ok && !c.ensured[k] {
				c.pending[k] = d
			}
		}
	}
	if len(pending) > 0 {
		stats := make([]db.Statistic, 0, len(pending))
		for _, k := range slices.Sorted(maps.Keys(pending)) {
			stats = append(stats, db.Statistic{Key: k, Description: pending[k]})
		}
		if err := c.store.EnsureStatistics(ctx, stats...); err != nil {
			restore()
			return fmt.Errorf("ingest: create statistics: %w", err)
		}
		c.mu.Lock()
		for k := range pending {
			c.ensured[k] = true
		}
		c.mu.Unlock()
		pending = nil
	}
	if err := c.store.AddStatistics(ctx, deltas); err != nil {
		var doubt InDoubt
		if errors.As(err, &doubt) {
			c.mu.Lock()
			c.flushing, c.doubtful, c.doubt = nil, deltas, doubt
			c.mu.Unlock()
			return fmt.Errorf("ingest: flush statistics (the next flush learns whether it was applied): %w", err)
		}
		restore()
		return fmt.Errorf("ingest: flush statistics: %w", err)
	}
	c.mu.Lock()
	c.flushing = nil
	for k, v := range deltas {
		c.stored[k] += v
	}
	c.mu.Unlock()
	return nil
}

// settle learns the outcome of the flush in doubt, if any: applied, its
// counts are stored; not applied, they are counted again for this flush.
// While the outcome is unknown it returns an error and nothing is flushed.
// flushMu is held.
func (c *Counters) settle(ctx context.Context) error {
	if c.doubt == nil {
		return nil
	}
	applied, err := c.doubt.Committed(ctx)
	if err != nil && errors.Is(err, db.ErrOutcomeUnknown) {
		return fmt.Errorf("ingest: flush statistics: waiting for the outcome of the last flush: %w", err)
	}
	if err != nil {
		// Never known: counting again risks a double count, dropping
		// them a loss; the counts were made, so they are kept.
		c.log.Error("the outcome of a statistics flush cannot be learnt; its counts are added again", "error", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, v := range c.doubtful {
		if applied {
			c.stored[k] += v
		} else {
			c.deltas[k] += v
		}
	}
	c.doubtful, c.doubt = nil, nil
	return nil
}

// Run flushes every interval until ctx ends, then flushes once more with a
// context that is not cancelled, so nothing counted is lost at shutdown.
// Flush errors are logged; the counts are retried at the next flush.
func (c *Counters) Run(ctx context.Context, clk clock.Clock, interval time.Duration) {
	for {
		t := clk.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			if err := c.Flush(final); err != nil {
				c.log.Error("final statistics flush failed; counts since the last flush are lost", "error", err)
			}
			return
		case <-t.C():
			if err := c.Flush(ctx); err != nil {
				c.log.Warn("statistics flush failed; retrying at the next interval", "error", err)
			}
		}
	}
}
