package logging

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"math"
	"sync"
	"time"
)

// SourceCore is the source of the lines that are about no service: the
// gateway's own.
const SourceCore = "core"

// ServiceKey is the attribute that attributes a line to a service: a
// top-level string attribute "service", given to the logger of each
// service (Logger.With("service", name)) or to the call.
const ServiceKey = "service"

// Bounds of the ring of recent lines kept in memory: whichever is reached
// first evicts the oldest lines. Older lines are read from the log file.
const (
	RingEntries = 5000
	RingBytes   = 4 << 20
)

// Entry is one line of the gateway's log as the API shows it.
type Entry struct {
	Time    time.Time
	Level   slog.Level
	Source  string // the service the line is about, or SourceCore
	Message string
	// Attrs are the line's other attributes, groups flattened to dotted
	// keys; nil when there are none.
	Attrs map[string]any
}

// AllLevels is a Query.Level that lets every line through.
const AllLevels = slog.Level(math.MinInt)

// Query selects lines of the journal.
type Query struct {
	Source string     // only lines of this source ("" any)
	Level  slog.Level // only lines at this level or above (AllLevels: any)
	Since  time.Time  // only lines at or after Since (zero: no bound)
	Until  time.Time  // only lines before Until (zero: no bound)
	Limit  int        // at most Limit lines (≤ 0: none, only the count)
	Skip   int        // after skipping the Skip newest matching lines
}

func (q Query) match(e *Entry) bool {
	return (q.Source == "" || e.Source == q.Source) && e.Level >= q.Level &&
		(q.Since.IsZero() || !e.Time.Before(q.Since)) && (q.Until.IsZero() || e.Time.Before(q.Until))
}

// Journal keeps the gateway's recent log lines in a ring in memory and,
// when a log file is set, appends every line to that file too, rotated by
// size. Lines reach it through Handler. Query answers from both: the ring
// first, then the files for the lines the ring no longer holds (lines of
// earlier runs included). A Journal is safe for concurrent use.
type Journal struct {
	run string // identifies this process's lines in the files

	mu         sync.Mutex
	seq        uint64 // number of the last line added
	ring       []record
	head, n    int // ring[head] is the oldest of n lines
	bytes      int
	maxEntries int
	maxBytes   int
	file       *logFile // nil: no log file is written
	written    uint64   // number of the last line written to a file

	// rotation is held for reading while Query reads the files, so that
	// no rotation renames them under it; a rotation that cannot take it
	// at once waits for a later line.
	rotation sync.RWMutex
}

// record is a line in the ring.
type record struct {
	Entry
	seq  uint64
	size int
}

// NewJournal returns a journal with an empty ring of the default bounds
// and no log file.
func NewJournal() *Journal { return newJournal(RingEntries, RingBytes) }

func newJournal(maxEntries, maxBytes int) *Journal {
	var id [8]byte
	_, _ = rand.Read(id[:]) // never fails (crypto/rand)
	return &Journal{run: hex.EncodeToString(id[:]), ring: make([]record, maxEntries),
		maxEntries: maxEntries, maxBytes: maxBytes}
}

// add keeps e in the ring, evicting the oldest lines beyond the bounds,
// and writes it to the log file when there is one.
func (j *Journal) add(e Entry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.addLocked(e, true)
}

// addLocked keeps e in the ring and, when toFile and there is a log file,
// writes it there.
func (j *Journal) addLocked(e Entry, toFile bool) {
	size := entrySize(&e)
	j.seq++
	if j.n == j.maxEntries {
		j.evictLocked()
	}
	j.ring[(j.head+j.n)%j.maxEntries] = record{Entry: e, seq: j.seq, size: size}
	j.n++
	j.bytes += size
	for j.bytes > j.maxBytes && j.n > 1 {
		j.evictLocked()
	}
	if toFile && j.file != nil {
		j.writeLocked(&j.ring[(j.head+j.n-1)%j.maxEntries])
	}
}

func (j *Journal) evictLocked() {
	j.bytes -= j.ring[j.head].size
	j.ring[j.head] = record{}
	j.head = (j.head + 1) % j.maxEntries
	j.n--
}

// entrySize estimates the memory a line holds.
func entrySize(e *Entry) int {
	size := 96 + len(e.Message) + len(e.Source)
	for k, v := range e.Attrs {
		size += 32 + len(k)
		if s, ok := v.(string); ok {
			size += len(s)
		}
	}
	return size
}

// Query returns the lines matching q, newest first, a page of them as
// q.Limit and q.Skip say, and the number of all matching lines. A log
// file that cannot be read is an error; a line in it that does not parse
// (cut by a crash) is skipped.
func (j *Journal) Query(q Query) ([]Entry, int, error) {
	j.rotation.RLock()
	defer j.rotation.RUnlock()
	j.mu.Lock()
	var recent []Entry // chronological
	for i := range j.n {
		r := &j.ring[(j.head+i)%j.maxEntries]
		if q.match(&r.Entry) {
			recent = append(recent, r.Entry)
		}
	}
	oldest := j.seq + 1 // the first line the files must not give again
	if j.n > 0 {
		oldest = j.ring[j.head].seq
	}
	var paths []string
	if j.file != nil {
		paths = j.file.paths()
	}
	j.mu.Unlock()

	// The page holds the newest Skip+Limit lines; the ring gives the
	// newest of them, the files the rest.
	need := max(q.Skip+max(q.Limit, 0), 0)
	window := newTail(max(need-len(recent), 0))
	older := 0
	for _, p := range paths {
		n, err := readFile(p, func(l *fileLine) (keep bool) {
			return l.Run != j.run || l.Seq < oldest
		}, q, window)
		if err != nil {
			return nil, 0, err
		}
		older += n
	}
	total := older + len(recent)
	page := make([]Entry, 0, min(max(q.Limit, 0), max(total-q.Skip, 0)))
	skip := q.Skip
	for i := len(recent) - 1; i >= 0 && len(page) < q.Limit; i-- {
		if skip > 0 {
			skip--
			continue
		}
		page = append(page, recent[i])
	}
	kept := window.entries()
	for i := len(kept) - 1; i >= 0 && len(page) < q.Limit; i-- {
		if skip > 0 {
			skip--
			continue
		}
		page = append(page, kept[i])
	}
	return page, total, nil
}

// tail keeps the last limit entries given to it, in order.
type tail struct {
	limit int
	buf   []Entry
	next  int // where the next entry goes once buf is full
}

func newTail(limit int) *tail { return &tail{limit: limit} }

func (t *tail) add(e Entry) {
	switch {
	case t.limit == 0:
	case len(t.buf) < t.limit:
		t.buf = append(t.buf, e)
	default:
		t.buf[t.next] = e
		t.next = (t.next + 1) % t.limit
	}
}

func (t *tail) entries() []Entry {
	return append(append([]Entry(nil), t.buf[t.next:]...), t.buf[:t.next]...)
}

// LevelName is the name of l's level on the wire: debug, info, warning or
// error (a level between two is given the lower's name).
func LevelName(l slog.Level) string {
	switch {
	case l < slog.LevelInfo:
		return "debug"
	case l < slog.LevelWarn:
		return "info"
	case l < slog.LevelError:
		return "warning"
	}
	return "error"
}
