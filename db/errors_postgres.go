package db

import (
	"github.com/lib/pq"
	"github.com/lib/pq/pqerror"
)

func postgresUniqueViolation(err error) bool {
	return pq.As(err, pqerror.UniqueViolation) != nil
}

func postgresForeignKeyViolation(err error) bool {
	return pq.As(err, pqerror.ForeignKeyViolation) != nil
}

// postgresUnavailable reports whether err is a PostgreSQL error meaning the
// server cannot serve now: a connection exception, a shutdown or start-up
// in progress, insufficient resources (a full disk, too many connections,
// out of memory), a system error (I/O), or a read-only server (a standby
// during a failover).
func postgresUnavailable(err error) bool {
	e := pq.As(err)
	if e == nil {
		return false
	}
	switch e.Code.Class() {
	case pqerror.ClassConnectionException, pqerror.ClassInsufficientResources, pqerror.ClassSystemError:
		return true
	}
	switch e.Code {
	case pqerror.AdminShutdown, pqerror.CrashShutdown, pqerror.CannotConnectNow, pqerror.ReadOnlySQLTransaction:
		return true
	}
	return false
}

// postgresDataException reports a data exception (SQLSTATE class 22):
// invalid byte sequences, untranslatable characters, numbers out of range,
// invalid JSON text; and a value too large for the server's limits
// (program_limit_exceeded, 54000: a key longer than a btree index row
// holds, such as an asset code of a few thousand bytes). Either is the
// value's fault: writing it again can never succeed.
func postgresDataException(err error) bool {
	e := pq.As(err)
	return e != nil && (e.Code.Class() == pqerror.ClassDataException || e.Code == pqerror.ProgramLimitExceeded)
}

// postgresDiskFull reports PostgreSQL's disk_full (53100).
func postgresDiskFull(err error) bool {
	return pq.As(err, pqerror.DiskFull) != nil
}
