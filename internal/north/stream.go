package north

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
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
	// AdvanceStream saves a position and counts what was sent, in one
	// transaction.
	AdvanceStream(ctx context.Context, name, description string, p db.StreamPosition, sent int64) error
	// SetAside keeps readings refused for good, moves the position past
	// them and counts them, in one transaction.
	SetAside(ctx context.Context, name string, rows []db.Reading, reason string, p db.StreamPosition, description string) error
	// ResendBlock returns set-aside readings marked to be sent again.
	ResendBlock(ctx context.Context, name string, limit int) ([]db.SetAsideReading, error)
	// Resent records the outcome of sending set-aside readings again.
	Resent(ctx context.Context, name string, delivered, refused []int64, reason, description string) error
	// ReadingsCommitted returns a channel closed at the next commit of
	// readings.
	ReadingsCommitted() <-chan struct{}
}

// Tracker records asset tracking events; *ingest.Tracker implements it.
type Tracker interface {
	Track(ctx context.Context, event, service, plugin, asset string) error
}

// Stream sends the readings stream to one north plugin instance on behalf
// of a north service or task named Name: it reads blocks of readings after
// the saved position, hands each to the plugin and, once the plugin
// reports readings accepted, saves the position of the last of them and
// counts them (statistic Name) in one transaction, then tracks their
// assets (Egress). The position is saved only after the destination
// accepted the readings, so a crash of either side resends (at least
// once) and never skips, and the count always equals what was delivered.
//
// Readings the plugin reports rejected for good (plugin.RejectedError) are
// set aside in one transaction with moving the position past them and
// counting them (statistic db.SetAsideKey(Name)), audited NHREJ with their
// ids, and the stream goes on. Set-aside readings an operator marked for
// resending are sent before the stream's next block: at the start, and
// whenever Wake says so.
//
// A Stream is used by one goroutine at a time.
type Stream struct {
	Name    string // the service or task; its position and statistic
	Plugin  string // the plugin's name, for asset tracking
	Out     plugin.North
	Store   StreamStore
	Tracker Tracker // nil: no tracking
	Block   int     // readings read per block; < 1 means DefaultBlock
	Log     Logger
	// Audit writes NHREJ entries; nil writes none.
	Audit func(ctx context.Context, source, severity string, details any)
	// Sent, when set, is told how many readings were recorded delivered,
	// after the transaction that counted them.
	Sent func(n int64)
	// Wake, when set, tells a running stream that set-aside readings were
	// marked for resending.
	Wake <-chan struct{}
	// Errors, when set, counts the failed sends; nil counts none.
	Errors SendErrors

	pos     db.StreamPosition
	loaded  bool
	checked bool // resends were looked for since the last wake
}

// AuditRejected is the audit source of readings a north destination
// refused for good and that were set aside.
const AuditRejected = auditcode.NorthRejected

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

// SetAsideDescription returns the description of the statistic counting
// the readings the north service or task name set aside.
func SetAsideDescription(name string) string {
	return "Readings set aside by " + name + ": its destination refused them for good"
}

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
// number of readings read (0 when there was nothing to send) and sent
// (set-aside ones not included). An error from the plugin is returned
// after what it accepted was recorded; readings it rejected for good are
// set aside and are no error.
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
	n, sendErr := s.Out.Send(ctx, toPlugin(len(rows), func(i int) (string, time.Time, json.RawMessage) {
		return rows[i].AssetCode, rows[i].UserTS, rows[i].Reading
	}))
	n = max(0, min(n, len(rows)))
	if n > 0 {
		if err := s.accepted(ctx, rows[:n]); err != nil {
			return len(rows), n, err
		}
	}
	var rej *plugin.RejectedError
	if errors.As(sendErr, &rej) && rej.Count > 0 && n < len(rows) {
		refused := rows[n:min(n+rej.Count, len(rows))]
		if err := s.setAside(ctx, refused, rej.Reason); err != nil {
			return len(rows), n, err
		}
		return len(rows), n, nil
	}
	if sendErr != nil {
		s.failed(ctx)
		return len(rows), n, fmt.Errorf("north %q: send: %w", s.Name, sendErr)
	}
	return len(rows), n, nil
}

// toPlugin builds the plugin's readings from n stored ones.
func toPlugin(n int, at func(i int) (string, time.Time, json.RawMessage)) []plugin.Reading {
	out := make([]plugin.Reading, n)
	for i := range out {
		asset, ts, values := at(i)
		out[i] = plugin.Reading{Asset: asset, Timestamp: ts, Values: values}
	}
	return out
}

// accepted records that the destination has rows: position and counter in
// one transaction, then tracking. It is recorded even while ctx ends: the
// destination has the readings, and resending them is the only cost of
// losing it.
func (s *Stream) accepted(ctx context.Context, rows []db.Reading) error {
	next := db.PositionOf(rows[len(rows)-1])
	if err := s.Store.AdvanceStream(context.WithoutCancel(ctx), s.Name, SentDescription(s.Name), next, int64(len(rows))); err != nil {
		return fmt.Errorf("north %q: record readings sent: %w", s.Name, err)
	}
	s.pos = next
	s.sent(int64(len(rows)))
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
			s.Log.Warn("egress not tracked", "service", s.Name, "asset", r.AssetCode, "error", err)
		}
	}
	return nil
}

// failed counts a failed send, unless ctx ended: a send cut short by
// the stream stopping is no failure of the destination.
func (s *Stream) failed(ctx context.Context) {
	if s.Errors != nil && ctx.Err() == nil {
		s.Errors.SendFailed(s.Name)
	}
}

func (s *Stream) sent(n int64) {
	if s.Sent != nil && n > 0 {
		s.Sent(n)
	}
}

// setAside keeps rows the destination refused for good, moves the
// position past them and counts them, then audits NHREJ with their ids.
func (s *Stream) setAside(ctx context.Context, rows []db.Reading, reason string) error {
	next := db.PositionOf(rows[len(rows)-1])
	err := s.Store.SetAside(context.WithoutCancel(ctx), s.Name, rows, reason, next, SetAsideDescription(s.Name))
	if err != nil {
		return fmt.Errorf("north %q: set aside refused readings: %w", s.Name, err)
	}
	s.pos = next
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	s.rejected(ctx, ids, reason, false)
	return nil
}

// rejected logs and audits readings set aside (again, when resent).
func (s *Stream) rejected(ctx context.Context, ids []int64, reason string, again bool) {
	if s.Log != nil {
		s.Log.Warn("north destination refused readings for good; they are set aside", "service", s.Name,
			"readings", ids, "reason", reason, "resent", again)
	}
	if s.Audit != nil {
		s.Audit(context.WithoutCancel(ctx), AuditRejected, auditcode.Warning, map[string]any{"name": s.Name, "readings": ids,
			"reason": reason, "resent": again})
	}
}

// resend sends one block of the set-aside readings marked for resending.
// It returns false when there were none (and looks again only after the
// next wake); the entries delivered are removed and counted as sent, the
// ones refused again stay set aside.
func (s *Stream) resend(ctx context.Context) (bool, int, error) {
	if s.checked {
		return false, 0, nil
	}
	blk, err := s.Store.ResendBlock(ctx, s.Name, s.block())
	if err != nil {
		return false, 0, fmt.Errorf("north %q: %w", s.Name, err)
	}
	if len(blk) == 0 {
		s.checked = true
		return false, 0, nil
	}
	n, sendErr := s.Out.Send(ctx, toPlugin(len(blk), func(i int) (string, time.Time, json.RawMessage) {
		return blk[i].AssetCode, blk[i].UserTS, blk[i].Reading
	}))
	n = max(0, min(n, len(blk)))
	ids := func(es []db.SetAsideReading) []int64 {
		out := make([]int64, len(es))
		for i, e := range es {
			out[i] = e.ID
		}
		return out
	}
	var (
		refused []db.SetAsideReading
		reason  string
		rej     *plugin.RejectedError
	)
	if errors.As(sendErr, &rej) && rej.Count > 0 && n < len(blk) {
		refused, reason, sendErr = blk[n:min(n+rej.Count, len(blk))], rej.Reason, nil
	}
	if n > 0 || len(refused) > 0 {
		if err := s.Store.Resent(context.WithoutCancel(ctx), s.Name, ids(blk[:n]), ids(refused), reason,
			SentDescription(s.Name)); err != nil {
			return true, 0, fmt.Errorf("north %q: record resent readings: %w", s.Name, err)
		}
		s.sent(int64(n))
	}
	if len(refused) > 0 {
		readingIDs := make([]int64, len(refused))
		for i, e := range refused {
			readingIDs[i] = e.ReadingID
		}
		s.rejected(ctx, readingIDs, reason, true)
	}
	if sendErr != nil {
		s.failed(ctx)
		return true, n, fmt.Errorf("north %q: resend: %w", s.Name, sendErr)
	}
	return true, n, nil
}

// Drain sends the set-aside readings marked for resending, then the
// stream until a block comes back short (what was pending when it
// started, and whatever arrived meanwhile), and returns the number of
// readings sent. It stops early with ctx's error, or with the plugin's.
func (s *Stream) Drain(ctx context.Context) (int64, error) {
	var total int64
	for {
		more, sent, err := s.resend(ctx)
		total += int64(sent)
		if err != nil {
			return total, err
		}
		if more {
			continue
		}
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
// accepted is recorded either way). Caught up, it waits for the next
// commit of readings, a wake, or at most poll on clk (readings inserted by
// other means).
func (s *Stream) Run(ctx context.Context, clk clock.Clock, poll time.Duration) error {
	for {
		select {
		case <-s.Wake:
			s.checked = false
		default:
		}
		committed := s.Store.ReadingsCommitted() // before reading: no commit is missed
		more, _, err := s.resend(ctx)
		if err != nil {
			return err
		}
		if more {
			continue
		}
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
		case <-s.Wake:
			s.checked = false
		case <-t.C():
		}
		t.Stop()
	}
}
