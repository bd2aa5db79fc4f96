package db

import "context"

// PurgeReadingsInBlocks is PurgeReadings with another block size. Tests
// only.
func (d *DB) PurgeReadingsInBlocks(ctx context.Context, p PurgePolicy, block int) (PurgeResult, error) {
	return d.purgeReadings(ctx, p, block)
}

// DeleteInBlocks exposes the retention purge's block loop. Tests only.
func (d *DB) DeleteInBlocks(ctx context.Context, table, cond string, args []any, block int) (int64, error) {
	return d.deleteInBlocks(ctx, table, cond, args, block)
}
