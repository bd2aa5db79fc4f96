package conformance

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Main is edged-conformance: it runs the suite against the gateway at -url
// and writes JUnit XML and JSON reports scoring the seed and strict levels
// apart. It returns the exit code: 0 when every test that ran passed (and
// every operation of the contract was called, when that is measured and
// every test ran), 1 when not, 2 when the run could not start.
//
// The tests run in a child process, the same executable started again
// with EDGED_CONFORMANCE_CHILD set: the testing package, which runs them
// (subtests, cleanups, t.Fatal and all), ends its process when the tests
// end, and a test that crashes must not take the report with it.
func Main(args []string) int {
	if env := os.Getenv(childEnv); env != "" {
		return runChild(env)
	}
	return runParent(args)
}

// childEnv carries the child's settings (childConfig as JSON).
const childEnv = "EDGED_CONFORMANCE_CHILD"

// childConfig is what the parent tells the child.
type childConfig struct {
	URL           string  `json:"url"`
	PathPrefix    string  `json:"pathPrefix"`
	Token         string  `json:"token"`
	AuthMandatory bool    `json:"authMandatory"`
	AdminPassword string  `json:"adminPassword"`
	Levels        []Level `json:"levels"`
	// Events is the file the child appends its events to, one JSON
	// object a line.
	Events string `json:"events"`
}

// childEvent is one line of the events file: a request the suite sent
// (for coverage), or a subtest marked strict.
type childEvent struct {
	Call   *call  `json:"call,omitempty"`
	Strict string `json:"strict,omitempty"`
}

// callJSON is call as the events file holds it.
type callJSON struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Status int    `json:"status"`
}

// MarshalJSON implements json.Marshaler.
func (c call) MarshalJSON() ([]byte, error) {
	return json.Marshal(callJSON{Method: c.method, Path: c.path, Status: c.status})
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *call) UnmarshalJSON(b []byte) error {
	var j callJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*c = call{method: j.Method, path: j.Path, status: j.Status}
	return nil
}

// commandOptions are edged-conformance's flags beyond the shared ones.
type commandOptions struct {
	options
	run, skip string
	level     string
	timeout   time.Duration
	verbose   bool
	list      bool
}

func parseCommandFlags(args []string) (commandOptions, error) {
	fs := flag.NewFlagSet("edged-conformance", flag.ContinueOnError)
	fs.Usage = func() {
		out := fs.Output()
		_, _ = fmt.Fprint(out, `Usage: edged-conformance -url URL [flags]

Runs the conformance suite of the edged API against the gateway at URL and
writes JUnit XML and JSON reports. Every test is labelled seed (what the API
specification states) or strict (edged's decisions where it is silent), and
each level is scored apart. Tests that would stop the gateway or need one of
the suite's own skip.

Flags:
`)
		fs.PrintDefaults()
	}
	var o commandOptions
	shared := registerSharedFlags(fs)
	reportJSON := fs.String("report-json", "", "write a JSON report (gateway, every test's outcome, level, duration and output, the scores, operation coverage) to `FILE` (default $EDGE_CONFORMANCE_REPORT)")
	fs.StringVar(&o.run, "run", "", "run only the tests whose names match `regexp` (as go test -run)")
	fs.StringVar(&o.skip, "skip", "", "skip the tests whose names match `regexp` (as go test -skip)")
	fs.StringVar(&o.level, "level", "all", "the levels to run: seed, strict or all")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Minute, "stop the run after `d`")
	fs.BoolVar(&o.verbose, "v", false, "show every test and its output as it runs")
	fs.BoolVar(&o.list, "list", false, "list the tests with their levels and exit")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o.options = shared()
	o.reportJSON = orEnv(*reportJSON, "EDGE_CONFORMANCE_REPORT")
	o.coverageTable = o.verbose
	switch o.level {
	case "all", string(Seed), string(Strict):
	default:
		return o, fmt.Errorf("-level %q: use seed, strict or all", o.level)
	}
	for name, re := range map[string]string{"-run": o.run, "-skip": o.skip} {
		for _, part := range strings.Split(re, "/") {
			if _, err := regexp.Compile(part); err != nil {
				return o, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	if !o.list && o.url == "" {
		return o, errors.New("-url (or EDGE_URL) is required: the gateway to test")
	}
	return o, nil
}

// levels returns the levels the run runs.
func (o commandOptions) levels() []Level {
	if o.level == "all" {
		return []Level{Seed, Strict}
	}
	return []Level{Level(o.level)}
}

// filter describes the selection of the run for the report.
func (o commandOptions) filter() string {
	var parts []string
	if o.run != "" {
		parts = append(parts, "-run="+o.run)
	}
	if o.skip != "" {
		parts = append(parts, "-skip="+o.skip)
	}
	if o.level != "all" {
		parts = append(parts, "-level="+o.level)
	}
	return strings.Join(parts, " ")
}

func runParent(args []string) int {
	o, err := parseCommandFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "edged-conformance:", err)
		return 2
	}
	if o.list {
		for _, s := range suite {
			fmt.Printf("%-6s %s\n", s.level, s.name)
		}
		return 0
	}
	fmt.Printf("conformance: testing the gateway at %s\n", o.url)
	r := newReport(gatewayInfo{URL: o.url}, o.filter())
	idx, note, err := connect(o.options, &r.Gateway)
	if err != nil {
		return setupFailed(o.options, r, err)
	}
	r.CoverageNote = note
	tests, recorded, code, err := runChildProcess(o)
	closeSuiteSession()
	if err != nil {
		r.Error = err.Error()
		fmt.Fprintln(os.Stderr, "conformance:", err)
		code = 1
	}
	r.Tests = tests
	return finishRun(o.options, &r, idx, recorded, code)
}

// runChildProcess runs the tests in a child process and returns their
// results (from its test stream, with the levels it reported), the
// requests it sent, and its exit code.
func runChildProcess(o commandOptions) ([]testResult, []call, int, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, 1, fmt.Errorf("find this program to run the tests: %w", err)
	}
	events, err := os.CreateTemp("", "edged-conformance-events-*.jsonl")
	if err != nil {
		return nil, nil, 1, err
	}
	_ = events.Close()
	defer func() { _ = os.Remove(events.Name()) }()
	cfg, err := json.Marshal(childConfig{
		URL: baseURL, PathPrefix: edgePrefix, Token: suiteToken, AuthMandatory: authMandatory,
		AdminPassword: externalAdminPassword, Levels: o.levels(), Events: events.Name(),
	})
	if err != nil {
		return nil, nil, 1, err
	}
	args := []string{"-test.v=test2json", "-test.count=1", "-test.timeout=" + o.timeout.String()}
	if o.run != "" {
		args = append(args, "-test.run="+o.run)
	}
	if o.skip != "" {
		args = append(args, "-test.skip="+o.skip)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv+"="+string(cfg))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, 1, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, 1, fmt.Errorf("start the test process: %w", err)
	}
	stream := newTestStream(os.Stdout, o.verbose)
	readErr := stream.read(stdout)
	waitErr := cmd.Wait()
	code := 0
	var exitErr *exec.ExitError
	switch {
	case errors.As(waitErr, &exitErr) && exitErr.ExitCode() == 1:
		code = 1 // tests failed
	case waitErr != nil:
		code = 1
		err = fmt.Errorf("the test process ended abnormally (%w): %s", waitErr, firstLine(stream.rest.String(), "no output"))
	case readErr != nil:
		code = 1
		err = fmt.Errorf("read the test process's output: %w", readErr)
	}
	strict, recorded, evErr := readEvents(events.Name())
	if evErr != nil && err == nil {
		err = evErr
	}
	tests := stream.results()
	byName := map[string]Level{}
	for _, s := range suite {
		byName[s.name] = s.level
	}
	for _, name := range strict {
		byName[name] = Strict
	}
	for i := range tests {
		tests[i].Level = levelIn(byName, tests[i].Name)
	}
	return tests, recorded, code, err
}

// readEvents reads the child's events file.
func readEvents(path string) (strict []string, recorded []call, err error) {
	f, err := os.Open(path) //nolint:gosec // the file this process created
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for sc.Scan() {
		var ev childEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return nil, nil, fmt.Errorf("the test process's events: %w", err)
		}
		switch {
		case ev.Call != nil:
			recorded = append(recorded, *ev.Call)
		case ev.Strict != "":
			strict = append(strict, ev.Strict)
		}
	}
	return strict, recorded, sc.Err()
}

// runChild is the child process: it runs the tests with the testing
// package, which exits when they end.
func runChild(env string) int {
	var cfg childConfig
	if err := json.Unmarshal([]byte(env), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "edged-conformance: bad", childEnv+":", err)
		return 2
	}
	baseURL, edgePrefix, suiteToken, authMandatory = cfg.URL, cfg.PathPrefix, cfg.Token, cfg.AuthMandatory
	externalAdminPassword = cfg.AdminPassword
	runLevels = map[Level]bool{}
	for _, l := range cfg.Levels {
		runLevels[l] = true
	}
	f, err := os.OpenFile(cfg.Events, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "edged-conformance:", err)
		return 2
	}
	var mu sync.Mutex
	enc := json.NewEncoder(f)
	emit := func(ev childEvent) {
		mu.Lock()
		defer mu.Unlock()
		if err := enc.Encode(ev); err != nil {
			fmt.Fprintln(os.Stderr, "edged-conformance: write an event:", err)
		}
	}
	calls.sink = func(c call) { emit(childEvent{Call: &c}) }
	levels.onMark = func(name string) { emit(childEvent{Strict: name}) }
	tests := make([]testing.InternalTest, 0, len(suite))
	for _, s := range suite {
		tests = append(tests, testing.InternalTest{Name: s.name, F: func(t *testing.T) { runEntry(t, s) }})
	}
	testing.Main(matchString, tests, nil, nil)
	return 0 // not reached: testing.Main exits
}

// matchString is the pattern matcher of -run and -skip.
func matchString(pat, str string) (bool, error) { return regexp.MatchString(pat, str) }
