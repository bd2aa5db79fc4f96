package db

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
)

// statRowsPerStatement bounds the rows of one multi-row INSERT (2 or 4
// parameters each; far below both dialects' parameter limits).
const statRowsPerStatement = 500

// EnsureStatistics creates each statistic in stats whose key does not exist
// yet, with its Description and Value (and that Value as the baseline for
// the next history delta). Existing statistics are left untouched, so it is
// idempotent; when stats repeats a key the first one wins. All rows are
// written in one transaction. An empty key is an error wrapping no sentinel;
// driver errors are returned wrapped.
func (d *DB) EnsureStatistics(ctx context.Context, stats ...Statistic) error {
	if len(stats) == 0 {
		return nil
	}
	// previous_value = value: seeding a value is not activity to report as
	// a history delta.
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		for chunk := range slices.Chunk(stats, statRowsPerStatement) {
			args := make([]any, 0, 4*len(chunk))
			for _, s := range chunk {
				args = append(args, s.Key, s.Description, s.Value, s.Value)
			}
			q := "INSERT INTO statistics (key, description, value, previous_value) VALUES " +
				repeatJoin("(?, ?, ?, ?)", len(chunk)) + " ON CONFLICT (key) DO NOTHING"
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), args...); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: ensure statistics: %w", err)
	}
	return nil
}

// ListStatistics returns every statistic sorted by key (bytewise). None is
// an empty, non-nil slice and no error; driver errors are returned wrapped.
func (d *DB) ListStatistics(ctx context.Context) ([]Statistic, error) {
	stats := []Statistic{}
	if err := d.r.SelectContext(ctx, &stats, "SELECT key, description, value FROM statistics ORDER BY key"); err != nil {
		return nil, fmt.Errorf("db: list statistics: %w", translate(err))
	}
	return stats, nil
}

// GetStatistic returns the statistic with key. It returns an error wrapping
// ErrNotFound when there is none; driver errors are returned wrapped.
func (d *DB) GetStatistic(ctx context.Context, key string) (Statistic, error) {
	var s Statistic
	q := d.r.Rebind("SELECT key, description, value FROM statistics WHERE key = ?")
	if err := d.r.GetContext(ctx, &s, q, key); err != nil {
		return Statistic{}, fmt.Errorf("db: get statistic %q: %w", key, translate(err))
	}
	return s, nil
}

// AddStatistics adds each delta to its statistic's value in one
// transaction, creating missing statistics (with an empty description and
// the delta as value). This is how in-memory counters are flushed; rows are
// written in key order so concurrent flushes cannot deadlock. An empty key
// is an error wrapping no sentinel; driver errors are returned wrapped and
// nothing is added.
func (d *DB) AddStatistics(ctx context.Context, deltas map[string]int64) error {
	if len(deltas) == 0 {
		return nil
	}
	keys := make([]string, 0, len(deltas))
	for k := range deltas {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	// Adding twice is wrong: a lost commit's outcome can be learnt.
	err := d.inKnownTx(ctx, func(tx *sqlx.Tx) error {
		for chunk := range slices.Chunk(keys, statRowsPerStatement) {
			args := make([]any, 0, 2*len(chunk))
			for _, k := range chunk {
				args = append(args, k, deltas[k])
			}
			q := "INSERT INTO statistics (key, description, value, previous_value) VALUES " +
				repeatJoin("(?, '', ?, 0)", len(chunk)) +
				" ON CONFLICT (key) DO UPDATE SET value = statistics.value + excluded.value"
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), args...); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return inDoubt(fmt.Errorf("db: add statistics: %w", err))
	}
	return nil
}

// repeatJoin returns n copies of s joined by ", ".
func repeatJoin(s string, n int) string {
	return strings.TrimSuffix(strings.Repeat(s+", ", n), ", ")
}
