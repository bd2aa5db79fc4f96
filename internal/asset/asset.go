// Package asset serves the readings buffered per asset: the asset list, an
// asset's readings newest first by page or by time window, the values of
// one reading key, its summary and time series, the time spans, and the
// developer purge. It applies the query rules of the API (which parameters
// exclude each other, defaults) and computes time windows from its clock;
// storage does the work and wire formatting is the caller's.
package asset

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/stats"
)

// Store is the storage the service reads and purges; *db.DB implements it.
type Store interface {
	ListAssets(ctx context.Context) ([]db.AssetCount, error)
	AssetReadings(ctx context.Context, code string, w db.Window) ([]db.Reading, error)
	AssetReadingValues(ctx context.Context, code, key string, w db.Window) ([]db.ReadingValue, error)
	ReadingSummary(ctx context.Context, code, key string) (db.Summary, error)
	AssetSummaries(ctx context.Context, code string) ([]db.DatapointSummary, error)
	ReadingSeries(ctx context.Context, code, key string, b db.Bucket, w db.Window) ([]db.SeriesPoint, error)
	AssetTimespan(ctx context.Context, code string) (db.Timespan, error)
	AllTimespans(ctx context.Context) ([]db.Timespan, error)
	PurgeAssetReadings(ctx context.Context, code string) (int64, error)
	PurgeAllReadings(ctx context.Context) (int64, error)
	AddStatistics(ctx context.Context, deltas map[string]int64) error
}

// Auditor records audit entries; *audit.Logger implements it.
type Auditor interface {
	Record(ctx context.Context, source, severity string, details any) error
}

// Clock tells the time windows are computed from.
type Clock interface {
	Now() time.Time
}

// Paging rules of the API (decisions §1).
const (
	DefaultLimit = 20
	MaxLimit     = 10000
)

// maxSpan bounds how far back a window reaches, so that huge counts of
// hours cannot overflow time arithmetic; no reading is that old.
const maxSpan = 200 * 365 * 24 * time.Hour

// Query holds the paging and time-window parameters of a readings, values
// or series request as the client sent them; nil means absent.
type Query struct {
	Limit    *int
	Skip     *int
	Seconds  *int
	Minutes  *int
	Hours    *int
	Previous *int
}

// Service answers the asset operations. It is safe for concurrent use.
type Service struct {
	store Store
	audit Auditor
	clock Clock
	log   *slog.Logger
}

// New returns a Service over store that audits purges with audit and
// computes time windows with clock. A nil logger discards.
func New(store Store, audit Auditor, clock Clock, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{store: store, audit: audit, clock: clock, log: log}
}

// Assets returns every asset with buffered readings and its count, sorted by
// code.
func (s *Service) Assets(ctx context.Context) ([]db.AssetCount, error) {
	as, err := s.store.ListAssets(ctx)
	if err != nil {
		return nil, fmt.Errorf("list assets: %w", err)
	}
	return as, nil
}

// Readings returns code's readings selected by q, newest first. An empty
// window gives an empty list; an asset without buffered readings is a
// fault.NotFound (as for every read of one asset). Invalid or conflicting
// parameters give a fault.Invalid naming them.
func (s *Service) Readings(ctx context.Context, code string, q Query) ([]db.Reading, error) {
	w, err := s.Window(q)
	if err != nil {
		return nil, err
	}
	rs, err := s.store.AssetReadings(ctx, code, w)
	if err != nil {
		return nil, fmt.Errorf("readings of asset %q: %w", code, err)
	}
	if err := s.known(ctx, code, len(rs)); err != nil {
		return nil, err
	}
	return rs, nil
}

// TimestampKey is the property every single-reading entry has; a reading
// key of that name cannot be listed next to it.
const TimestampKey = "timestamp"

// Values returns, newest first, the value of reading key key of code's
// readings selected by q; readings without the key are left out. An unknown
// key or an empty window gives an empty list; an asset without buffered
// readings is a fault.NotFound. The key "timestamp", which would collide
// with the entry's own timestamp, and invalid or conflicting parameters give
// a fault.Invalid.
func (s *Service) Values(ctx context.Context, code, key string, q Query) ([]db.ReadingValue, error) {
	if key == TimestampKey {
		return nil, fault.New(fault.Invalid,
			"reading key %q cannot be listed on its own: it collides with the entry's timestamp; read the whole readings instead", key)
	}
	w, err := s.Window(q)
	if err != nil {
		return nil, err
	}
	vs, err := s.store.AssetReadingValues(ctx, code, key, w)
	if err != nil {
		return nil, fmt.Errorf("values of %q of asset %q: %w", key, code, err)
	}
	if err := s.known(ctx, code, len(vs)); err != nil {
		return nil, err
	}
	return vs, nil
}

// Summary returns minimum, maximum and average of the numeric values of
// reading key key over all of code's readings. An asset without readings,
// or a key without a numeric value, is a fault.NotFound.
func (s *Service) Summary(ctx context.Context, code, key string) (db.Summary, error) {
	sum, err := s.store.ReadingSummary(ctx, code, key)
	if err == nil {
		return sum, nil
	}
	if !errors.Is(err, db.ErrNotFound) {
		return db.Summary{}, fmt.Errorf("summary of %q of asset %q: %w", key, code, err)
	}
	if _, err := s.Timespan(ctx, code); err != nil {
		return db.Summary{}, err
	}
	return db.Summary{}, fault.New(fault.NotFound, "reading %q of asset %q has no numeric values", key, code)
}

// Summaries returns minimum, maximum and average of every numeric reading
// key (datapoint) of code's readings, keyed by reading key (empty when none
// holds a number). It reads the per-minute rollups, so it costs little
// whatever the asset holds. An asset without readings is a
// fault.NotFound.
func (s *Service) Summaries(ctx context.Context, code string) (map[string]db.Summary, error) {
	sums, err := s.store.AssetSummaries(ctx, code)
	if err != nil {
		return nil, fmt.Errorf("summaries of asset %q: %w", code, err)
	}
	if len(sums) == 0 {
		if _, err := s.Timespan(ctx, code); err != nil {
			return nil, err
		}
	}
	out := make(map[string]db.Summary, len(sums))
	for _, d := range sums {
		out[d.Datapoint] = d.Summary
	}
	return out, nil
}

// Groups maps the series group parameter to its bucket width.
var groups = map[string]db.Bucket{
	"seconds": db.BucketSecond,
	"minutes": db.BucketMinute,
	"hours":   db.BucketHour,
}

// Series groups the numeric values of reading key key of code's readings
// into buckets of one second, minute or hour (group "seconds", "minutes" or
// "hours"; "" is seconds) and returns one entry per bucket, newest first;
// q's limit and skip count buckets. An unknown key or an empty window gives
// an empty list; an asset without buffered readings is a fault.NotFound. An unknown group and invalid or conflicting
// parameters give a fault.Invalid.
func (s *Service) Series(ctx context.Context, code, key, group string, q Query) ([]db.SeriesPoint, error) {
	if group == "" {
		group = "seconds"
	}
	b, ok := groups[group]
	if !ok {
		return nil, fault.New(fault.Invalid, "query parameter group is %q; use seconds, minutes or hours", group)
	}
	w, err := s.Window(q)
	if err != nil {
		return nil, err
	}
	ps, err := s.store.ReadingSeries(ctx, code, key, b, w)
	if err != nil {
		return nil, fmt.Errorf("series of %q of asset %q: %w", key, code, err)
	}
	if err := s.known(ctx, code, len(ps)); err != nil {
		return nil, err
	}
	return ps, nil
}

// known tells an empty answer for a known asset (an empty window, an unknown
// key: nil) from one for an asset without buffered readings (the
// fault.NotFound of Timespan). Every read of one named asset answers an
// unknown asset alike (decisions §1); the extra look-up costs a query only
// when a read found nothing.
func (s *Service) known(ctx context.Context, code string, found int) error {
	if found > 0 {
		return nil
	}
	_, err := s.Timespan(ctx, code)
	return err
}

// Timespan returns the sensor times of code's oldest and newest buffered
// reading; an asset without readings is a fault.NotFound.
func (s *Service) Timespan(ctx context.Context, code string) (db.Timespan, error) {
	ts, err := s.store.AssetTimespan(ctx, code)
	if errors.Is(err, db.ErrNotFound) {
		return db.Timespan{}, fault.Wrap(fault.NotFound, err, "asset %q has no buffered readings", code)
	}
	if err != nil {
		return db.Timespan{}, fmt.Errorf("timespan of asset %q: %w", code, err)
	}
	return ts, nil
}

// Timespans returns the time span of every asset with buffered readings,
// sorted by code.
func (s *Service) Timespans(ctx context.Context) ([]db.Timespan, error) {
	ts, err := s.store.AllTimespans(ctx)
	if err != nil {
		return nil, fmt.Errorf("asset timespans: %w", err)
	}
	return ts, nil
}

// Purge irreversibly removes code's buffered readings and returns how many
// it removed (0 for an unknown asset). It writes a PURGE audit entry and
// adds the count to the PURGED statistic, also when the purge failed part
// way (the blocks removed stay removed).
func (s *Service) Purge(ctx context.Context, code string) (int64, error) {
	n, err := s.store.PurgeAssetReadings(ctx, code)
	s.recordPurge(ctx, n, map[string]any{"asset": code})
	if err != nil {
		return n, fmt.Errorf("purge asset %q: %w", code, err)
	}
	return n, nil
}

// PurgeAll irreversibly removes the buffered readings of every asset and
// returns how many it removed, auditing and counting as Purge does.
func (s *Service) PurgeAll(ctx context.Context) (int64, error) {
	n, err := s.store.PurgeAllReadings(ctx)
	s.recordPurge(ctx, n, map[string]any{})
	if err != nil {
		return n, fmt.Errorf("purge all readings: %w", err)
	}
	return n, nil
}

// recordPurge writes the PURGE audit entry (details plus rowsRemoved and
// rowsRetained, the readings left in the buffer) and adds n to PURGED. The
// purge has happened whatever these do, so their failures are logged, not
// returned.
func (s *Service) recordPurge(ctx context.Context, n int64, details map[string]any) {
	ctx = context.WithoutCancel(ctx) // the purge is done: record it even if the client left
	details["rowsRemoved"] = n
	if assets, err := s.store.ListAssets(ctx); err == nil {
		var left int64
		for _, a := range assets {
			left += a.Count
		}
		details["rowsRetained"] = left
	} else {
		s.log.ErrorContext(ctx, "purge: count retained readings", "error", err)
	}
	if err := s.audit.Record(ctx, auditcode.Purge, auditcode.Information, details); err != nil {
		s.log.ErrorContext(ctx, "purge: audit", "error", err, "removed", n)
	}
	if n > 0 {
		if err := s.store.AddStatistics(ctx, map[string]int64{stats.Purged: n, stats.Buffered: -n}); err != nil {
			s.log.ErrorContext(ctx, "purge: add to "+stats.Purged, "error", err, "removed", n)
		}
	}
}
