package db

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Durability is what an acknowledged commit survives.
type Durability string

// The durability levels.
const (
	// Power: every commit is on stable storage when it returns, so it
	// survives an operating-system crash or a power cut (SQLite
	// synchronous=FULL, PostgreSQL synchronous_commit=on; the data
	// directory is synced after the database file is created). The one
	// exception is InsertReadingsDeferred, whose commit is on stable
	// storage once its wait returned.
	Power Durability = "power"
	// Process: a commit survives a crash of the gateway process, not of
	// the machine (SQLite synchronous=NORMAL in WAL mode, PostgreSQL
	// synchronous_commit=off): the last commits before a power cut may be
	// lost, and each costs less.
	Process Durability = "process"
)

// ParseDurability returns the level named s ("power" or "process").
func ParseDurability(s string) (Durability, error) {
	switch d := Durability(s); d {
	case Power, Process:
		return d, nil
	}
	return "", fmt.Errorf("db: durability %q: want power or process", s)
}

// sqliteSynchronous is SQLite's synchronous setting for level d.
func (d Durability) sqliteSynchronous() string {
	if d == Process {
		return "NORMAL"
	}
	return "FULL"
}

// postgresDSN returns dsn setting synchronous_commit for level d, unless
// dsn sets it itself. lib/pq sends settings it does not know itself to the
// server as run-time parameters of every connection.
func (d Durability) postgresDSN(dsn string) (string, error) {
	if strings.Contains(dsn, "synchronous_commit") {
		return dsn, nil
	}
	value := "on"
	if d == Process {
		value = "off"
	}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("db: postgres URL: %w", err)
		}
		q := u.Query()
		q.Set("synchronous_commit", value)
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	return dsn + " synchronous_commit=" + value, nil
}

// syncDir makes the entries of directory dir durable (its new files and
// subdirectories, renames in it): fsync of a file does not do that.
func syncDir(dir string) error {
	f, err := os.Open(filepath.Clean(dir))
	if err != nil {
		return fmt.Errorf("db: sync directory: %w", err)
	}
	defer func() { _ = f.Close() }()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("db: sync directory %s: %w", dir, err)
	}
	return nil
}

// mkdirDurable creates dir and its missing parents with create and, for
// Power, syncs the parent of every directory it created, so that the new
// directories survive a power cut.
func mkdirDurable(dir string, d Durability, create func(dir string) error) error {
	dir = filepath.Clean(dir)
	var created []string
	for p := dir; ; p = filepath.Dir(p) {
		if _, err := os.Stat(p); err == nil || filepath.Dir(p) == p {
			break
		}
		created = append(created, p)
	}
	if err := create(dir); err != nil {
		return err
	}
	if d != Power {
		return nil
	}
	for _, p := range created {
		if err := syncDir(filepath.Dir(p)); err != nil {
			return err
		}
	}
	return nil
}
