package conformance

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"
)

// A run of the suite, the same under `go test` and edged-conformance:
// connect to the gateway (its session, version and contract), run the
// tests, then measure the operation coverage, score the levels and write
// the reports.

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

// connect points the suite at the gateway info describes: it sets the base
// URL and product segment, opens the suite's session (see
// openSuiteSession), reads the version and the contract the gateway
// serves. A gateway the suite did not start may serve no contract: the
// coverage is then not measured, and note says why.
func connect(opts options, info *gatewayInfo) (idx *operationIndex, note string, err error) {
	baseURL = info.URL
	if u, err := url.Parse(baseURL); err == nil {
		pathPrefix = strings.TrimRight(u.EscapedPath(), "/")
	}
	if edgePrefix, err = normalisePrefix(opts.pathPrefix); err != nil {
		return nil, "", err
	}
	info.PathPrefix = edgePrefix
	if !ownGateway {
		externalAdminPassword = opts.adminPassword
	}
	if err := openSuiteSession(opts); err != nil {
		return nil, "", err
	}
	info.Version = gatewayVersion()
	idx, err = fetchSpec(baseURL)
	if err != nil {
		msg := fmt.Sprintf("cannot read the contract the gateway serves at %s/openapi.json (%v), so operation coverage is not measured", edgePrefix, err)
		if ownGateway {
			closeSuiteSession()
			return nil, "", fmt.Errorf("%s", msg)
		}
		fmt.Println("conformance: " + msg)
		return nil, msg, nil
	}
	contract = idx
	return idx, "", nil
}

// finishRun completes r after the tests ended with exit code code (0: every
// test passed): it measures the coverage of the recorded calls against idx
// (when known), scores, prints and writes the reports, and returns the
// run's exit code.
func finishRun(opts options, r *report, idx *operationIndex, recorded []call, code int) int {
	if idx != nil {
		cov := coverageOf(idx, recorded)
		cov.print(opts.coverageTable)
		r.Coverage = &cov
		switch {
		case len(cov.Missing) == 0:
		case r.Filter != "":
			r.CoverageNote = "coverage is not enforced: " + r.Filter + " selects a part of the suite"
			fmt.Println("conformance: " + r.CoverageNote)
		default:
			code = 1
		}
	}
	if code == 0 {
		r.Result = resultPass
	}
	r.finish()
	printScores(*r)
	if !writeReports(opts, *r) {
		return 1
	}
	return code
}

// setupFailed reports a run that could not start its tests.
func setupFailed(opts options, r report, err error) int {
	fmt.Fprintln(os.Stderr, "conformance:", err)
	r.Error = err.Error()
	r.finish()
	writeReports(opts, r)
	return 2
}

// newReport starts the report of a run against the gateway info names.
func newReport(info gatewayInfo, filter string) report {
	return report{Gateway: info, Started: time.Now().UTC(), Result: resultFail, Filter: filter}
}
