package conformance

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var (
	urlFlag    = flag.String("url", "", "base URL of the gateway under test (default $EDGE_URL; empty: start one)")
	reportFlag = flag.String("report", "", "write a JSON report of the run (gateway, every test's outcome, operation coverage) to `FILE` (default $EDGE_CONFORMANCE_REPORT)")
	tokenFlag  = flag.String("token", "", "session `token` sent with every request that carries none of its own (default $EDGE_TOKEN; "+
		"empty: for a gateway whose authentication is mandatory, the suite logs in as admin)")
	adminPasswordFlag = flag.String("admin-password", "", "`password` of the admin user of an external gateway (default $EDGE_ADMIN_PASSWORD)")
)

// baseURL is the gateway every test talks to.
var baseURL string

// ownGateway is true when the suite started the gateway itself and may
// therefore stop, restart and inspect it.
var ownGateway bool

// ownGatewayPID and ownGatewayLog are the process id and the log file of
// the gateway the suite started (zero values when testing another one).
var (
	ownGatewayPID int
	ownGatewayLog string
)

// suiteToken is sent with every request that carries no token of its own
// and is not marked anonymous: -token, or the admin session the suite
// opens when the gateway under test requires authentication. Empty for a
// gateway in the default, optional mode.
var suiteToken string

// adminPassword is the first admin's password of a gateway the suite starts.
const adminPassword = "Conformance-Admin-1"

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(runSuite(m))
}

// flagOrEnv returns the flag's value, or the environment variable's when
// the flag is empty.
func flagOrEnv(f *string, env string) string {
	if *f != "" {
		return *f
	}
	return os.Getenv(env)
}

func runSuite(m *testing.M) int {
	info := gatewayInfo{URL: strings.TrimRight(flagOrEnv(urlFlag, "EDGE_URL"), "/")}
	if info.URL != "" {
		fmt.Printf("conformance: testing the gateway at %s\n", info.URL)
		return runAgainst(m, info)
	}
	dir, err := os.MkdirTemp("", "edged-conformance-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 1
	}
	defer func() { _ = os.RemoveAll(dir) }()
	bin, err := buildGateway(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 1
	}
	dbURL := os.Getenv("EDGE_CONFORMANCE_DB")
	gw, err := startGateway(bin, filepath.Join(dir, "data"), dbURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 1
	}
	ownGateway, ownGatewayPID, ownGatewayLog = true, gw.cmd.Process.Pid, gw.logPath
	info = gatewayInfo{URL: gw.url, StartedBySuite: true, Storage: "sqlite"}
	storage := "embedded SQLite"
	if dbURL != "" {
		storage, info.Storage = "PostgreSQL", "postgresql"
	}
	fmt.Printf("conformance: started edged at %s on %s\n", gw.url, storage)
	code := runAgainst(m, info)
	if err := gw.stop(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance: stopping the gateway:", err)
		code = 1
	}
	if code != 0 {
		gw.dumpLog()
	}
	return code
}

// runAgainst runs the tests against the gateway described by info, prints
// the operation coverage, writes the report and returns the exit code: not
// zero when a test failed or, in a run of every test, when an operation of
// the contract was never called.
func runAgainst(m *testing.M, info gatewayInfo) int {
	baseURL = info.URL
	if u, err := url.Parse(baseURL); err == nil {
		pathPrefix = strings.TrimRight(u.EscapedPath(), "/")
	}
	r := report{Gateway: info, Started: time.Now().UTC(), Result: resultFail, Filter: runFilter(), Tests: []testResult{}}
	if err := openSuiteSession(); err != nil {
		return setupFailed(r, err.Error())
	}
	r.Gateway.Version = gatewayVersion()
	idx, err := fetchSpec(baseURL)
	if err != nil {
		return setupFailed(r, "cannot read the contract of the gateway under test, so operation coverage cannot be measured: "+err.Error())
	}
	contract = idx
	code := m.Run()
	closeSuiteSession()

	cov := coverageOf(idx, calls.snapshot())
	cov.print()
	switch {
	case len(cov.Missing) == 0:
	case r.Filter != "":
		fmt.Printf("conformance: coverage is not enforced: %s selects a part of the suite\n", r.Filter)
	default:
		code = 1
	}
	if code == 0 {
		r.Result = resultPass
	}
	r.Tests, r.Coverage = testResults(), &cov
	if !writeRequestedReport(r) {
		return 1
	}
	return code
}

// setupFailed reports a run that could not start its tests.
func setupFailed(r report, msg string) int {
	fmt.Fprintln(os.Stderr, "conformance:", msg)
	r.Error = msg
	writeRequestedReport(r)
	return 1
}

// writeRequestedReport writes r where -report (EDGE_CONFORMANCE_REPORT)
// says, if anywhere, and reports whether that went well.
func writeRequestedReport(r report) bool {
	path := flagOrEnv(reportFlag, "EDGE_CONFORMANCE_REPORT")
	if path == "" {
		return true
	}
	r.Finished = time.Now().UTC()
	if err := writeReport(path, r); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return false
	}
	fmt.Printf("conformance: report written to %s\n", path)
	return true
}

// gatewayBinary is set once the suite has built cmd/edged.
var gatewayBinary string

func buildGateway(dir string) (string, error) {
	bin := filepath.Join(dir, "edged")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/edged")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build edged: %w\n%s", err, out)
	}
	gatewayBinary = bin
	return bin, nil
}

// gateway is an edged process the suite started.
type gateway struct {
	url     string
	cmd     *exec.Cmd
	logPath string
	done    chan error
}

// startGateway runs bin on dataDir and a free port and waits until it
// answers ping.
func startGateway(bin, dataDir, dbURL string) (*gateway, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, err
	}
	logPath := filepath.Join(dataDir, "edged.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	// The child process holds its own descriptor; ours is not needed.
	defer func() { _ = logFile.Close() }()
	cmd := exec.Command(bin, "--data", dataDir, "--port", strconv.Itoa(port), "--db", dbURL, "--log-level", "debug")
	cmd.Env = append(os.Environ(), "EDGE_ADMIN_PASSWORD="+adminPassword)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start edged: %w", err)
	}
	gw := &gateway{url: "http://127.0.0.1:" + strconv.Itoa(port), cmd: cmd, logPath: logPath, done: make(chan error, 1)}
	go func() { gw.done <- cmd.Wait() }()
	if err := gw.waitReady(30 * time.Second); err != nil {
		_ = cmd.Process.Kill()
		gw.dumpLog()
		return nil, err
	}
	return gw, nil
}

func (g *gateway) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-g.done:
			return fmt.Errorf("edged exited before it was ready: %w", err)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, g.url+"/edge/ping", nil)
		resp, err := http.DefaultClient.Do(req)
		cancel()
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("edged did not answer ping within " + limit.String())
}

// stop ends the gateway with SIGTERM, as an operator would, and waits for a
// clean exit.
func (g *gateway) stop() error {
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case err := <-g.done:
		return err
	case <-time.After(20 * time.Second):
		_ = g.cmd.Process.Kill()
		return errors.New("edged did not stop within 20s of SIGTERM")
	}
}

func (g *gateway) dumpLog() {
	b, err := os.ReadFile(g.logPath)
	if err != nil {
		return
	}
	if len(b) > 20000 {
		b = b[len(b)-20000:]
	}
	fmt.Fprintf(os.Stderr, "--- edged log (%s) ---\n%s\n--- end of log ---\n", g.logPath, b)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
