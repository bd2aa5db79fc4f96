package app

import (
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"time"

	"github.com/edged/edged/internal/certstore"
	"github.com/edged/edged/internal/fileperm"
	"github.com/edged/edged/internal/user"
)

// timeouts bound how long one client may hold a connection of the API
// server (docs/configuration.md, "Timeouts of the API").
type timeouts struct {
	// ReadHeader is the time to send a request's headers.
	ReadHeader time.Duration
	// Read is the time to send a whole request, body included. Bodies
	// are at most 1 MiB: 30 s allows 35 KiB/s.
	Read time.Duration
	// Write is the time from the end of a request's headers until its
	// answer is sent: reading the body, running the call and sending
	// the answer. The slowest calls (purging millions of readings,
	// reading 10 000 of them) take seconds.
	Write time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request.
	Idle time.Duration
}

// apiTimeouts are the timeouts of the API server: a client trickling a
// request, or not reading its answer, loses its connection instead of
// holding it (and a goroutine) for ever.
var apiTimeouts = timeouts{
	ReadHeader: 10 * time.Second,
	Read:       30 * time.Second,
	Write:      2 * time.Minute,
	Idle:       2 * time.Minute,
}

// newServer returns the HTTP server of handler with the timeouts t.
func newServer(handler http.Handler, log *slog.Logger, t timeouts) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// secureDataDir makes the data directory dir private to the gateway's
// operating-system user (mode 0700, created if missing) and tightens the
// files the gateway keeps there besides the database (db.Open sees to
// that one): the initial admin password and the certificate store. Files
// left readable by others by an older version or by hand become 0600.
func secureDataDir(dir string, certs *certstore.Store) error {
	if err := fileperm.PrivateDir(dir); err != nil {
		return fmt.Errorf("data directory %s: %w", dir, err)
	}
	if err := fileperm.Tighten(filepath.Join(dir, user.InitialPasswordFile)); err != nil {
		return fmt.Errorf("data directory %s: %w", dir, err)
	}
	return certs.Secure()
}
