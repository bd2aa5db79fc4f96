// Package user manages the gateway's users. At first start it creates the
// admin user; there is no default password.
package user

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/durable"
	"github.com/edged/edged/internal/fileperm"
)

// InitialPasswordFile is the file in the data directory that receives a
// generated admin password, readable by the owner only.
const InitialPasswordFile = "initial-admin-password"

// MinPasswordLength is the shortest password the default policy accepts.
const MinPasswordLength = 8

// AdminStore is the storage EnsureAdmin needs.
type AdminStore interface {
	CountUsers(ctx context.Context) (int, error)
	InsertFirstAdmin(ctx context.Context, passwordHash string) (created bool, id int64, err error)
}

// Auditor records audit entries.
type Auditor interface {
	Record(ctx context.Context, source, severity string, details any) error
}

// EnsureAdmin creates the admin user at first start, when no user exists.
// Its password is password, or, when that is empty, a random one written to
// InitialPasswordFile in dataDir (mode 0600), never to the log, which names
// the file. A password
// shorter than MinPasswordLength or longer than MaxPasswordBytes is
// refused. Later starts change nothing.
func EnsureAdmin(ctx context.Context, store AdminStore, audit Auditor, log *slog.Logger, dataDir, password string) error {
	n, err := store.CountUsers(ctx)
	if err != nil {
		return fmt.Errorf("ensure admin: %w", err)
	}
	if n > 0 {
		return nil
	}
	generated := password == ""
	if generated {
		password = rand.Text() // 26 base32 characters: 130 bits
	}
	if len(password) < MinPasswordLength {
		return fmt.Errorf("the admin password (EDGE_ADMIN_PASSWORD) must have at least %d characters", MinPasswordLength)
	}
	if len(password) > MaxPasswordBytes {
		return fmt.Errorf("the admin password (EDGE_ADMIN_PASSWORD) must have at most %d bytes (bcrypt's limit)", MaxPasswordBytes)
	}
	hash, err := hashPassword(password)
	if err != nil {
		return fmt.Errorf("ensure admin: hash password: %w", err)
	}
	created, id, err := store.InsertFirstAdmin(ctx, hash)
	if err != nil {
		return fmt.Errorf("ensure admin: %w", err)
	}
	if !created {
		return nil
	}
	if generated {
		path := filepath.Join(dataDir, InitialPasswordFile)
		if err := writeSecret(path, password); err != nil {
			return fmt.Errorf("ensure admin: %w", err)
		}
		// The password goes to the file only: logs are collected,
		// shipped and kept where the file's 0600 does not reach.
		log.Warn("created user admin with a generated password, written to a file only its owner can read; log in as admin with it and change it",
			"file", path)
	} else {
		log.Info("created user admin with the password from EDGE_ADMIN_PASSWORD")
	}
	if err := audit.Record(ctx, auditcode.UserAdded, auditcode.Information, map[string]any{
		"userId": id, "userName": "admin", "roleId": 1, "reason": "first start",
	}); err != nil {
		log.Error("audit USRAD", "error", err)
	}
	return nil
}

// writeSecret writes s to path readable by the owner only, in a directory
// private to the owner, replacing any older file, durably: the password of
// a gateway that lost power right after its first start must not be lost.
func writeSecret(path, s string) error {
	if err := fileperm.PrivateDir(filepath.Dir(path)); err != nil {
		return err
	}
	return durable.WriteFile(path, []byte(s+"\n"), fileperm.File)
}
