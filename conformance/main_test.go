package conformance

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reportFlag is the JSON report of `go test` runs (edged-conformance calls
// it -report-json).
var reportFlag = flag.String("report", "", "write a JSON report of the run (gateway, every test's outcome and level, "+
	"the seed and strict scores, operation coverage) to `FILE` (default $EDGE_CONFORMANCE_REPORT)")

// sharedFlags gives the values of the flags go test shares with
// edged-conformance.
var sharedFlags = registerSharedFlags(flag.CommandLine)

// TestMain runs the suite under `go test`: against -url (EDGE_URL), or
// against a gateway it builds and starts itself, on the embedded SQLite
// store or on the PostgreSQL database named by EDGE_CONFORMANCE_DB.
func TestMain(m *testing.M) {
	flag.Parse()
	opts := sharedFlags()
	opts.reportJSON = orEnv(*reportFlag, "EDGE_CONFORMANCE_REPORT")
	opts.coverageTable = true
	os.Exit(runGoTest(m, opts))
}

func runGoTest(m *testing.M, opts options) int {
	if opts.url != "" {
		fmt.Printf("conformance: testing the gateway at %s\n", opts.url)
		return runAgainst(m, opts, gatewayInfo{URL: opts.url})
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
	info := gatewayInfo{URL: gw.url, StartedBySuite: true, Storage: "sqlite"}
	storage := "embedded SQLite"
	if dbURL != "" {
		storage, info.Storage = "PostgreSQL", "postgresql"
	}
	fmt.Printf("conformance: started edged at %s on %s\n", gw.url, storage)
	opts.url, opts.pathPrefix = gw.url, ""
	code := runAgainst(m, opts, info)
	if err := gw.stop(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance: stopping the gateway:", err)
		code = 1
	}
	if code != 0 {
		gw.dumpLog()
	}
	return code
}

// runAgainst runs the tests against the gateway info describes, prints the
// operation coverage and the scores, writes the reports and returns the
// exit code: not zero when a test failed or, in a run of every test, when
// an operation of the contract was never called.
func runAgainst(m *testing.M, opts options, info gatewayInfo) int {
	r := newReport(info, runFilter())
	idx, note, err := connect(opts, &r.Gateway)
	if err != nil {
		return setupFailed(opts, r, err)
	}
	r.CoverageNote = note
	code := m.Run()
	closeSuiteSession()
	r.Tests = trackedResults()
	return finishRun(opts, &r, idx, calls.snapshot(), code)
}

// runFilter returns the -run and -skip patterns of this run ("" when every
// test runs).
func runFilter() string {
	var parts []string
	for _, name := range []string{"test.run", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			parts = append(parts, "-"+strings.TrimPrefix(name, "test.")+"="+f.Value.String())
		}
	}
	return strings.Join(parts, " ")
}
