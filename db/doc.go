// Package db is edged's storage layer: sqlx repositories over an embedded
// SQLite database (the default) or PostgreSQL (for scale), with the schema
// kept by embedded golang-migrate migrations.
//
// # Opening
//
// [Open] chooses the dialect from its DSN:
//
//   - "" (empty): SQLite in the file <dataDir>/edged.db; dataDir is created
//     with mode 0750 if it is missing.
//   - "sqlite:PATH" (or "sqlite://PATH"): SQLite in the file PATH;
//     "sqlite::memory:" is a private in-memory database (tests only).
//   - "postgres://…" or "postgresql://…": PostgreSQL, lib/pq URL form.
//   - a lib/pq key=value DSN, recognised by "host=" or "dbname=", e.g.
//     "host=/tmp/pg port=5432 user=edged dbname=edged sslmode=disable".
//     lib/pq defaults sslmode to require, so set it explicitly.
//
// Open applies every pending migration before it returns, so a *DB always
// has the current schema. Migrations live in migrations/sqlite and
// migrations/postgres with the same version numbers and are never edited
// once released; later changes are new versions.
//
// # Dialects
//
// SQLite uses modernc.org/sqlite (pure Go; builds with CGO_ENABLED=0) in WAL
// mode with foreign keys on. Writes go through a pool of exactly one
// connection whose transactions begin IMMEDIATE, so write transactions are
// serialised and never fail with SQLITE_BUSY half-way; reads use a separate
// read-only pool and see the last committed state. Times are stored as
// integer microseconds since the Unix epoch and JSON as text.
//
// PostgreSQL uses github.com/lib/pq and one pool. Times are timestamptz and
// JSON is jsonb (so JSON comes back normalised: key order and whitespace may
// differ from what was written). Read-modify-write transactions lock the row
// with SELECT … FOR UPDATE. The schema avoids features that PostgreSQL-wire
// distributed engines lack: no session advisory locks outside migrations and
// no reliance on gap-free ids.
//
// Queries are written once with ? placeholders and rebound for PostgreSQL;
// the unavoidable differences live in paired files (open_sqlite.go and
// open_postgres.go, errors_sqlite.go and errors_postgres.go,
// readings_sqlite.go and readings_postgres.go) or in small switch points on
// the dialect (row locking, paging, migration driver).
//
// # Errors and time
//
// Every repository method takes a context first and reports "no such row"
// as an error wrapping [ErrNotFound] and a unique or foreign-key violation as
// one wrapping [ErrConflict] (unless its documentation says otherwise, e.g.
// a reference to a row that does not exist may be ErrNotFound); it never
// returns a zero value with a nil error for a missing row. Other errors (including CHECK violations, which mean
// the caller did not validate its input) are returned wrapped but
// untranslated. An error meaning storage cannot be used right now (the
// server down or unreachable, a broken connection, a full or failing disk,
// a database locked beyond the busy timeout) wraps [ErrUnavailable] from
// every method: each pool's connections are guarded (guard.go), which also
// keeps the in-memory [DB.Health] that [DB.Probe] refreshes. All times
// returned are in UTC with microsecond precision.
//
// A *DB is safe for concurrent use by multiple goroutines.
package db
