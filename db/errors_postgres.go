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

// postgresDataException reports a data exception (SQLSTATE class 22):
// invalid byte sequences, untranslatable characters, numbers out of range,
// invalid JSON text.
func postgresDataException(err error) bool {
	e := pq.As(err)
	return e != nil && e.Code.Class() == pqerror.ClassDataException
}
