// Package simtest starts the independent counterparts the protocol
// plugins are tested against: simulators written with pymodbus and asyncua
// (tools/sim, in the virtualenv `make sim-tools` builds) and Debian's
// mosquitto broker, each as a child process of the test, stopped when the
// test ends.
//
// A counterpart that is not installed skips the test with a message saying
// how to install it, unless EDGE_REQUIRE_SIMULATORS is set (make test and
// CI set it): then its absence fails the test.
package simtest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// RequireEnv is the variable that turns a missing simulator into a failure.
const RequireEnv = "EDGE_REQUIRE_SIMULATORS"

// Missing skips or fails t for an absent counterpart (see the package doc).
func Missing(t testing.TB, what, install string) {
	t.Helper()
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf("%s is not installed (%s is set, so this is a failure): %s", what, RequireEnv, install)
	}
	t.Skipf("%s is not installed; %s", what, install)
}

// root returns the module's root directory.
func root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("simtest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Python returns the simulators' Python interpreter and the directory of
// the simulator scripts.
func Python(t testing.TB) (python, scripts string) {
	t.Helper()
	r := root(t)
	python = filepath.Join(r, "tools", "sim", ".venv", "bin", "python")
	if _, err := os.Stat(filepath.Join(r, "tools", "sim", ".venv", ".installed")); err != nil {
		Missing(t, "the simulators' virtualenv (tools/sim/.venv)", "run 'make sim-tools' (needs python3 with venv and PyPI)")
	}
	return python, filepath.Join(r, "tools", "sim")
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago
// (chosen by the kernel with :0).
func FreePort(t testing.TB) int {
	t.Helper()
	var lc net.ListenConfig
	l, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }() // only its port number was wanted
	return l.Addr().(*net.TCPAddr).Port
}

// Process is a running counterpart.
type Process struct {
	// Stdin is the process's standard input.
	Stdin io.WriteCloser

	cmd   *exec.Cmd
	lines chan string // stdout lines after the ready line
	done  chan struct{}
	mu    sync.Mutex
	log   strings.Builder // everything it printed, for failure reports
}

// Lines returns the lines the process prints after it became ready.
func (p *Process) Lines() <-chan string { return p.lines }

// Output returns everything the process printed so far.
func (p *Process) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

func (p *Process) record(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log.WriteString(s + "\n")
}

// Kill stops the process with SIGKILL and waits for it.
func (p *Process) Kill() {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(syscall.SIGKILL) // it may have exited already
	}
	<-p.done
}

// Start runs name with args and waits (at most a minute) until it prints a
// line containing ready on stdout or stderr; the process is killed when
// the test ends.
func Start(t testing.TB, ready, name string, args ...string) *Process {
	t.Helper()
	cmd := exec.Command(name, args...) //nolint:gosec,noctx // tests start their counterparts; Kill ends them
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &Process{Stdin: stdin, cmd: cmd, lines: make(chan string, 1000), done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	up := make(chan struct{})
	var once sync.Once
	var readers sync.WaitGroup
	scan := func(r io.Reader, forward bool) {
		defer readers.Done()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			p.record(line)
			if strings.Contains(line, ready) {
				once.Do(func() { close(up) })
				continue
			}
			if forward {
				select {
				case p.lines <- line:
				default: // nobody reads them; Output keeps them
				}
			}
		}
	}
	readers.Add(2)
	go scan(stdout, true)
	go scan(stderr, false)
	go func() {
		readers.Wait()
		_ = cmd.Wait() // its exit is observed through done
		close(p.done)
	}()
	t.Cleanup(p.Kill)
	select {
	case <-up:
	case <-p.done:
		t.Fatalf("%s exited before it was ready:\n%s", name, p.Output())
	case <-time.After(time.Minute):
		p.Kill()
		t.Fatalf("%s was not ready within a minute:\n%s", name, p.Output())
	}
	return p
}

// Simulator starts the Python simulator script (in tools/sim) with args;
// it prints READY when it serves.
func Simulator(t testing.TB, script string, args ...string) *Process {
	t.Helper()
	python, dir := Python(t)
	return Start(t, "READY", python, append([]string{filepath.Join(dir, script)}, args...)...)
}

// Program returns the path of a program that may be installed in PATH or
// in one of dirs, or skips or fails t (see the package doc) with install
// as the advice.
func Program(t testing.TB, name, install string, dirs ...string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	Missing(t, name, install)
	return ""
}

// WaitLine returns the next line of p satisfying match, or fails t after
// limit (a broken counterpart must not hang the suite).
func WaitLine(t testing.TB, p *Process, limit time.Duration, what string, match func(string) bool) string {
	t.Helper()
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		select {
		case l := <-p.lines:
			if match(l) {
				return l
			}
		case <-deadline.C:
			t.Fatalf("%s: not seen within %v; output:\n%s", what, limit, p.Output())
			return ""
		}
	}
}

// Describe formats a process for messages.
func (p *Process) String() string { return fmt.Sprint(p.cmd.Args) }

// Broker is a running mosquitto.
type Broker struct {
	*Process
	Port int
	URL  string // tcp://127.0.0.1:PORT
}

// Mosquitto starts Debian's mosquitto broker on a free loopback port
// (anonymous access, no persistence, no limit on the messages queued for
// an offline session, so a test sees every message it published) and
// stops it when the test ends. extra is added to its configuration.
func Mosquitto(t testing.TB, extra ...string) *Broker {
	t.Helper()
	return MosquittoOn(t, FreePort(t), extra...)
}

// MosquittoOn is Mosquitto on a given port (to restart a broker where its
// clients expect it).
func MosquittoOn(t testing.TB, port int, extra ...string) *Broker {
	t.Helper()
	bin := Program(t, "mosquitto", "install Debian's mosquitto package (apt-get install mosquitto)", "/usr/sbin")
	conf := strings.Join(append([]string{
		fmt.Sprintf("listener %d 127.0.0.1", port),
		"allow_anonymous true",
		"persistence false",
		"max_queued_messages 0",
		"log_dest stderr",
		"log_type error",
		"log_type warning",
		"log_type notice",
		"log_type information",
	}, extra...), "\n") + "\n"
	path := filepath.Join(t.TempDir(), "mosquitto.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	p := Start(t, " running", bin, "-c", path)
	return &Broker{Process: p, Port: port, URL: fmt.Sprintf("tcp://127.0.0.1:%d", port)}
}
