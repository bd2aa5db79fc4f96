package db

import (
	"context"
	"time"
)

// ExplainReadStream returns the query plan of ReadStream.
func (d *DB) ExplainReadStream(ctx context.Context, after StreamPosition, limit int) (string, error) {
	q, args := readStreamSQL(after, time.Now().UTC(), limit)
	return d.explain(ctx, d.r.Rebind(q), args)
}
