package db

import (
	"context"
	"time"
)

// partitionRule is the rule a purge drops whole partitions by: every
// reading sensor-stamped before before (when set), or the oldest inserted
// while more than maxRows are buffered (when set).
type partitionRule struct {
	before  time.Time
	maxRows int64
}

// dropPartitions drops, on PostgreSQL, the whole partitions of readings
// that rule removes entirely; SQLite keeps readings in one table (see
// docs/benchmarks.md for why), so there it does nothing.
func (r *purgeRun) dropPartitions(ctx context.Context, rule partitionRule) error {
	if r.d.dialect != Postgres {
		return nil
	}
	return r.dropPostgresPartitions(ctx, rule)
}
