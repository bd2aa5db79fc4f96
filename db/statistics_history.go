package db

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

// HistorySnapshot is one statistics history entry: the change of every
// statistic over one collection interval.
type HistorySnapshot struct {
	TS     time.Time        // when it was collected, UTC
	Deltas map[string]int64 // statistic key → change since the previous snapshot
}

// CollectStatistics takes a history snapshot stamped at: for every
// statistic it stores one history row holding value − previous_value and
// moves previous_value to value, all in one transaction (on PostgreSQL the
// statistics rows are locked in key order first, so a concurrent
// AddStatistics lands wholly before or after the snapshot). It returns the
// number of rows written, one per statistic.
func (d *DB) CollectStatistics(ctx context.Context, at time.Time) (int, error) {
	at = at.UTC().Truncate(time.Microsecond)
	type row struct {
		Key      string `db:"key"`
		Value    int64  `db:"value"`
		Previous int64  `db:"previous_value"`
	}
	var n int
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		var rows []row
		if err := tx.SelectContext(ctx, &rows, `SELECT key, value, previous_value FROM statistics ORDER BY key`+d.forUpdate()); err != nil {
			return translate(err)
		}
		n = len(rows)
		for chunk := range slices.Chunk(rows, statRowsPerStatement) {
			args := make([]any, 0, 3*len(chunk))
			keys := make([]any, 0, len(chunk))
			for _, r := range chunk {
				args = append(args, r.Key, r.Value-r.Previous, at)
				keys = append(keys, r.Key)
			}
			q := `INSERT INTO statistics_history (key, value, history_ts) VALUES ` + repeatJoin("(?, ?, ?)", len(chunk))
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), args...); err != nil {
				return translate(err)
			}
			q = `UPDATE statistics SET previous_value = value WHERE key IN (` + repeatJoin("?", len(chunk)) + `)`
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), keys...); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("db: collect statistics: %w", err)
	}
	return n, nil
}

// StatisticsHistory returns the limit newest history snapshots (all of
// them when limit is 0), newest first. None is an empty, non-nil slice. A
// negative limit is an error; driver errors are returned wrapped.
func (d *DB) StatisticsHistory(ctx context.Context, limit int) ([]HistorySnapshot, error) {
	page, pageArgs, err := d.limitOffset(limit, 0)
	if err != nil {
		return nil, fmt.Errorf("db: statistics history: %w", err)
	}
	var rows []struct {
		Key   string `db:"key"`
		Value int64  `db:"value"`
		TS    dbTime `db:"history_ts"`
	}
	q := d.r.Rebind(`SELECT h.key, h.value, h.history_ts FROM statistics_history h
		JOIN (SELECT DISTINCT history_ts FROM statistics_history ORDER BY history_ts DESC` + page + `) s
		ON s.history_ts = h.history_ts ORDER BY h.history_ts DESC, h.key`)
	if err := d.r.SelectContext(ctx, &rows, q, pageArgs...); err != nil {
		return nil, fmt.Errorf("db: statistics history: %w", translate(err))
	}
	out := []HistorySnapshot{}
	for _, r := range rows {
		if len(out) == 0 || !out[len(out)-1].TS.Equal(r.TS.Time) {
			out = append(out, HistorySnapshot{TS: r.TS.Time, Deltas: map[string]int64{}})
		}
		out[len(out)-1].Deltas[r.Key] = r.Value
	}
	return out, nil
}

// StatisticsDeltaSums returns, for each of keys, the sum of its history
// deltas stamped after since (0 for a key without any). Driver errors are
// returned wrapped.
func (d *DB) StatisticsDeltaSums(ctx context.Context, keys []string, since time.Time) (map[string]int64, error) {
	out := make(map[string]int64, len(keys))
	for _, k := range keys {
		out[k] = 0
	}
	for chunk := range slices.Chunk(keys, statRowsPerStatement) {
		args := make([]any, 0, len(chunk)+1)
		args = append(args, since.UTC().Truncate(time.Microsecond))
		for _, k := range chunk {
			args = append(args, k)
		}
		var rows []struct {
			Key string `db:"key"`
			Sum int64  `db:"total"`
		}
		q := d.r.Rebind(`SELECT key, COALESCE(SUM(value), 0) AS total FROM statistics_history
			WHERE history_ts > ? AND key IN (` + repeatJoin("?", len(chunk)) + `) GROUP BY key`)
		if err := d.r.SelectContext(ctx, &rows, q, args...); err != nil {
			return nil, fmt.Errorf("db: statistics delta sums: %w", translate(err))
		}
		for _, r := range rows {
			out[r.Key] = r.Sum
		}
	}
	return out, nil
}
