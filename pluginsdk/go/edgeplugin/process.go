package edgeplugin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// MaxMessageBytes is the most a plugin sends the gateway in one message: a
// batch of readings (Run), the readings a filter returns (Ingest), an
// answer. Emit refuses a larger batch; the gateway refuses a larger
// message of a plugin that does not use this SDK, failing the call.
const MaxMessageBytes = 4 << 20

// LaunchOptions say how LaunchWith starts a plugin process.
type LaunchOptions struct {
	// Log receives what the plugin writes to stderr, line by line, and
	// go-plugin's own messages about the process; nil discards them.
	Log io.Writer
	// Env is the process's whole environment ("NAME=value"), to which
	// go-plugin adds its handshake variables; nil gives it no other.
	Env []string
}

// Stderr tail sizes: the lines of a plugin's stderr an error carries,
// and the most of each line kept.
const (
	tailLines    = 10
	tailLineSize = 400
	// exitWait bounds the wait for a process whose connection broke.
	exitWait = 2 * time.Second
)

// stderrTail keeps the last lines a plugin process wrote to stderr, so an
// error of its start can say why it failed (a Python plugin's traceback,
// a Go plugin's panic), and logs the plain lines, which go-plugin's
// logger would only log at debug level. A Go plugin's stderr reaches the
// gateway two ways: what the runtime writes to the file (a panic) and,
// once the SDK serves, what it writes to os.Stderr, through go-plugin's
// stdio stream; each has its own writer (source), so the lines of the one
// do not break those of the other.
type stderrTail struct {
	log io.Writer

	mu      sync.Mutex
	lines   []string // the last tailLines lines, oldest first
	sources []*tailSource
}

func newStderrTail(log io.Writer) *stderrTail { return &stderrTail{log: log} }

// source returns a writer of one stream of lines into the tail. parsed
// says go-plugin's logger also reads the stream (the file, not the stdio
// stream) and logs the lines it understands.
func (t *stderrTail) source(parsed bool) *tailSource {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := &tailSource{t: t, parsed: parsed}
	t.sources = append(t.sources, s)
	return s
}

// tailSource is one stream of lines of a stderrTail; go-plugin writes the
// file's each line, then a newline, as separate writes, and the stdio
// stream in chunks.
type tailSource struct {
	t       *stderrTail
	parsed  bool
	partial []byte // the line being written; guarded by t.mu
	inPanic bool   // a Go panic began, which go-plugin's logger logs to the end
}

func (s *tailSource) Write(p []byte) (int, error) {
	t := s.t
	t.mu.Lock()
	defer t.mu.Unlock()
	rest := p
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			s.partial = append(s.partial, rest[:min(len(rest), max(tailLineSize-len(s.partial), 0))]...)
			return len(p), nil
		}
		s.partial = append(s.partial, rest[:min(i, max(tailLineSize-len(s.partial), 0))]...)
		s.line(string(s.partial))
		s.partial, rest = s.partial[:0], rest[i+1:]
	}
}

// line keeps a whole line and logs it unless go-plugin's logger does: on
// the file, that logger logs its JSON lines, lines with a [LEVEL] prefix
// and a panic's; t.mu is held.
func (s *tailSource) line(l string) {
	t := s.t
	l = strings.TrimRight(l, "\r")
	if strings.TrimSpace(l) == "" {
		return
	}
	if len(t.lines) == tailLines {
		t.lines = append(t.lines[:0], t.lines[1:]...)
	}
	t.lines = append(t.lines, l)
	if s.parsed {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			s.inPanic = true
		}
		if s.inPanic || strings.HasPrefix(l, "{") || strings.HasPrefix(l, "[") {
			return
		}
	}
	_, _ = io.WriteString(t.log, l+"\n")
}

// Lines returns the last lines kept.
func (t *stderrTail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string{}, t.lines...)
	for _, s := range t.sources {
		if len(s.partial) > 0 {
			out = append(out, string(s.partial))
		}
	}
	return out
}

// annotate adds the last lines of stderr to err, which stays matchable
// (errors.Is, CodeOf).
func (t *stderrTail) annotate(err error) error {
	if err == nil {
		return nil
	}
	lines := t.Lines()
	if len(lines) == 0 {
		return err
	}
	return &stderrError{err: err, tail: lines}
}

// stderrError is an error of a plugin process with the last lines of its
// stderr.
type stderrError struct {
	err  error
	tail []string
}

func (e *stderrError) Error() string {
	return fmt.Sprintf("%v; the plugin's stderr ends with: %s", e.err, strings.Join(e.tail, " | "))
}

func (e *stderrError) Unwrap() error { return e.err }

// StderrTail returns the last lines the process wrote to stderr (at most
// ten), for a report of why it failed.
func (p *Process) StderrTail() []string { return p.tail.Lines() }

// Start starts the plugin as Client.Start does; when it fails, the error
// ends with the last lines of the process's stderr, all of them when the
// process has exited.
func (p *Process) Start(ctx context.Context, s Start) error {
	return p.startError(p.Client.Start(ctx, s))
}

// StartService starts a service as Client.StartService does; when it
// fails, the error ends with the last lines of the process's stderr.
func (p *Process) StartService(ctx context.Context, s Start, host Host) error {
	return p.startError(p.Client.StartService(ctx, s, host))
}

func (p *Process) startError(err error) error {
	if err == nil {
		return nil
	}
	if CodeOf(err) == CodeUnavailable {
		// The connection broke: the process is likely exiting, and what
		// it wrote last says why.
		t := time.NewTimer(exitWait)
		defer t.Stop()
		select {
		case <-p.done.Done():
		case <-t.C:
		}
	}
	if p.done.Err() != nil {
		p.hc.Kill() // waits until its stderr is read to the end
	}
	return p.tail.annotate(err)
}

// handshakeError shortens go-plugin's error for a process that wrote no
// handshake to its first line, which names what it wrote instead: the
// rest guesses at causes (architecture, libraries, permissions) that the
// process's stderr, added by the caller, tells for sure.
func handshakeError(err error) error {
	const unrecognized = "Unrecognized remote plugin message: "
	first, _, _ := strings.Cut(err.Error(), "\n")
	wrote, ok := strings.CutPrefix(first, unrecognized)
	switch {
	case !ok:
		return err
	case strings.TrimSpace(wrote) == "":
		return errors.New("the process ended without a handshake")
	default:
		return fmt.Errorf("the process wrote %q instead of its handshake", wrote)
	}
}
