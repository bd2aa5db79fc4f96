package conformance

import (
	"bufio"
	"fmt"
	"io"
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
// is killed when the test ends. It returns the script's standard input.
func startSimulator(t *testing.T, script string, args ...string) io.Writer {
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
	in, err := cmd.StdinPipe()
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
	return in
}

// program returns the path of a Debian program, or skips (or fails) t.
func program(t *testing.T, name, pkg string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, dir := range []string{"/usr/sbin", "/usr/bin"} {
		if p := filepath.Join(dir, name); fileExists(p) {
			return p
		}
	}
	absent(t, name, "apt-get install "+pkg)
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// startMosquitto starts Debian's MQTT broker on a free loopback port (no
// persistence, anonymous, no limit on what it queues for an offline
// session) and returns its port; it is killed when the test ends.
func startMosquitto(t *testing.T) int {
	t.Helper()
	bin := program(t, "mosquitto", "mosquitto")
	port, err := freePort()
	must(t, err)
	conf := filepath.Join(t.TempDir(), "mosquitto.conf")
	must(t, os.WriteFile(conf, []byte(fmt.Sprintf("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n"+
		"max_queued_messages 0\nlog_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\nlog_type information\n", port)), 0o600))
	cmd := exec.Command(bin, "-c", conf)
	errPipe, err := cmd.StderrPipe()
	must(t, err)
	must(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // it may have exited already
		_ = cmd.Wait()         // reaped; its status says nothing about the test
	})
	if !waitLine(errPipe, " running", time.Minute) {
		t.Fatal("mosquitto did not start within a minute")
	}
	return port
}

// waitLine reads r until a line contains want (true) or r ends or limit
// passes (false); the rest of r is drained in the background.
func waitLine(r io.Reader, want string, limit time.Duration) bool {
	found := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(r)
		sent := false
		for sc.Scan() {
			if !sent && strings.Contains(sc.Text(), want) {
				found <- true
				sent = true
			}
		}
		if !sent {
			found <- false
		}
	}()
	select {
	case ok := <-found:
		return ok
	case <-time.After(limit):
		return false
	}
}
