package db

import (
	"context"
	"fmt"
)

// NumericReadingKeys returns the top-level reading keys of code's buffered
// readings that hold a JSON number in at least one reading, sorted
// bytewise: the keys ReadingSummary has a summary for. An unknown asset, or
// one without numeric values, gives an empty, non-nil slice. Driver errors
// are returned wrapped.
func (d *DB) NumericReadingKeys(ctx context.Context, code string) ([]string, error) {
	q := `SELECT DISTINCT j.key FROM readings, json_each(readings.reading) j
		WHERE readings.asset_code = ? AND j.type IN ('integer', 'real') ORDER BY j.key`
	if d.dialect == Postgres {
		q = `SELECT DISTINCT j.key COLLATE "C" AS key FROM readings, jsonb_each(readings.reading) j
			WHERE readings.asset_code = ? AND jsonb_typeof(j.value) = 'number' ORDER BY 1`
	}
	keys := []string{}
	if err := d.r.SelectContext(ctx, &keys, d.r.Rebind(q), code); err != nil {
		return nil, fmt.Errorf("db: numeric reading keys of asset %q: %w", code, translate(err))
	}
	return keys, nil
}
