package db

import (
	"database/sql"
	"errors"
	"fmt"
)

// translate maps a driver error to this package's sentinels, once, at the
// boundary: no rows becomes ErrNotFound, a unique or foreign-key violation
// ErrConflict, a value the database cannot store ErrInvalidData (the
// driver's text is kept in the message, not in the chain).
// Any other error, nil included, is returned unchanged.
func translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return ErrNotFound
	case isUniqueViolation(err), isForeignKeyViolation(err):
		// Only the sentinel is wrapped: callers must not depend on driver
		// error types, which differ between the dialects.
		return fmt.Errorf("%w: %v", ErrConflict, err) //nolint:errorlint // see above
	case isDataException(err):
		return fmt.Errorf("%w: %v", ErrInvalidData, err) //nolint:errorlint // as for ErrConflict
	}
	return err
}

// isUniqueViolation reports whether err is a unique or primary-key
// violation of either dialect.
func isUniqueViolation(err error) bool {
	return sqliteUniqueViolation(err) || postgresUniqueViolation(err)
}

// isForeignKeyViolation reports whether err is a foreign-key violation of
// either dialect.
func isForeignKeyViolation(err error) bool {
	return sqliteForeignKeyViolation(err) || postgresForeignKeyViolation(err)
}

// isDataException reports whether err is the database refusing a value
// itself, in either dialect.
func isDataException(err error) bool {
	return sqliteDataException(err) || postgresDataException(err)
}
