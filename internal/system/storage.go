package system

import (
	"context"
	"log/slog"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
)

// Storage is what WatchStorage needs of storage; *db.DB implements it.
type Storage interface {
	// Health reports, from memory, whether the last calls found storage
	// usable.
	Health() db.Health
	// Probe tries storage once, which updates Health.
	Probe(ctx context.Context) error
}

// WatchStorage keeps storage's health current while nothing else would:
// every interval() on clk, when the last calls found storage unavailable,
// it probes it (so ping turns green again as soon as storage is back, also
// on an idle gateway), and it logs when storage becomes unavailable and
// when it is back. It probes too while the disk reserve of a SQLite
// database is missing, which the probe makes again when there is room. It
// returns when ctx ends.
func WatchStorage(ctx context.Context, s Storage, interval func() time.Duration, clk clock.Clock, log *slog.Logger) {
	down := false
	for {
		t := clk.NewTimer(interval())
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
		h := s.Health()
		if !h.Available {
			if !down {
				log.Error("storage is unavailable; API calls that need it answer 503 until it is back",
					"since", h.Since, "cause", h.Cause)
			}
			down = true
			_ = s.Probe(ctx) // its outcome shows in Health
			h = s.Health()
		} else if h.NoReserve {
			_ = s.Probe(ctx)
			h = s.Health()
		}
		if h.Available && down {
			log.Info("storage is available again")
			down = false
		}
	}
}
