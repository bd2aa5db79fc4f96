package db

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// AssetCount is what the gateway keeps per asset next to its readings: the
// number of buffered readings and the sensor timestamps of the oldest and
// newest. It is maintained by every insert and every purge, so reading it
// never counts the readings table.
type AssetCount struct {
	AssetCode string
	Count     int64
	Oldest    time.Time // UTC
	Newest    time.Time // UTC
}

// Timespan is the sensor time range of one asset's buffered readings.
type Timespan struct {
	AssetCode string
	Oldest    time.Time // UTC
	Newest    time.Time // UTC
}

// Window selects readings of one asset, or series buckets, newest first.
// From and To bound the sensor timestamp to [From, To); a zero time leaves
// that side open. Limit caps the entries returned (0: no cap) after Skip
// entries; for a series both count buckets.
type Window struct {
	From  time.Time
	To    time.Time
	Limit int
	Skip  int
}

// ReadingValue is the value of one key of one reading.
type ReadingValue struct {
	UserTS time.Time       // the reading's sensor timestamp, UTC
	Value  json.RawMessage // the key's JSON value; JSON null is "null"
}

// Summary aggregates the numeric values of one reading key.
type Summary struct {
	Min, Max, Average float64
	Count             int64 // how many numeric values were aggregated
}

// Bucket is the width of a series bucket: one of BucketSecond, BucketMinute
// or BucketHour. Buckets are aligned on the Unix epoch, in UTC.
type Bucket time.Duration

// The bucket widths a series can use.
const (
	BucketSecond = Bucket(time.Second)
	BucketMinute = Bucket(time.Minute)
	BucketHour   = Bucket(time.Hour)
)

// SeriesPoint aggregates the numeric values of one reading key within one
// bucket.
type SeriesPoint struct {
	Start             time.Time // the bucket's first instant, UTC
	Min, Max, Average float64
	Count             int64
}

// readingRow is one readings row as scanned.
type readingRow struct {
	ID        int64  `db:"id"`
	AssetCode string `db:"asset_code"`
	Reading   []byte `db:"reading"`
	UserTS    dbTime `db:"user_ts"`
	TS        dbTime `db:"ts"`
}

// assetCountRow is one asset_counts row as scanned.
type assetCountRow struct {
	AssetCode string `db:"asset_code"`
	Count     int64  `db:"count"`
	Oldest    dbTime `db:"oldest_user_ts"`
	Newest    dbTime `db:"newest_user_ts"`
}

// assetDelta is what one insert adds to an asset's asset_counts row.
type assetDelta struct {
	code           string
	count          int64
	oldest, newest time.Time
}

// InsertReadings stores rs in one transaction and, in the same transaction,
// adds them to their assets' counts and time spans and their numeric
// values to the per-minute rollups. Each reading must have
// a non-empty AssetCode and a Reading holding a JSON object (the ingest path
// validates it; an empty Reading is stored as {}). A zero TS becomes the
// current time and a zero UserTS the reading's TS; times are stored in UTC
// truncated to the microsecond; a TS below a bound already handed to a
// north reader is raised to it (see ReadStream). IDs in rs are ignored and
// rs is not modified. An empty rs does nothing. On SQLite the rows go in with cached
// prepared multi-row INSERTs, on PostgreSQL with COPY. Nothing is stored
// when an error is returned; driver errors are returned wrapped.
//
// It is safe to call concurrently: counts stay exact.
func (d *DB) InsertReadings(ctx context.Context, rs []Reading) error {
	return d.insertReadings(ctx, rs, false, nil)
}

// InsertReadingsDeferred is InsertReadings returning as soon as the
// readings are committed, before the commit is on stable storage where
// durability Power asks for that: wait returns once it is (nil when there
// is nothing to wait for: durability Process, PostgreSQL, whose commit
// is durable when it returns, an in-memory database). Until wait returned
// nil the readings may be lost in a power cut, never in a crash of the
// process. A writer that acknowledges only after wait can write its next
// batch while the previous one syncs (ingest.DeferredStore).
func (d *DB) InsertReadingsDeferred(ctx context.Context, rs []Reading) (wait func(context.Context) error, err error) {
	return d.InsertReadingsTracked(ctx, rs, nil)
}

// InsertReadingsTracked is InsertReadingsDeferred that also records the
// asset tracking events track in the same transaction, as TrackAsset
// would one by one: a new event is stored, a deprecated one has its
// deprecation cleared, a live one is left alone. The writer of a south
// service passes the first sightings of its batch here, so an asset seen
// for the first time costs a row in the batch's transaction rather than a
// transaction (and, at durability Power, a sync) of its own. Events with
// a zero TS are stamped now; an invalid event kind fails the whole insert.
func (d *DB) InsertReadingsTracked(ctx context.Context, rs []Reading, track []TrackingEvent) (wait func(context.Context) error, err error) {
	if d.logs == nil {
		return nil, d.insertReadings(ctx, rs, false, track)
	}
	if err := d.insertReadings(ctx, rs, true, track); err != nil {
		return nil, err
	}
	n := d.logs.commit()
	return func(context.Context) error { return d.logs.wait(n) }, nil
}

// InsertReadingsDurable is InsertReadingsTracked whose commit is on stable
// storage when it returns: at durability Power on SQLite the transaction
// syncs the log in its own commit (synchronous=FULL), as InsertReadings
// does, rather than committing relaxed and syncing after the fact. A
// writer with nothing else to write while the sync runs (a lone request)
// saves the deferred sync's extra steps — switching the connection's
// setting twice, opening the log file, handing the wait to another
// goroutine — and the commit costs what a plain FULL commit does.
func (d *DB) InsertReadingsDurable(ctx context.Context, rs []Reading, track []TrackingEvent) error {
	return d.insertReadings(ctx, rs, false, track)
}

// insertReadings is InsertReadings; relaxed commits without syncing the
// log (see logSync); track are asset tracking events recorded in the same
// transaction (see InsertReadingsTracked).
func (d *DB) insertReadings(ctx context.Context, rs []Reading, relaxed bool, track []TrackingEvent) error {
	if len(rs) == 0 {
		if len(track) == 0 {
			return nil
		}
		_, err := d.TrackAssets(ctx, track)
		return err
	}
	defer d.ingest.begin()()
	stamp := now()
	scratch, _ := d.scratch.Get().(*[]Reading)
	if scratch == nil {
		scratch = new([]Reading)
	}
	rows := slices.Grow((*scratch)[:0], len(rs))[:len(rs)]
	defer func() {
		clear(rows) // drop the references to the readings' documents
		*scratch = rows[:0]
		d.scratch.Put(scratch)
	}()
	deltas := make(map[string]*assetDelta, 4)
	for i, r := range rs {
		if r.AssetCode == "" {
			return fmt.Errorf("db: insert readings: reading %d has an empty asset code", i)
		}
		if r.TS.IsZero() {
			r.TS = stamp
		} else {
			r.TS = r.TS.UTC().Truncate(time.Microsecond)
		}
		if r.UserTS.IsZero() {
			r.UserTS = r.TS
		} else {
			r.UserTS = r.UserTS.UTC().Truncate(time.Microsecond)
		}
		if len(r.Reading) == 0 {
			r.Reading = json.RawMessage(`{}`)
		}
		rows[i] = r
		a := deltas[r.AssetCode]
		if a == nil {
			a = &assetDelta{code: r.AssetCode, oldest: r.UserTS, newest: r.UserTS}
			deltas[r.AssetCode] = a
		}
		a.count++
		if r.UserTS.Before(a.oldest) {
			a.oldest = r.UserTS
		}
		if r.UserTS.After(a.newest) {
			a.newest = r.UserTS
		}
	}
	// Asset rows are upserted in code order so that concurrent inserts lock
	// them in the same order and cannot deadlock.
	sorted := make([]*assetDelta, 0, len(deltas))
	for _, a := range deltas {
		sorted = append(sorted, a)
	}
	slices.SortFunc(sorted, func(a, b *assetDelta) int { return cmp.Compare(a.code, b.code) })

	rollups := rollupsOf(rows)

	var plan, countsPlan, rollupPlan []*sql.Stmt
	var trackStmt *sql.Stmt
	if d.dialect == SQLite {
		var err error
		if trackStmt, err = d.trackPlan(ctx, len(track)); err != nil {
			return fmt.Errorf("db: insert readings: %w", err)
		}
		if plan, err = d.sqliteInsertPlan(ctx, len(rows)); err != nil {
			return fmt.Errorf("db: insert readings: %w", err)
		}
	}
	// The counts' and rollups' upserts run from statements prepared once
	// on either store: on PostgreSQL each then costs one round trip (bind
	// and execute) instead of two (parse, then bind and execute), and is
	// planned once per connection.
	var err error
	if countsPlan, err = d.assetCountsPlan(ctx, len(sorted)); err != nil {
		return fmt.Errorf("db: insert readings: %w", err)
	}
	if rollupPlan, err = d.rollupPlan(ctx, len(rollups)); err != nil {
		return fmt.Errorf("db: insert readings: %w", err)
	}
	// Registered with the stream fence until the transaction ends, so
	// north readers never read past readings still in flight.
	committed := false
	done := d.fence.enter(rows)
	defer func() { done(committed) }()
	var inTx func(context.Context, func(context.Context, *sqlx.Tx) error) error
	switch {
	case d.dialect == Postgres:
		inTx = func(ctx context.Context, fn func(context.Context, *sqlx.Tx) error) error {
			// A lost commit's outcome can be learnt.
			return d.inKnownTx(ctx, func(tx *sqlx.Tx) error { return fn(ctx, tx) })
		}
	case relaxed:
		inTx = d.inRelaxedTx
	default:
		inTx = d.inShortTx
	}
	err = inTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		var err error
		if d.dialect == Postgres {
			err = postgresCopyReadings(ctx, tx, rows)
		} else {
			err = sqliteInsertReadings(ctx, tx, plan, rows)
		}
		if err != nil {
			return err
		}
		if err := upsertAssetCounts(ctx, tx, sorted, countsPlan); err != nil {
			return err
		}
		if err := trackAssetsInTx(ctx, tx, track, trackStmt); err != nil {
			return err
		}
		return addRollups(ctx, tx, rollups, rollupPlan)
	})
	committed = err == nil
	if err != nil {
		return inDoubt(fmt.Errorf("db: insert readings: %w", err))
	}
	return nil
}

// upsertAssetCounts adds deltas to asset_counts, one statement per chunk
// of statRowsPerStatement assets, run from plan (statements prepared before
// the transaction, see assetCountsPlan) or, when plan is nil, prepared by
// the driver.
func upsertAssetCounts(ctx context.Context, tx *sqlx.Tx, deltas []*assetDelta, plan []*sql.Stmt) error {
	k := 0
	for chunk := range slices.Chunk(deltas, statRowsPerStatement) {
		args := make([]any, 0, 4*len(chunk))
		for _, a := range chunk {
			args = append(args, a.code, a.count, a.oldest, a.newest)
		}
		var err error
		if plan != nil {
			err = execInTx(ctx, tx, plan[k], args)
		} else {
			_, err = tx.ExecContext(ctx, tx.Rebind(assetCountsSQL(len(chunk))), args...)
		}
		if err != nil {
			return fmt.Errorf("asset counts: %w", translate(err))
		}
		k++
	}
	return nil
}

// maxPreparedAssetCounts bounds the upserts kept prepared: one statement
// per asset count up to it (a batch usually holds a few assets); larger
// batches are prepared by the driver each time.
const maxPreparedAssetCounts = 128

// assetCountsPlan returns the prepared upserts of n assets' counts, a
// statement per chunk as upsertAssetCounts runs them, or nil above
// maxPreparedAssetCounts. It must run outside a write transaction (on
// SQLite, preparing needs the write pool's one connection).
func (d *DB) assetCountsPlan(ctx context.Context, n int) ([]*sql.Stmt, error) {
	if n > maxPreparedAssetCounts {
		return nil, nil
	}
	var plan []*sql.Stmt
	for ; n > 0; n -= statRowsPerStatement {
		s, err := d.prepared.get(ctx, d.w, d.w.Rebind(assetCountsSQL(min(n, statRowsPerStatement)))) //nolint:sqlclosecheck // cached, closed with the DB
		if err != nil {
			return nil, fmt.Errorf("asset counts: %w", err)
		}
		plan = append(plan, s)
	}
	return plan, nil
}

// assetCountsSQL is the upsert of n assets' counts. The CASE expressions are
// min and max of two times in both dialects.
func assetCountsSQL(n int) string {
	return "INSERT INTO asset_counts (asset_code, count, oldest_user_ts, newest_user_ts) VALUES " +
		repeatJoin("(?, ?, ?, ?)", n) + ` ON CONFLICT (asset_code) DO UPDATE SET
			count = asset_counts.count + excluded.count,
			oldest_user_ts = CASE WHEN asset_counts.oldest_user_ts IS NULL
				OR excluded.oldest_user_ts < asset_counts.oldest_user_ts
				THEN excluded.oldest_user_ts ELSE asset_counts.oldest_user_ts END,
			newest_user_ts = CASE WHEN asset_counts.newest_user_ts IS NULL
				OR excluded.newest_user_ts > asset_counts.newest_user_ts
				THEN excluded.newest_user_ts ELSE asset_counts.newest_user_ts END`
}

const assetCountColumns = "asset_code, count, oldest_user_ts, newest_user_ts"

// ListAssets returns every asset with buffered readings, sorted by code
// (bytewise), with its count and time span, from the per-asset table (the
// readings are not counted). None is an empty, non-nil slice. Driver errors
// are returned wrapped.
func (d *DB) ListAssets(ctx context.Context) ([]AssetCount, error) {
	var rows []assetCountRow
	q := "SELECT " + assetCountColumns + " FROM asset_counts WHERE count > 0 ORDER BY asset_code"
	if err := d.r.SelectContext(ctx, &rows, q); err != nil {
		return nil, fmt.Errorf("db: list assets: %w", translate(err))
	}
	out := make([]AssetCount, 0, len(rows))
	for _, r := range rows {
		out = append(out, AssetCount{AssetCode: r.AssetCode, Count: r.Count, Oldest: r.Oldest.Time, Newest: r.Newest.Time})
	}
	return out, nil
}

// AssetTimespan returns the sensor time span of code's buffered readings.
// It returns an error wrapping ErrNotFound when the asset has none; driver
// errors are returned wrapped.
func (d *DB) AssetTimespan(ctx context.Context, code string) (Timespan, error) {
	var r assetCountRow
	q := d.r.Rebind("SELECT " + assetCountColumns + " FROM asset_counts WHERE asset_code = ? AND count > 0")
	if err := d.r.GetContext(ctx, &r, q, code); err != nil {
		return Timespan{}, fmt.Errorf("db: timespan of asset %q: %w", code, translate(err))
	}
	return Timespan{AssetCode: r.AssetCode, Oldest: r.Oldest.Time, Newest: r.Newest.Time}, nil
}

// AllTimespans returns the sensor time span of every asset with buffered
// readings, sorted by code. None is an empty, non-nil slice; driver errors
// are returned wrapped.
func (d *DB) AllTimespans(ctx context.Context) ([]Timespan, error) {
	assets, err := d.ListAssets(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Timespan, 0, len(assets))
	for _, a := range assets {
		out = append(out, Timespan{AssetCode: a.AssetCode, Oldest: a.Oldest, Newest: a.Newest})
	}
	return out, nil
}

// windowConds returns the conditions and arguments bounding user_ts to w's
// time range.
func windowConds(w Window) (string, []any) {
	var b strings.Builder
	var args []any
	if !w.From.IsZero() {
		b.WriteString(" AND user_ts >= ?")
		args = append(args, w.From.UTC())
	}
	if !w.To.IsZero() {
		b.WriteString(" AND user_ts < ?")
		args = append(args, w.To.UTC())
	}
	return b.String(), args
}

// AssetReadings returns code's readings in w, newest first (sensor
// timestamp, then ID, descending). An unknown asset or an empty window is an
// empty, non-nil slice. The query walks the (asset_code, user_ts, id) index,
// so the latest N cost the same whatever the table holds. A negative Limit
// or Skip is an error; driver errors are returned wrapped.
func (d *DB) AssetReadings(ctx context.Context, code string, w Window) ([]Reading, error) {
	q, args, err := d.assetReadingsSQL(code, w)
	if err != nil {
		return nil, fmt.Errorf("db: readings of asset %q: %w", code, err)
	}
	var rows []readingRow
	if err := d.r.SelectContext(ctx, &rows, q, args...); err != nil {
		return nil, fmt.Errorf("db: readings of asset %q: %w", code, translate(err))
	}
	out := make([]Reading, 0, len(rows))
	for _, r := range rows {
		out = append(out, Reading{
			ID: r.ID, AssetCode: r.AssetCode, Reading: json.RawMessage(r.Reading),
			UserTS: r.UserTS.Time, TS: r.TS.Time,
		})
	}
	return out, nil
}

// assetReadingsSQL returns AssetReadings' query, rebound, and its arguments.
func (d *DB) assetReadingsSQL(code string, w Window) (string, []any, error) {
	page, pageArgs, err := d.limitOffset(w.Limit, w.Skip)
	if err != nil {
		return "", nil, err
	}
	conds, args := windowConds(w)
	q := d.r.Rebind(`SELECT id, asset_code, reading, user_ts, ts FROM readings
		WHERE asset_code = ?` + conds + liveOnly + ` ORDER BY user_ts DESC, id DESC` + page)
	return q, append(append([]any{code}, args...), pageArgs...), nil
}

// AssetReadingValues returns, newest first, the value of the top-level key
// of each of code's readings in w that has the key (any JSON value, null
// included); readings without it are left out before paging. An unknown
// asset or key is an empty, non-nil slice. A negative Limit or Skip is an
// error; driver errors are returned wrapped.
func (d *DB) AssetReadingValues(ctx context.Context, code, key string, w Window) ([]ReadingValue, error) {
	q, args, err := d.assetReadingValuesSQL(code, key, w)
	if err != nil {
		return nil, fmt.Errorf("db: values of %q of asset %q: %w", key, code, err)
	}
	var rows []struct {
		UserTS dbTime `db:"user_ts"`
		Value  []byte `db:"v"`
	}
	if err := d.r.SelectContext(ctx, &rows, q, args...); err != nil {
		return nil, fmt.Errorf("db: values of %q of asset %q: %w", key, code, translate(err))
	}
	out := make([]ReadingValue, 0, len(rows))
	for _, r := range rows {
		out = append(out, ReadingValue{UserTS: r.UserTS.Time, Value: json.RawMessage(r.Value)})
	}
	return out, nil
}

// assetReadingValuesSQL returns AssetReadingValues' query, rebound, and its
// arguments.
func (d *DB) assetReadingValuesSQL(code, key string, w Window) (string, []any, error) {
	page, pageArgs, err := d.limitOffset(w.Limit, w.Skip)
	if err != nil {
		return "", nil, err
	}
	j := d.jsonSQL()
	conds, wargs := windowConds(w)
	q := d.r.Rebind(`SELECT user_ts, v FROM (SELECT user_ts, id, ` + j.value + ` AS v FROM readings
		WHERE asset_code = ?` + conds + liveOnly + `) s WHERE v IS NOT NULL ORDER BY user_ts DESC, id DESC` + page)
	args := append([]any{j.keyArg(key), code}, wargs...)
	return q, append(args, pageArgs...), nil
}

// ReadingSummary returns the minimum, maximum and average of the numeric
// values of key over all of code's readings, and how many there are; values
// of other JSON types (strings, booleans, objects, null) and numbers beyond
// float64 are ignored. It reads the per-minute rollups, so its cost follows
// the minutes the readings span, not their number; the average never
// overflows. It returns an error wrapping ErrNotFound when there is no
// numeric value (an unknown asset included); driver errors are returned
// wrapped.
func (d *DB) ReadingSummary(ctx context.Context, code, key string) (Summary, error) {
	a, err := d.rollupSummary(ctx, code, key)
	if err != nil {
		return Summary{}, fmt.Errorf("db: summary of %q of asset %q: %w", key, code, err)
	}
	if a.count == 0 {
		return Summary{}, fmt.Errorf("db: summary of %q of asset %q: no numeric values: %w", key, code, ErrNotFound)
	}
	return a.summary(), nil
}

// ReadingSeries groups the numeric values of key over code's readings in
// w's time range into buckets of width b and returns minimum, maximum,
// average and count per bucket, newest bucket first; w's Limit and Skip
// count buckets, and buckets without a numeric value do not exist. An
// unknown asset or an empty window is an empty, non-nil slice.
//
// Buckets of a minute or an hour come from the per-minute rollups, and
// only the parts of the window's first and last minutes that it cuts come
// from the readings, so their cost follows the minutes covered. Buckets of
// a second come from the readings: with a Limit, the bucket boundary is
// found first by walking the index (one seek per bucket), so the newest N
// buckets cost the same whatever the asset holds; only when buckets
// without numeric values hide some of them does it fall back to the whole
// range. An unknown bucket width or a negative Limit or Skip is an error;
// driver errors are returned wrapped.
func (d *DB) ReadingSeries(ctx context.Context, code, key string, b Bucket, w Window) ([]SeriesPoint, error) {
	fail := func(err error) ([]SeriesPoint, error) {
		return nil, fmt.Errorf("db: series of %q of asset %q: %w", key, code, err)
	}
	if b != BucketSecond && b != BucketMinute && b != BucketHour {
		return fail(fmt.Errorf("unsupported bucket width %s", time.Duration(b)))
	}
	if w.Limit < 0 || w.Skip < 0 {
		return fail(errors.New("negative limit or skip"))
	}
	var points []SeriesPoint
	err := d.inReadTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if b == BucketSecond {
			points, err = d.seriesFromReadings(ctx, tx, code, key, b, w)
		} else {
			points, err = d.seriesFromRollups(ctx, tx, code, key, b, w)
		}
		return err
	})
	if err != nil {
		return fail(err)
	}
	return points, nil
}

// seriesFromReadings is ReadingSeries over the readings themselves,
// aggregated as the rollups are (agg), so that a series answers the same
// whether its buckets come from readings or rollups.
func (d *DB) seriesFromReadings(ctx context.Context, tx *sqlx.Tx, code, key string, b Bucket, w Window) ([]SeriesPoint, error) {
	from := w.From
	exhausted := true
	if w.Limit > 0 {
		var err error
		from, exhausted, err = seriesBoundary(ctx, tx, d.jsonSQL().bucket(b), code, w)
		if err != nil {
			return nil, err
		}
	}
	bs := newBuckets(b, 0)
	if err := d.valuesInto(ctx, tx, code, key, from, w.To, bs); err != nil {
		return nil, err
	}
	points := bs.points(w.Skip, w.Limit)
	if !exhausted && len(points) < w.Limit {
		// Some of the newest buckets hold no numeric value: the boundary
		// is too recent, so aggregate the whole range.
		bs = newBuckets(b, 0)
		if err := d.valuesInto(ctx, tx, code, key, w.From, w.To, bs); err != nil {
			return nil, err
		}
		points = bs.points(w.Skip, w.Limit)
	}
	return points, nil
}

// seriesFromRollups is ReadingSeries for buckets of a minute or more: the
// whole minutes of the window come from the rollups, newest first until
// enough buckets are complete, and the parts of minutes the window cuts at
// either end from the readings.
func (d *DB) seriesFromRollups(ctx context.Context, tx *sqlx.Tx, code, key string, b Bucket, w Window) ([]SeriesPoint, error) {
	want := 0
	if w.Limit > 0 {
		want = w.Skip + w.Limit
	}
	bs := newBuckets(b, want)
	// [midFrom, midTo) is the window's whole minutes; zero times are open.
	midFrom, midTo := w.From, w.To
	if !w.From.IsZero() {
		if midFrom = w.From.Truncate(time.Minute); midFrom.Before(w.From) {
			midFrom = midFrom.Add(time.Minute)
		}
	}
	if !w.To.IsZero() {
		midTo = w.To.Truncate(time.Minute)
	}
	if !midFrom.IsZero() && !midTo.IsZero() && !midFrom.Before(midTo) {
		// No whole minute: the window lies within one or two minutes.
		if err := d.valuesInto(ctx, tx, code, key, w.From, w.To, bs); err != nil {
			return nil, err
		}
		return bs.points(w.Skip, w.Limit), nil
	}
	if midTo.Before(w.To) {
		if err := d.valuesInto(ctx, tx, code, key, midTo, w.To, bs); err != nil {
			return nil, err
		}
	}
	if err := rollupBuckets(ctx, tx, code, key, midFrom, midTo, bs); err != nil {
		return nil, err
	}
	if w.From.Before(midFrom) && !bs.full() {
		if err := d.valuesInto(ctx, tx, code, key, w.From, midFrom, bs); err != nil {
			return nil, err
		}
	}
	return bs.points(w.Skip, w.Limit), nil
}

// valuesInto adds the numeric values of key of code's readings with a
// sensor time in [from, to) (a zero time leaves that side open) to bs.
func (d *DB) valuesInto(ctx context.Context, tx *sqlx.Tx, code, key string, from, to time.Time, bs *buckets) error {
	j := d.jsonSQL()
	conds, wargs := windowConds(Window{From: from, To: to})
	q := tx.Rebind(`SELECT user_ts, ` + j.number + ` AS v FROM readings
		WHERE asset_code = ?` + conds + liveOnly + ` AND ` + j.isNumber)
	args := append([]any{j.keyArg(key), code}, wargs...)
	return eachRow(ctx, tx, q, append(args, j.keyArg(key)), func(rows *sqlx.Rows) error {
		var ts dbTime
		var v jsonNumber
		if err := rows.Scan(&ts, &v); err != nil {
			return translate(err)
		}
		if v.ok {
			bs.addValue(ts.Time, v.v)
		}
		return nil
	})
}

// seriesBoundary finds the start of the (Skip+Limit)-th newest bucket of
// code's readings in w by walking the index from the newest reading, one
// seek per bucket (a recursive query). exhausted reports that the asset has
// fewer buckets in w, in which case from is w.From.
func seriesBoundary(ctx context.Context, tx *sqlx.Tx, bucket, code string, w Window) (from time.Time, exhausted bool, err error) {
	q, args := seriesBoundarySQL(bucket, code, w)
	var row struct {
		Start dbTime `db:"start"`
		N     int    `db:"n"`
	}
	if err := tx.GetContext(ctx, &row, tx.Rebind(q), args...); err != nil {
		return time.Time{}, false, fmt.Errorf("bucket boundary: %w", translate(err))
	}
	if row.N < w.Skip+w.Limit || !row.Start.Valid {
		return w.From, true, nil
	}
	if row.Start.Time.Before(w.From) { // the oldest bucket starts before the window
		return w.From, false, nil
	}
	return row.Start.Time, false, nil
}

// seriesBoundarySQL returns seriesBoundary's query, with ? placeholders,
// and its arguments.
func seriesBoundarySQL(bucket, code string, w Window) (string, []any) {
	conds, wargs := windowConds(w)
	fromCond, fromArgs := windowConds(Window{From: w.From})
	q := `WITH RECURSIVE b (start, n) AS (
			SELECT (SELECT ` + bucket + ` FROM readings WHERE asset_code = ?` + conds + liveOnly + `
				ORDER BY user_ts DESC LIMIT 1), 1
			UNION ALL
			SELECT (SELECT ` + bucket + ` FROM readings WHERE asset_code = ? AND user_ts < b.start` + fromCond + liveOnly + `
				ORDER BY user_ts DESC LIMIT 1), b.n + 1
			FROM b WHERE b.start IS NOT NULL AND b.n < ?
		)
		SELECT MIN(start) AS start, COUNT(start) AS n FROM b`
	args := append([]any{code}, wargs...)
	args = append(append(args, code), fromArgs...)
	return q, append(args, w.Skip+w.Limit)
}

// jsonSQL holds a dialect's expressions over the reading column for one
// top-level key, each taking keyArg(key) as its one argument.
type jsonSQL struct {
	keyArg   func(key string) any
	value    string // the key's JSON value as JSON text, NULL when absent
	isNumber string // condition: the key's value is a JSON number
	// number is the key's value as jsonNumber scans it (only where
	// isNumber holds): a number beyond float64 is left out rather than
	// failing the query. Values are aggregated in Go (agg), with sums
	// that cannot overflow.
	number string
	bucket func(b Bucket) string
}

func (d *DB) jsonSQL() jsonSQL {
	if d.dialect == Postgres {
		return postgresJSON
	}
	return sqliteJSON
}
