package db

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// postgresCopyReadings writes rows in tx with COPY … FROM STDIN (lib/pq
// buffers the rows and streams them in one round trip per 64 KiB).
func postgresCopyReadings(ctx context.Context, tx *sqlx.Tx, rows []Reading) (err error) {
	stmt, err := tx.PrepareContext(ctx, "COPY readings (asset_code, reading, user_ts, ts) FROM STDIN")
	if err != nil {
		return fmt.Errorf("copy readings: %w", translate(err))
	}
	defer func() {
		if cerr := stmt.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("copy readings: %w", translate(cerr))
		}
	}()
	for _, r := range rows {
		if _, err := stmt.ExecContext(ctx, r.AssetCode, string(r.Reading), r.UserTS, r.TS); err != nil {
			return fmt.Errorf("copy readings: %w", translate(err))
		}
	}
	// An Exec without arguments ends the COPY and reports the server's
	// verdict on the rows (e.g. invalid JSON).
	if _, err := stmt.ExecContext(ctx); err != nil {
		return fmt.Errorf("copy readings: %w", translate(err))
	}
	return nil
}

// postgresJSON holds PostgreSQL's jsonb expressions; the key is bound as
// text, so any key works.
var postgresJSON = jsonSQL{
	keyArg:   func(key string) any { return key },
	value:    "(reading -> ?::text)",
	isNumber: "jsonb_typeof(reading -> ?::text) = 'number'",
	number:   "(reading ->> ?::text)", // text: a number beyond float8 must not fail the query
	bucket:   postgresBucket,
}

// postgresBucket returns the start of user_ts's bucket as a timestamptz,
// truncated in UTC whatever the session's time zone.
func postgresBucket(b Bucket) string {
	unit := map[Bucket]string{BucketSecond: "second", BucketMinute: "minute", BucketHour: "hour"}[b]
	return "(date_trunc('" + unit + "', user_ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')"
}
