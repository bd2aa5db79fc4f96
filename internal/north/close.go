package north

import (
	"log/slog"

	"github.com/edged/edged/internal/plugin"
)

// closeInstance releases what a north plugin instance holds, if it holds
// anything (plugin.Closer).
func closeInstance(inst plugin.North, log *slog.Logger) {
	c, ok := inst.(plugin.Closer)
	if !ok {
		return
	}
	if err := c.Close(); err != nil {
		log.Warn("north plugin instance did not close cleanly", "error", err)
	}
}
