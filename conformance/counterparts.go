package conformance

import (
	"testing"

	"github.com/edged/edged/internal/simtest"
)

// counterpartsHere skips t unless the suite started the gateway itself: the
// counterparts (simulators, brokers) run on this machine, on loopback,
// where only a gateway of our own can reach them.
func counterpartsHere(t *testing.T) {
	t.Helper()
	if !ownGateway {
		t.Skip("needs the counterparts on the gateway's own machine; testing an external gateway (-url / EDGE_URL)")
	}
}

// program returns the path of a Debian program, or skips (or fails) t.
func program(t *testing.T, name, pkg string) string {
	t.Helper()
	return simtest.Program(t, name, "apt-get install "+pkg, "/usr/sbin", "/usr/bin")
}

// startMosquitto starts Debian's MQTT broker on a free loopback port (no
// persistence, anonymous, no limit on what it queues for an offline
// session) and returns its port; it is killed when the test ends.
func startMosquitto(t *testing.T) int {
	t.Helper()
	return simtest.Mosquitto(t).Port
}
