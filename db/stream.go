package db

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
)

// NorthTaskProcess is the process name of the schedules of north tasks. A
// north task is a schedule running this process, named after the task,
// with a configuration category of the same name; a north service is a
// row of services of type north.
const NorthTaskProcess = "north"

// StreamPosition is a north service's or task's place in the readings
// stream, which is ordered by (TS, ID): the last reading it sent. Sent is
// false while it has sent nothing, and then every buffered reading is
// ahead of it.
type StreamPosition struct {
	TS   time.Time // the last sent reading's ingest time, UTC
	ID   int64     // the last sent reading's id
	Sent bool
}

// PositionOf returns the position just after r.
func PositionOf(r Reading) StreamPosition {
	return StreamPosition{TS: r.TS, ID: r.ID, Sent: true}
}

// The readings stream.
//
// Readings are stamped with their ingest time TS before their transaction
// commits, and transactions commit in any order, so a reading with a
// smaller (TS, ID) than one already committed may still become visible: a
// reader that moved its position past the later reading would never see
// the earlier one. The stream fence rules that out for the readings this
// process inserts. Each InsertReadings registers its batch (the smallest
// TS in it) until it has committed or failed; ReadStream reads only
// readings with a TS below the fence's bound: the smallest TS still in
// flight, or, with none in flight, the current time (or just past the
// newest TS committed, when that is later). A batch registered after a
// bound was handed out has every TS below that bound raised to it, so it
// lands ahead of any position a reader can hold, also when the clock
// steps back. Readings inserted by other processes are not covered: one
// gateway process owns its database.

// streamFence orders the readings stream; its zero value is ready.
type streamFence struct {
	mu        sync.Mutex           // guards every field
	inflight  map[uint64]time.Time // batch → smallest TS, until committed or failed
	next      uint64               // next batch number
	issued    time.Time            // the highest bound handed to a reader
	committed time.Time            // the newest TS committed by this process
	changed   chan struct{}        // closed at the next commit; nil until asked for
}

// enter registers a batch about to be inserted, raising every TS below the
// highest bound handed out to it. It returns the function to call once
// the transaction ended; ok says whether it committed.
func (f *streamFence) enter(rows []Reading) (done func(ok bool)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var least, most time.Time
	for i := range rows {
		if rows[i].TS.Before(f.issued) {
			rows[i].TS = f.issued
		}
		if i == 0 || rows[i].TS.Before(least) {
			least = rows[i].TS
		}
		if rows[i].TS.After(most) {
			most = rows[i].TS
		}
	}
	if f.inflight == nil {
		f.inflight = map[uint64]time.Time{}
	}
	id := f.next
	f.next++
	f.inflight[id] = least
	return func(ok bool) {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.inflight, id)
		if ok {
			if most.After(f.committed) {
				f.committed = most
			}
			if f.changed != nil {
				close(f.changed)
				f.changed = nil
			}
		}
	}
}

// bound returns the TS below which every reading this process inserted is
// committed, and promises that later batches land at or after it.
func (f *streamFence) bound(now time.Time) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b time.Time
	if len(f.inflight) > 0 {
		first := true
		for _, ts := range f.inflight {
			if first || ts.Before(b) {
				b, first = ts, false
			}
		}
	} else {
		b = now
		if next := f.committed.Add(time.Microsecond); next.After(b) {
			b = next
		}
	}
	if b.Before(f.issued) {
		b = f.issued
	}
	f.issued = b
	return b
}

// wait returns a channel closed at the next commit of readings.
func (f *streamFence) wait() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.changed == nil {
		f.changed = make(chan struct{})
	}
	return f.changed
}

// ReadingsCommitted returns a channel closed when this process next
// commits readings, so a north loop that caught up sleeps until there is
// more to read.
func (d *DB) ReadingsCommitted() <-chan struct{} { return d.fence.wait() }

// ReadStream returns up to limit readings after position after, in stream
// order ((TS, ID) ascending), walking the (ts, id) index. It never returns
// a reading that a reading not yet committed could precede (see the stream
// fence above), so a reader that saves the position of the last reading
// it sent misses nothing. Readings removed by a purge are skipped. A limit
// below 1 returns none; driver errors are returned wrapped.
func (d *DB) ReadStream(ctx context.Context, after StreamPosition, limit int) ([]Reading, error) {
	if limit < 1 {
		return []Reading{}, nil
	}
	q, args := readStreamSQL(after, d.fence.bound(now()), limit)
	var rows []readingRow
	if err := d.r.SelectContext(ctx, &rows, d.r.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("db: read stream: %w", translate(err))
	}
	out := make([]Reading, len(rows))
	for i, r := range rows {
		out[i] = Reading{ID: r.ID, AssetCode: r.AssetCode, Reading: r.Reading, UserTS: r.UserTS.Time, TS: r.TS.Time}
	}
	return out, nil
}

// readStreamSQL returns the query of ReadStream: an index range on
// (ts, id) from after to bound, in index order.
func readStreamSQL(after StreamPosition, bound time.Time, limit int) (string, []any) {
	q := `SELECT id, asset_code, reading, user_ts, ts FROM readings WHERE ts < ?` + liveOnly
	args := []any{bound}
	if after.Sent {
		q += ` AND ts >= ? AND (ts > ? OR id > ?)`
		args = append(args, after.TS, after.TS, after.ID)
	}
	return q + ` ORDER BY ts, id LIMIT ?`, append(args, limit)
}

// CreateStreamPosition registers the north service or task name with
// nothing sent, so that a purge keeping unsent readings keeps them for it;
// an existing position is left alone.
func (d *DB) CreateStreamPosition(ctx context.Context, name string) error {
	q := d.w.Rebind(`INSERT INTO stream_positions (name, last_ts, last_id, updated_at) VALUES (?, NULL, 0, ?)
		ON CONFLICT (name) DO NOTHING`)
	if _, err := d.w.ExecContext(ctx, q, name, now()); err != nil {
		return fmt.Errorf("db: create stream position %q: %w", name, translate(err))
	}
	return nil
}

// GetStreamPosition returns the position of the north service or task
// name; an error wrapping ErrNotFound when it has none.
func (d *DB) GetStreamPosition(ctx context.Context, name string) (StreamPosition, error) {
	var r struct {
		TS dbTime `db:"last_ts"`
		ID int64  `db:"last_id"`
	}
	q := d.r.Rebind(`SELECT last_ts, last_id FROM stream_positions WHERE name = ?`)
	if err := d.r.GetContext(ctx, &r, q, name); err != nil {
		return StreamPosition{}, fmt.Errorf("db: get stream position %q: %w", name, translate(err))
	}
	if !r.TS.Valid {
		return StreamPosition{}, nil
	}
	return StreamPosition{TS: r.TS.Time, ID: r.ID, Sent: true}, nil
}

// SaveStreamPosition stores p as the position of name, creating it if
// needed. A position with Sent false stores "nothing sent". North services
// and tasks move their position with AdvanceStream, which counts what was
// sent in the same transaction.
func (d *DB) SaveStreamPosition(ctx context.Context, name string, p StreamPosition) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error { return savePosition(ctx, tx, name, p) })
	if err != nil {
		return fmt.Errorf("db: save stream position %q: %w", name, err)
	}
	return nil
}

// DeleteStreamPosition removes the position of name, so a purge keeping
// unsent readings no longer waits for it; removing none is no error.
func (d *DB) DeleteStreamPosition(ctx context.Context, name string) error {
	if _, err := d.w.ExecContext(ctx, d.w.Rebind(`DELETE FROM stream_positions WHERE name = ?`), name); err != nil {
		return fmt.Errorf("db: delete stream position %q: %w", name, translate(err))
	}
	return nil
}

// DeleteNorthTask removes, in one transaction, the north task name: its
// schedule (a schedule of process NorthTaskProcess), its configuration
// category (with its parent and child links), its stream position, its
// statistics (sent and set aside) and the readings it set aside; what it
// sent stays sent. An unknown task gives an error
// wrapping ErrNotFound and nothing is removed; so does a schedule of
// another process.
func (d *DB) DeleteNorthTask(ctx context.Context, name string) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		var id string
		q := tx.Rebind(`SELECT id FROM schedules WHERE name = ? AND process_name = ?` + d.forUpdate())
		if err := tx.GetContext(ctx, &id, q, name, NorthTaskProcess); err != nil {
			return translate(err)
		}
		for _, s := range []struct {
			q   string
			arg string
		}{
			{`DELETE FROM schedules WHERE id = ?`, id},
			{`DELETE FROM categories WHERE key = ?`, name},
			{`DELETE FROM stream_positions WHERE name = ?`, name},
			{`DELETE FROM statistics WHERE key = ?`, name},
			{`DELETE FROM statistics WHERE key = ?`, SetAsideKey(name)},
			{`DELETE FROM north_set_aside WHERE name = ?`, name},
		} {
			if _, err := tx.ExecContext(ctx, tx.Rebind(s.q), s.arg); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: delete north task %q: %w", name, err)
	}
	return nil
}
