package north

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
)

// StreamStore is the storage a stream reads readings and keeps its
// position in; *db.DB implements it.
type StreamStore interface {
	// ReadStream returns up to limit readings after a position, in
	// stream order, never past a reading still being committed.
	ReadStream(ctx context.Context, after db.StreamPosition, limit int) ([]db.Reading, error)
	// GetStreamPosition returns a saved position; db.ErrNotFound when
	// there is none.
	GetStreamPosition(ctx context.Context, name string) (db.StreamPosition, error)
	// SaveStreamPosition stores a position.
	SaveStreamPosition(ctx context.Context, name string, p db.StreamPosition) error
	// ReadingsCommitted returns a channel closed at the next commit of
	// readings.
	ReadingsCommitted() <-chan struct{}
}

// Counter counts readings sent; *ingest.Counters implements it.
type Counter interface {
	Add(key, description string, n int64)
}

// Tracker records asset tracking events; *ingest.Tracker implements it.
type Tracker interface {
	Track(ctx context.Context, event, service, plugin, asset string) error
}

// Stream sends the readings stream to one north plugin instance on behalf
// of a north service or task named Name: it reads blocks of readings after
// the saved position, hands each to the plugin and, once the plugin
// reports readings accepted, saves the position of the last of them, then
// counts them (statistic Name) and tracks their assets (Egress). The
// position is saved only after the destination accepted the readings, so a
// crash of either side resends (at least once) and never skips.
//
// A Stream is used by one goroutine at a time.
type Stream struct {
	Name    string // the service or task; its position and statistic
	Plugin  string // the plugin's name, for asset tracking
	Out     plugin.North
	Store   StreamStore
	Counter Counter
	Tracker Tracker // nil: no tracking
	Block   int     // readings read per block; < 1 means DefaultBlock
	Log     Logger
	Errors  SendErrors // nil: send errors are not counted

	pos    db.StreamPosition
	loaded bool
}

// SendErrors counts the failed sends of streams, e.g. for metrics.
type SendErrors interface {
	// SendFailed reports that the plugin of stream failed to send.
	SendFailed(stream string)
}

// Logger is the part of *slog.Logger a Stream uses.
type Logger interface {
	Warn(msg string, args ...any)
}

// DefaultBlock is the number of readings a stream reads at once.
const DefaultBlock = 1000

// SentDescription returns the description of the statistic counting the
// readings the north service or task name sent.
func SentDescription(name string) string { return "Readings sent north by " + name }

func (s *Stream) block() int {
	if s.Block < 1 {
		return DefaultBlock
	}
	return s.Block
}

// Position returns the position the stream sends after, loading it first
// if needed.
func (s *Stream) Position(ctx context.Context) (db.StreamPosition, error) {
	if s.loaded {
		return s.pos, nil
	}
	p, err := s.Store.GetStreamPosition(ctx, s.Name)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return db.StreamPosition{}, fmt.Errorf("north %q: %w", s.Name, err)
	}
	s.pos, s.loaded = p, true // none saved: from the start of the buffer
	return s.pos, nil
}

// Step reads one block after the position and sends it. It returns the
// number of readings read (0 when there was nothing to send) and sent. An
// error from the plugin is returned after what it accepted was recorded.
func (s *Stream) Step(ctx context.Context) (read, sent int, err error) {
	pos, err := s.Position(ctx)
	if err != nil {
		return 0, 0, err
	}
	rows, err := s.Store.ReadStream(ctx, pos, s.block())
	if err != nil {
		return 0, 0, fmt.Errorf("north %q: %w", s.Name, err)
	}
	if len(rows) == 0 {
		return 0, 0, nil
	}
	readings := make([]plugin.Reading, len(rows))
	for i, r := range rows {
		readings[i] = plugin.Reading{Asset: r.AssetCode, Timestamp: r.UserTS, Values: r.Reading}
	}
	n, sendErr := s.Out.Send(ctx, readings)
	n = max(0, min(n, len(rows)))
	if n > 0 {
		if err := s.accepted(ctx, rows[:n]); err != nil {
			return len(rows), n, err
		}
	}
	if sendErr != nil {
		if s.Errors != nil {
			s.Errors.SendFailed(s.Name)
		}
		return len(rows), n, fmt.Errorf("north %q: send: %w", s.Name, sendErr)
	}
	return len(rows), n, nil
}

// accepted records that the destination has rows: position, counter,
// tracking. The position is saved even while ctx ends: the destination
// has the readings, and resending them is the only cost of losing it.
func (s *Stream) accepted(ctx context.Context, rows []db.Reading) error {
	next := db.PositionOf(rows[len(rows)-1])
	if err := s.Store.SaveStreamPosition(context.WithoutCancel(ctx), s.Name, next); err != nil {
		return fmt.Errorf("north %q: save stream position: %w", s.Name, err)
	}
	s.pos = next
	s.Counter.Add(s.Name, SentDescription(s.Name), int64(len(rows)))
	if s.Tracker == nil {
		return nil
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.AssetCode] {
			continue
		}
		seen[r.AssetCode] = true
		if err := s.Tracker.Track(context.WithoutCancel(ctx), db.EventEgress, s.Name, s.Plugin, r.AssetCode); err != nil && s.Log != nil {
			s.Log.Warn("egress not tracked", "north", s.Name, "asset", r.AssetCode, "error", err)
		}
	}
	return nil
}

// Drain sends until a block comes back short (what was pending when it
// started, and whatever arrived meanwhile) and returns the number of
// readings sent. It stops early with ctx's error, or with the plugin's.
func (s *Stream) Drain(ctx context.Context) (int64, error) {
	var total int64
	for {
		read, sent, err := s.Step(ctx)
		total += int64(sent)
		if err != nil {
			return total, err
		}
		if read < s.block() {
			return total, nil
		}
	}
}

// Run sends continuously until the plugin fails or ctx ends; then it
// returns nil, or ctx's error when it ended during a step (what was
// accepted is recorded either way). Caught up, it waits for the next commit of readings, or
// at most poll on clk (readings inserted by other means).
func (s *Stream) Run(ctx context.Context, clk clock.Clock, poll time.Duration) error {
	for {
		committed := s.Store.ReadingsCommitted() // before reading: no commit is missed
		read, _, err := s.Step(ctx)
		if err != nil {
			return err // ctx's error, wrapped, when it ended mid-step
		}
		if read > 0 {
			continue
		}
		t := clk.NewTimer(poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-committed:
		case <-t.C():
		}
		t.Stop()
	}
}
