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

// Unseen returns the tracking events of assets (event, service, plugin)
// that this process has not recorded yet, stamped now with the instance
// name, for a writer to store in its batch's transaction (see
// TrackedStore); Seen marks them recorded once that commits. assets must
// be distinct. An error reading the instance name is returned.
func (t *Tracker) Unseen(ctx context.Context, event, service, plugin string, assets []string) ([]db.TrackingEvent, error) {
	var out []db.TrackingEvent
	t.mu.Lock()
	for _, a := range assets {
		k := trackKey{asset: a, event: event, service: service, plugin: plugin}
		if !t.seen[k] {
			out = append(out, db.TrackingEvent{Asset: a, Event: event, Service: service, Plugin: plugin})
		}
	}
	t.mu.Unlock()
	if len(out) == 0 {
		return nil, nil
	}
	edge, err := t.edge(ctx)
	if err != nil {
		return nil, fmt.Errorf("ingest: instance name for asset tracking: %w", err)
	}
	ts := t.clock.Now().UTC()
	for i := range out {
		out[i].Edge, out[i].TS = edge, ts
	}
	return out, nil
}

// Seen marks events recorded in storage, so that Track does not write
// them again.
func (t *Tracker) Seen(events []db.TrackingEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range events {
		t.seen[trackKey{asset: e.Asset, event: e.Event, service: e.Service, plugin: e.Plugin}] = true
	}
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
