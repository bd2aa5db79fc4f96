package conformance

import (
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/edged/edged/clients/go/v2/edgeclient"
	"github.com/edged/edged/internal/simtest"
)

// natsWindow is how many publications nats_north keeps awaiting their
// acknowledgements: the duplicates a lost server may cause are bounded by it.
const natsWindow = 256

// testNATSNorthNodeKilled forwards readings with a nats_north service to a
// stream of a three-node JetStream cluster (Debian's nats-server) while one
// node is killed with SIGKILL and started again: the stream holds every
// reading, duplicates only from one unacknowledged window. A gateway of the
// suite's own runs the service, so the stream holds this test's readings
// only.
func testNATSNorthNodeKilled(t *testing.T) {
	counterpartsHere(t)
	cluster := simtest.NATS(t, 3)
	subject := unique("conf_nats")
	js := natsStream(t, cluster, subject)

	gw, err := startGateway(gatewayBinary, filepath.Join(t.TempDir(), "data"), "")
	if err != nil {
		t.Fatalf("start the gateway: %v", err)
	}
	t.Cleanup(func() {
		if err := gw.stop(); err != nil {
			t.Errorf("stop the gateway: %v", err)
		}
	})
	c := apiAt(t, gw.url)
	feed := httpSouth(t, c)
	name := unique("conf-nats")
	req := edgeclient.ServiceCreateRequest{Name: name, Type: "north", Plugin: ptr("nats_north"), Enabled: true,
		Config: northConfig(map[string]string{"servers": cluster.URLs("nats"), "timeout": "2",
			"subject": subject + ".{{.Asset}}", "payload": `{{index .Readings "i"}}`})}
	var body edgeclient.ServiceRequest
	must(t, body.FromServiceCreateRequest(req))
	resp, err := c.CreateServiceWithResponse(t.Context(), nil, body)
	must(t, err)
	wantStatus(t, "createService (nats_north)", resp.StatusCode(), resp.Body, http.StatusOK)

	asset := unique("natsin")
	const perRound, rounds = 1000, 3
	post := func(round int) {
		for first := round * perRound; first < (round+1)*perRound; first += 100 {
			status, b, err := postIngest(t.Context(), gatewayHost(t, gw.url), feed, "sensor-reading", seqBody(asset, first, 100))
			if err != nil || status != http.StatusOK {
				t.Fatalf("post readings: %d %s %v", status, b, err)
			}
		}
	}
	sentAtLeast := func(n int) func() bool {
		return func() bool { return statistics(t, c)[name] >= n }
	}
	post(0)
	eventually(t, 60*time.Second, "the first readings sent", sentAtLeast(perRound/2))
	cluster.Kill(0) // the first server of the list: likely the one the client uses
	post(1)
	eventually(t, 90*time.Second, "readings sent with a node down", sentAtLeast(2*perRound-perRound/2))
	cluster.Start(0)
	post(2)
	eventually(t, 90*time.Second, "every reading sent", sentAtLeast(rounds*perRound))

	got := natsValues(t, js, subject, subject+"."+asset, rounds*perRound)
	want := make([]int, rounds*perRound)
	for i := range want {
		want[i] = i
	}
	if miss := missingValues(want, uniqueValues(got)); len(miss) > 0 {
		t.Errorf("the stream lacks %d readings, e.g. %v", len(miss), miss[:min(10, len(miss))])
	}
	if dups := len(got) - len(uniqueValues(got)); dups > natsWindow {
		t.Errorf("%d duplicates, more than one unacknowledged window (%d)", dups, natsWindow)
	}
}

// natsStream creates a file-backed stream named like subject, with three
// replicas, bound to subject.>, once the cluster has elected its JetStream
// leader.
func natsStream(t *testing.T, cluster *simtest.NATSCluster, subject string) jetstream.JetStream {
	t.Helper()
	conn, err := nats.Connect(cluster.URLs("nats"))
	must(t, err)
	t.Cleanup(conn.Close)
	js, err := jetstream.New(conn)
	must(t, err)
	for deadline := time.Now().Add(120 * time.Second); ; {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		_, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: strings.ToUpper(subject), Subjects: []string{subject + ".>"},
			Replicas: 3, Storage: jetstream.FileStorage})
		cancel()
		if err == nil {
			return js
		}
		if time.Now().After(deadline) {
			t.Fatalf("the JetStream cluster did not create the stream within 120 s: %v\n%s", err, cluster.Logs())
		}
		time.Sleep(100 * time.Millisecond) // polling for the cluster's leader election
	}
}

// natsValues reads the stream named like stream, whose messages are on
// subject, each the decimal value of a reading's i, until it has seen each
// of 0..n-1 or a minute passes, then what follows within two seconds (the
// duplicates). The restarted node may still be catching up: the reads go
// on while the cluster settles.
func natsValues(t *testing.T, js jetstream.JetStream, stream, subject string, n int) []int {
	t.Helper()
	var cons jetstream.Consumer
	eventually(t, 60*time.Second, "the stream answering", func() bool {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		s, err := js.Stream(ctx, strings.ToUpper(stream))
		if err == nil {
			cons, err = s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
		}
		return err == nil
	})
	var got []int
	seen := map[int]bool{}
	for deadline := time.Now().Add(60 * time.Second); len(seen) < n && time.Now().Before(deadline); {
		v, ok := natsNext(t, cons, subject, 5*time.Second)
		if ok {
			got = append(got, v)
			if v >= 0 && v < n {
				seen[v] = true
			}
		}
	}
	for {
		v, ok := natsNext(t, cons, subject, 2*time.Second)
		if !ok {
			return got
		}
		got = append(got, v)
	}
}

// natsNext reads the next message of cons within wait: the reading's i it
// holds, or false when none came.
func natsNext(t *testing.T, cons jetstream.Consumer, subject string, wait time.Duration) (int, bool) {
	t.Helper()
	msg, err := cons.Next(jetstream.FetchMaxWait(wait))
	if err != nil {
		return 0, false
	}
	if msg.Subject() != subject {
		t.Fatalf("message %q on %s, not on %s", msg.Data(), msg.Subject(), subject)
	}
	v, err := strconv.Atoi(string(msg.Data()))
	if err != nil {
		t.Fatalf("message %q on %s is not a reading's i", msg.Data(), msg.Subject())
	}
	return v, true
}
