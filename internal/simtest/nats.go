package simtest

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// NATSCluster is a JetStream cluster of nats-server processes on
// loopback, each with its own store. Nodes can be killed with SIGKILL and
// started again on the same ports and store, as a crashed server comes back.
type NATSCluster struct {
	t     testing.TB
	bin   string
	extra []string
	nodes []*natsNode
}

type natsNode struct {
	name      string
	port      int
	routePort int
	store     string
	proc      *Process
}

// NATS starts a cluster of n JetStream servers and stops them when the test
// ends. extra is added to every server's command line (authentication or
// TLS options, say).
func NATS(t testing.TB, n int, extra ...string) *NATSCluster {
	t.Helper()
	bin := natsServer(t)
	c := &NATSCluster{t: t, bin: bin, extra: extra}
	dir := t.TempDir()
	for i := range n {
		c.nodes = append(c.nodes, &natsNode{
			name: fmt.Sprintf("n%d", i+1), port: FreePort(t), routePort: FreePort(t),
			store: filepath.Join(dir, fmt.Sprintf("n%d", i+1)),
		})
	}
	for i := range c.nodes {
		c.Start(i)
	}
	return c
}

// natsServer returns the nats-server `make sim-tools` built (its pinned
// release, named with its version in tools/sim/bin), or skips or fails t.
func natsServer(t testing.TB) string {
	t.Helper()
	found, _ := filepath.Glob(filepath.Join(root(t), "tools", "sim", "bin", "nats-server-v*"))
	if len(found) == 0 {
		Missing(t, "nats-server (tools/sim/bin)", "run 'make sim-tools'")
	}
	return found[len(found)-1]
}

// Start starts node i (again, after Kill, on its ports and store).
func (c *NATSCluster) Start(i int) {
	c.t.Helper()
	n := c.nodes[i]
	var routes []string
	for _, o := range c.nodes {
		if o != n {
			routes = append(routes, "nats-route://127.0.0.1:"+strconv.Itoa(o.routePort))
		}
	}
	args := []string{"--server_name", n.name, "-a", "127.0.0.1", "-p", strconv.Itoa(n.port), "-js", "-sd", n.store}
	if len(routes) > 0 {
		args = append(args, "--cluster_name", "edged-test", "--cluster", "nats://127.0.0.1:"+strconv.Itoa(n.routePort),
			"--routes", strings.Join(routes, ","))
	}
	args = append(args, c.extra...)
	n.proc = Start(c.t, "Server is ready", c.bin, args...)
}

// Kill stops node i with SIGKILL: no goodbye to its clients or peers.
func (c *NATSCluster) Kill(i int) {
	c.nodes[i].proc.Kill()
}

// URLs lists the client URLs of every node, comma separated, with scheme.
func (c *NATSCluster) URLs(scheme string) string {
	out := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = fmt.Sprintf("%s://127.0.0.1:%d", scheme, n.port)
	}
	return strings.Join(out, ",")
}

// Logs returns what every node printed, for failure reports.
func (c *NATSCluster) Logs() string {
	var b strings.Builder
	for _, n := range c.nodes {
		if n.proc != nil {
			fmt.Fprintf(&b, "--- %s:\n%s", n.name, n.proc.Output())
		}
	}
	return b.String()
}
