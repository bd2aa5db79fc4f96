package portal_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// browser is a headless Chromium driven through the DevTools protocol over
// --remote-debugging-pipe: the browser reads NUL-terminated JSON commands on
// its descriptor 3 and writes responses and events on descriptor 4, so no
// port and no WebSocket library are needed.
type browser struct {
	cmd    *exec.Cmd
	in     io.WriteCloser // our end of the browser's fd 3
	stderr *lockedBuffer

	mu      sync.Mutex
	nextID  int
	pending map[int]chan cdpMessage
	events  []cdpMessage
	notify  chan struct{} // closed and replaced whenever an event arrives
	readErr error
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *cdpError       `json:"error,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
}

type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// launchBrowser starts bin headless with a throwaway profile and the given
// extra flags; the browser is killed when the test ends.
func launchBrowser(t *testing.T, bin string, extra ...string) *browser {
	t.Helper()
	toBrowserR, toBrowserW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromBrowserR, fromBrowserW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--remote-debugging-pipe",
	}, extra...)
	args = append(args, "about:blank")
	cmd := exec.Command(bin, args...)
	cmd.ExtraFiles = []*os.File{toBrowserR, fromBrowserW} // fd 3 and fd 4
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	// The child holds its own copies of its ends.
	_ = toBrowserR.Close()
	_ = fromBrowserW.Close()
	b := &browser{cmd: cmd, in: toBrowserW, stderr: stderr, pending: map[int]chan cdpMessage{}, notify: make(chan struct{})}
	go b.readLoop(fromBrowserR)
	t.Cleanup(func() {
		_ = b.in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = fromBrowserR.Close()
		if t.Failed() {
			t.Logf("chromium stderr (tail):\n%s", b.stderr.tail(4000))
		}
	})
	return b
}

func (b *browser) readLoop(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr = fmt.Errorf("browser pipe closed: %w", err)
			for id, ch := range b.pending {
				close(ch)
				delete(b.pending, id)
			}
			close(b.notify)
			b.notify = make(chan struct{})
			b.mu.Unlock()
			return
		}
		var m cdpMessage
		if err := json.Unmarshal(raw[:len(raw)-1], &m); err != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.pending[m.ID]; ok {
				ch <- m
				delete(b.pending, m.ID)
			}
		} else {
			b.events = append(b.events, m)
			close(b.notify)
			b.notify = make(chan struct{})
		}
		b.mu.Unlock()
	}
}

// call sends one command (to the browser when session is "", else to that
// page session) and decodes its result into out.
func (b *browser) call(ctx context.Context, session, method string, params, out any) error {
	b.mu.Lock()
	if b.readErr != nil {
		b.mu.Unlock()
		return b.readErr
	}
	b.nextID++
	id := b.nextID
	ch := make(chan cdpMessage, 1)
	b.pending[id] = ch
	b.mu.Unlock()

	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	msg, err := json.Marshal(cdpMessage{ID: id, Method: method, Params: p, SessionID: session})
	if err != nil {
		return err
	}
	if _, err := b.in.Write(append(msg, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: browser went away", method)
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	}
}

// waitEvent blocks until an event named method (of session) has arrived,
// counting events from index from, and returns its index.
func (b *browser) waitEvent(ctx context.Context, session, method string, from int) (int, error) {
	for {
		b.mu.Lock()
		for i := from; i < len(b.events); i++ {
			if e := b.events[i]; e.Method == method && e.SessionID == session {
				b.mu.Unlock()
				return i, nil
			}
		}
		notify, readErr := b.notify, b.readErr
		b.mu.Unlock()
		if readErr != nil {
			return 0, readErr
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("waiting for %s: %w", method, ctx.Err())
		case <-notify:
		}
	}
}

// eventsNamed returns the events of one method seen so far.
func (b *browser) eventsNamed(method string) []cdpMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []cdpMessage
	for _, e := range b.events {
		if e.Method == method {
			out = append(out, e)
		}
	}
	return out
}

func (b *browser) eventCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.events)
}

// evaluate runs a JavaScript expression in the page, awaiting a promise it
// returns, and decodes the value into out.
func (b *browser) evaluate(ctx context.Context, session, expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := b.call(ctx, session, "Runtime.evaluate", map[string]any{
		"expression": expr, "awaitPromise": true, "returnByValue": true,
	}, &res); err != nil {
		return err
	}
	if d := res.ExceptionDetails; d != nil {
		return errors.New("page script failed: " + d.Text + " " + d.Exception.Description)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(res.Result.Value, out)
}

// lockedBuffer collects a process's output safely.
type lockedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	return len(p), nil
}

func (l *lockedBuffer) tail(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > n {
		return string(l.buf[len(l.buf)-n:])
	}
	return string(l.buf)
}
