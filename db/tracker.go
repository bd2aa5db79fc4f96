package db

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

// Asset tracking event kinds.
const (
	EventIngest = "Ingest"
	EventFilter = "Filter"
	EventEgress = "Egress"
)

// TrackingEvent records that an asset passed through a service and plugin
// (the first sighting of that asset, event, service and plugin).
type TrackingEvent struct {
	Asset        string
	Event        string // Ingest, Filter or Egress
	Service      string
	Plugin       string
	Edge         string    // the gateway instance's name when first tracked
	TS           time.Time // when first tracked
	DeprecatedTS time.Time // zero when the event is not deprecated
}

// TrackingFilter selects tracking events; empty fields match everything.
type TrackingFilter struct {
	Asset   string
	Event   string
	Service string
}

// TrackOutcome is what TrackAsset did.
type TrackOutcome int

// The outcomes of TrackAsset.
const (
	TrackKnown        TrackOutcome = iota // the event was tracked and is not deprecated: nothing changed
	TrackCreated                          // the event was new and is now stored
	TrackUndeprecated                     // the event was deprecated; its deprecation is cleared
)

type trackingRow struct {
	Asset        string `db:"asset"`
	Event        string `db:"event"`
	Service      string `db:"service"`
	Plugin       string `db:"plugin"`
	Edge         string `db:"edge"`
	TS           dbTime `db:"ts"`
	DeprecatedTS dbTime `db:"deprecated_ts"`
}

func (r trackingRow) event() TrackingEvent {
	return TrackingEvent{Asset: r.Asset, Event: r.Event, Service: r.Service, Plugin: r.Plugin,
		Edge: r.Edge, TS: r.TS.Time, DeprecatedTS: r.DeprecatedTS.Time}
}

// TrackAsset records a sighting of e.Asset (its Asset, Event, Service and
// Plugin): a new event is stored with e.Edge and e.TS (now when zero); an
// existing deprecated one has its deprecation cleared (its first-tracked
// time and edge are kept); an existing live one is left alone. Concurrent
// calls for the same event are safe. An invalid event kind gives an error
// wrapping no sentinel.
func (d *DB) TrackAsset(ctx context.Context, e TrackingEvent) (TrackOutcome, error) {
	if e.TS.IsZero() {
		e.TS = now()
	}
	var out TrackOutcome
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		var deprecated dbTime
		q := tx.Rebind(`SELECT deprecated_ts FROM asset_tracker
			WHERE asset = ? AND event = ? AND service = ? AND plugin = ?` + d.forUpdate())
		err := tx.GetContext(ctx, &deprecated, q, e.Asset, e.Event, e.Service, e.Plugin)
		switch {
		case errors.Is(translate(err), ErrNotFound):
			ins := tx.Rebind(`INSERT INTO asset_tracker (asset, event, service, plugin, edge, ts)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (asset, event, service, plugin) DO NOTHING`)
			if _, err := tx.ExecContext(ctx, ins, e.Asset, e.Event, e.Service, e.Plugin, e.Edge, e.TS.UTC()); err != nil {
				return translate(err)
			}
			out = TrackCreated
		case err != nil:
			return translate(err)
		case deprecated.Valid:
			upd := tx.Rebind(`UPDATE asset_tracker SET deprecated_ts = NULL
				WHERE asset = ? AND event = ? AND service = ? AND plugin = ?`)
			if _, err := tx.ExecContext(ctx, upd, e.Asset, e.Event, e.Service, e.Plugin); err != nil {
				return translate(err)
			}
			out = TrackUndeprecated
		default:
			out = TrackKnown
		}
		return nil
	})
	if err != nil {
		return TrackKnown, fmt.Errorf("db: track asset %q: %w", e.Asset, err)
	}
	return out, nil
}

// trackRowsPerStatement bounds the events one INSERT of trackAssetsInTx
// holds (six parameters each).
const trackRowsPerStatement = 100

// TrackAssets records many sightings in one transaction, each as
// TrackAsset does (new: stored; deprecated: its deprecation cleared; live:
// left alone), and returns how many rows it created or changed. Events
// with a zero TS are stamped now.
func (d *DB) TrackAssets(ctx context.Context, events []TrackingEvent) (int64, error) {
	if len(events) == 0 {
		return 0, nil
	}
	var n int64
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		n, err = trackAssets(ctx, tx, events, nil)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("db: track assets: %w", err)
	}
	return n, nil
}

// trackAssetsInTx is TrackAssets within tx, for a writer recording the
// first sightings of a batch in the batch's transaction.
func trackAssetsInTx(ctx context.Context, tx *sqlx.Tx, events []TrackingEvent, plan *sql.Stmt) error {
	if len(events) == 0 {
		return nil
	}
	if _, err := trackAssets(ctx, tx, events, plan); err != nil {
		return fmt.Errorf("asset tracking: %w", err)
	}
	return nil
}

// trackAssets upserts events in (asset, event, service, plugin) order, so
// that concurrent writers lock the rows in the same order, in multi-row
// statements: a conflict with a deprecated row clears the deprecation and
// leaves its first-tracked time and edge; a conflict with a live row
// changes nothing. plan, when not nil, is the statement of len(events)
// rows prepared before the transaction (see trackPlan).
func trackAssets(ctx context.Context, tx *sqlx.Tx, events []TrackingEvent, plan *sql.Stmt) (int64, error) {
	sorted := slices.Clone(events)
	slices.SortFunc(sorted, func(a, b TrackingEvent) int {
		return cmp.Or(cmp.Compare(a.Asset, b.Asset), cmp.Compare(a.Event, b.Event),
			cmp.Compare(a.Service, b.Service), cmp.Compare(a.Plugin, b.Plugin))
	})
	sorted = slices.CompactFunc(sorted, func(a, b TrackingEvent) bool {
		return a.Asset == b.Asset && a.Event == b.Event && a.Service == b.Service && a.Plugin == b.Plugin
	})
	stamp := now()
	var changed int64
	for chunk := range slices.Chunk(sorted, trackRowsPerStatement) {
		args := make([]any, 0, 6*len(chunk))
		for _, e := range chunk {
			ts := e.TS
			if ts.IsZero() {
				ts = stamp
			}
			args = append(args, e.Asset, e.Event, e.Service, e.Plugin, e.Edge, ts.UTC())
		}
		var res sql.Result
		var err error
		if plan != nil && len(chunk) == len(events) {
			res, err = execStmtInTx(ctx, tx, plan, args)
		} else {
			res, err = tx.ExecContext(ctx, tx.Rebind(trackSQL(len(chunk))), args...)
		}
		if err != nil {
			return 0, translate(err)
		}
		if n, err := res.RowsAffected(); err == nil {
			changed += n
		}
	}
	return changed, nil
}

// execStmtInTx runs the prepared s within tx and returns its result.
func execStmtInTx(ctx context.Context, tx *sqlx.Tx, s *sql.Stmt, args []any) (sql.Result, error) {
	ts := tx.StmtContext(ctx, s)
	defer func() { _ = ts.Close() }()
	return ts.ExecContext(ctx, args...)
}

// trackSQL is the upsert of n tracking events.
func trackSQL(n int) string {
	return `INSERT INTO asset_tracker (asset, event, service, plugin, edge, ts) VALUES ` +
		repeatJoin("(?, ?, ?, ?, ?, ?)", n) + `
		ON CONFLICT (asset, event, service, plugin) DO UPDATE SET deprecated_ts = NULL
		WHERE asset_tracker.deprecated_ts IS NOT NULL`
}

// trackPlan returns SQLite's prepared upsert of n tracking events (one
// statement), or nil when n is 0 or above trackRowsPerStatement. It must
// run outside a write transaction.
func (d *DB) trackPlan(ctx context.Context, n int) (*sql.Stmt, error) {
	if n == 0 || n > trackRowsPerStatement {
		return nil, nil
	}
	s, err := d.prepared.get(ctx, d.w, trackSQL(n)) //nolint:sqlclosecheck // cached, closed with the DB
	if err != nil {
		return nil, fmt.Errorf("asset tracking: %w", err)
	}
	return s, nil
}

// ListTrackingEvents returns the events matching f in the order they were
// first tracked. None is an empty, non-nil slice.
func (d *DB) ListTrackingEvents(ctx context.Context, f TrackingFilter) ([]TrackingEvent, error) {
	q := `SELECT asset, event, service, plugin, edge, ts, deprecated_ts FROM asset_tracker WHERE 1 = 1`
	var args []any
	for _, c := range []struct{ col, v string }{{"asset", f.Asset}, {"event", f.Event}, {"service", f.Service}} {
		if c.v != "" {
			q += " AND " + c.col + " = ?"
			args = append(args, c.v)
		}
	}
	var rows []trackingRow
	if err := d.r.SelectContext(ctx, &rows, d.r.Rebind(q+" ORDER BY ts, id"), args...); err != nil {
		return nil, fmt.Errorf("db: list tracking events: %w", translate(err))
	}
	out := make([]TrackingEvent, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.event())
	}
	return out, nil
}

// DeprecateTrackingEvent marks the event of asset in service deprecated
// (every plugin's, should the service have tracked it with several) and
// returns the time set. No such event gives an error wrapping ErrNotFound;
// an event already deprecated one wrapping ErrConflict.
func (d *DB) DeprecateTrackingEvent(ctx context.Context, service, asset, event string) (time.Time, error) {
	at := now()
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		var live []int64
		var total int
		q := tx.Rebind(`SELECT COUNT(*) FROM asset_tracker WHERE service = ? AND asset = ? AND event = ?`)
		if err := tx.GetContext(ctx, &total, q, service, asset, event); err != nil {
			return translate(err)
		}
		if total == 0 {
			return ErrNotFound
		}
		q = tx.Rebind(`SELECT id FROM asset_tracker
			WHERE service = ? AND asset = ? AND event = ? AND deprecated_ts IS NULL` + d.forUpdate())
		if err := tx.SelectContext(ctx, &live, q, service, asset, event); err != nil {
			return translate(err)
		}
		if len(live) == 0 {
			return ErrConflict
		}
		upd := tx.Rebind(`UPDATE asset_tracker SET deprecated_ts = ?
			WHERE service = ? AND asset = ? AND event = ? AND deprecated_ts IS NULL`)
		_, err := tx.ExecContext(ctx, upd, at, service, asset, event)
		return translate(err)
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("db: deprecate %s event of asset %q in service %q: %w", event, asset, service, err)
	}
	return at, nil
}
