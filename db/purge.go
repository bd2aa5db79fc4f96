package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
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

// PurgeBlock is the most readings one purge transaction deletes. A purge
// runs as many short transactions (steps) as it needs, sized to take a few
// milliseconds each (see purgeRun.pace), so ingest interleaves with it.
const PurgeBlock = 10000

// How a purge shares the database with ingest. SQLite has one writer: a
// purge transaction makes every insert wait until it commits, so steps are
// kept short and, while readings are being inserted, the purge waits
// purgeYield times a step's duration after it, leaving ingest at least
// purgeYield/(purgeYield+1) of the writer. On PostgreSQL the same pacing
// leaves ingest the CPU. An idle gateway purges at full speed.
const (
	purgeFirstStep  = 2000                  // readings in a run's first step
	purgeMinStep    = 500                   // the fewest readings a step aims at
	purgeStepTarget = 10 * time.Millisecond // what a step should take on SQLite
	// On PostgreSQL a step holds no lock an insert of another asset waits
	// for, and its fixed cost (half a dozen statements) is larger: a 10 ms
	// step shrank to the fewest readings and deleted four times slower.
	purgeStepTargetPostgres = 40 * time.Millisecond
	purgeYield              = 3
	// The sweep of deleted readings (deletions.go) is not waited for by
	// anyone: it leaves ingest at least 7/8 of the writer.
	sweepYield = 7
	// lockPause is how often a purge step waiting for a table lock on
	// readings to be had and released looks again.
	lockPause = 5 * time.Millisecond
)

// PurgeReadings applies p to the buffered readings: first the age limit,
// asset by asset (only assets whose oldest reading is old enough are
// visited), then the size limit, oldest inserted first ((TS, ID) order).
// On PostgreSQL it first drops whole partitions (days of ingest time) whose
// every reading the rule removes. It deletes in short transactions of at
// most PurgeBlock readings, paced so that ingest keeps most of the writer,
// and only readings present when it started, so it ends while ingest goes
// on. Each transaction keeps the assets' counts, time spans and rollups
// right, locking their asset_counts rows (in code order) before deleting.
// On an error the steps already committed stay removed and are counted in
// the result returned with the error.
func (d *DB) PurgeReadings(ctx context.Context, p PurgePolicy) (res PurgeResult, err error) {
	err = d.freeSpace(ctx, func(ctx context.Context) error {
		// A second run (see freeSpace) adds to what the first removed.
		more, err := d.purgeReadings(ctx, p, PurgeBlock)
		res.Removed += more.Removed
		res.UnsentRemoved += more.UnsentRemoved
		res.Retained = more.Retained
		return err
	})
	return res, err
}

func (d *DB) purgeReadings(ctx context.Context, p PurgePolicy, block int) (PurgeResult, error) {
	r, err := d.newPurgeRun(ctx, p.Retain, block)
	if err != nil {
		return PurgeResult{}, fmt.Errorf("db: purge readings: %w", err)
	}
	fail := func(err error) (PurgeResult, error) { return r.res, fmt.Errorf("db: purge readings: %w", err) }
	if r.limit.ok && r.maxID > 0 {
		if !p.Before.IsZero() {
			if err := r.byAge(ctx, p.Before.UTC().Truncate(time.Microsecond)); err != nil {
				return fail(err)
			}
		}
		if p.MaxRows > 0 {
			if err := r.bySize(ctx, p.MaxRows); err != nil {
				return fail(err)
			}
		}
	}
	if err := d.w.GetContext(ctx, &r.res.Retained, `SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM asset_counts`); err != nil {
		return fail(fmt.Errorf("count retained readings: %w", translate(err)))
	}
	return r.res, nil
}

// PurgeAssetReadings removes every reading of code stored when it is
// called, in one short transaction whatever the asset holds: the asset's
// count row and rollups go, and from the commit on no read sees the
// readings, whose rows a background sweep then deletes in paced steps
// (deletions.go). Readings of the asset stored afterwards are kept and
// counted. It returns how many readings it removed; an unknown asset
// removes 0. On an error nothing is removed.
func (d *DB) PurgeAssetReadings(ctx context.Context, code string) (removed int64, err error) {
	err = d.freeSpace(ctx, func(ctx context.Context) error {
		n, err := d.purgeAsset(ctx, code)
		removed += n
		return err
	})
	return removed, err
}

// PurgeAllReadings removes every buffered reading, with the counts,
// rollups and pending deletions, in one short transaction that truncates
// the readings (purge_empty.go), and returns how many it removed. Reading
// ids keep growing. On an error nothing is removed.
func (d *DB) PurgeAllReadings(ctx context.Context) (removed int64, err error) {
	err = d.freeSpace(ctx, func(ctx context.Context) error {
		n, err := d.purgeAll(ctx)
		removed += n
		return err
	})
	return removed, err
}

func (d *DB) purgeAll(ctx context.Context) (int64, error) {
	n, err := d.emptyReadings(ctx)
	if err != nil {
		return 0, fmt.Errorf("db: purge all readings: %w", err)
	}
	return n, nil
}

func (d *DB) purgeAsset(ctx context.Context, code string) (int64, error) {
	n, err := d.markAssetDeleted(ctx, code)
	if err != nil {
		return 0, fmt.Errorf("db: purge readings of asset %q: %w", code, err)
	}
	return n, nil
}

// purgeRun is one purge: its bounds, its pace and what it removed.
type purgeRun struct {
	d     *DB
	maxID int64 // readings above it arrived during the run and stay
	// retain keeps the readings after limit; limit.ok false: none may go.
	retain  bool
	limit   streamPos
	sentAll streamPos // readings after it are unsent to some destination
	maxStep int       // the most readings one step deletes
	step    int       // the readings the next step aims at
	stepped func()    // when set (tests), called after each committed step
	gentle  bool      // yield sweepYield times a step, not purgeYield
	res     PurgeResult
}

// newPurgeRun reads the bounds of a purge: the highest reading id and,
// for the retain mode, the north positions.
func (d *DB) newPurgeRun(ctx context.Context, retain Retain, maxStep int) (*purgeRun, error) {
	all, anyPos, err := d.sentBounds(ctx)
	if err != nil {
		return nil, err
	}
	r := &purgeRun{d: d, retain: retain != RetainNone, sentAll: all, maxStep: maxStep, step: min(purgeFirstStep, maxStep)}
	r.limit = streamPos{ok: true}
	switch retain {
	case RetainUnsentAny:
		r.limit = anyPos
	case RetainUnsentAll:
		r.limit = all
	}
	if err := d.w.GetContext(ctx, &r.maxID, "SELECT COALESCE(MAX(id), 0) FROM readings"); err != nil {
		return nil, fmt.Errorf("highest reading id: %w", translate(err))
	}
	return r, nil
}

// filters returns the conditions every reading a step deletes meets (an
// ID up to the run's highest, and sent far enough when retaining), and
// their arguments.
func (r *purgeRun) filters() (string, []any) {
	q, args := ` AND id <= ?`+liveOnly, []any{r.maxID}
	if r.retain {
		q += ` AND (ts < ? OR (ts = ? AND id <= ?))`
		args = append(args, r.limit.ts, r.limit.ts, r.limit.id)
	}
	return q, args
}

// run runs step until it reports nothing more to do, pacing the steps.
func (r *purgeRun) run(ctx context.Context, step func(tx *sqlx.Tx) (more bool, err error)) error {
	for {
		// A transaction waiting for a table lock on readings would wait
		// for this step too, and hold every insert back meanwhile.
		for r.d.locking.Load() > 0 {
			if err := sleep(ctx, lockPause); err != nil {
				return err
			}
		}
		inserts := r.d.ingest.started.Load()
		start := time.Now()
		var more bool
		err := r.d.inTx(ctx, func(tx *sqlx.Tx) error {
			if r.d.dialect == Postgres {
				// A step locks count rows, then deletes from readings.
				// A deletion of an asset (markAssetDeleted) locks readings,
				// then count rows: taking readings' lock first here too
				// keeps the two from deadlocking. ROW EXCLUSIVE is what
				// the step's DELETE takes anyway; inserts share it.
				if _, err := tx.ExecContext(ctx, `LOCK TABLE ONLY readings IN ROW EXCLUSIVE MODE`); err != nil {
					return fmt.Errorf("lock readings: %w", translate(err))
				}
			}
			var err error
			more, err = step(tx)
			return err
		})
		if err == nil && r.stepped != nil {
			r.stepped()
		}
		if err != nil || !more {
			return err
		}
		if err := r.pace(ctx, time.Since(start), inserts); err != nil {
			return err
		}
	}
}

// pace sizes the next step so that it takes about purgeStepTarget and
// yields to ingest after the step that took took; inserts is the count of
// inserts started before the step.
func (r *purgeRun) pace(ctx context.Context, took time.Duration, inserts int64) error {
	if took > 0 {
		target := purgeStepTarget
		if r.d.dialect == Postgres {
			target = purgeStepTargetPostgres
		}
		next := int(float64(r.step) * float64(target) / float64(took))
		r.step = max(min(next, 2*r.step, r.maxStep), min(purgeMinStep, r.maxStep))
	}
	if r.gentle {
		return r.d.yieldTimes(ctx, took, inserts, sweepYield)
	}
	return r.d.yield(ctx, took, inserts)
}

// yield waits purgeYield times took when readings were being inserted
// during the purge work that took took (inserts is the count of inserts
// started before it), so the inserts go first.
func (d *DB) yield(ctx context.Context, took time.Duration, inserts int64) error {
	return d.yieldTimes(ctx, took, inserts, purgeYield)
}

// yieldTimes is yield waiting times times took.
func (d *DB) yieldTimes(ctx context.Context, took time.Duration, inserts int64, times time.Duration) error {
	if d.ingest.started.Load() == inserts && d.ingest.inFlight.Load() == 0 {
		return nil
	}
	return sleep(ctx, times*took)
}

// sleep waits for d or until ctx is done, and then returns its error.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// asset removes code's readings (with a non-zero before, only those with a
// sensor time before it) that the run may remove, oldest sensor time
// first. Steps delete ranges of readings and end on a minute boundary
// where they can, so most minutes are emptied by one step and their
// rollups dropped by range (rebuildRollups finds no reading left in them,
// or only those that arrived during the run). A minute holding more
// readings than a step is emptied over several steps: it is listed in
// rollup_rebuilds meanwhile and its rollups rebuilt once, when the step
// that empties it commits, rather than by every step (which would read
// the readings left in it again and again). Should the run stop before,
// the minute is rebuilt on the way out, or at the next Open.
func (r *purgeRun) asset(ctx context.Context, code string, before time.Time) (err error) {
	cond, condArgs := r.filters()
	// base leaves out the age limit: a step's own bound on user_ts is below
	// it, and SQLite ranges its index scan on one upper bound only, which
	// must then be the step's, not the limit.
	base, baseArgs := `asset_code = ?`+cond, slices.Concat([]any{code}, condArgs)
	where, args := base, baseArgs
	if !before.IsZero() {
		where, args = where+` AND user_ts < ?`, slices.Concat(args, []any{before})
	}
	const minute = int64(time.Minute / time.Microsecond)
	pending, hasPending := int64(0), false // the minute being emptied over several steps
	defer func() {
		if !hasPending {
			return
		}
		// Rebuild it whatever stopped the run, even the caller going away.
		bg := context.WithoutCancel(ctx)
		rerr := r.d.inTx(bg, func(tx *sqlx.Tx) error {
			return rebuildRollups(bg, tx, []minuteRange{{asset: code, from: pending, to: pending + minute}})
		})
		if rerr != nil && err == nil {
			err = rerr
		}
	}()
	return r.run(ctx, func(tx *sqlx.Tx) (bool, error) {
		counts, err := r.lockAssets(ctx, tx, []string{code})
		if err != nil || counts[code] == 0 {
			return false, err
		}
		var first dbTime
		q := tx.Rebind(`SELECT user_ts FROM readings WHERE ` + where + ` ORDER BY user_ts, id LIMIT 1`)
		switch err := tx.GetContext(ctx, &first, q, args...); {
		case errors.Is(err, sql.ErrNoRows):
			return false, nil
		case err != nil:
			return false, fmt.Errorf("select readings: %w", translate(err))
		}
		from := minuteOf(first.Time)
		if hasPending {
			from = min(from, pending)
		}
		// The step's last reading: step readings in, or none when fewer
		// are left, and then this is the last step.
		var last struct {
			UserTS dbTime `db:"user_ts"`
			ID     int64  `db:"id"`
		}
		q = tx.Rebind(`SELECT user_ts, id FROM readings WHERE ` + where + ` ORDER BY user_ts, id LIMIT 1 OFFSET ?`)
		err = tx.GetContext(ctx, &last, q, slices.Concat(args, []any{r.step - 1})...)
		del, delArgs, more := where, args, true
		var to int64 // the minutes [from, to) are emptied by this step
		partial := false
		switch {
		case errors.Is(err, sql.ErrNoRows):
			more = false
			var newest dbTime
			if err := tx.GetContext(ctx, &newest, tx.Rebind(`SELECT MAX(user_ts) FROM readings WHERE `+where), args...); err != nil {
				return false, fmt.Errorf("select readings: %w", translate(err))
			}
			to = max(minuteOf(newest.Time)+minute, from+minute)
		case err != nil:
			return false, fmt.Errorf("select readings: %w", translate(err))
		default:
			if m := minuteOf(last.UserTS.Time); m > minuteOf(first.Time) {
				del, delArgs = base+` AND user_ts < ?`, slices.Concat(baseArgs, []any{time.UnixMicro(m).UTC()})
				to = m
			} else {
				del = base + ` AND user_ts <= ? AND (user_ts < ? OR id <= ?)`
				delArgs = slices.Concat(baseArgs, []any{last.UserTS.Time, last.UserTS.Time, last.ID})
				to, partial = m, true
			}
		}
		n, err := r.deleteRange(ctx, tx, code, counts[code], del, delArgs)
		if err != nil {
			return false, err
		}
		if to > from {
			if err := rebuildRollups(ctx, tx, []minuteRange{{asset: code, from: from, to: to}}); err != nil {
				return false, err
			}
		}
		if partial {
			q := tx.Rebind(`INSERT INTO rollup_rebuilds (asset_code, minute) VALUES (?, ?) ON CONFLICT DO NOTHING`)
			if _, err := tx.ExecContext(ctx, q, code, time.UnixMicro(to).UTC()); err != nil {
				return false, fmt.Errorf("list a minute to rebuild: %w", translate(err))
			}
		}
		// Should this transaction not commit, the minute listed by an
		// earlier one stays listed in rollup_rebuilds for the next Open.
		pending, hasPending = to, partial
		return more && n > 0, nil
	})
}

// deleteRange deletes code's readings matching where (SQL of this package
// with its args), none of another asset, takes them off the asset's count
// and time span (its locked row held count) and counts them, and the
// unsent ones among them, into the run's result. It returns how many it
// deleted. Unlike deleteReadings it does not read the rows back: the
// caller knows the minutes they were in.
func (r *purgeRun) deleteRange(ctx context.Context, tx *sqlx.Tx, code string, count int64, where string, args []any) (int64, error) {
	var unsent int64 = -1
	if r.sentAll.ok {
		q := tx.Rebind(`SELECT COUNT(*) FROM readings WHERE ` + where + ` AND (ts > ? OR (ts = ? AND id > ?))`)
		if err := tx.GetContext(ctx, &unsent, q, slices.Concat(args, []any{r.sentAll.ts, r.sentAll.ts, r.sentAll.id})...); err != nil {
			return 0, fmt.Errorf("count unsent readings: %w", translate(err))
		}
	}
	res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM readings WHERE `+where), args...)
	if err != nil {
		return 0, fmt.Errorf("delete readings: %w", translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("delete readings: %w", translate(err))
	}
	if unsent < 0 {
		unsent = n // nothing was sent anywhere
	}
	if n > 0 {
		if err := takeOff(ctx, tx, code, n, count); err != nil {
			return 0, err
		}
	}
	r.res.Removed += n
	r.res.UnsentRemoved += unsent
	return n, nil
}

// byAge removes, asset by asset, the readings sensor-stamped before cutoff.
func (r *purgeRun) byAge(ctx context.Context, cutoff time.Time) error {
	if err := r.dropPartitions(ctx, partitionRule{before: cutoff}); err != nil {
		return err
	}
	var codes []string
	q := r.d.w.Rebind(`SELECT asset_code FROM asset_counts WHERE oldest_user_ts < ? ORDER BY asset_code`)
	if err := r.d.w.SelectContext(ctx, &codes, q, cutoff); err != nil {
		return fmt.Errorf("assets with old readings: %w", translate(err))
	}
	for _, code := range codes {
		if err := r.asset(ctx, code, cutoff); err != nil {
			return err
		}
	}
	return nil
}

// bySize removes the oldest inserted readings ((TS, ID) order) while more
// than maxRows are buffered.
func (r *purgeRun) bySize(ctx context.Context, maxRows int64) error {
	if err := r.dropPartitions(ctx, partitionRule{maxRows: maxRows}); err != nil {
		return err
	}
	cond, condArgs := r.filters()
	where := `1 = 1` + cond
	return r.run(ctx, func(tx *sqlx.Tx) (bool, error) {
		var total int64
		if err := tx.GetContext(ctx, &total, `SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM asset_counts`); err != nil {
			return false, fmt.Errorf("count readings: %w", translate(err))
		}
		excess := total - maxRows
		if excess <= 0 {
			return false, nil
		}
		n := min(excess, int64(r.step))
		var last struct {
			TS dbTime `db:"ts"`
			ID int64  `db:"id"`
		}
		q := tx.Rebind(`SELECT ts, id FROM readings WHERE ` + where + ` ORDER BY ts, id LIMIT 1 OFFSET ?`)
		err := tx.GetContext(ctx, &last, q, slices.Concat(condArgs, []any{n - 1})...)
		bound, boundArgs := "", []any(nil)
		switch {
		case errors.Is(err, sql.ErrNoRows): // fewer may go: all of them
		case err != nil:
			return false, fmt.Errorf("select oldest readings: %w", translate(err))
		default:
			bound = ` AND ts <= ? AND (ts < ? OR id <= ?)`
			boundArgs = []any{last.TS.Time, last.TS.Time, last.ID}
		}
		args := slices.Concat(condArgs, boundArgs)
		var codes []string
		if err := tx.SelectContext(ctx, &codes, tx.Rebind(`SELECT DISTINCT asset_code FROM readings WHERE `+where+bound), args...); err != nil {
			return false, fmt.Errorf("select oldest readings: %w", translate(err))
		}
		if len(codes) == 0 {
			return false, nil
		}
		counts, err := r.lockAssets(ctx, tx, codes)
		if err != nil {
			return false, err
		}
		deleted, err := r.deleteReadings(ctx, tx, counts, where+bound, args)
		return deleted > 0, err
	})
}

// lockAssets locks the asset_counts rows of codes, in code order, and
// returns their counts; an asset without a row has none.
func (r *purgeRun) lockAssets(ctx context.Context, tx *sqlx.Tx, codes []string) (map[string]int64, error) {
	slices.Sort(codes)
	counts := make(map[string]int64, len(codes))
	for _, code := range codes {
		var count int64
		q := tx.Rebind(`SELECT count FROM asset_counts WHERE asset_code = ?` + r.d.forUpdate())
		err := tx.GetContext(ctx, &count, q, code)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			// Purged meanwhile: its readings are gone and nothing matches.
		case err != nil:
			return nil, fmt.Errorf("lock asset %q: %w", code, translate(err))
		}
		counts[code] = count
	}
	return counts, nil
}

// deleteReadings deletes the readings matching where (SQL of this package
// with its args) and, in the same transaction, takes them off the assets'
// counts and time spans (counts holds the locked assets' counts) and
// rebuilds the rollups of the minutes they were in. It counts them, and
// the unsent ones among them, into the run's result and returns how many
// it deleted.
func (r *purgeRun) deleteReadings(ctx context.Context, tx *sqlx.Tx, counts map[string]int64, where string, args []any) (int64, error) {
	var gone []struct {
		Code   string `db:"asset_code"`
		UserTS dbTime `db:"user_ts"`
		TS     dbTime `db:"ts"`
		ID     int64  `db:"id"`
	}
	q := tx.Rebind(`DELETE FROM readings WHERE ` + where + ` RETURNING asset_code, user_ts, ts, id`)
	if err := tx.SelectContext(ctx, &gone, q, args...); err != nil {
		return 0, fmt.Errorf("delete readings: %w", translate(err))
	}
	removed := make(map[string]int64, len(counts))
	minutes := make(map[string][]int64, len(counts))
	var unsent int64
	for _, g := range gone {
		removed[g.Code]++
		minutes[g.Code] = append(minutes[g.Code], minuteOf(g.UserTS.Time))
		if !r.sentAll.covers(g.TS.Time, g.ID) {
			unsent++
		}
	}
	codes := slices.Sorted(maps.Keys(removed))
	var unlocked []string
	for _, code := range codes {
		if _, ok := counts[code]; !ok {
			unlocked = append(unlocked, code)
		}
	}
	if len(unlocked) > 0 {
		// Rows of another asset matched after the assets were chosen (a
		// concurrent commit on PostgreSQL): lock and count it now.
		more, err := r.lockAssets(ctx, tx, unlocked)
		if err != nil {
			return 0, err
		}
		maps.Copy(counts, more)
	}
	for _, code := range codes {
		if err := takeOff(ctx, tx, code, removed[code], counts[code]); err != nil {
			return 0, err
		}
	}
	if err := rebuildRollups(ctx, tx, minuteRanges(minutes)); err != nil {
		return 0, err
	}
	r.res.Removed += int64(len(gone))
	r.res.UnsentRemoved += unsent
	return int64(len(gone)), nil
}

// takeOff takes n removed readings off code's asset_counts row, which held
// count: the row goes with the asset's last reading, else its count drops
// and its time span is read again from the readings (two index seeks).
func takeOff(ctx context.Context, tx *sqlx.Tx, code string, n, count int64) error {
	var err error
	if n >= count {
		_, err = tx.ExecContext(ctx, tx.Rebind(`DELETE FROM asset_counts WHERE asset_code = ?`), code)
	} else {
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE asset_counts SET count = count - ?,
			oldest_user_ts = (SELECT MIN(user_ts) FROM readings WHERE asset_code = ?`+liveOnly+`),
			newest_user_ts = (SELECT MAX(user_ts) FROM readings WHERE asset_code = ?`+liveOnly+`)
			WHERE asset_code = ?`), n, code, code, code)
	}
	if err != nil {
		return fmt.Errorf("update asset %q: %w", code, translate(err))
	}
	return nil
}
