package stats

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// HistoryStore is the storage of statistics history; *db.DB implements it.
type HistoryStore interface {
	ListStatistics(ctx context.Context) ([]db.Statistic, error)
	CollectStatistics(ctx context.Context, at time.Time) (int, error)
	StatisticsHistory(ctx context.Context, limit int) ([]db.HistorySnapshot, error)
	StatisticsDeltaSums(ctx context.Context, keys []string, since time.Time) (map[string]int64, error)
}

// ConfigValues reads configuration items; *configmgr.Manager implements it.
type ConfigValues interface {
	Value(ctx context.Context, key, item string) (string, error)
}

// HistoryOptions configure a History.
type HistoryOptions struct {
	Store  HistoryStore
	Config ConfigValues
	Clock  clock.Clock
	Logger *slog.Logger
	// Flush, when set, writes counters kept in memory (the ingest
	// counters) to storage; Collect calls it first so a snapshot holds
	// every reading counted so far.
	Flush func(ctx context.Context) error
}

// History collects statistics history and answers history and rate
// queries. It is safe for concurrent use.
type History struct {
	o   HistoryOptions
	log *slog.Logger
}

// NewHistory returns a History.
func NewHistory(o HistoryOptions) *History {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &History{o: o, log: o.Logger}
}

// DefaultInterval is the collection interval, in seconds, when
// STATISTICS.interval cannot be read.
const DefaultInterval = 15

// Collect takes one history snapshot: it flushes the in-memory counters,
// then stores for every statistic its change since the previous snapshot,
// in one transaction. It is the process of the "stats collection"
// schedule. A failed flush is logged and the snapshot taken anyway (the
// counts not flushed show in the next one).
func (h *History) Collect(ctx context.Context) error {
	if h.o.Flush != nil {
		if err := h.o.Flush(ctx); err != nil {
			h.log.Warn("statistics not flushed before a history snapshot", "error", err)
		}
	}
	if _, err := h.o.Store.CollectStatistics(ctx, h.o.Clock.Now()); err != nil {
		return fmt.Errorf("collect statistics history: %w", err)
	}
	return nil
}

// Interval returns STATISTICS.interval, the seconds between snapshots.
func (h *History) Interval(ctx context.Context) (int, error) {
	v, err := h.o.Config.Value(ctx, configmgr.CategoryStatistics, configmgr.ItemStatisticsInterval)
	if err != nil {
		return 0, fmt.Errorf("statistics interval: %w", err)
	}
	n, ok := positive(v)
	if !ok {
		h.log.Warn("STATISTICS.interval is not a positive integer; reporting the default", "value", v, "default", DefaultInterval)
		return DefaultInterval, nil
	}
	return n, nil
}

// positive parses v as a positive integer.
func positive(v string) (int, bool) {
	n, err := strconv.Atoi(v)
	return n, err == nil && n > 0
}

// Entries returns the collection interval and the limit newest snapshots,
// newest first.
func (h *History) Entries(ctx context.Context, limit int) (int, []db.HistorySnapshot, error) {
	if limit < 1 {
		return 0, nil, fault.New(fault.Invalid, "limit must be at least 1")
	}
	interval, err := h.Interval(ctx)
	if err != nil {
		return 0, nil, err
	}
	snaps, err := h.o.Store.StatisticsHistory(ctx, limit)
	if err != nil {
		return 0, nil, fmt.Errorf("statistics history: %w", err)
	}
	return interval, snaps, nil
}

// Rates returns, for each statistic named in the comma-separated list
// statistics and each period (minutes) in the comma-separated list
// periods, the rate in counts per minute: the sum of the statistic's
// history deltas of the last period minutes divided by period. Spaces
// around names are ignored and repeated names or periods count once.
// Either list empty, or a period that is not a positive integer: Invalid;
// a statistic that does not exist: NotFound.
func (h *History) Rates(ctx context.Context, statistics, periods string) (map[string]map[int]float64, error) {
	keys := splitList(statistics)
	if len(keys) == 0 {
		return nil, fault.New(fault.Invalid, "query parameter statistics names no statistic")
	}
	var mins []int
	for _, p := range splitList(periods) {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return nil, fault.New(fault.Invalid, "period %q in query parameter periods is not a positive integer of minutes", p)
		}
		if !slices.Contains(mins, n) {
			mins = append(mins, n)
		}
	}
	if len(mins) == 0 {
		return nil, fault.New(fault.Invalid, "query parameter periods names no period")
	}
	all, err := h.o.Store.ListStatistics(ctx)
	if err != nil {
		return nil, fmt.Errorf("statistics rates: %w", err)
	}
	for _, k := range keys {
		if !slices.ContainsFunc(all, func(s db.Statistic) bool { return s.Key == k }) {
			return nil, fault.New(fault.NotFound, "statistic %q not found", k)
		}
	}
	now := h.o.Clock.Now()
	out := make(map[string]map[int]float64, len(keys))
	for _, k := range keys {
		out[k] = make(map[int]float64, len(mins))
	}
	for _, m := range mins {
		sums, err := h.o.Store.StatisticsDeltaSums(ctx, keys, now.Add(-time.Duration(m)*time.Minute))
		if err != nil {
			return nil, fmt.Errorf("statistics rates: %w", err)
		}
		for _, k := range keys {
			out[k][m] = float64(sums[k]) / float64(m)
		}
	}
	return out, nil
}

// splitList splits a comma-separated list, trimming spaces and dropping
// empty and repeated elements.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}
