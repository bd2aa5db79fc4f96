package db

import (
	"context"
	"time"
)

// PurgeReadingsInBlocks is PurgeReadings with another block size. Tests
// only.
func (d *DB) PurgeReadingsInBlocks(ctx context.Context, p PurgePolicy, block int) (PurgeResult, error) {
	return d.purgeReadings(ctx, p, block)
}

// DeleteInBlocks exposes the retention purge's block loop. Tests only.
func (d *DB) DeleteInBlocks(ctx context.Context, table, cond string, args []any, block int) (int64, error) {
	return d.deleteInBlocks(ctx, table, cond, args, block)
}

// EnsurePartitionsAt attaches the PostgreSQL day partitions a gateway
// would at time now. Tests only.
func (d *DB) EnsurePartitionsAt(ctx context.Context, now time.Time) error {
	return d.ensurePartitions(ctx, now)
}

// Partitions returns the names of the PostgreSQL day partitions of
// readings, oldest first. Tests only.
func (d *DB) Partitions(ctx context.Context) ([]string, error) {
	ps, err := listPartitions(ctx, d.r)
	var names []string
	for _, p := range ps {
		names = append(names, p.name)
	}
	return names, err
}
