package conformance

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// requireSimulators turns a missing counterpart into a failure (make test
// and CI set it); without it the tests that need one skip.
const requireSimulators = "EDGE_REQUIRE_SIMULATORS"

// counterpartsHere skips t unless the suite started the gateway itself: the
// counterparts (simulators, brokers) run on this machine, on loopback,
// where only a gateway of our own can reach them.
func counterpartsHere(t *testing.T) {
	t.Helper()
	if !ownGateway {
		t.Skip("needs the counterparts on the gateway's own machine; testing an external gateway (-url / EDGE_URL)")
	}
}

// absent skips or fails t for a counterpart that is not installed.
func absent(t *testing.T, what, install string) {
	t.Helper()
	if os.Getenv(requireSimulators) != "" {
		t.Fatalf("%s is not installed (%s is set): %s", what, requireSimulators, install)
	}
	t.Skipf("%s is not installed; %s", what, install)
}

// startSimulator runs a simulator script of tools/sim with the
// simulators' Python (make sim-tools) and waits until it prints READY; it
// is killed when the test ends.
func startSimulator(t *testing.T, script string, args ...string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "tools", "sim"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".venv", ".installed")); err != nil {
		absent(t, "the simulators' virtualenv (tools/sim/.venv)", "run 'make sim-tools'")
	}
	cmd := exec.Command(filepath.Join(dir, ".venv", "bin", "python"), append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", script, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // it may have exited already
		_ = cmd.Wait()         // reaped; its status says nothing about the test
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "READY") {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("simulator %s exited before it was ready", script)
		}
	case <-time.After(time.Minute):
		t.Fatalf("simulator %s not ready within a minute", script)
	}
}
