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
