package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

// Retain says which readings not yet sent north a purge keeps. A reading
// is sent by a north service or task once its stream position (in
// stream_positions, keyed on the reading's (ts, id)) is at or past it.
type Retain int

// The retain modes of PURGE_READ.retainUnsent.
const (
	// RetainNone purges readings whether they were sent or not.
	RetainNone Retain = iota
	// RetainUnsentAny keeps the readings no north destination has sent:
	// a reading sent by at least one may be purged. With no north
	// destination nothing was sent, so nothing is purged.
	RetainUnsentAny
	// RetainUnsentAll keeps the readings until every north destination has
	// sent them. With no north destination nothing is purged.
	RetainUnsentAll
)

// PurgePolicy is what a purge run removes.
type PurgePolicy struct {
	// Before removes the readings whose sensor time is before it; the zero
	// time applies no age limit.
	Before time.Time
	// MaxRows keeps at most this many readings, removing the oldest
	// inserted first, after the age limit is applied; 0 applies no size
	// limit.
	MaxRows int64
	// Retain keeps unsent readings, whatever the limits say.
	Retain Retain
}

// PurgeResult is what a purge run did.
type PurgeResult struct {
	Removed int64 // readings removed
	// UnsentRemoved counts the removed readings that some north destination
	// had not sent yet (all removed readings when there is no north
	// destination).
	UnsentRemoved int64
	Retained      int64 // readings left in the buffer after the run
}

// streamPos is a north destination's position: the last (ts, id) it sent;
// ok is false when it has sent nothing.
type streamPos struct {
	ts time.Time
	id int64
	ok bool
}

// less orders positions; "nothing sent" is before every reading.
func (p streamPos) less(q streamPos) bool {
	switch {
	case !p.ok || !q.ok:
		return !p.ok && q.ok
	case !p.ts.Equal(q.ts):
		return p.ts.Before(q.ts)
	}
	return p.id < q.id
}

// covers reports whether the reading (ts, id) is at or before p.
func (p streamPos) covers(ts time.Time, id int64) bool {
	return p.ok && (ts.Before(p.ts) || ts.Equal(p.ts) && id <= p.id)
}

// sentBounds returns the position up to which every north destination has
// sent (all) and up to which at least one has (any); with no destination
// both are "nothing sent".
func (d *DB) sentBounds(ctx context.Context) (all, anyPos streamPos, err error) {
	var rows []struct {
		TS dbTime `db:"last_ts"`
		ID int64  `db:"last_id"`
	}
	if err := d.w.SelectContext(ctx, &rows, `SELECT last_ts, last_id FROM stream_positions`); err != nil {
		return streamPos{}, streamPos{}, fmt.Errorf("north stream positions: %w", translate(err))
	}
	for i, r := range rows {
		p := streamPos{ts: r.TS.Time, id: r.ID, ok: r.TS.Valid}
		if i == 0 {
			all, anyPos = p, p
			continue
		}
		if p.less(all) {
			all = p
		}
		if anyPos.less(p) {
			anyPos = p
		}
	}
	return all, anyPos, nil
}

// PurgeReadings applies p to the buffered readings: first the age limit,
// asset by asset (only assets whose oldest reading is old enough are
// visited), then the size limit, oldest inserted first. It deletes in
// transactions of at most PurgeBlock readings, so ingest interleaves, and
// only readings present when it started, so it ends while ingest goes on.
// Each block keeps the assets' counts and time spans right, locking their
// asset_counts rows (in code order) before deleting. On an error the
// blocks already committed stay removed and are counted in the result
// returned with the error.
func (d *DB) PurgeReadings(ctx context.Context, p PurgePolicy) (PurgeResult, error) {
	return d.purgeReadings(ctx, p, PurgeBlock)
}

func (d *DB) purgeReadings(ctx context.Context, p PurgePolicy, block int) (PurgeResult, error) {
	var res PurgeResult
	fail := func(err error) (PurgeResult, error) { return res, fmt.Errorf("db: purge readings: %w", err) }
	all, anyPos, err := d.sentBounds(ctx)
	if err != nil {
		return fail(err)
	}
	// Only readings up to limit may go; ok false: none may.
	limit := streamPos{ok: true}
	switch p.Retain {
	case RetainUnsentAny:
		limit = anyPos
	case RetainUnsentAll:
		limit = all
	}
	maxID, err := d.maxReadingID(ctx)
	if err != nil {
		return fail(err)
	}
	if limit.ok && maxID > 0 {
		pc := purgeCall{d: d, maxID: maxID, limit: limit, retain: p.Retain != RetainNone, sentAll: all, block: block, res: &res}
		if !p.Before.IsZero() {
			if err := pc.byAge(ctx, p.Before.UTC().Truncate(time.Microsecond)); err != nil {
				return fail(err)
			}
		}
		if p.MaxRows > 0 {
			if err := pc.bySize(ctx, p.MaxRows); err != nil {
				return fail(err)
			}
		}
	}
	if err := d.w.GetContext(ctx, &res.Retained, `SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM asset_counts`); err != nil {
		return fail(fmt.Errorf("count retained readings: %w", translate(err)))
	}
	return res, nil
}

// purgeCall is one PurgeReadings run.
type purgeCall struct {
	d       *DB
	maxID   int64     // readings above it arrived during the run and stay
	limit   streamPos // readings after it are kept (when retain)
	retain  bool
	sentAll streamPos // readings after it are unsent to some destination
	block   int
	res     *PurgeResult
}

// sentCond returns the condition keeping unsent readings, and its
// arguments; empty when unsent readings may go.
func (pc purgeCall) sentCond() (string, []any) {
	if !pc.retain {
		return "", nil
	}
	return " AND (ts < ? OR (ts = ? AND id <= ?))", []any{pc.limit.ts, pc.limit.ts, pc.limit.id}
}

// byAge removes, asset by asset, the readings sensor-stamped before cutoff.
func (pc purgeCall) byAge(ctx context.Context, cutoff time.Time) error {
	var codes []string
	q := pc.d.w.Rebind(`SELECT asset_code FROM asset_counts WHERE oldest_user_ts < ? ORDER BY asset_code`)
	if err := pc.d.w.SelectContext(ctx, &codes, q, cutoff); err != nil {
		return fmt.Errorf("assets with old readings: %w", translate(err))
	}
	cond, condArgs := pc.sentCond()
	for _, code := range codes {
		for {
			var n int64
			err := pc.d.inTx(ctx, func(tx *sqlx.Tx) error {
				sel := `SELECT id FROM readings WHERE asset_code = ? AND user_ts < ? AND id <= ?` + cond +
					` ORDER BY user_ts, id LIMIT ?`
				args := append([]any{code, cutoff, pc.maxID}, condArgs...)
				var err error
				n, err = pc.deleteBlock(ctx, tx, []string{code}, `id IN (`+sel+`)`, append(args, pc.block))
				return err
			})
			if err != nil {
				return err
			}
			if n < int64(pc.block) {
				break
			}
		}
	}
	return nil
}

// bySize removes the oldest inserted readings while more than maxRows are
// buffered.
func (pc purgeCall) bySize(ctx context.Context, maxRows int64) error {
	cond, condArgs := pc.sentCond()
	for {
		var done bool
		err := pc.d.inTx(ctx, func(tx *sqlx.Tx) error {
			var total int64
			if err := tx.GetContext(ctx, &total, `SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM asset_counts`); err != nil {
				return fmt.Errorf("count readings: %w", translate(err))
			}
			excess := total - maxRows
			if excess <= 0 {
				done = true
				return nil
			}
			var cands []struct {
				ID   int64  `db:"id"`
				Code string `db:"asset_code"`
			}
			q := tx.Rebind(`SELECT id, asset_code FROM readings WHERE id <= ?` + cond + ` ORDER BY id LIMIT ?`)
			args := append(append([]any{pc.maxID}, condArgs...), min(excess, int64(pc.block)))
			if err := tx.SelectContext(ctx, &cands, q, args...); err != nil {
				return fmt.Errorf("select oldest readings: %w", translate(err))
			}
			if len(cands) == 0 {
				done = true
				return nil
			}
			codes := make([]string, 0, 4)
			ids := make([]any, 0, len(cands))
			for _, c := range cands {
				ids = append(ids, c.ID)
				if !slices.Contains(codes, c.Code) {
					codes = append(codes, c.Code)
				}
			}
			_, err := pc.deleteBlock(ctx, tx, codes, `id IN (`+repeatJoin("?", len(ids))+`)`, ids)
			return err
		})
		if err != nil || done {
			return err
		}
	}
}

// deleteBlock locks the asset_counts rows of codes in code order, deletes
// the readings matching where (SQL of this package with its args), counts
// them into the result and corrects the assets' rows. It returns how many
// readings it deleted.
func (pc purgeCall) deleteBlock(ctx context.Context, tx *sqlx.Tx, codes []string, where string, args []any) (int64, error) {
	slices.Sort(codes)
	counts := make(map[string]int64, len(codes))
	for _, code := range codes {
		var count int64
		q := tx.Rebind(`SELECT count FROM asset_counts WHERE asset_code = ?` + pc.d.forUpdate())
		err := tx.GetContext(ctx, &count, q, code)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			// Purged meanwhile: its readings are gone and nothing matches.
		case err != nil:
			return 0, fmt.Errorf("lock asset %q: %w", code, translate(err))
		}
		counts[code] = count
	}
	var gone []struct {
		Code string `db:"asset_code"`
		TS   dbTime `db:"ts"`
		ID   int64  `db:"id"`
	}
	if err := tx.SelectContext(ctx, &gone, tx.Rebind(`DELETE FROM readings WHERE `+where+` RETURNING asset_code, ts, id`), args...); err != nil {
		return 0, fmt.Errorf("delete readings: %w", translate(err))
	}
	removed := make(map[string]int64, len(codes))
	var unsent int64
	for _, g := range gone {
		removed[g.Code]++
		if !pc.sentAll.covers(g.TS.Time, g.ID) {
			unsent++
		}
	}
	for _, code := range codes {
		n := removed[code]
		var err error
		switch {
		case n == 0:
			continue
		case n >= counts[code]:
			_, err = tx.ExecContext(ctx, tx.Rebind(`DELETE FROM asset_counts WHERE asset_code = ?`), code)
		default:
			_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE asset_counts SET count = count - ?,
				oldest_user_ts = (SELECT MIN(user_ts) FROM readings WHERE asset_code = ?),
				newest_user_ts = (SELECT MAX(user_ts) FROM readings WHERE asset_code = ?)
				WHERE asset_code = ?`), n, code, code, code)
		}
		if err != nil {
			return 0, fmt.Errorf("update asset %q: %w", code, translate(err))
		}
	}
	pc.res.Removed += int64(len(gone))
	pc.res.UnsentRemoved += unsent
	return int64(len(gone)), nil
}
