package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// Test results are kept by the suite itself, independent of `go test
// -json`: the first time a test (or subtest) calls one of the suite's
// helpers (api, apiAs, doRaw, unique, adminToken, track, …), a cleanup is
// registered that records t.Failed() and t.Skipped() when it ends. The
// JSON report (-report) lists them with the operation coverage.

// Test outcomes in the report.
const (
	resultPass = "pass"
	resultFail = "fail"
	resultSkip = "skip"
	// resultUnknown is a top-level test of the package that made no call
	// through the suite's helpers, so its outcome was not seen (e.g. one
	// that skipped at once because it needs a gateway of its own).
	resultUnknown = "unknown"
)

// testResult is the outcome of one test or subtest.
type testResult struct {
	Name   string `json:"name"`
	Result string `json:"result"`
}

// results collects the outcomes of the run.
var results = struct {
	mu      sync.Mutex
	tracked map[testing.TB]bool
	list    []*testResult
}{tracked: map[testing.TB]bool{}}

// track records the outcome of t when it ends. Every helper that takes a t
// calls it; a test that may skip before calling any helper calls it first.
func track(t testing.TB) {
	results.mu.Lock()
	defer results.mu.Unlock()
	if results.tracked[t] {
		return
	}
	results.tracked[t] = true
	r := &testResult{Name: t.Name()}
	results.list = append(results.list, r)
	t.Cleanup(func() {
		results.mu.Lock()
		defer results.mu.Unlock()
		switch {
		case t.Skipped():
			r.Result = resultSkip
		case t.Failed():
			r.Result = resultFail
		default:
			r.Result = resultPass
		}
	})
}

// needOwnGateway skips t unless the suite started the gateway itself.
func needOwnGateway(t testing.TB, why string) {
	t.Helper()
	track(t)
	if !ownGateway {
		t.Skip("needs a gateway the suite started itself (" + why + "); testing an external gateway (-url / EDGE_URL)")
	}
}

// testResults returns the recorded outcomes, sorted by name, followed by
// the top-level tests of the package that recorded nothing, when every
// test was selected to run.
func testResults() []testResult {
	results.mu.Lock()
	out := make([]testResult, 0, len(results.list))
	seen := map[string]bool{}
	for _, r := range results.list {
		res := *r
		if res.Result == "" { // still running: a test that never ended
			res.Result = resultUnknown
		}
		out = append(out, res)
		seen[strings.SplitN(r.Name, "/", 2)[0]] = true
	}
	results.mu.Unlock()
	if runFilter() == "" {
		for _, name := range topLevelTests() {
			if !seen[name] {
				out = append(out, testResult{Name: name, Result: resultUnknown})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
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

// topLevelTests lists the Test functions declared in the package's source
// files (go test runs in the package directory). Without the sources (a
// test binary run elsewhere) it returns nothing.
func topLevelTests() []string {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		return nil
	}
	var names []string
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			names = append(names, fn.Name.Name)
		}
	}
	return names
}

// gatewayInfo describes the gateway under test in the report.
type gatewayInfo struct {
	URL            string `json:"url"`
	Version        string `json:"version"`
	StartedBySuite bool   `json:"startedBySuite"`
	// Storage is "sqlite" or "postgresql" for a gateway the suite
	// started; empty for an external one.
	Storage string `json:"storage,omitempty"`
}

// testCounts sums the outcomes.
type testCounts struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	Unknown int `json:"unknown"`
}

// report is the JSON report written with -report.
type report struct {
	Gateway  gatewayInfo `json:"gateway"`
	Started  time.Time   `json:"started"`
	Finished time.Time   `json:"finished"`
	// Result is "pass" when every test passed or skipped and every
	// operation was called (coverage is not enforced with -run or
	// -skip), else "fail".
	Result string `json:"result"`
	// Filter is the -run/-skip selection of the run, if any.
	Filter string `json:"filter,omitempty"`
	// Error says why no test ran (the gateway could not be reached or
	// logged in to, or served no contract).
	Error    string       `json:"error,omitempty"`
	Counts   testCounts   `json:"counts"`
	Tests    []testResult `json:"tests"`
	Coverage *coverage    `json:"coverage"`
}

// writeReport writes r as indented JSON to path.
func writeReport(path string, r report) error {
	for _, t := range r.Tests {
		switch t.Result {
		case resultPass:
			r.Counts.Passed++
		case resultFail:
			r.Counts.Failed++
		case resultSkip:
			r.Counts.Skipped++
		default:
			r.Counts.Unknown++
		}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil { //nolint:gosec // a report for people and CI to read
		return fmt.Errorf("write the report: %w", err)
	}
	return nil
}
