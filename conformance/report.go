package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// Test results are kept by the suite itself, independent of `go test
// -json`: every suite test, and every subtest that calls one of the suite's
// helpers (api, apiAs, doRaw, unique, adminToken, track, …), registers a
// cleanup that records t.Failed() and t.Skipped() when it ends.
// edged-conformance also reads the test stream of its run, which names
// every subtest with its duration and output.

// Test outcomes in the report.
const (
	resultPass = "pass"
	resultFail = "fail"
	resultSkip = "skip"
)

// testResult is the outcome of one test or subtest.
type testResult struct {
	Name   string `json:"name"`
	Level  Level  `json:"level"`
	Result string `json:"result"`
	// Scored is true for the cases the level scores count (see
	// scoreResults), ScoredAs the outcome counted: the result, except for
	// a test that failed only through subtests of the other level.
	Scored   bool   `json:"scored"`
	ScoredAs string `json:"scoredAs,omitempty"`
	// Seconds and Output come from the test stream (edged-conformance):
	// the test's duration and what it logged (its failures and skip
	// reason included).
	Seconds *float64 `json:"seconds,omitempty"`
	Output  string   `json:"output,omitempty"`
}

// results collects the outcomes recorded by track.
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
		res := resultPass
		switch {
		case t.Skipped():
			res = resultSkip
		case t.Failed():
			res = resultFail
		}
		level := levelOf(t.Name())
		results.mu.Lock()
		defer results.mu.Unlock()
		r.Result, r.Level = res, level
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

// trackedResults returns the outcomes track recorded; a test that never
// ended is a failure.
func trackedResults() []testResult {
	results.mu.Lock()
	defer results.mu.Unlock()
	out := make([]testResult, 0, len(results.list))
	for _, r := range results.list {
		res := *r
		if res.Result == "" {
			res.Result, res.Level = resultFail, levelOf(res.Name)
		}
		out = append(out, res)
	}
	return out
}

// scoreResults sorts rs by name and marks the cases the level scores
// count, so that each assertion counts once and at its own level:
//
//   - a test with no subtest of its own level stands for itself: a seed
//     test whose subtests are all strict is one seed case. When it failed
//     only because such a subtest failed (Go fails the parent with the
//     subtest) and logged nothing of its own, it counts as passed;
//   - a test with subtests of its own level is counted through them, and
//     itself only when it failed though none of them did (its own
//     assertion failed).
func scoreResults(rs []testResult) {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
	for i := range rs {
		r := &rs[i]
		prefix := r.Name + "/"
		sameLevel, sameFailed, otherFailed := false, false, false
		for j := range rs {
			d := rs[j]
			if !strings.HasPrefix(d.Name, prefix) {
				continue
			}
			if d.Level == r.Level {
				sameLevel = true
				sameFailed = sameFailed || d.Result == resultFail
			} else {
				otherFailed = otherFailed || d.Result == resultFail
			}
		}
		ownFailure := r.Result == resultFail && !sameFailed && (!otherFailed || strings.TrimSpace(r.Output) != "")
		r.Scored, r.ScoredAs = false, ""
		switch {
		case !sameLevel:
			r.Scored, r.ScoredAs = true, r.Result
			if r.Result == resultFail && !ownFailure {
				r.ScoredAs = resultPass
			}
		case ownFailure:
			r.Scored, r.ScoredAs = true, resultFail
		}
	}
}

// levelScore is the score of one level.
type levelScore struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	// Score is passed / (passed + failed), null when no case of the
	// level ran.
	Score *float64 `json:"score"`
}

// scores sums the scored cases of rs per level.
func scores(rs []testResult) map[Level]*levelScore {
	out := map[Level]*levelScore{Seed: {}, Strict: {}}
	for _, r := range rs {
		if !r.Scored {
			continue
		}
		s := out[r.Level]
		if s == nil {
			s = &levelScore{}
			out[r.Level] = s
		}
		switch r.ScoredAs {
		case resultPass:
			s.Passed++
		case resultFail:
			s.Failed++
		default:
			s.Skipped++
		}
	}
	for _, s := range out {
		if n := s.Passed + s.Failed; n > 0 {
			v := float64(s.Passed) / float64(n)
			s.Score = &v
		}
	}
	return out
}

// formatScore renders a score for people: "97.5% (39/40)" or "none ran".
func (s *levelScore) String() string {
	if s.Score == nil {
		return fmt.Sprintf("no case ran (%d skipped)", s.Skipped)
	}
	return fmt.Sprintf("%.1f%% (%d of %d passed, %d skipped)", *s.Score*100, s.Passed, s.Passed+s.Failed, s.Skipped)
}

// gatewayInfo describes the gateway under test in the report.
type gatewayInfo struct {
	URL            string `json:"url"`
	Version        string `json:"version"`
	StartedBySuite bool   `json:"startedBySuite"`
	// Storage is "sqlite" or "postgresql" for a gateway the suite
	// started; empty for an external one.
	Storage string `json:"storage,omitempty"`
	// PathPrefix is the gateway's product segment (-path-prefix), which
	// replaces /edge in every request.
	PathPrefix string `json:"pathPrefix"`
}

// testCounts sums the outcomes of every test and subtest.
type testCounts struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
}

// report is the JSON report of a run.
type report struct {
	Gateway  gatewayInfo `json:"gateway"`
	Started  time.Time   `json:"started"`
	Finished time.Time   `json:"finished"`
	// Result is "pass" when every test passed or skipped and, where it
	// was measured and enforced, every operation was called; else "fail".
	Result string `json:"result"`
	// Filter is the -run/-skip/-level selection of the run, if any.
	Filter string `json:"filter,omitempty"`
	// Error says why no test ran (the gateway could not be reached or
	// logged in to), or why the run ended early.
	Error string `json:"error,omitempty"`
	// Scores are the seed and strict levels' scores over their scored
	// cases.
	Scores   map[Level]*levelScore `json:"scores"`
	Counts   testCounts            `json:"counts"`
	Tests    []testResult          `json:"tests"`
	Coverage *coverage             `json:"coverage"`
	// CoverageNote says why coverage was not measured or not enforced.
	CoverageNote string `json:"coverageNote,omitempty"`
}

// finish scores r's tests and sums them.
func (r *report) finish() {
	if r.Tests == nil {
		r.Tests = []testResult{}
	}
	scoreResults(r.Tests)
	r.Scores = scores(r.Tests)
	r.Counts = testCounts{}
	for _, t := range r.Tests {
		switch t.Result {
		case resultPass:
			r.Counts.Passed++
		case resultFail:
			r.Counts.Failed++
		default:
			r.Counts.Skipped++
		}
	}
	r.Finished = time.Now().UTC()
}

// writeJSONReport writes r as indented JSON to path.
func writeJSONReport(path string, r report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil { //nolint:gosec // a report for people and CI to read
		return fmt.Errorf("write the JSON report: %w", err)
	}
	return nil
}

// writeReports writes the reports opts asks for and prints the scores; it
// reports whether that went well.
func writeReports(opts options, r report) bool {
	ok := true
	if opts.reportJSON != "" {
		if err := writeJSONReport(opts.reportJSON, r); err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			ok = false
		} else {
			fmt.Printf("conformance: JSON report written to %s\n", opts.reportJSON)
		}
	}
	if opts.reportJUnit != "" {
		if err := writeJUnitReport(opts.reportJUnit, r); err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			ok = false
		} else {
			fmt.Printf("conformance: JUnit report written to %s\n", opts.reportJUnit)
		}
	}
	return ok
}

// printScores writes the level scores to standard output.
func printScores(r report) {
	for _, l := range []Level{Seed, Strict} {
		fmt.Printf("conformance: %-6s %s\n", l, r.Scores[l])
	}
}
