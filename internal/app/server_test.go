package app

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/edged/edged/internal/certstore"
	"github.com/edged/edged/internal/user"
)

// TestAPITimeouts pins the API server's timeouts: every one is set, and
// the write timeout leaves room for reading a whole request first.
func TestAPITimeouts(t *testing.T) {
	srv := newServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler), apiTimeouts)
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 {
		t.Fatalf("timeouts: read header %v, read %v, write %v, idle %v; want all set",
			srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout)
	}
	if srv.ReadHeaderTimeout > srv.ReadTimeout || srv.ReadTimeout >= srv.WriteTimeout {
		t.Errorf("read header %v, read %v, write %v: want read header ≤ read < write",
			srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout)
	}
}

// serve runs newServer with t and handler on a loopback listener and
// returns its address.
func serve(t *testing.T, to timeouts, handler http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(handler, slog.New(slog.DiscardHandler), to)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// waitClosed reads from conn until the server closes it and fails the test
// if that does not happen within limit (far longer than the timeout under
// test: the bound only keeps a broken server from hanging the test).
func waitClosed(t *testing.T, conn net.Conn, limit time.Duration) {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(limit)); err != nil {
		t.Fatal(err)
	}
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server kept the connection open for %v", limit)
	}
}

// trickle writes one byte of body to conn every 50 ms until a write fails
// or stop is closed.
func trickle(conn net.Conn, stop <-chan struct{}) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			if _, err := conn.Write([]byte("x")); err != nil {
				return
			}
		}
	}
}

// TestServerTimeouts drives the server with clients that trickle, stall or
// do not read, and checks that each one loses its connection.
func TestServerTimeouts(t *testing.T) {
	short := timeouts{ReadHeader: 300 * time.Millisecond, Read: 500 * time.Millisecond, Write: 700 * time.Millisecond, Idle: 300 * time.Millisecond}
	const limit = 20 * time.Second
	readBody := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, _ = io.WriteString(w, "ok")
	})
	dial := func(t *testing.T, addr string) net.Conn {
		t.Helper()
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		return conn
	}

	t.Run("a trickled body", func(t *testing.T) {
		conn := dial(t, serve(t, short, readBody))
		if _, err := io.WriteString(conn, "POST /edge/login HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		stop := make(chan struct{})
		defer close(stop)
		go trickle(conn, stop)
		waitClosed(t, conn, limit)
	})
	t.Run("trickled headers", func(t *testing.T) {
		conn := dial(t, serve(t, short, readBody))
		if _, err := io.WriteString(conn, "GET /edge/ping HTTP/1.1\r\nHost: x\r\nX-Slow: "); err != nil {
			t.Fatal(err)
		}
		stop := make(chan struct{})
		defer close(stop)
		go trickle(conn, stop)
		waitClosed(t, conn, limit)
	})
	t.Run("an idle keep-alive connection", func(t *testing.T) {
		conn := dial(t, serve(t, short, readBody))
		if _, err := io.WriteString(conn, "GET /edge/ping HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Close {
			t.Fatalf("status %d, close %v; want 200 on a kept-alive connection", resp.StatusCode, resp.Close)
		}
		waitClosed(t, conn, limit)
	})
	t.Run("an answer the client does not read", func(t *testing.T) {
		written := make(chan error, 1)
		big := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			chunk := make([]byte, 64<<10)
			var err error
			for total := 0; total < 1<<30 && err == nil; total += len(chunk) {
				_, err = w.Write(chunk)
			}
			written <- err
		})
		conn := dial(t, serve(t, short, big))
		if _, err := io.WriteString(conn, "GET /edge/asset HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-written:
			if err == nil {
				t.Fatal("1 GiB was written to a client that reads nothing")
			}
		case <-time.After(limit):
			t.Fatalf("the answer's writes still blocked after %v", limit)
		}
		waitClosed(t, conn, limit)
	})
}

// TestSecureDataDir checks that a data directory left open to other users
// is made private at start, with the files the gateway keeps in it.
func TestSecureDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	certs := certstore.New(dir)
	files := []string{filepath.Join(dir, user.InitialPasswordFile), certs.CertPath("ca"), certs.KeyPath("edged")}
	if err := os.MkdirAll(certs.Path(), 0o755); err != nil {
		t.Fatal(err)
	}
	chmod := func(p string, m os.FileMode) {
		t.Helper()
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	chmod(dir, 0o755)
	chmod(certs.Path(), 0o755)
	for _, p := range files {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		chmod(p, 0o644)
	}
	if err := secureDataDir(dir, certs); err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{dir: 0o700, certs.Path(): 0o700}
	for _, p := range files {
		want[p] = 0o600
	}
	for p, m := range want {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != m {
			t.Errorf("%s: mode %v, want %v", p, got, m)
		}
	}
	t.Run("created when missing", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "fresh")
		if err := secureDataDir(dir, certstore.New(dir)); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
			t.Errorf("data directory: %v, mode %v; want 0700", err, st.Mode().Perm())
		}
	})
}
