package db

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

// Rollups.
//
// reading_rollups holds, per asset, per numeric datapoint (a top-level key
// of the reading documents) and per minute of sensor time, the count, the
// scaled sum (see sumScale), the minimum and the maximum of the datapoint's
// numeric values. InsertReadings adds each batch to it in the batch's
// transaction, and every purge transaction rebuilds the minutes it touched
// from the readings that remain, so the rollups always describe exactly the
// readings stored. Summaries, and series with buckets of a minute or more,
// read the rollups instead of the readings: their cost follows the minutes
// an asset spans, not its readings.

// rollupRowsPerStatement bounds the rows of one multi-row rollup upsert (7
// parameters each, far below both dialects' parameter limits).
const rollupRowsPerStatement = 500

// rollupKey names one rollup row; minute is its start in Unix microseconds.
type rollupKey struct {
	asset, datapoint string
	minute           int64
}

// rollupRow is one rollup row to write.
type rollupRow struct {
	rollupKey
	agg
}

// minuteOf returns the start of t's minute in Unix microseconds (a floor,
// exact before 1970 too).
func minuteOf(t time.Time) int64 {
	us := t.UnixMicro()
	const m = int64(time.Minute / time.Microsecond)
	return us - ((us%m)+m)%m
}

// rollupSet accumulates readings into rollup rows.
type rollupSet struct {
	rows map[assetMinute]*minuteAggs
	buf  []member
	// The asset and minute of the previous reading and their aggregates: a
	// batch mostly holds runs of one asset's readings within one minute.
	last   *minuteAggs
	lastAM assetMinute
}

type assetMinute struct {
	asset  string
	minute int64
}

// minuteAggs holds the aggregates of one asset's minute, a datapoint's at
// the same index in keys and aggs. Readings of one asset usually list the
// same datapoints in the same order, so a member is looked for at its
// position among the reading's numeric members first, then among the
// others (by a map once there are many).
type minuteAggs struct {
	keys  []string
	aggs  []agg
	index map[string]int // nil up to minuteAggsScan datapoints
	// Room for the first datapoints, so a minute of a few costs one
	// allocation.
	keys0 [4]string
	aggs0 [4]agg
}

// minuteAggsScan is the most datapoints a minute looks through one by one.
const minuteAggsScan = 8

func newMinuteAggs() *minuteAggs {
	m := &minuteAggs{}
	m.keys, m.aggs = m.keys0[:0], m.aggs0[:0]
	return m
}

// of returns the aggregate of key, the reading's pos-th numeric member,
// adding it when it is new. The pointer is valid until the next call.
func (m *minuteAggs) of(key []byte, pos int) *agg {
	if pos < len(m.keys) && m.keys[pos] == string(key) {
		return &m.aggs[pos]
	}
	if m.index != nil {
		if i, ok := m.index[string(key)]; ok {
			return &m.aggs[i]
		}
	} else {
		for i, k := range m.keys {
			if k == string(key) {
				return &m.aggs[i]
			}
		}
	}
	k := string(key)
	m.keys = append(m.keys, k)
	m.aggs = append(m.aggs, agg{})
	if m.index != nil {
		m.index[k] = len(m.keys) - 1
	} else if len(m.keys) > minuteAggsScan {
		m.index = make(map[string]int, 2*len(m.keys))
		for i, k := range m.keys {
			m.index[k] = i
		}
	}
	return &m.aggs[len(m.aggs)-1]
}

// add adds the numeric members of r's document to the set.
func (s *rollupSet) add(asset string, userTS time.Time, doc []byte) {
	am := assetMinute{asset: asset, minute: minuteOf(userTS)}
	m := s.last
	if m == nil || s.lastAM != am {
		m = s.rows[am]
	}
	pos := 0
	s.buf = numericMembers(doc, s.buf, func(key []byte, v float64) {
		if m == nil {
			if s.rows == nil {
				s.rows = make(map[assetMinute]*minuteAggs)
			}
			m = newMinuteAggs()
			s.rows[am] = m
		}
		m.of(key, pos).add(v)
		pos++
	})
	if m != nil {
		s.last, s.lastAM = m, am
	}
}

// sorted returns the set's rows ordered by asset, datapoint and minute: the
// order every writer locks rollup rows in, so concurrent writers cannot
// deadlock on PostgreSQL.
func (s *rollupSet) sorted() []rollupRow {
	n := 0
	for _, m := range s.rows {
		n += len(m.keys)
	}
	out := make([]rollupRow, 0, n)
	for am, m := range s.rows {
		for i, k := range m.keys {
			out = append(out, rollupRow{rollupKey: rollupKey{asset: am.asset, datapoint: k, minute: am.minute}, agg: m.aggs[i]})
		}
	}
	slices.SortFunc(out, func(a, b rollupRow) int {
		return cmp.Or(cmp.Compare(a.asset, b.asset), cmp.Compare(a.datapoint, b.datapoint), cmp.Compare(a.minute, b.minute))
	})
	return out
}

// rollupsOf returns the rollup rows of readings rs, whose times are set.
func rollupsOf(rs []Reading) []rollupRow {
	var s rollupSet
	for _, r := range rs {
		s.add(r.AssetCode, r.UserTS, r.Reading)
	}
	return s.sorted()
}

// rollupUpsertSQL is the upsert of n rollup rows: counts and sums add up,
// minimum and maximum widen.
func rollupUpsertSQL(n int) string {
	return `INSERT INTO reading_rollups (asset_code, datapoint, minute, count, scaled_sum, min, max) VALUES ` +
		repeatJoin("(?, ?, ?, ?, ?, ?, ?)", n) + ` ON CONFLICT (asset_code, datapoint, minute) DO UPDATE SET
		count = reading_rollups.count + excluded.count,
		scaled_sum = reading_rollups.scaled_sum + excluded.scaled_sum,
		min = CASE WHEN excluded.min < reading_rollups.min THEN excluded.min ELSE reading_rollups.min END,
		max = CASE WHEN excluded.max > reading_rollups.max THEN excluded.max ELSE reading_rollups.max END`
}

// addRollups adds rows to reading_rollups in tx. InsertReadings calls it
// in the batch's transaction, after the asset counts, so that a purge
// (which locks the asset's count row first) and an insert take their locks
// in one order. plan, when not nil, holds the prepared upserts for
// len(rows) rows (rollupPlan); otherwise each chunk's statement is
// built.
func addRollups(ctx context.Context, tx *sqlx.Tx, rows []rollupRow, plan []*sql.Stmt) error {
	args := make([]any, 0, 7*min(len(rows), rollupRowsPerStatement))
	for i := 0; len(rows) > 0; i++ {
		n := min(len(rows), rollupRowsPerStatement)
		if plan != nil {
			n = planSize(len(rows), preparedRollupMaxRows)
		}
		args = args[:0]
		for _, r := range rows[:n] {
			args = append(args, r.asset, r.datapoint, time.UnixMicro(r.minute).UTC(), r.count, r.sum, r.min, r.max)
		}
		var err error
		if plan != nil {
			err = execInTx(ctx, tx, plan[i], args)
		} else {
			_, err = tx.ExecContext(ctx, tx.Rebind(rollupUpsertSQL(n)), args...)
		}
		if err != nil {
			return fmt.Errorf("rollups: %w", translate(err))
		}
		rows = rows[n:]
	}
	return nil
}

// minuteRange is a range of whole minutes of one asset's sensor time,
// [from, to) in Unix microseconds.
type minuteRange struct {
	asset    string
	from, to int64
}

// minuteRanges returns the minutes of each asset in minutes (Unix
// microseconds, any order, repeats allowed) as runs of consecutive minutes,
// ordered by asset and time.
func minuteRanges(minutes map[string][]int64) []minuteRange {
	const m = int64(time.Minute / time.Microsecond)
	var out []minuteRange
	for asset, ms := range minutes {
		slices.Sort(ms)
		ms = slices.Compact(ms)
		for i := 0; i < len(ms); {
			j := i + 1
			for j < len(ms) && ms[j] == ms[j-1]+m {
				j++
			}
			out = append(out, minuteRange{asset: asset, from: ms[i], to: ms[j-1] + m})
			i = j
		}
	}
	slices.SortFunc(out, func(a, b minuteRange) int { return cmp.Or(cmp.Compare(a.asset, b.asset), cmp.Compare(a.from, b.from)) })
	return out
}

// rebuildRollups replaces, in tx, the rollup rows of every minute in
// ranges with the aggregate of the readings stored in it, so they are
// exact whatever was deleted or added, and takes the minutes off
// rollup_rebuilds. Its cost follows the readings left in the ranges: a
// range a purge emptied is dropped by range whatever it spans.
func rebuildRollups(ctx context.Context, tx *sqlx.Tx, ranges []minuteRange) error {
	var s rollupSet
	for _, r := range ranges {
		from, to := time.UnixMicro(r.from).UTC(), time.UnixMicro(r.to).UTC()
		err := eachRow(ctx, tx, tx.Rebind(`SELECT user_ts, reading FROM readings
			WHERE asset_code = ? AND user_ts >= ? AND user_ts < ?`+liveOnly), []any{r.asset, from, to}, func(rows *sqlx.Rows) error {
			var ts dbTime
			var doc []byte
			if err := rows.Scan(&ts, &doc); err != nil {
				return translate(err)
			}
			s.add(r.asset, ts.Time, doc)
			return nil
		})
		if err != nil {
			return fmt.Errorf("rebuild rollups: %w", err)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM reading_rollups
			WHERE asset_code = ? AND minute >= ? AND minute < ?`), r.asset, from, to); err != nil {
			return fmt.Errorf("rebuild rollups: %w", translate(err))
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM rollup_rebuilds
			WHERE asset_code = ? AND minute >= ? AND minute < ?`), r.asset, from, to); err != nil {
			return fmt.Errorf("rebuild rollups: %w", translate(err))
		}
	}
	return addRollups(ctx, tx, s.sorted(), nil)
}

// rebuildBatchMinutes bounds the minutes one transaction of
// rebuildPendingRollups rebuilds.
const rebuildBatchMinutes = 1000

// rebuildPendingRollups rebuilds the minutes listed in rollup_rebuilds
// (the migration that introduced the rollups lists every minute holding
// readings) and empties it, a bounded number of minutes per transaction.
// Open runs it, so a database migrated with readings in it has its rollups
// before anything reads them.
func (d *DB) rebuildPendingRollups(ctx context.Context) error {
	for {
		var done bool
		err := d.inTx(ctx, func(tx *sqlx.Tx) error {
			var pending []struct {
				Asset  string `db:"asset_code"`
				Minute dbTime `db:"minute"`
			}
			q := tx.Rebind(`SELECT asset_code, minute FROM rollup_rebuilds ORDER BY asset_code, minute LIMIT ?`)
			if err := tx.SelectContext(ctx, &pending, q, rebuildBatchMinutes); err != nil {
				return translate(err)
			}
			if len(pending) == 0 {
				done = true
				return nil
			}
			minutes := map[string][]int64{}
			for _, p := range pending {
				minutes[p.Asset] = append(minutes[p.Asset], minuteOf(p.Minute.Time))
			}
			if err := rebuildRollups(ctx, tx, minuteRanges(minutes)); err != nil {
				return err
			}
			for _, p := range pending {
				if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM rollup_rebuilds WHERE asset_code = ? AND minute = ?`),
					p.Asset, p.Minute.Time); err != nil {
					return translate(err)
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("db: rebuild rollups: %w", err)
		}
		if done {
			return nil
		}
	}
}

// rollupAggRow is an aggregate of rollup rows as scanned.
type rollupAggRow struct {
	Count int64    `db:"n"`
	Sum   *float64 `db:"s"`
	Min   *float64 `db:"lo"`
	Max   *float64 `db:"hi"`
}

func (r rollupAggRow) agg() agg {
	if r.Count == 0 || r.Sum == nil || r.Min == nil || r.Max == nil {
		return agg{}
	}
	return agg{count: r.Count, sum: *r.Sum, min: *r.Min, max: *r.Max}
}

// rollupAggColumns aggregates rollup rows into n, s, lo and hi.
const rollupAggColumns = `CAST(COALESCE(SUM(count), 0) AS BIGINT) AS n, SUM(scaled_sum) AS s, MIN(min) AS lo, MAX(max) AS hi`

// DatapointSummary is the summary of one numeric datapoint of an asset.
type DatapointSummary struct {
	Datapoint string // the reading key
	Summary
}

// AssetSummaries returns the minimum, maximum and average of every numeric
// datapoint (top-level reading key with at least one numeric value) of
// code's readings, sorted by key (bytewise), from the rollups: its cost
// follows the minutes the asset's readings span, not their number. An
// asset without numeric values (an unknown asset included) gives an empty,
// non-nil slice; driver errors are returned wrapped.
func (d *DB) AssetSummaries(ctx context.Context, code string) ([]DatapointSummary, error) {
	var rows []struct {
		Datapoint string `db:"datapoint"`
		rollupAggRow
	}
	q := d.r.Rebind(`SELECT datapoint, ` + rollupAggColumns + ` FROM reading_rollups
		WHERE asset_code = ? GROUP BY datapoint ORDER BY datapoint`)
	if err := d.r.SelectContext(ctx, &rows, q, code); err != nil {
		return nil, fmt.Errorf("db: summaries of asset %q: %w", code, translate(err))
	}
	out := make([]DatapointSummary, 0, len(rows))
	for _, r := range rows {
		if a := r.agg(); a.count > 0 {
			out = append(out, DatapointSummary{Datapoint: r.Datapoint, Summary: a.summary()})
		}
	}
	return out, nil
}

// rollupSummary aggregates every rollup row of code's key.
func (d *DB) rollupSummary(ctx context.Context, code, key string) (agg, error) {
	var row rollupAggRow
	q := d.r.Rebind(`SELECT ` + rollupAggColumns + ` FROM reading_rollups WHERE asset_code = ? AND datapoint = ?`)
	if err := d.r.GetContext(ctx, &row, q, code, key); err != nil {
		return agg{}, translate(err)
	}
	return row.agg(), nil
}

// rollupBuckets adds the rollup rows of code's key with a minute in
// [from, to) (a zero time leaves that side open) to bs, newest first,
// and stops once bs is full (reading no more rows than that can take).
func rollupBuckets(ctx context.Context, tx *sqlx.Tx, code, key string, from, to time.Time, bs *buckets) error {
	q := `SELECT minute, count, scaled_sum, min, max FROM reading_rollups WHERE asset_code = ? AND datapoint = ?`
	args := []any{code, key}
	if !from.IsZero() {
		q += ` AND minute >= ?`
		args = append(args, from.UTC())
	}
	if !to.IsZero() {
		q += ` AND minute < ?`
		args = append(args, to.UTC())
	}
	q += ` ORDER BY minute DESC`
	if bs.max > 0 {
		// Enough rows for one bucket more than wanted (a bucket holds at
		// most width/minute rows), so the query costs the same whatever
		// the asset holds: PostgreSQL's driver fetches every row of a
		// result before the walk can stop.
		q += ` LIMIT ?`
		args = append(args, int64(bs.max+1)*(bs.width/int64(time.Minute/time.Microsecond)))
	}
	return eachRow(ctx, tx, tx.Rebind(q), args, func(rows *sqlx.Rows) error {
		if bs.full() {
			return errStopRows
		}
		var m dbTime
		var a agg
		if err := rows.Scan(&m, &a.count, &a.sum, &a.min, &a.max); err != nil {
			return translate(err)
		}
		bs.addAgg(m.Time, a)
		return nil
	})
}
