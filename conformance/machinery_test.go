package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// stream is a test stream as `-test.v=test2json` writes it (0x16 frames),
// with failing and skipped subtests, output between them, a test whose
// output looks like framing and one that never ended.
const stream = "\x16=== RUN   TestA\n" +
	"\x16=== RUN   TestA/sub_one\n" +
	"    a.go:13: bad 1\n" +
	"\x16--- FAIL: TestA/sub_one (0.25s)\n" +
	"\x16=== NAME  TestA\n" +
	"\x16=== RUN   TestA/sub/two\n" +
	"    a.go:14: nope\n" +
	"\x16--- SKIP: TestA/sub/two (0.00s)\n" +
	"\x16--- FAIL: TestA (0.50s)\n" +
	"\x16=== NAME  \n" +
	"\x16=== RUN   TestB\n" +
	"\x16--- PASS: TestB (1.00s)\n" +
	"\x16=== RUN   TestC\n" +
	"    c.go:18: --- PASS: fake\n" +
	"\x16--- FAIL: TestC (0.01s)\n" +
	"\x16=== RUN   TestF\n" +
	"\x16=== RUN   TestF/strict\n" +
	"    f.go:3: decision broken\n" +
	"\x16--- FAIL: TestF/strict (0.00s)\n" +
	"\x16--- FAIL: TestF (0.00s)\n" +
	"\x16=== RUN   TestG\n" +
	"    g.go:2: spec broken\n" +
	"\x16=== RUN   TestG/strict\n" +
	"    g.go:3: decision broken\n" +
	"\x16--- FAIL: TestG/strict (0.00s)\n" +
	"\x16=== NAME  TestG\n" +
	"    g.go:5: spec broken again\n" +
	"\x16--- FAIL: TestG (0.00s)\n" +
	"\x16=== RUN   TestD\n" +
	"\x16FAIL\n"

// TestStreamAndReports feeds a test stream through the reader, scores it
// and renders the JUnit report (no gateway involved).
func TestStreamAndReports(t *testing.T) {
	track(t)
	var shown bytes.Buffer
	s := newTestStream(&shown, false)
	if err := s.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	rs := s.results()
	byName := map[string]testResult{}
	for _, r := range rs {
		byName[r.Name] = r
	}
	want := map[string]struct {
		result string
		output string
	}{
		"TestA":         {resultFail, ""},
		"TestA/sub_one": {resultFail, "    a.go:13: bad 1\n"},
		"TestA/sub/two": {resultSkip, "    a.go:14: nope\n"},
		"TestB":         {resultPass, ""},
		"TestC":         {resultFail, "    c.go:18: --- PASS: fake\n"},
		"TestD":         {resultFail, "the test did not end: the test process stopped while it ran\n"},
		"TestF":         {resultFail, ""},
		"TestF/strict":  {resultFail, "    f.go:3: decision broken\n"},
		"TestG":         {resultFail, "    g.go:2: spec broken\n    g.go:5: spec broken again\n"},
		"TestG/strict":  {resultFail, "    g.go:3: decision broken\n"},
	}
	if len(rs) != len(want) {
		t.Errorf("%d results, want %d: %+v", len(rs), len(want), rs)
	}
	for name, w := range want {
		r, ok := byName[name]
		if !ok || r.Result != w.result || r.Output != w.output {
			t.Errorf("%s = %+v, want %s with output %q", name, r, w.result, w.output)
		}
	}
	if got := *byName["TestA/sub_one"].Seconds; got != 0.25 {
		t.Errorf("duration of TestA/sub_one = %v, want 0.25", got)
	}
	if out := shown.String(); !strings.Contains(out, "--- FAIL: TestA/sub_one (0.25s)\n    a.go:13: bad 1") ||
		!strings.Contains(out, "--- PASS: TestB (1.00s)") || strings.Contains(out, "sub/two") {
		t.Errorf("shown without -v:\n%s", out)
	}

	// Levels: TestA is seed with its first subtest strict; TestB, TestF
	// and TestG seed with strict subtests; TestC and TestD strict.
	lv := map[string]Level{"TestA": Seed, "TestA/sub_one": Strict, "TestB": Seed,
		"TestF": Seed, "TestF/strict": Strict, "TestG": Seed, "TestG/strict": Strict}
	for i := range rs {
		rs[i].Level = levelIn(lv, rs[i].Name)
	}
	r := report{Tests: rs, Gateway: gatewayInfo{URL: "http://gw", PathPrefix: "/edge"}}
	r.finish()
	scored := map[string]string{} // name → counted outcome, "" when not counted
	for _, tr := range r.Tests {
		if tr.Scored {
			scored[tr.Name] = tr.ScoredAs
		}
	}
	wantScored := map[string]string{
		// TestA failed through its strict subtest only and has a seed
		// subtest of its own: the subtests count, not it.
		"TestA/sub_one": resultFail, "TestA/sub/two": resultSkip,
		"TestB": resultPass, "TestC": resultFail, "TestD": resultFail,
		// TestF's only subtest is strict: TestF is a seed case, passed,
		// as it failed only through that subtest.
		"TestF": resultPass, "TestF/strict": resultFail,
		// TestG failed on its own too.
		"TestG": resultFail, "TestG/strict": resultFail,
	}
	if len(scored) != len(wantScored) {
		t.Errorf("scored %v, want %v", scored, wantScored)
	}
	for name, w := range wantScored {
		if scored[name] != w {
			t.Errorf("%s counted as %q, want %q", name, scored[name], w)
		}
	}
	seed, strict := r.Scores[Seed], r.Scores[Strict]
	if seed.Passed != 2 || seed.Failed != 1 || seed.Skipped != 1 {
		t.Errorf("seed score %+v, want 2 passed, 1 failed, 1 skipped", *seed)
	}
	if strict.Passed != 0 || strict.Failed != 5 || *strict.Score != 0 {
		t.Errorf("strict score %+v, want 5 failed, 0%%", *strict)
	}

	t.Run("junit", func(t *testing.T) {
		var doc struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Suites   []struct {
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
		b, err := xml.Marshal(junitReport(r))
		if err != nil {
			t.Fatal(err)
		}
		if err := xml.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Suites) != 2 || doc.Suites[0].Name != "seed" || doc.Suites[1].Name != "strict" {
			t.Fatalf("suites %+v, want seed and strict", doc.Suites)
		}
		if doc.Suites[0].Tests != 4 || doc.Suites[0].Failures != 1 || doc.Suites[1].Tests != 5 || doc.Suites[1].Failures != 5 || doc.Failures != 6 {
			t.Errorf("counts: %+v", doc)
		}
		if p := doc.Suites[0].Props[0]; p.Name != "score" || p.Value != "0.6667" {
			t.Errorf("seed property %+v, want score 0.6667", p)
		}
		for _, c := range doc.Suites[1].Cases {
			if c.Name == "TestA/sub_one" && (c.Failure == nil || c.Failure.Message != "a.go:13: bad 1" || !strings.Contains(c.Failure.Text, "bad 1")) {
				t.Errorf("failure of TestA/sub_one: %+v", c.Failure)
			}
		}
	})
}

// TestPrefixTransport sends requests through prefixTransport to a server
// standing for a gateway whose product segment is /foglamp (no gateway
// involved).
func TestPrefixTransport(t *testing.T) {
	track(t)
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.EscapedPath()+"?"+r.URL.RawQuery)
		if r.URL.Path == "/gw/foglamp/track" {
			_, _ = io.WriteString(w, `{"track":[{"asset":"a","foglamp":"Line 4"}]}`)
		}
	}))
	defer srv.Close()
	oldBase, oldPrefix := baseURL, edgePrefix
	t.Cleanup(func() { baseURL, edgePrefix = oldBase, oldPrefix })
	baseURL, edgePrefix = srv.URL+"/gw", "/foglamp"

	client := &http.Client{Transport: prefixTransport{base: http.DefaultTransport}}
	get := func(u string) []byte {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return b
	}
	get(baseURL + "/edge/audit?limit=1")
	get(baseURL + "/edge/asset/a%2Fb/summary")
	get(baseURL + "/edgeways")
	get(srv.URL + "/edge/ping")
	body := get(baseURL + "/edge/track")
	want := []string{"/gw/foglamp/audit?limit=1", "/gw/foglamp/asset/a%2Fb/summary?", "/gw/edgeways?", "/edge/ping?", "/gw/foglamp/track?"}
	if strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Errorf("the server saw %q, want %q", seen, want)
	}
	var track struct {
		Track []map[string]string `json:"track"`
	}
	if err := json.Unmarshal(body, &track); err != nil || len(track.Track) != 1 || track.Track[0]["edge"] != "Line 4" || track.Track[0]["foglamp"] != "" {
		t.Errorf("track answer %s, want the foglamp field named edge", body)
	}

	t.Run("prefixes", func(t *testing.T) {
		for in, want := range map[string]string{"": "/edge", "foglamp": "/foglamp", "/fledge/": "/fledge", "/api/v1": "/api/v1"} {
			if got, err := normalisePrefix(in); err != nil || got != want {
				t.Errorf("normalisePrefix(%q) = %q, %v; want %q", in, got, err, want)
			}
		}
		for _, bad := range []string{"/", "a?b", "a%2Fb", "a//b"} {
			if _, err := normalisePrefix(bad); err == nil {
				t.Errorf("normalisePrefix(%q) accepted", bad)
			}
		}
	})
}
