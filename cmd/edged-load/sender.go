package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// sender posts requests one at a time over a keep-alive connection of its
// own, writing each request and reading its answer on the caller's
// goroutine. net/http's client hands every request to a writing and a
// reading goroutine of the connection and back: on this benchmark's
// 2-CPU machine that cost about 50 µs a request (a loopback round trip to
// a net/http server answering at once: 121 µs through http.Client, 75 µs
// through a sender), which a sender waiting for each answer adds to every
// request it measures. Field senders (PLCs, edge devices) use such plain
// clients; the request on the wire is the one http.Client sends.
type sender struct {
	target *url.URL
	conn   net.Conn
	r      *bufio.Reader
	w      *bufio.Writer
	stop   func() bool // unregisters the close on ctx's end
}

// newSender returns a sender posting to rawURL (http only); it connects on
// its first request.
func newSender(rawURL string) (*sender, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	return &sender{target: u}, nil
}

// post sends body as JSON and returns the status and the answer's text. A
// failed request closes the connection; the next one opens a new one.
// The end of ctx closes the connection, ending a request in flight.
func (s *sender) post(ctx context.Context, body []byte) (int, string, error) {
	if s.conn == nil {
		d := net.Dialer{Timeout: 5 * time.Second}
		conn, err := d.DialContext(ctx, "tcp", s.target.Host)
		if err != nil {
			return 0, "", err
		}
		s.conn, s.r, s.w = conn, bufio.NewReader(conn), bufio.NewWriter(conn)
		s.stop = context.AfterFunc(ctx, func() { _ = conn.Close() })
	}
	status, text, keep, err := s.exchange(ctx, body)
	if err != nil || !keep {
		s.close()
	}
	return status, text, err
}

// exchange writes one request and reads its answer; keep is false when the
// server closes the connection after it.
func (s *sender) exchange(ctx context.Context, body []byte) (status int, text string, keep bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.target.String(), bytes.NewReader(body))
	if err != nil {
		return 0, "", false, err
	}
	req.Header.Set("Content-Type", "application/json")
	if err := req.Write(s.w); err != nil {
		return 0, "", false, err
	}
	if err := s.w.Flush(); err != nil {
		return 0, "", false, err
	}
	resp, err := http.ReadResponse(s.r, req)
	if err != nil {
		return 0, "", false, err
	}
	b, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, string(b), err == nil && !resp.Close, err
}

// close closes the connection, if open.
func (s *sender) close() {
	if s.conn == nil {
		return
	}
	s.stop()
	_ = s.conn.Close()
	s.conn = nil
}
