package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The command is tested as an integrator runs it: built, then run against a
// gateway started from cmd/edged, writing its reports to files.

const adminPassword = "Command-Test-Admin-1"

// build compiles the package at pkg into dir and returns the binary.
func build(t *testing.T, dir, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port
}

// startGateway runs edged on a fresh data directory and returns its URL;
// it is stopped when the test ends.
func startGateway(t *testing.T, bin string) string {
	t.Helper()
	port := freePort(t)
	data := filepath.Join(t.TempDir(), "data")
	var log bytes.Buffer
	cmd := exec.Command(bin, "--data", data, "--port", strconv.Itoa(port))
	cmd.Env = append(os.Environ(), "EDGE_ADMIN_PASSWORD="+adminPassword)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-done:
			if err != nil {
				t.Logf("edged ended: %v", err)
			}
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Logf("edged killed after 20 s: %v", <-done)
		}
		if t.Failed() {
			t.Logf("edged log:\n%s", log.String())
		}
	})
	u := "http://127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("edged exited: %v\n%s", err, log.String())
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u+"/edge/ping", nil)
		resp, err := http.DefaultClient.Do(req)
		cancel()
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return u
			}
		}
		time.Sleep(100 * time.Millisecond) // polling for the listener, not synchronising on time
	}
	t.Fatalf("edged did not answer ping\n%s", log.String())
	return ""
}

// run runs the command with args and returns its exit code and output.
func run(t *testing.T, bin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String()
	}
	t.Fatalf("run %s: %v", bin, err)
	return 0, ""
}

// jsonReport is the part of the JSON report the tests read.
type jsonReport struct {
	Result string `json:"result"`
	Filter string `json:"filter"`
	Error  string `json:"error"`
	Scores map[string]struct {
		Passed, Failed, Skipped int
		Score                   *float64
	} `json:"scores"`
	Tests []struct {
		Name, Level, Result, Output string
		Scored                      bool
		Seconds                     *float64
	} `json:"tests"`
	Coverage *struct{ Exercised, Total int } `json:"coverage"`
	Gateway  struct{ PathPrefix string }     `json:"gateway"`
}

// junitReport is the part of the JUnit report the tests read.
type junitReport struct {
	Suites []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readReports(t *testing.T, jsonPath, junitPath string) (jsonReport, junitReport) {
	t.Helper()
	var jr jsonReport
	var xr junitReport
	b, err := os.ReadFile(jsonPath) //nolint:gosec // the test's own file
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &jr); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, b)
	}
	b, err = os.ReadFile(junitPath) //nolint:gosec // the test's own file
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, &xr); err != nil {
		t.Fatalf("JUnit report: %v\n%s", err, b)
	}
	return jr, xr
}

// suite returns the JUnit test suite named name.
func (r junitReport) suite(t *testing.T, name string) (tests, failures int, score string) {
	t.Helper()
	for _, s := range r.Suites {
		if s.Name != name {
			continue
		}
		for _, p := range s.Props {
			if p.Name == "score" {
				score = p.Value
			}
		}
		return s.Tests, s.Failures, score
	}
	t.Fatalf("the JUnit report has no test suite %q", name)
	return 0, 0, ""
}

func TestCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the gateway and the command")
	}
	dir := t.TempDir()
	edged := build(t, dir, "../edged", "edged")
	bin := build(t, dir, ".", "edged-conformance")
	gw := startGateway(t, edged)

	t.Run("a passing run scores both levels", func(t *testing.T) {
		out := t.TempDir()
		jsonPath, junitPath := filepath.Join(out, "r.json"), filepath.Join(out, "r.xml")
		code, output := run(t, bin, "-url", gw, "-admin-password", adminPassword,
			"-run", "^(TestAuditCreate|TestAuditCreateErrors|TestLogin|TestLenientContentTypes|TestCORS)$",
			"-report-junit", junitPath, "-report-json", jsonPath)
		if code != 0 {
			t.Fatalf("exit code %d, want 0\n%s", code, output)
		}
		jr, xr := readReports(t, jsonPath, junitPath)
		if jr.Result != "pass" || jr.Filter == "" || jr.Coverage == nil || jr.Coverage.Exercised == 0 {
			t.Errorf("JSON report: result %q, filter %q, coverage %+v", jr.Result, jr.Filter, jr.Coverage)
		}
		for _, level := range []string{"seed", "strict"} {
			s := jr.Scores[level]
			if s.Passed == 0 || s.Failed != 0 || s.Score == nil || *s.Score != 1 {
				t.Errorf("JSON %s score %+v, want passes and 100%%", level, s)
			}
			tests, failures, score := xr.suite(t, level)
			if tests == 0 || failures != 0 || score != "1.0000" {
				t.Errorf("JUnit %s: %d tests, %d failures, score %q", level, tests, failures, score)
			}
		}
		levels := map[string]string{}
		for _, tc := range jr.Tests {
			levels[tc.Name] = tc.Level
			if tc.Seconds == nil {
				t.Errorf("%s has no duration", tc.Name)
			}
		}
		for name, want := range map[string]string{"TestAuditCreate": "seed", "TestAuditCreateErrors": "strict",
			"TestAuditCreate/lower-case_severity_is_stored_upper_case": "strict", "TestAuditCreate/nested_details_round-trip": "seed"} {
			if levels[name] != want {
				t.Errorf("%s level %q, want %s", name, levels[name], want)
			}
		}
		if !strings.Contains(output, "conformance: seed") || !strings.Contains(output, "conformance: strict") {
			t.Errorf("the output does not show the scores:\n%s", output)
		}
	})

	t.Run("failures carry their messages", func(t *testing.T) {
		fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			if r.URL.Path == "/edge/ping" {
				_, _ = io.WriteString(w, `{"authenticationOptional": true, "uptime": -5}`)
				return
			}
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"message": "nothing here"}`)
		}))
		defer fake.Close()
		out := t.TempDir()
		jsonPath, junitPath := filepath.Join(out, "r.json"), filepath.Join(out, "r.xml")
		code, output := run(t, bin, "-url", fake.URL, "-run", "^TestPingFields$", "-report-junit", junitPath, "-report-json", jsonPath)
		if code != 1 {
			t.Fatalf("exit code %d, want 1\n%s", code, output)
		}
		jr, xr := readReports(t, jsonPath, junitPath)
		if jr.Result != "fail" || jr.Coverage != nil {
			t.Errorf("JSON report: result %q, coverage %+v; want fail and no coverage (no contract served)", jr.Result, jr.Coverage)
		}
		if s := jr.Scores["seed"]; s.Failed == 0 || s.Score == nil || *s.Score == 1 {
			t.Errorf("seed score %+v, want failures", s)
		}
		found := false
		for _, s := range xr.Suites {
			for _, c := range s.Cases {
				if c.Name == "TestPingFields/dataRead" && c.Failure != nil {
					found = strings.Contains(c.Failure.Message, "dataRead") && strings.Contains(c.Failure.Text, "dataRead")
				}
			}
		}
		if !found {
			t.Errorf("the JUnit report has no failure naming dataRead for TestPingFields/dataRead:\n%s", output)
		}
	})

	t.Run("another product segment", func(t *testing.T) {
		// A reverse proxy stands for a gateway whose segment is /foglamp:
		// its paths, its contract's paths and tracking's field name.
		target, err := url.Parse(gw)
		if err != nil {
			t.Fatal(err)
		}
		proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			if rest, ok := strings.CutPrefix(r.In.URL.EscapedPath(), "/foglamp"); ok {
				r.Out.URL.RawPath = "/edge" + rest
				r.Out.URL.Path, _ = url.PathUnescape(r.Out.URL.RawPath)
			}
		}}
		proxy.ModifyResponse = func(resp *http.Response) error {
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				return err
			}
			switch resp.Request.URL.Path {
			case "/edge/openapi.json":
				b = bytes.ReplaceAll(b, []byte(`"/edge/`), []byte(`"/foglamp/`))
			case "/edge/track":
				b = bytes.ReplaceAll(b, []byte(`"edge":`), []byte(`"foglamp":`))
			}
			resp.Body = io.NopCloser(bytes.NewReader(b))
			resp.ContentLength = int64(len(b))
			resp.Header.Set("Content-Length", fmt.Sprint(len(b)))
			return nil
		}
		front := httptest.NewServer(proxy)
		defer front.Close()
		out := t.TempDir()
		jsonPath, junitPath := filepath.Join(out, "r.json"), filepath.Join(out, "r.xml")
		code, output := run(t, bin, "-url", front.URL, "-path-prefix", "/foglamp", "-admin-password", adminPassword,
			"-run", "^(TestAuditCreate|TestSouthServiceLifecycle|TestAssetPathDecoding)$", "-report-junit", junitPath, "-report-json", jsonPath)
		if code != 0 {
			t.Fatalf("exit code %d, want 0\n%s", code, output)
		}
		jr, _ := readReports(t, jsonPath, junitPath)
		if jr.Gateway.PathPrefix != "/foglamp" || jr.Coverage == nil || jr.Coverage.Exercised < 5 {
			t.Errorf("report: prefix %q, coverage %+v; want /foglamp and the calls mapped to the contract", jr.Gateway.PathPrefix, jr.Coverage)
		}
		for _, tc := range jr.Tests {
			if !strings.Contains(tc.Name, "/") && tc.Result != "pass" {
				t.Errorf("%s: %s, want pass (not skipped either)\n%s", tc.Name, tc.Result, tc.Output)
			}
		}
	})

	t.Run("usage errors", func(t *testing.T) {
		for _, args := range [][]string{{}, {"-url", gw, "-level", "loose"}, {"-url", gw, "-run", "("}, {"-url", gw, "-path-prefix", "/"}} {
			if code, output := run(t, bin, args...); code != 2 {
				t.Errorf("%q: exit code %d, want 2\n%s", args, code, output)
			}
		}
	})
}
