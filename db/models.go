package db

import (
	"encoding/json"
	"errors"
	"time"
)

// Sentinel errors returned (wrapped with %w) by every repository method.
// Driver errors are translated to these once, at this package's boundary.
var (
	// ErrNotFound means the addressed row does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict means the write collides with current state, e.g. a
	// unique key that already exists.
	ErrConflict = errors.New("conflict")
	// ErrInvalidData means the database refused a value it cannot store
	// (PostgreSQL's data exceptions: invalid UTF-8, a lone surrogate in
	// JSON, a number out of range; SQLite's too-big value or failed CHECK):
	// retrying the same write cannot succeed, other writes are unaffected.
	ErrInvalidData = errors.New("invalid data")
)

// Dialect names the SQL database behind a DB.
type Dialect string

// The supported dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// AuditEntry is one row of the audit trail.
type AuditEntry struct {
	ID        int64
	Timestamp time.Time // UTC, microsecond precision
	Source    string    // five-letter source code, e.g. CONCH
	Severity  string    // SUCCESS, FAILURE, WARNING or INFORMATION
	Details   json.RawMessage
}

// AuditFilter selects audit entries. Empty strings match everything.
type AuditFilter struct {
	Source   string
	Severity string
	Limit    int // rows per page; 0 means no limit
	Skip     int
}

// Category is a configuration category. Items holds the JSON object of its
// items (item name → item definition with its current value); the
// configuration manager owns the meaning of that object.
type Category struct {
	Key         string
	Description string
	DisplayName string
	Items       json.RawMessage
}

// Statistic is one named counter.
type Statistic struct {
	Key         string
	Description string
	Value       int64
}

// Reading is one sensor reading as stored in the buffer.
type Reading struct {
	ID        int64
	AssetCode string
	Reading   json.RawMessage // a JSON object, as received from the sensor
	UserTS    time.Time       // the sensor's timestamp, UTC
	TS        time.Time       // when the gateway stored it, UTC
}
