package db

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"
)

// SQLite's write-ahead log is copied back into the database file by a
// checkpoint. By default the connection that commits past 1000 log pages
// runs it inside its COMMIT, so every so often one write transaction pays
// for copying and syncing the pages of all the others: tens of
// milliseconds while ingest runs alone, over 300 ms while a purge dirties
// pages all over the file (docs/benchmarks.md). The write connection
// therefore never checkpoints (wal_autocheckpoint=0), and the checkpointer
// runs PASSIVE checkpoints from a read connection instead: they copy what
// no reader still needs without taking the write lock, so writers go on
// meanwhile, and the log is reused from its start once a checkpoint has
// caught up.
//
// Under steady ingest a PASSIVE checkpoint never catches up: commits made
// while it copies stay behind it, so the log was never reused and grew by
// every commit's pages (hundreds of megabytes a minute at full rate), and
// every commit extended the file, which made its writes and syncs dearer.
// Once the log holds catchUpPages, the checkpointer therefore runs one
// more checkpoint on the write connection, between two write transactions:
// no commit can happen while it runs, so it catches up, and the next write
// starts the log over.

// Checkpointer pacing: at most one checkpoint per checkpointGap, a
// checkpoint soon after writes, and one every checkpointIdle regardless
// (for writes that did not announce themselves). Each checkpoint copies
// every page changed since the last one once, however often it changed, and
// syncs the database file: under steady ingest the same index and rollup
// pages change in every commit, so checkpoints every 20 ms copied them up to
// fifty times a second and took 7% of the gateway's CPU
// (docs/benchmarks.md). At 200 ms the log holds a few hundred pages between
// checkpoints, which readers find through the WAL index as cheaply.
const (
	checkpointGap  = 200 * time.Millisecond
	checkpointIdle = time.Second
	// catchUpPages is how many log pages a checkpoint may leave behind
	// before the write connection catches up: SQLite's own default
	// wal_autocheckpoint, about 4 MiB.
	catchUpPages = 1000
	// catchUpBehind is the most pages a pass from the read connection may
	// have left behind for the write connection to copy (about 1 MiB:
	// a millisecond or two), and catchUpPasses how many passes try to get
	// there before the checkpointer waits for the next round.
	catchUpBehind = 256
	catchUpPasses = 4
)

// checkpointer runs the PASSIVE checkpoints of a SQLite file database.
type checkpointer struct {
	kick chan struct{} // buffered: a write happened
	stop context.CancelFunc
	done chan struct{} // closed when the loop has ended
	// ran, when set, is told each checkpoint's outcome: the pages in the
	// log and how many of them are in the database file now.
	ran func(logPages, copied int, err error)
}

// startCheckpointer starts checkpointing through the read pool r, catching
// up through the write pool w, until close is called; ran may be nil.
func startCheckpointer(r, w *sqlx.DB, ran func(logPages, copied int, err error)) *checkpointer {
	ctx, cancel := context.WithCancel(context.Background())
	c := &checkpointer{kick: make(chan struct{}, 1), stop: cancel, done: make(chan struct{}), ran: ran}
	go c.loop(ctx, r, w)
	return c
}

// wrote tells the checkpointer that a transaction committed; it never
// blocks.
func (c *checkpointer) wrote() {
	if c == nil {
		return
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// close stops the loop and waits for it. Closing the last connection
// checkpoints whatever is left.
func (c *checkpointer) close() {
	if c == nil {
		return
	}
	c.stop()
	<-c.done
}

func (c *checkpointer) loop(ctx context.Context, r, w *sqlx.DB) {
	defer close(c.done)
	idle := time.NewTicker(checkpointIdle)
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
		case <-idle.C:
		}
		// A failed checkpoint (the database busy or closing) leaves the
		// pages in the log, where readers find them: the next one copies
		// them.
		logPages, _, err := c.checkpoint(ctx, r)
		// The write connection catches up only once a pass from the read
		// connection left little behind: what it copies was written
		// during that pass, so ingest waits for a few pages, not for
		// everything a purge dirtied.
		for pass := 0; err == nil && logPages >= catchUpPages && pass < catchUpPasses; pass++ {
			before := logPages
			if logPages, _, err = c.checkpoint(ctx, r); err == nil && logPages-before <= catchUpBehind {
				_, _, _ = c.checkpoint(ctx, w)
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(checkpointGap):
		}
	}
}

// checkpoint runs a PASSIVE checkpoint on a connection of pool p, tells
// c.ran, and returns the pages in the log and how many of them are in the
// database file now.
func (c *checkpointer) checkpoint(ctx context.Context, p *sqlx.DB) (logPages, copied int, err error) {
	var busy int
	err = p.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logPages, &copied)
	if c.ran != nil {
		c.ran(logPages, copied, err)
	}
	return logPages, copied, err
}
