package db

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Backups are the gateway's own export of its tables: every row of a table
// as one JSON object (PostgreSQL's row_to_json, SQLite's json_object), read
// in one snapshot transaction, so a backup taken while readings arrive is
// consistent; and loaded back in one write transaction that replaces the
// tables' rows. The same mechanism serves both stores; the objects carry
// each store's own value forms (times are microseconds on SQLite,
// timestamps on PostgreSQL), so a backup is restored on the store kind it
// was taken from.

// BackupConfigTables are the tables of a gateway's configuration, users,
// schedules, services, filters, asset tracking and package records, in an
// order in which every row's references precede it.
var BackupConfigTables = []string{
	"roles", "users", "password_history",
	"categories", "category_children", "schedules", "services", "plugin_data",
	"filters", "filter_pipelines", "package_repository", "installed_packages", "asset_tracker",
}

// BackupReadingTables are the buffered readings and what is kept with
// them: per-asset counts, rollups, the north positions in the readings
// stream and the readings north services set aside.
var BackupReadingTables = []string{
	"readings", "asset_counts", "reading_rollups", "rollup_rebuilds", "reading_deletions", "stream_positions", "north_set_aside",
}

// NotBackedUpTables are the tables a backup leaves out: the gateway's own
// history (audit log, tasks, statistics), the sessions and login failures
// that belong to the gateway running now (those of names no user has
// included), and the highest package index version accepted from each
// repository, which must never go down: a restored older value would let
// a rolled-back index in again. A restore keeps the restoring gateway's
// rows of these, except that sessions and login failures of users that
// the restore replaces go with them.
var NotBackedUpTables = []string{
	"audit_log", "tasks", "statistics", "statistics_history", "sessions", "login_failures", "login_name_failures",
	"package_index_versions", "schema_migrations",
}

// ErrSchemaDirty means a migration stopped half way: the schema version
// is not one a backup can name.
var ErrSchemaDirty = errors.New("db: the schema is marked dirty by a failed migration")

// SchemaVersion returns the version of the last migration applied.
func (d *DB) SchemaVersion(ctx context.Context) (uint, error) {
	var v uint
	err := d.inReadTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		v, err = schemaVersion(ctx, tx)
		return err
	})
	return v, err
}

func schemaVersion(ctx context.Context, q sqlx.QueryerContext) (uint, error) {
	var row struct {
		Version int64 `db:"version"`
		Dirty   bool  `db:"dirty"`
	}
	if err := sqlx.GetContext(ctx, q, &row, `SELECT version, dirty FROM schema_migrations`); err != nil {
		return 0, fmt.Errorf("db: schema version: %w", translate(err))
	}
	if row.Dirty {
		return 0, ErrSchemaDirty
	}
	if row.Version < 0 {
		return 0, fmt.Errorf("db: schema version %d", row.Version)
	}
	return uint(row.Version), nil
}

// ExportRow receives one row of table as a JSON object.
type ExportRow func(table string, row []byte) error

// Export reads every row of tables in one snapshot (a read transaction:
// SQLite's WAL snapshot, PostgreSQL's REPEATABLE READ) and passes each to
// fn as a JSON object; it returns the schema version of that snapshot.
// Writers go on meanwhile. An unknown table is an error.
func (d *DB) Export(ctx context.Context, tables []string, fn ExportRow) (uint, error) {
	var version uint
	err := d.inReadTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if version, err = schemaVersion(ctx, tx); err != nil {
			return err
		}
		for _, t := range tables {
			q, err := d.exportQuery(ctx, tx, t)
			if err != nil {
				return err
			}
			err = eachRow(ctx, tx, q, nil, func(rows *sqlx.Rows) error {
				var doc string
				if err := rows.Scan(&doc); err != nil {
					return fmt.Errorf("db: export %s: %w", t, err)
				}
				return fn(t, []byte(doc))
			})
			if err != nil {
				return fmt.Errorf("db: export %s: %w", t, err)
			}
		}
		return nil
	})
	return version, err
}

// exportQuery is the SELECT giving each row of table as JSON text.
func (d *DB) exportQuery(ctx context.Context, q sqlx.QueryerContext, table string) (string, error) {
	if d.dialect == Postgres {
		if _, err := columns(ctx, d.dialect, q, table); err != nil {
			return "", err
		}
		return `SELECT row_to_json(t)::text FROM ` + pq.QuoteIdentifier(table) + ` t`, nil
	}
	cols, err := columns(ctx, d.dialect, q, table)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = pq.QuoteLiteral(c) + ", " + pq.QuoteIdentifier(c)
	}
	return `SELECT json_object(` + strings.Join(parts, ", ") + `) FROM ` + pq.QuoteIdentifier(table), nil
}

// columns returns table's column names in order; an unknown table is an
// error.
func columns(ctx context.Context, dialect Dialect, q sqlx.QueryerContext, table string) ([]string, error) {
	var cols []string
	var err error
	if dialect == Postgres {
		err = sqlx.SelectContext(ctx, q, &cols, `SELECT column_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`, table)
	} else {
		err = sqlx.SelectContext(ctx, q, &cols, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
	}
	if err != nil {
		return nil, fmt.Errorf("db: columns of %s: %w", table, translate(err))
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("db: no table %q", table)
	}
	return cols, nil
}

// Tables returns the names of the schema's tables (PostgreSQL's reading
// partitions excluded), sorted.
func (d *DB) Tables(ctx context.Context) ([]string, error) {
	var names []string
	var err error
	if d.dialect == Postgres {
		err = d.r.SelectContext(ctx, &names, `SELECT c.relname FROM pg_class c
			JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
			ORDER BY c.relname`)
	} else {
		err = d.r.SelectContext(ctx, &names, `SELECT name FROM sqlite_master
			WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	}
	if err != nil {
		return nil, fmt.Errorf("db: tables: %w", translate(err))
	}
	return names, nil
}

// RowSource yields a table's rows as JSON objects, one a call, and io.EOF
// after the last.
type RowSource func() ([]byte, error)

// importBatch is how many rows one INSERT of an import carries.
const importBatch = 500

// Import replaces the rows of tables (in the order of BackupConfigTables
// and BackupReadingTables: references first) with those rows gives for
// each, in one write transaction: all of them or, on any error, none.
// Rows hold the columns of this schema version. On PostgreSQL the
// identity sequences are moved past the loaded ids.
func (d *DB) Import(ctx context.Context, tables []string, rows func(table string) (RowSource, error)) error {
	return d.inTx(ctx, func(tx *sqlx.Tx) error {
		if d.dialect == SQLite {
			// Rows of a table may reference later rows of the same table.
			if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
				return translate(err)
			}
		}
		for i := len(tables) - 1; i >= 0; i-- {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+pq.QuoteIdentifier(tables[i])); err != nil {
				return fmt.Errorf("db: empty %s: %w", tables[i], translate(err))
			}
		}
		for _, t := range tables {
			src, err := rows(t)
			if err != nil {
				return err
			}
			if err := d.importTable(ctx, tx, t, src); err != nil {
				return fmt.Errorf("db: import %s: %w", t, err)
			}
		}
		return nil
	})
}

// importTable inserts src's rows into table in batches.
func (d *DB) importTable(ctx context.Context, tx *sqlx.Tx, table string, src RowSource) error {
	cols, err := columns(ctx, d.dialect, tx, table)
	if err != nil {
		return err
	}
	name := pq.QuoteIdentifier(table)
	var q string
	if d.dialect == Postgres {
		// OVERRIDING SYSTEM VALUE keeps the backed-up ids of identity
		// columns.
		q = `INSERT INTO ` + name + ` OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::` + name + `, $1::json)`
	} else {
		quoted := make([]string, len(cols))
		values := make([]string, len(cols))
		for i, c := range cols {
			quoted[i] = pq.QuoteIdentifier(c)
			values[i] = `json_extract(value, ` + pq.QuoteLiteral("$."+pq.QuoteIdentifier(c)) + `)`
		}
		q = `INSERT INTO ` + name + ` (` + strings.Join(quoted, ", ") + `) SELECT ` + strings.Join(values, ", ") + ` FROM json_each(?)`
	}
	batch := make([]byte, 0, 64<<10)
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		batch = append(batch, ']')
		if _, err := tx.ExecContext(ctx, q, string(batch)); err != nil {
			return translate(err)
		}
		batch, n = batch[:0], 0
		return nil
	}
	for {
		row, err := src()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if n == 0 {
			batch = append(batch, '[')
		} else {
			batch = append(batch, ',')
		}
		batch = append(batch, row...)
		if n++; n == importBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if d.dialect == Postgres && containsString(cols, "id") {
		// A sequence behind id (identity or serial) continues after the
		// largest id loaded, never below where it stood.
		var seq *string
		if err := tx.GetContext(ctx, &seq, `SELECT pg_get_serial_sequence($1, 'id')`, table); err != nil {
			return fmt.Errorf("sequence: %w", translate(err))
		}
		if seq != nil {
			_, err := tx.ExecContext(ctx, `SELECT setval($1, GREATEST((SELECT COALESCE(MAX(id), 0) FROM `+name+`) + 1,
				nextval($1)), false)`, *seq)
			if err != nil {
				return fmt.Errorf("sequence: %w", translate(err))
			}
		}
	}
	return nil
}

func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// StartNorthAtNewest gives each of names that has no position in the
// readings stream the position of the newest buffered reading, so that a
// north service or task restored without readings sends what arrives from
// now on instead of every reading this gateway buffered before. Names
// with a position keep it; with no readings buffered nothing is written
// (the stream then starts at the first reading).
func (d *DB) StartNorthAtNewest(ctx context.Context, names []string) error {
	if len(names) == 0 {
		return nil
	}
	return d.inTx(ctx, func(tx *sqlx.Tx) error {
		var newest struct {
			TS dbTime `db:"ts"`
			ID int64  `db:"id"`
		}
		err := tx.GetContext(ctx, &newest, `SELECT ts, id FROM readings ORDER BY ts DESC, id DESC LIMIT 1`)
		if errors.Is(translate(err), ErrNotFound) {
			return nil
		}
		if err != nil {
			return translate(err)
		}
		for _, n := range names {
			_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO stream_positions (name, last_ts, last_id, updated_at)
				VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`), n, newest.TS.Time, newest.ID, now())
			if err != nil {
				return fmt.Errorf("db: position of %q: %w", n, translate(err))
			}
		}
		return nil
	})
}
