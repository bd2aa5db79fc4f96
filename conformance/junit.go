package conformance

import (
	"encoding/xml"
	"fmt"
	"os"
	"strings"
)

// The JUnit XML report: one test suite per level (seed, strict) holding
// that level's scored cases, so that CI tools show the two scores apart,
// and a test suite "coverage" with one case per operation of the contract
// when coverage was measured.

type junitTestSuites struct {
	XMLName  xml.Name         `xml:"testsuites"`
	Name     string           `xml:"name,attr"`
	Tests    int              `xml:"tests,attr"`
	Failures int              `xml:"failures,attr"`
	Errors   int              `xml:"errors,attr"`
	Skipped  int              `xml:"skipped,attr"`
	Time     string           `xml:"time,attr"`
	Suites   []junitTestSuite `xml:"testsuite"`
}

type junitTestSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitTestCase `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitTestCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// junitReport builds the JUnit document of r.
func junitReport(r report) junitTestSuites {
	doc := junitTestSuites{Name: "edged-conformance", Time: seconds(r.Finished.Sub(r.Started).Seconds())}
	for _, l := range []Level{Seed, Strict} {
		suite := junitTestSuite{Name: string(l), Timestamp: r.Started.Format("2006-01-02T15:04:05Z")}
		var total float64
		for _, t := range r.Tests {
			if !t.Scored || t.Level != l {
				continue
			}
			tc := junitTestCase{Name: t.Name, Classname: "conformance." + string(l)}
			if t.Seconds != nil {
				tc.Time = seconds(*t.Seconds)
				total += *t.Seconds
			}
			switch t.ScoredAs {
			case resultFail:
				tc.Failure = &junitMessage{Message: firstLine(t.Output, "failed"), Type: "failure", Text: t.Output}
				suite.Failures++
			case resultSkip:
				tc.Skipped = &junitMessage{Message: firstLine(t.Output, "skipped")}
				suite.Skipped++
			default:
				tc.SystemOut = t.Output
			}
			suite.Tests++
			suite.Cases = append(suite.Cases, tc)
		}
		suite.Time = seconds(total)
		score := "none"
		if s := r.Scores[l]; s != nil && s.Score != nil {
			score = fmt.Sprintf("%.4f", *s.Score)
		}
		suite.Properties = append(suite.Properties,
			junitProperty{Name: "score", Value: score},
			junitProperty{Name: "gateway.url", Value: r.Gateway.URL},
			junitProperty{Name: "gateway.version", Value: r.Gateway.Version},
			junitProperty{Name: "gateway.pathPrefix", Value: r.Gateway.PathPrefix})
		if r.Filter != "" {
			suite.Properties = append(suite.Properties, junitProperty{Name: "filter", Value: r.Filter})
		}
		doc.Suites = append(doc.Suites, suite)
	}
	if r.Error != "" {
		doc.Suites = append(doc.Suites, junitTestSuite{Name: "setup", Tests: 1, Errors: 1, Time: "0",
			Cases: []junitTestCase{{Name: "connect to the gateway", Classname: "conformance.setup", Time: "0",
				Error: &junitMessage{Message: firstLine(r.Error, "error"), Type: "error", Text: r.Error}}}})
	}
	if r.Coverage != nil {
		cov := junitTestSuite{Name: "coverage", Time: "0", Properties: []junitProperty{
			{Name: "exercised", Value: fmt.Sprint(r.Coverage.Exercised)}, {Name: "total", Value: fmt.Sprint(r.Coverage.Total)}}}
		for _, op := range r.Coverage.Operations {
			tc := junitTestCase{Name: op.ID, Classname: "conformance.coverage", Time: "0",
				SystemOut: fmt.Sprintf("%s %s: %d calls, statuses %v", op.Method, op.Template, op.Calls, op.Statuses)}
			if op.Calls == 0 {
				msg := fmt.Sprintf("%s %s was never called", op.Method, op.Template)
				if r.CoverageNote != "" {
					tc.Skipped = &junitMessage{Message: msg + "; " + r.CoverageNote}
					cov.Skipped++
				} else {
					tc.Failure = &junitMessage{Message: msg, Type: "coverage"}
					cov.Failures++
				}
			}
			cov.Tests++
			cov.Cases = append(cov.Cases, tc)
		}
		doc.Suites = append(doc.Suites, cov)
	}
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
	}
	return doc
}

// writeJUnitReport writes r as JUnit XML to path.
func writeJUnitReport(path string, r report) error {
	b, err := xml.MarshalIndent(junitReport(r), "", "  ")
	if err != nil {
		return err
	}
	b = append([]byte(xml.Header), append(b, '\n')...)
	if err := os.WriteFile(path, b, 0o644); err != nil { //nolint:gosec // a report for people and CI to read
		return fmt.Errorf("write the JUnit report: %w", err)
	}
	return nil
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// firstLine returns the first non-empty line of s, trimmed, or def.
func firstLine(s, def string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return def
}
