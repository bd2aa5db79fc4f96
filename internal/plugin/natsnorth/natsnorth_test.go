package natsnorth

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/north"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
	"github.com/edged/edged/internal/simtest"
)

// cluster is three JetStream servers (Debian's nats-server) on loopback.
type cluster struct {
	*simtest.NATSCluster
	t *testing.T
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	return &cluster{NATSCluster: simtest.NATS(t, 3), t: t}
}

// urls lists the client URLs of every node.
func (c *cluster) urls() string { return c.URLs("nats") }

// stream creates the stream EDGED (subjects edged.>, three replicas) once
// the cluster has elected its JetStream leader, and returns a client.
func (c *cluster) stream() (jetstream.JetStream, jetstream.Stream) {
	c.t.Helper()
	conn, err := nats.Connect(c.urls())
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(conn.Close)
	js, err := jetstream.New(conn)
	if err != nil {
		c.t.Fatal(err)
	}
	deadline := time.Now().Add(120 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		s, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "EDGED", Subjects: []string{"edged.>"}, Replicas: 3,
			Storage: jetstream.FileStorage})
		cancel()
		if err == nil {
			return js, s
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("create stream: %v\n%s", err, c.Logs())
		}
		time.Sleep(100 * time.Millisecond) // polling for the cluster's leader election
	}
}

// hook counts readings sent and calls at(total) after each block.
type hook struct {
	mu    sync.Mutex
	total int64
	at    func(total int64)
}

// sent is the Stream's Sent callback.
func (h *hook) sent(n int64) {
	h.mu.Lock()
	h.total += n
	total := h.total
	h.mu.Unlock()
	h.at(total)
}

// TestClusterNodeKilled drains 3000 buffered readings through a north
// stream into a three-node JetStream cluster, killing one node (SIGKILL) after
// 1000 readings were acknowledged and starting it again after 2000: the
// stream holds every reading, duplicates only from a block that was not
// acknowledged.
func TestClusterNodeKilled(t *testing.T) {
	c := newCluster(t)
	js, stream := c.stream()

	d := dbtest.SQLite(t)
	ctx := t.Context()
	const total = 3000
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var rows []db.Reading
	for i := range total {
		rows = append(rows, db.Reading{AssetCode: fmt.Sprintf("a%d", i%3), Reading: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)),
			UserTS: t0.Add(time.Duration(i) * time.Millisecond), TS: t0})
	}
	if err := d.InsertReadings(ctx, rows); err != nil {
		t.Fatal(err)
	}
	if err := d.CreateStreamPosition(ctx, "up"); err != nil {
		t.Fatal(err)
	}

	cfg := plugintest.Defaults(Definition())
	cfg[ItemServers] = c.urls()
	cfg[ItemTimeout] = "2"
	out, err := New(plugin.NorthEnv{Env: plugin.Env{Service: "up"}}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = out.Close() }()
	var killed, restarted bool
	h := &hook{at: func(sent int64) {
		switch {
		case !killed && sent >= 1000:
			killed = true
			c.Kill(0) // the first server of the list: likely the one the client uses
		case killed && !restarted && sent >= 2000:
			restarted = true
			c.Start(0)
		}
	}}
	s := &north.Stream{Name: "up", Plugin: Name, Out: out, Store: d, Sent: h.sent, Block: 100}
	sent, err := s.Drain(ctx)
	if err != nil || sent != total {
		t.Fatalf("Drain = %d, %v; want %d", sent, err, total)
	}
	if !killed || !restarted {
		t.Fatalf("the node was not killed and restarted during the drain (killed %v, restarted %v)", killed, restarted)
	}

	// Read the stream back; the restarted node may still be catching
	// up, so the client retries while the cluster settles.
	var info *jetstream.StreamInfo
	var cons jetstream.Consumer
	deadline := time.Now().Add(60 * time.Second)
	for {
		info, err = stream.Info(ctx)
		if err == nil {
			cons, err = js.OrderedConsumer(ctx, "EDGED", jetstream.OrderedConsumerConfig{})
		}
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("read the stream: %v", err)
		}
		time.Sleep(100 * time.Millisecond) // polling for the cluster to settle
	}
	seen := map[int]int{}
	for range info.State.Msgs {
		msg, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
		for err != nil && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond) // polling for the cluster to settle
			msg, err = cons.Next(jetstream.FetchMaxWait(10 * time.Second))
		}
		if err != nil {
			t.Fatalf("read the stream: %v", err)
		}
		var body struct {
			Asset    string
			Readings struct{ I int }
		}
		if err := json.Unmarshal(msg.Data(), &body); err != nil {
			t.Fatalf("message %s: %v", msg.Data(), err)
		}
		if want := fmt.Sprintf("edged.a%d", body.Readings.I%3); msg.Subject() != want || body.Asset != fmt.Sprintf("a%d", body.Readings.I%3) {
			t.Errorf("message %s on %s", msg.Data(), msg.Subject())
		}
		seen[body.Readings.I]++
	}
	dups := 0
	for i := range total {
		switch n := seen[i]; {
		case n == 0:
			t.Errorf("reading %d is not in the stream", i)
		case n > 1:
			dups += n - 1
		}
	}
	if dups > window {
		t.Errorf("%d duplicates, more than one unacknowledged window (%d)", dups, window)
	}
	t.Logf("%d messages in the stream for %d readings (%d duplicates)", info.State.Msgs, total, dups)
}

// TestTLSAndUserPassword publishes to a server (Debian's nats-server) that
// requires TLS and a user name and password: the right identity and the
// server's authority deliver, a wrong password or an unknown authority
// deliver nothing: Send keeps retrying until its context ends.
func TestTLSAndUserPassword(t *testing.T) {
	cert := simtest.NewServerTLS(t)
	srv := simtest.NATS(t, 1, "--user", "edge", "--pass", "s3cret", "--tls", "--tlscert", cert.CertFile, "--tlskey", cert.KeyFile)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM([]byte(cert.CAPEM))
	conn, err := nats.Connect(srv.URLs("tls"), nats.UserInfo("edge", "s3cret"),
		nats.Secure(&tls.Config{MinVersion: tls.VersionTLS12, RootCAs: pool}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	js, err := jetstream.New(conn)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := js.CreateStream(t.Context(), jetstream.StreamConfig{Name: "EDGED", Subjects: []string{"edged.>"}})
	if err != nil {
		t.Fatal(err)
	}
	readings := []plugin.Reading{{Asset: "pump", Timestamp: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Values: json.RawMessage(`{"i":1}`)}}
	for _, tc := range []struct {
		name, password, ca string
		delivered          bool
	}{
		{name: "right identity and authority", password: "s3cret", ca: cert.CAPEM, delivered: true},
		{name: "wrong password", password: "guess", ca: cert.CAPEM},
		{name: "unknown authority", password: "s3cret", ca: simtest.NewServerTLS(t).CAPEM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, err := stream.Info(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			cfg := plugintest.Defaults(Definition())
			cfg[ItemServers] = srv.URLs("tls")
			cfg[ItemUsername] = "edge"
			cfg[ItemPassword] = tc.password
			cfg[ItemCA] = tc.ca
			cfg[ItemTimeout] = "2"
			out, err := New(plugin.NorthEnv{Env: plugin.Env{Service: "up"}}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = out.Close() }()
			// Send retries until its context ends while nothing is acknowledged.
			ctx, cancel := context.WithTimeout(t.Context(), 6*time.Second)
			defer cancel()
			k, err := out.Send(ctx, readings)
			after, ierr := stream.Info(t.Context())
			if ierr != nil {
				t.Fatal(ierr)
			}
			added := after.State.Msgs - before.State.Msgs
			if tc.delivered && (k != 1 || err != nil || added != 1) {
				t.Errorf("Send = %d, %v, %d messages added; want 1, nil, 1", k, err, added)
			}
			if !tc.delivered && (k != 0 || err == nil || added != 0) {
				t.Errorf("Send = %d, %v, %d messages added; want 0, an error, 0", k, err, added)
			}
		})
	}
}
