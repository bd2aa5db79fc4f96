package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Deleting one asset's readings.
//
// A deletion takes effect in one short transaction whatever the asset
// holds: it notes in reading_deletions that the asset's readings up to the
// highest reading id stored are deleted, removes the asset's count row and
// drops its rollups and listed rollup rebuilds by asset. From its commit
// on, every read of readings (an asset's readings and values, series and
// rollup rebuilds from raw rows, the north stream and its lag, purges)
// leaves out the readings a pending deletion covers (an anti-join on a
// table that is almost always empty), so counts, summaries and rollups
// describe exactly the readings that are left, and readings of the asset
// stored after the deletion (higher ids) are kept and counted anew.
//
// The rows themselves are removed by a sweeper that runs beside the
// gateway in short paced steps (as purges are paced, but yielding more:
// while readings arrive ingest keeps at least 7/8 of the writer) and drops the deletion's row when none is left. It is
// started by Open, which resumes what a previous run left, kicked by every
// deletion, and looks again every sweepPoll (a restored backup may hold
// pending deletions).

// sweepPoll is how often the sweeper looks for pending deletions it was
// not told about, and retries after an error.
const sweepPoll = 30 * time.Second

// notDeleted is the condition, on the readings row named by alias, that no
// pending deletion covers it.
func notDeleted(alias string) string {
	return ` AND NOT EXISTS (SELECT 1 FROM reading_deletions x WHERE x.asset_code = ` + alias +
		`.asset_code AND x.max_id >= ` + alias + `.id)`
}

// liveOnly is notDeleted on a query of readings that does not rename it.
var liveOnly = notDeleted("readings")

// markAssetDeleted deletes code's readings as described above and returns
// how many there were (0 for an asset without readings, which changes
// nothing).
func (d *DB) markAssetDeleted(ctx context.Context, code string) (removed int64, err error) {
	err = d.inLockedTx(ctx, `LOCK TABLE readings IN SHARE MODE`, func(tx *sqlx.Tx) error {
		removed = 0
		// On PostgreSQL the SHARE lock waited for the inserts in flight and
		// holds new ones back until the commit: every reading with an id up
		// to the highest is committed, and counted in asset_counts. On
		// SQLite the write transaction does the same.
		q := tx.Rebind(`SELECT count FROM asset_counts WHERE asset_code = ?`)
		switch err := tx.GetContext(ctx, &removed, q, code); {
		case errors.Is(err, sql.ErrNoRows):
			return nil
		case err != nil:
			return fmt.Errorf("count readings: %w", translate(err))
		}
		var maxID int64
		if err := tx.GetContext(ctx, &maxID, `SELECT COALESCE(MAX(id), 0) FROM readings`); err != nil {
			return fmt.Errorf("highest reading id: %w", translate(err))
		}
		for _, s := range []string{
			`DELETE FROM asset_counts WHERE asset_code = ?`,
			`DELETE FROM reading_rollups WHERE asset_code = ?`,
			`DELETE FROM rollup_rebuilds WHERE asset_code = ?`,
		} {
			if _, err := tx.ExecContext(ctx, tx.Rebind(s), code); err != nil {
				return translate(err)
			}
		}
		q = tx.Rebind(`INSERT INTO reading_deletions (asset_code, max_id, deleted_at) VALUES (?, ?, ?)
			ON CONFLICT (asset_code) DO UPDATE SET max_id = excluded.max_id, deleted_at = excluded.deleted_at`)
		if _, err := tx.ExecContext(ctx, q, code, maxID, now()); err != nil {
			return fmt.Errorf("note the deletion: %w", translate(err))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if removed > 0 {
		d.sweeper.wake()
	}
	return removed, nil
}

// lockTries bounds how often inLockedTx tries for a PostgreSQL table lock
// with a short wait (inserts queue behind a lock being waited for), pausing
// purgeYield times as long after each; the last try waits as long as it
// takes.
const lockTries = 40

// inLockedTx runs fn in a write transaction that first takes lock (a LOCK
// TABLE statement) on PostgreSQL, waiting at most partitionLockTimeout for
// it and trying again after a pause while a long read holds the table.
func (d *DB) inLockedTx(ctx context.Context, lock string, fn func(tx *sqlx.Tx) error) error {
	d.locking.Add(1)
	defer d.locking.Add(-1)
	for try := 1; ; try++ {
		start := time.Now()
		err := d.inTx(ctx, func(tx *sqlx.Tx) error {
			switch {
			case d.dialect != Postgres:
			case try < lockTries:
				if err := lockWithin(ctx, tx, lock); err != nil {
					return err
				}
			default:
				if _, err := tx.ExecContext(ctx, lock); err != nil {
					return translate(err)
				}
			}
			return fn(tx)
		})
		if err == nil || !isLockTimeout(err) && !isDeadlock(err) {
			return err
		}
		if err := sleep(ctx, purgeYield*time.Since(start)); err != nil {
			return err
		}
	}
}

// setLockTimeout limits the waits for locks of the rest of a PostgreSQL
// transaction to partitionLockTimeout.
var setLockTimeout = fmt.Sprintf(`SET LOCAL lock_timeout = '%dms'`, partitionLockTimeout.Milliseconds())

// lockWithin runs lock (a LOCK TABLE statement) in tx on PostgreSQL,
// waiting at most partitionLockTimeout for it (the rest of tx keeps that
// limit too).
func lockWithin(ctx context.Context, tx *sqlx.Tx, lock string) error {
	if _, err := tx.ExecContext(ctx, setLockTimeout); err != nil {
		return translate(err)
	}
	if _, err := tx.ExecContext(ctx, lock); err != nil {
		return translate(err)
	}
	return nil
}

// isDeadlock reports whether err is PostgreSQL's deadlock_detected: the
// transaction was chosen to end a lock cycle and may be tried again.
// Purge steps take readings' lock before the count rows, as a deletion
// does (purgeRun.run), so a cycle needs some other writer.
func isDeadlock(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && pe.Code == "40P01"
}

// pendingDeletion is one row of reading_deletions.
type pendingDeletion struct {
	Code  string `db:"asset_code"`
	MaxID int64  `db:"max_id"`
}

// pendingDeletions returns the deletions whose rows are still to be
// removed, by asset code.
func pendingDeletions(ctx context.Context, q sqlx.QueryerContext) (map[string]int64, error) {
	var rows []pendingDeletion
	if err := sqlx.SelectContext(ctx, q, &rows, `SELECT asset_code, max_id FROM reading_deletions`); err != nil {
		return nil, fmt.Errorf("pending deletions: %w", translate(err))
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.Code] = r.MaxID
	}
	return out, nil
}

// sweepDeletions removes the rows of every pending deletion, in paced
// steps of at most block readings, and drops each deletion once its rows are gone. It returns when
// none is pending, or with ctx's error when ctx ends first (what it
// removed stays removed; the rest is removed by the next sweep).
func (d *DB) sweepDeletions(ctx context.Context, block int) error {
	if d.dialect == Postgres {
		if err := d.dropDeletedPartitions(ctx); err != nil {
			return fmt.Errorf("db: sweep deletions: %w", err)
		}
	}
	for {
		var pending []pendingDeletion
		if err := d.w.SelectContext(ctx, &pending, `SELECT asset_code, max_id FROM reading_deletions ORDER BY asset_code`); err != nil {
			return fmt.Errorf("db: sweep deletions: %w", translate(err))
		}
		if len(pending) == 0 {
			return nil
		}
		for _, p := range pending {
			if err := d.sweepAsset(ctx, p, block); err != nil {
				return fmt.Errorf("db: sweep the deleted readings of asset %q: %w", p.Code, err)
			}
		}
	}
}

// dropDeletedPartitions drops, on PostgreSQL, the past days' partitions
// of readings that hold no reading but what pending deletions cover (an
// asset deleted whole after days alone in them): their rows go with one
// DROP instead of row by row. The check reads the partition under a SHARE
// lock (a past day takes no insert); the exclusive lock on readings is
// held only for the drop, waiting at most partitionLockTimeout for it. A
// partition whose lock is not had in time is left to the row sweep.
func (d *DB) dropDeletedPartitions(ctx context.Context) error {
	parts, err := listPartitions(ctx, d.w)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	for _, p := range parts {
		if p.to.After(now) {
			return nil // today's and later partitions still take readings
		}
		name := pq.QuoteIdentifier(p.name)
		err := d.inTx(ctx, func(tx *sqlx.Tx) error {
			if err := lockWithin(ctx, tx, `LOCK TABLE `+name+` IN SHARE MODE`); err != nil {
				return err
			}
			deleted, err := pendingDeletions(ctx, tx)
			if err != nil {
				return err
			}
			// The partition's assets, one index seek each (a loose index
			// scan), rather than a scan of its rows.
			var codes []string
			if err := tx.SelectContext(ctx, &codes, `WITH RECURSIVE a (c) AS (
					SELECT MIN(asset_code) FROM `+name+`
					UNION ALL
					SELECT (SELECT MIN(asset_code) FROM `+name+` WHERE asset_code > a.c) FROM a WHERE a.c IS NOT NULL
				) SELECT c FROM a WHERE c IS NOT NULL`); err != nil {
				return translate(err)
			}
			if len(codes) == 0 {
				return nil // an empty partition is a purge's to drop, in its own time
			}
			for _, c := range codes {
				maxID, ok := deleted[c]
				if !ok {
					return nil // readings of an asset no deletion covers
				}
				// Readings of the asset stored after its deletion: an
				// index range on the ids above the deletion's.
				var later bool
				q := `SELECT EXISTS (SELECT 1 FROM ` + name + ` WHERE id > $1 AND asset_code = $2)`
				if err := tx.GetContext(ctx, &later, q, maxID, c); err != nil {
					return translate(err)
				}
				if later {
					return nil
				}
			}
			return dropPartitionTable(ctx, tx, name)
		})
		if err != nil && !isLockTimeout(err) {
			return fmt.Errorf("drop partition %s: %w", p.name, err)
		}
	}
	return nil
}

// sweepAsset removes the rows deletion p covers, oldest sensor time first,
// in steps sized and paced as a purge's, then drops p unless a later
// deletion of the asset raised its bound meanwhile.
func (d *DB) sweepAsset(ctx context.Context, p pendingDeletion, block int) error {
	r := &purgeRun{d: d, maxStep: block, step: min(purgeFirstStep, block), stepped: d.swept, gentle: true}
	const covered = `asset_code = ? AND id <= ?`
	err := r.run(ctx, func(tx *sqlx.Tx) (bool, error) {
		// The step's last reading, step readings in; none when fewer are
		// left, and then this step removes them all.
		var last dbTime
		q := tx.Rebind(`SELECT user_ts FROM readings WHERE ` + covered + ` ORDER BY user_ts LIMIT 1 OFFSET ?`)
		del, args, more := covered, []any{p.Code, p.MaxID}, true
		switch err := tx.GetContext(ctx, &last, q, p.Code, p.MaxID, r.step-1); {
		case errors.Is(err, sql.ErrNoRows):
			more = false
		case err != nil:
			return false, fmt.Errorf("select readings: %w", translate(err))
		default:
			del, args = covered+` AND user_ts <= ?`, append(args, last.Time)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM readings WHERE `+del), args...); err != nil {
			return false, fmt.Errorf("delete readings: %w", translate(err))
		}
		if !more {
			q := tx.Rebind(`DELETE FROM reading_deletions WHERE asset_code = ? AND max_id = ?`)
			if _, err := tx.ExecContext(ctx, q, p.Code, p.MaxID); err != nil {
				return false, fmt.Errorf("drop the deletion: %w", translate(err))
			}
		}
		return more, nil
	})
	return err
}

// sweeper runs sweepDeletions in the background from Open to Close.
type sweeper struct {
	kick   chan struct{}
	cancel context.CancelFunc
	done   chan struct{}
}

// startSweeper starts d's sweeper, which sweeps at once (what a previous
// run left), whenever woken and every sweepPoll.
func (d *DB) startSweeper() {
	ctx, cancel := context.WithCancel(context.Background())
	s := &sweeper{kick: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{})}
	d.sweeper = s
	go func() {
		defer close(s.done)
		t := time.NewTicker(sweepPoll)
		defer t.Stop()
		for {
			// An error (the database unavailable for a while) is tried
			// again at the next wake-up or poll; the deletion has taken
			// effect whatever happens to its rows.
			_ = d.sweepDeletions(ctx, PurgeBlock)
			select {
			case <-ctx.Done():
				return
			case <-s.kick:
			case <-t.C:
			}
		}
	}()
}

// wake has the sweeper sweep now (or right after the sweep it is in).
func (s *sweeper) wake() {
	if s == nil {
		return
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// close stops the sweeper, leaving what is not swept to the next Open.
func (s *sweeper) close() {
	if s == nil {
		return
	}
	s.cancel()
	<-s.done
}
