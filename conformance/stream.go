package conformance

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// edged-conformance runs the tests in a child process with -test.v=test2json:
// the testing package then starts every line it frames (a test starting,
// ending, or taking over the output) with the byte 0x16, so that a test's
// own output cannot be mistaken for them. The parent reads that stream to
// learn every test and subtest, its result, duration and output, and shows
// it as go test would.

// frameMarker starts the lines the testing package frames the stream with.
const frameMarker = "\x16"

var (
	frameStart = regexp.MustCompile(`^=== (RUN|NAME|CONT|PAUSE) +(.*)$`)
	frameEnd   = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (.*) \(([0-9.]+)s\)$`)
)

// streamTest is what the stream says of one test.
type streamTest struct {
	name    string
	result  string // resultPass, resultFail, resultSkip; "" while running
	seconds float64
	output  strings.Builder
}

// testStream reads a test stream and shows it on out: everything when
// verbose, else the failures with their output and one line per
// top-level test.
type testStream struct {
	out     io.Writer
	verbose bool
	tests   map[string]*streamTest
	order   []string
	current string // the test the output lines belong to
	// rest is the output of no test (the summary lines).
	rest strings.Builder
}

func newTestStream(out io.Writer, verbose bool) *testStream {
	return &testStream{out: out, verbose: verbose, tests: map[string]*streamTest{}}
}

// read consumes the stream until r ends.
func (s *testStream) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		s.line(sc.Text())
	}
	return sc.Err()
}

// test returns the entry of the test named name, creating it.
func (s *testStream) test(name string) *streamTest {
	t, ok := s.tests[name]
	if !ok {
		t = &streamTest{name: name}
		s.tests[name] = t
		s.order = append(s.order, name)
	}
	return t
}

// line consumes one line of the stream.
func (s *testStream) line(l string) {
	framed, ok := strings.CutPrefix(l, frameMarker)
	if !ok {
		if s.verbose {
			_, _ = fmt.Fprintln(s.out, l)
		}
		if s.current != "" {
			t := s.test(s.current)
			t.output.WriteString(l)
			t.output.WriteByte('\n')
		} else {
			s.rest.WriteString(l)
			s.rest.WriteByte('\n')
		}
		return
	}
	if s.verbose {
		_, _ = fmt.Fprintln(s.out, framed)
	}
	if m := frameStart.FindStringSubmatch(framed); m != nil {
		name := strings.TrimSpace(m[2])
		switch m[1] {
		case "RUN":
			s.test(name)
			s.current = name
		case "NAME", "CONT":
			s.current = name
		}
		return
	}
	if m := frameEnd.FindStringSubmatch(framed); m != nil {
		t := s.test(m[2])
		t.result = map[string]string{"PASS": resultPass, "FAIL": resultFail, "SKIP": resultSkip}[m[1]]
		t.seconds, _ = strconv.ParseFloat(m[3], 64)
		if !s.verbose {
			s.show(t)
		}
		return
	}
	// Other framing (the final PASS or FAIL, and what later Go releases
	// may add) carries nothing the reports need.
}

// show writes the end of t when not verbose: a top-level test's result,
// and a failure's output.
func (s *testStream) show(t *streamTest) {
	switch {
	case t.result == resultFail:
		_, _ = fmt.Fprintf(s.out, "--- FAIL: %s (%.2fs)\n%s", t.name, t.seconds, t.output.String())
	case !strings.Contains(t.name, "/"):
		_, _ = fmt.Fprintf(s.out, "--- %s: %s (%.2fs)\n", strings.ToUpper(t.result), t.name, t.seconds)
	}
}

// results returns the tests of the stream in the order they started; a
// test the stream never saw end (the process died) is a failure.
func (s *testStream) results() []testResult {
	out := make([]testResult, 0, len(s.order))
	for _, name := range s.order {
		t := s.tests[name]
		res := t.result
		if res == "" {
			res = resultFail
			t.output.WriteString("the test did not end: the test process stopped while it ran\n")
		}
		secs := t.seconds
		out = append(out, testResult{Name: name, Result: res, Seconds: &secs, Output: t.output.String()})
	}
	return out
}
