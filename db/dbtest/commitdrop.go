package dbtest

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// CommitDropper is a proxy between PostgreSQL clients and a server that
// loses the answer to a COMMIT on demand, as a server that stops or a
// network that fails just then does: the client sent the COMMIT and gets
// no answer, so it cannot know whether its transaction was applied. Arm
// chooses which way it went.
type CommitDropper struct {
	ln     net.Listener
	target string // "unix" path or TCP address of the server
	net    string
	// armed is 0 (forward everything), 1 (let the next COMMIT through and
	// lose its answer) or 2 (lose the next COMMIT itself).
	armed   atomic.Int32
	dropped chan struct{}
}

// NewCommitDropper starts a proxy in front of the server of dsn (a lib/pq
// key=value DSN, as PostgresDSN returns) and returns the DSN that connects
// through it. It stops when the test ends.
func NewCommitDropper(t testing.TB, dsn string) (*CommitDropper, string) {
	t.Helper()
	fields := map[string]string{}
	var order []string
	for f := range strings.FieldsSeq(dsn) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			t.Fatalf("dbtest: DSN field %q is not key=value", f)
		}
		fields[k] = v
		order = append(order, k)
	}
	host, port := fields["host"], fields["port"]
	if port == "" {
		port = "5432"
	}
	d := &CommitDropper{dropped: make(chan struct{}, 16), net: "tcp", target: net.JoinHostPort(host, port)}
	if strings.HasPrefix(host, "/") {
		d.net, d.target = "unix", filepath.Join(host, ".s.PGSQL."+port)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("dbtest: proxy: %v", err)
	}
	d.ln = ln
	t.Cleanup(func() { _ = ln.Close() })
	go d.serve()
	fields["host"], fields["port"] = "127.0.0.1", strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	for _, k := range []string{"host", "port"} {
		if !strings.Contains(dsn, k+"=") {
			order = append(order, k)
		}
	}
	parts := make([]string, 0, len(order))
	for _, k := range order {
		parts = append(parts, k+"="+fields[k])
	}
	return d, strings.Join(parts, " ")
}

// Arm makes the next COMMIT sent through the proxy lose its answer: when
// applied, the server gets it and commits, and its answer is dropped;
// otherwise the COMMIT itself is dropped, so the transaction is rolled
// back when the server sees the connection gone. Either way the client's
// connection is cut.
func (d *CommitDropper) Arm(applied bool) {
	if applied {
		d.armed.Store(1)
	} else {
		d.armed.Store(2)
	}
}

// Dropped returns a channel receiving once per COMMIT whose answer was lost.
func (d *CommitDropper) Dropped() <-chan struct{} { return d.dropped }

func (d *CommitDropper) serve() {
	for {
		client, err := d.ln.Accept()
		if err != nil {
			return
		}
		var dialer net.Dialer
		server, err := dialer.DialContext(context.Background(), d.net, d.target)
		if err != nil {
			_ = client.Close()
			continue
		}
		go d.relay(client, server)
	}
}

// relay forwards one connection, reading the client's messages one by one
// to find the COMMIT.
func (d *CommitDropper) relay(client, server net.Conn) {
	var cut atomic.Bool
	closeBoth := func() {
		_ = client.Close()
		_ = server.Close()
	}
	defer closeBoth()
	go func() {
		defer closeBoth()
		buf := make([]byte, 32<<10)
		for {
			n, err := server.Read(buf)
			if cut.Load() {
				// The answer to the COMMIT: lose it.
				d.dropped <- struct{}{}
				return
			}
			if n > 0 {
				if _, werr := client.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	// The startup message has no type byte.
	var head [5]byte
	if _, err := io.ReadFull(client, head[:4]); err != nil {
		return
	}
	n := binary.BigEndian.Uint32(head[:4])
	if n < 4 {
		return
	}
	body := make([]byte, n-4)
	if _, err := io.ReadFull(client, body); err != nil {
		return
	}
	if _, err := server.Write(append(head[:4:4], body...)); err != nil {
		return
	}
	for {
		if _, err := io.ReadFull(client, head[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(head[1:])
		if n < 4 {
			return
		}
		body := make([]byte, n-4)
		if _, err := io.ReadFull(client, body); err != nil {
			return
		}
		if head[0] == 'Q' && strings.EqualFold(strings.TrimRight(string(body), "\x00; "), "COMMIT") {
			switch d.armed.Swap(0) {
			case 1:
				cut.Store(true)
			case 2:
				d.dropped <- struct{}{}
				return
			}
		}
		if _, err := server.Write(append(head[:], body...)); err != nil {
			return
		}
	}
}
