package ingest

import (
	"context"
	"fmt"
	"sync"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
)

// TrackStore is the storage of the asset tracker; *db.DB implements it.
type TrackStore interface {
	// TrackAsset stores a first sighting, or clears the deprecation of a
	// known event, or does nothing for a known live event.
	TrackAsset(ctx context.Context, e db.TrackingEvent) (db.TrackOutcome, error)
}

// Tracker records asset tracking events on their first sighting per asset,
// event, service and plugin in this process: storage is written once per
// sighting that is new to the process, never per reading. It is safe for
// concurrent use.
type Tracker struct {
	store TrackStore
	edge  func(ctx context.Context) (string, error)
	clock clock.Clock

	mu   sync.Mutex // guards seen
	seen map[trackKey]bool
}

type trackKey struct{ asset, event, service, plugin string }

// NewTracker returns a tracker storing events in store, stamped with the
// instance name edge returns (the `service/name` configuration value).
func NewTracker(store TrackStore, edge func(ctx context.Context) (string, error), clk clock.Clock) *Tracker {
	return &Tracker{store: store, edge: edge, clock: clk, seen: map[trackKey]bool{}}
}

// Track records that asset passed event (Ingest, Filter, Egress) in
// service with plugin. Only the first call for a combination writes to
// storage; it stores a new event or clears the deprecation of a known one.
// A storage error is returned and the next call tries again.
func (t *Tracker) Track(ctx context.Context, event, service, plugin, asset string) error {
	k := trackKey{asset: asset, event: event, service: service, plugin: plugin}
	t.mu.Lock()
	seen := t.seen[k]
	t.mu.Unlock()
	if seen {
		return nil
	}
	edge, err := t.edge(ctx)
	if err != nil {
		return fmt.Errorf("ingest: instance name for asset tracking: %w", err)
	}
	if _, err := t.store.TrackAsset(ctx, db.TrackingEvent{Asset: asset, Event: event, Service: service,
		Plugin: plugin, Edge: edge, TS: t.clock.Now().UTC()}); err != nil {
		return fmt.Errorf("ingest: track asset %q: %w", asset, err)
	}
	t.mu.Lock()
	t.seen[k] = true
	t.mu.Unlock()
	return nil
}

// Forget makes the next sighting of asset's event in service (any plugin)
// write to storage again: after a deprecation, so that a later sighting
// clears it.
func (t *Tracker) Forget(service, asset, event string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k := range t.seen {
		if k.service == service && k.asset == asset && k.event == event {
			delete(t.seen, k)
		}
	}
}

// ForgetService forgets every sighting in service, e.g. when it is deleted.
func (t *Tracker) ForgetService(service string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k := range t.seen {
		if k.service == service {
			delete(t.seen, k)
		}
	}
}
