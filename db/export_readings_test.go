package db

import (
	"context"
	"strings"

	"github.com/jmoiron/sqlx"
)

// PurgeAssetReadingsInBlocks is PurgeAssetReadings followed by a sweep of
// its rows in steps of at most block readings, so that they are gone when
// it returns. Tests only.
func (d *DB) PurgeAssetReadingsInBlocks(ctx context.Context, code string, block int) (int64, error) {
	n, err := d.purgeAsset(ctx, code)
	if err != nil {
		return n, err
	}
	return n, d.sweepDeletions(ctx, block)
}

// PurgeAllReadingsInBlocks is PurgeAllReadings; it removes no block at a
// time any more, block is left for the tests' tables. Tests only.
func (d *DB) PurgeAllReadingsInBlocks(ctx context.Context, _ int) (int64, error) {
	return d.purgeAll(ctx)
}

// SweepDeletions removes the rows of the pending deletions of assets'
// readings now, in steps of at most block readings, as the background
// sweeper does. Tests only.
func (d *DB) SweepDeletions(ctx context.Context, block int) error {
	return d.sweepDeletions(ctx, block)
}

// PendingDeletions returns the assets whose deleted readings are still to
// be swept, with the highest reading id each deletion covers. Tests only.
func (d *DB) PendingDeletions(ctx context.Context) (map[string]int64, error) {
	return pendingDeletions(ctx, d.r)
}

// ExplainAssetReadings returns the query plan of AssetReadings.
func (d *DB) ExplainAssetReadings(ctx context.Context, code string, w Window) (string, error) {
	q, args, err := d.assetReadingsSQL(code, w)
	if err != nil {
		return "", err
	}
	return d.explain(ctx, q, args)
}

// ExplainAssetReadingValues returns the query plan of AssetReadingValues.
func (d *DB) ExplainAssetReadingValues(ctx context.Context, code, key string, w Window) (string, error) {
	q, args, err := d.assetReadingValuesSQL(code, key, w)
	if err != nil {
		return "", err
	}
	return d.explain(ctx, q, args)
}

// ExplainSeriesBoundary returns the query plan of the series' bucket walk.
func (d *DB) ExplainSeriesBoundary(ctx context.Context, code string, b Bucket, w Window) (string, error) {
	q, args := seriesBoundarySQL(d.jsonSQL().bucket(b), code, w)
	return d.explain(ctx, d.r.Rebind(q), args)
}

// explain returns the plan of q, one line per plan node. On PostgreSQL
// sequential scans and sorts are discouraged for the plan (in a
// transaction, so the setting ends with it): a tiny test table would
// otherwise be scanned, and the question is whether the index can serve
// the query, order included.
func (d *DB) explain(ctx context.Context, q string, args []any) (string, error) {
	var lines []string
	err := d.inReadTx(ctx, func(tx *sqlx.Tx) error {
		if d.dialect == Postgres {
			if _, err := tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, "SET LOCAL enable_sort = off"); err != nil {
				return err
			}
			return tx.SelectContext(ctx, &lines, "EXPLAIN "+q, args...)
		}
		var rows []struct {
			ID      int    `db:"id"`
			Parent  int    `db:"parent"`
			NotUsed int    `db:"notused"`
			Detail  string `db:"detail"`
		}
		if err := tx.SelectContext(ctx, &rows, "EXPLAIN QUERY PLAN "+q, args...); err != nil {
			return err
		}
		for _, r := range rows {
			lines = append(lines, r.Detail)
		}
		return nil
	})
	return strings.Join(lines, "\n"), err
}

// StopSweeper stops the background sweeper of deleted readings, so that
// deletions stay pending until SweepDeletions or the next Open. Tests only.
func (d *DB) StopSweeper() {
	d.sweeper.close()
	d.sweeper = nil
}

// OnSweepStep has fn called after each committed step of SweepDeletions.
// Set it before sweeping; tests only.
func (d *DB) OnSweepStep(fn func()) { d.swept = fn }
