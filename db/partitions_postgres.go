package db

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Partitions of readings on PostgreSQL.
//
// readings is partitioned by range of ingest time (ts): one partition per
// UTC day, readings_pYYYYMMDD, attached ahead of time (ensurePartitions, at
// Open and at every purge run) for today and tomorrow, and readings_default
// for anything else. Ingest times are the gateway's clock, so readings land
// in today's partition and a past day's partition no longer changes. A
// purge whose rule removes every reading of a past day drops the day's
// partition instead of deleting its rows: in one transaction it reads the
// partition (under a SHARE lock, which only an insert into that day would
// wait for), takes the partition's readings off the rollups, then holds
// the exclusive lock on readings only to drop the partition and correct
// the asset counts, a few milliseconds. Whatever no whole partition holds
// is deleted row by row, as on SQLite.

// partitionPrefix starts the name of every day partition.
const partitionPrefix = "readings_p"

// partitionLockTimeout bounds how long dropping or attaching a partition
// waits for the exclusive lock on readings; inserts queue behind that wait,
// so it stays well below what an insert may take. A drop that times out is
// tried again after a pause.
const (
	partitionLockTimeout = 50 * time.Millisecond
	partitionDropTries   = 10
)

// partition is one day partition of readings: ingest times [from, to).
type partition struct {
	name     string
	from, to time.Time
}

// dayPartition returns the partition of the UTC day holding t.
func dayPartition(t time.Time) partition {
	t = t.UTC()
	from := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return partition{name: partitionPrefix + from.Format("20060102"), from: from, to: from.AddDate(0, 0, 1)}
}

// listPartitions returns the day partitions of readings, oldest first.
func listPartitions(ctx context.Context, q sqlx.QueryerContext) ([]partition, error) {
	var names []string
	err := sqlx.SelectContext(ctx, q, &names, `SELECT c.relname FROM pg_inherits i
		JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'readings'::regclass`)
	if err != nil {
		return nil, fmt.Errorf("list partitions: %w", translate(err))
	}
	var out []partition
	for _, n := range names {
		day, ok := strings.CutPrefix(n, partitionPrefix)
		if !ok {
			continue
		}
		t, err := time.Parse("20060102", day)
		if err != nil {
			continue
		}
		if p := dayPartition(t); p.name == n {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b partition) int { return a.from.Compare(b.from) })
	return out, nil
}

// ensurePartitions attaches the partitions of now's UTC day and the next,
// unless they exist or readings_default already holds readings of that day
// (which a new partition could not take; they stay there, and that day's
// readings with them). A partition is made apart and then attached, which
// takes a lighter lock on readings than creating it in place; attaching
// waits at most partitionLockTimeout for it and is tried again at the next
// call.
func (d *DB) ensurePartitions(ctx context.Context, now time.Time) error {
	have, err := listPartitions(ctx, d.w)
	if err != nil {
		return err
	}
	for _, day := range []time.Time{now, now.AddDate(0, 0, 1)} {
		p := dayPartition(day)
		if slices.ContainsFunc(have, func(h partition) bool { return h.name == p.name }) {
			continue
		}
		var taken bool
		q := `SELECT EXISTS (SELECT 1 FROM readings_default WHERE ts >= $1 AND ts < $2)`
		if err := d.w.GetContext(ctx, &taken, q, p.from, p.to); err != nil {
			return fmt.Errorf("partition %s: %w", p.name, translate(err))
		}
		if taken {
			continue
		}
		err := d.inTx(ctx, func(tx *sqlx.Tx) error {
			name := pq.QuoteIdentifier(p.name)
			from, to := pq.QuoteLiteral(p.from.Format(time.RFC3339)), pq.QuoteLiteral(p.to.Format(time.RFC3339))
			for _, stmt := range []string{
				setLockTimeout,
				`CREATE TABLE ` + name + ` (LIKE readings INCLUDING DEFAULTS)`,
				// The constraint tells ATTACH the new table needs no scan.
				`ALTER TABLE ` + name + ` ADD CONSTRAINT ` + pq.QuoteIdentifier(p.name+"_ts") +
					` CHECK (ts >= ` + from + ` AND ts < ` + to + `)`,
				`ALTER TABLE readings ATTACH PARTITION ` + name + ` FOR VALUES FROM (` + from + `) TO (` + to + `)`,
			} {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return translate(err)
				}
			}
			return nil
		})
		if err != nil && !isLockTimeout(err) {
			return fmt.Errorf("attach partition %s: %w", p.name, err)
		}
	}
	return nil
}

// dropPartitionTable drops the day partition quoted name of readings
// under the exclusive lock on readings, which waits for the inserts in
// flight (within the transaction's lock_timeout) and holds new ones back
// until tx ends.
func dropPartitionTable(ctx context.Context, tx *sqlx.Tx, name string) error {
	for _, stmt := range []string{`LOCK TABLE readings IN ACCESS EXCLUSIVE MODE`, `DROP TABLE ` + name} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return translate(err)
		}
	}
	return nil
}

// isLockTimeout reports whether err is PostgreSQL's lock_not_available
// (lock_timeout expired).
func isLockTimeout(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && pe.Code == "55P03"
}

// dropPostgresPartitions drops the past day partitions whose every reading
// rule removes (and that the run may remove: sent far enough when
// retaining), oldest first. By size, only the oldest readings may go, so it
// stops at the first partition that cannot, and only while nothing older
// lies in readings_default.
func (r *purgeRun) dropPostgresPartitions(ctx context.Context, rule partitionRule) error {
	now := time.Now().UTC()
	if err := r.d.ensurePartitions(ctx, now); err != nil {
		return err
	}
	parts, err := listPartitions(ctx, r.d.w)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if p.to.After(now) {
			return nil // today's and later partitions still take readings
		}
		if rule.maxRows > 0 {
			var older bool
			q := `SELECT EXISTS (SELECT 1 FROM readings_default WHERE ts < $1)`
			if err := r.d.w.GetContext(ctx, &older, q, p.to); err != nil {
				return fmt.Errorf("partition %s: %w", p.name, translate(err))
			}
			if older {
				return nil
			}
		}
		dropped, err := r.dropPartition(ctx, p, rule)
		if err != nil {
			return err
		}
		if !dropped && rule.maxRows > 0 {
			return nil
		}
	}
	return nil
}

// dropPartition drops p if rule removes all of it, trying again when the
// lock on readings is not had in time. It reports whether it dropped it.
func (r *purgeRun) dropPartition(ctx context.Context, p partition, rule partitionRule) (bool, error) {
	for try := 1; ; try++ {
		start := time.Now()
		dropped, res, err := r.tryDropPartition(ctx, p, rule)
		switch {
		case err == nil:
			if dropped {
				r.res.Removed += res.Removed
				r.res.UnsentRemoved += res.UnsentRemoved
			}
			return dropped, nil
		case !isLockTimeout(err) || try == partitionDropTries:
			return false, fmt.Errorf("drop partition %s: %w", p.name, err)
		}
		if err := sleep(ctx, purgeYield*time.Since(start)); err != nil {
			return false, err
		}
	}
}

// partitionReading is one reading of a partition as the drop reads it.
type partitionReading struct {
	Code   string `db:"asset_code"`
	UserTS dbTime `db:"user_ts"`
	TS     dbTime `db:"ts"`
	ID     int64  `db:"id"`
	Doc    []byte `db:"reading"`
}

// tryDropPartition is one attempt of dropPartition, in one transaction.
func (r *purgeRun) tryDropPartition(ctx context.Context, p partition, rule partitionRule) (dropped bool, res PurgeResult, err error) {
	name := pq.QuoteIdentifier(p.name)
	err = r.d.inTx(ctx, func(tx *sqlx.Tx) error {
		if err := lockWithin(ctx, tx, `LOCK TABLE `+name+` IN SHARE MODE`); err != nil {
			return err
		}
		// Readings a pending deletion covers are gone already (uncounted,
		// out of the rollups): the drop just removes their rows.
		deleted, err := pendingDeletions(ctx, tx)
		if err != nil {
			return err
		}
		// Read the partition: may all of it go, and what does it hold?
		counts := map[string]int64{}
		var rollups rollupSet
		ok := true
		// Reading a day takes seconds of CPU: yield to ingest as steps do.
		inserts, since := r.d.ingest.started.Load(), time.Now()
		err = eachRow(ctx, tx, `SELECT asset_code, user_ts, ts, id, reading::text AS reading FROM `+name, nil, func(rows *sqlx.Rows) error {
			if res.Removed%PurgeBlock == PurgeBlock-1 {
				if err := r.d.yield(ctx, time.Since(since), inserts); err != nil {
					return err
				}
				inserts, since = r.d.ingest.started.Load(), time.Now()
			}
			var pr partitionReading
			if err := rows.StructScan(&pr); err != nil {
				return translate(err)
			}
			if maxID, ok := deleted[pr.Code]; ok && pr.ID <= maxID {
				return nil
			}
			if !rule.before.IsZero() && !pr.UserTS.Time.Before(rule.before) ||
				r.retain && !r.limit.covers(pr.TS.Time, pr.ID) {
				ok = false
				return errStopRows
			}
			counts[pr.Code]++
			res.Removed++
			if !r.sentAll.covers(pr.TS.Time, pr.ID) {
				res.UnsentRemoved++
			}
			rollups.add(pr.Code, pr.UserTS.Time, pr.Doc)
			return nil
		})
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if rule.maxRows > 0 && res.Removed > 0 { // an empty partition always goes
			var total int64
			if err := tx.GetContext(ctx, &total, `SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) FROM asset_counts`); err != nil {
				return translate(err)
			}
			if total-res.Removed < rule.maxRows {
				return nil
			}
		}
		if err := dropPartitionRollups(ctx, tx, p, rollups.sorted()); err != nil {
			return err
		}
		// The exclusive lock waits for running inserts and holds new ones
		// back: from here on, only quick statements.
		if err := dropPartitionTable(ctx, tx, name); err != nil {
			return err
		}
		codes := slices.Sorted(maps.Keys(counts))
		ns := make([]int64, len(codes))
		for i, c := range codes {
			ns[i] = counts[c]
		}
		if len(codes) > 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE asset_counts a SET count = a.count - p.n,
				oldest_user_ts = (SELECT MIN(user_ts) FROM readings WHERE asset_code = a.asset_code`+liveOnly+`),
				newest_user_ts = (SELECT MAX(user_ts) FROM readings WHERE asset_code = a.asset_code`+liveOnly+`)
				FROM unnest($1::text[], $2::bigint[]) AS p(code, n) WHERE a.asset_code = p.code`,
				pq.Array(codes), pq.Array(ns)); err != nil {
				return fmt.Errorf("asset counts: %w", translate(err))
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM asset_counts WHERE asset_code = ANY($1) AND count = 0`,
				pq.Array(codes)); err != nil {
				return fmt.Errorf("asset counts: %w", translate(err))
			}
		}
		dropped = true
		return nil
	})
	if err != nil || !dropped {
		return false, PurgeResult{}, err
	}
	return true, res, nil
}

// dropPartitionRollups takes the readings of partition p, whose rollup
// rows are in, off the rollups: a row all of whose values are p's goes;
// a row with values of other readings too (a minute that p shares with
// the next day's partition, or late readings) is locked and rebuilt from
// the readings outside p. A reading inserted meanwhile into such a minute
// either is seen by the rebuild or waits for the row lock and adds to the
// rebuilt row; either way it counts once.
func dropPartitionRollups(ctx context.Context, tx *sqlx.Tx, p partition, in []rollupRow) error {
	if len(in) == 0 {
		return nil
	}
	codes := make([]string, len(in))
	points := make([]string, len(in))
	minutes := make([]string, len(in))
	ns := make([]int64, len(in))
	for i, r := range in {
		codes[i], points[i], ns[i] = r.asset, r.datapoint, r.count
		minutes[i] = time.UnixMicro(r.minute).UTC().Format(time.RFC3339)
	}
	args := []any{pq.Array(codes), pq.Array(points), pq.Array(minutes), pq.Array(ns)}
	const pRows = `unnest($1::text[], $2::text[], $3::timestamptz[], $4::bigint[]) AS p(code, datapoint, minute, n)`
	const match = `t.asset_code = p.code AND t.datapoint = p.datapoint AND t.minute = p.minute`
	if _, err := tx.ExecContext(ctx, `DELETE FROM reading_rollups t USING `+pRows+` WHERE `+match+` AND t.count = p.n`, args...); err != nil {
		return fmt.Errorf("rollups: %w", translate(err))
	}
	var mixed []struct {
		Code      string `db:"asset_code"`
		Datapoint string `db:"datapoint"`
		Minute    dbTime `db:"minute"`
	}
	if err := tx.SelectContext(ctx, &mixed, `SELECT t.asset_code, t.datapoint, t.minute FROM reading_rollups t
		JOIN `+pRows+` ON `+match+` ORDER BY 1, 2, 3 FOR UPDATE OF t`, args...); err != nil {
		return fmt.Errorf("rollups: %w", translate(err))
	}
	if len(mixed) == 0 {
		return nil
	}
	var rest rollupSet
	seen := map[assetMinute]bool{}
	for _, m := range mixed {
		am := assetMinute{asset: m.Code, minute: minuteOf(m.Minute.Time)}
		if seen[am] {
			continue
		}
		seen[am] = true
		from := m.Minute.Time
		err := eachRow(ctx, tx, `SELECT user_ts, reading::text FROM readings
			WHERE asset_code = $1 AND user_ts >= $2 AND user_ts < $3 AND (ts < $4 OR ts >= $5)`+liveOnly,
			[]any{m.Code, from, from.Add(time.Minute), p.from, p.to}, func(rows *sqlx.Rows) error {
				var ts dbTime
				var doc []byte
				if err := rows.Scan(&ts, &doc); err != nil {
					return translate(err)
				}
				rest.add(m.Code, ts.Time, doc)
				return nil
			})
		if err != nil {
			return fmt.Errorf("rollups: %w", err)
		}
	}
	rebuilt := map[rollupKey]agg{}
	for _, r := range rest.sorted() {
		rebuilt[r.rollupKey] = r.agg
	}
	for _, m := range mixed {
		k := rollupKey{asset: m.Code, datapoint: m.Datapoint, minute: minuteOf(m.Minute.Time)}
		a, ok := rebuilt[k]
		var err error
		if ok {
			_, err = tx.ExecContext(ctx, `UPDATE reading_rollups SET count = $4, scaled_sum = $5, min = $6, max = $7
				WHERE asset_code = $1 AND datapoint = $2 AND minute = $3`, m.Code, m.Datapoint, m.Minute.Time, a.count, a.sum, a.min, a.max)
		} else { // cannot be, with exact rollups; keep them exact anyway
			_, err = tx.ExecContext(ctx, `DELETE FROM reading_rollups WHERE asset_code = $1 AND datapoint = $2 AND minute = $3`,
				m.Code, m.Datapoint, m.Minute.Time)
		}
		if err != nil {
			return fmt.Errorf("rollups: %w", translate(err))
		}
	}
	return nil
}
