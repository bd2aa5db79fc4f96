// Package conformance is the black-box test suite of the edged API. It
// drives a gateway only through the Go SDK (clients/go) and plain HTTP, so
// it can check any gateway that claims to implement the contract. It runs
// two ways:
//
//	edged-conformance -url http://gateway:8081 -admin-password … -report-junit r.xml -report-json r.json
//	go test ./conformance -args -url=http://gateway:8081 -admin-password=… -report=r.json -report-junit=r.xml
//
// The command (cmd/edged-conformance, `go install
// github.com/edged/edged/cmd/edged-conformance@latest`) is the suite as a
// product: it needs a URL, and its reports carry every test's duration and
// output. Under go test, without a URL the suite builds cmd/edged and
// starts it on a temporary data directory and a free port, with the
// embedded SQLite store, or with the PostgreSQL database named by
// EDGE_CONFORMANCE_DB. Tests use unique names, so a gateway under test may
// hold other data; tests that would destroy it (restart, shutdown, purging
// every asset, killing the process) run only on a gateway the suite
// started, and skip otherwise. So do the tests of the protocol plugins,
// which start their counterparts on this machine: the pymodbus and asyncua
// simulators (tools/sim, `make sim-tools`) and Debian's mosquitto with its
// command-line clients. So do the package tests, which build this tree's
// plugins into a signed repository (`make packages`), serve it on the
// loopback interface and run its Python plugin on the plugin SDK's Python
// (`make plugin-tools`; the suite's gateway gets it as
// EDGED_PLUGIN_PYTHON). A counterpart that is not installed skips its test,
// unless EDGE_REQUIRE_SIMULATORS is set (make test sets it), which makes it
// a failure.
//
// Flags of both, and their environment variables:
//
//	-url URL              EDGE_URL                  the gateway under test (go test: empty starts one)
//	-admin-password PW    EDGE_ADMIN_PASSWORD       password of the "admin" user of an external gateway;
//	                                                without it the tests that need an admin skip
//	-token TOKEN          EDGE_TOKEN                a session token sent with every request that has none
//	                                                of its own
//	-path-prefix SEGMENT  EDGE_PATH_PREFIX          the gateway's product segment in place of /edge
//	-report-junit FILE    EDGE_CONFORMANCE_JUNIT    write a JUnit XML report
//	-report FILE          EDGE_CONFORMANCE_REPORT   (go test) write a JSON report
//	-report-json FILE     EDGE_CONFORMANCE_REPORT   (edged-conformance) write a JSON report
//
// edged-conformance also takes -run and -skip (as go test does), -level
// seed|strict|all, -timeout, -v and -list.
//
// A gateway whose rest_api.authentication is mandatory is tested with
// -token, or with -admin-password: the suite then logs in as admin once
// and sends that session with every request that carries no token of its
// own, except the requests that check what anonymous callers get. The
// admin password is tried once at start, so a wrong one stops the run
// before it can lock the suite's address out of the account.
//
// TestLockoutPerClientAddress sends from a second loopback address (one
// drawn from 127.0.0.0/8) to show that a lockout is per client address; it runs only
// against a gateway on this host's IPv4 loopback. TestCertificateLogin
// needs HTTPS with client certificates and a certificate authority in the
// gateway's store, so it runs only on a gateway the suite starts.
//
// # Server errors and unbuilt operations
//
// The same transport fails the test that got any 5xx but a 501. A 501 is
// accepted from another implementation, whose tests that need the missing
// operation then skip; from the gateway the suite started it is accepted
// only for what that gateway does not build yet, listed in unbuilt
// (unbuilt.go), and fails the test otherwise, so an operation
// regressing to "not implemented" cannot pass.
//
// # Levels
//
// Every test is labelled seed (what the API specification states) or strict
// (edged's decisions where the specification is silent: status codes, error
// bodies, defaults, limits, headers, the operations edged adds), so that
// another implementation can be measured fairly. The list is suite in
// suite.go; a seed test marks the subtests that check a decision with
// strictCase, or keeps such an assertion in a strictCheck. The checks every
// answer of a strict test must pass (no 5xx but 501, a JSON body with
// {"message"} for errors, X-Request-Id) are not made in seed tests. The
// levels are scored apart over their scored cases: tests without subtests,
// and tests that failed though none of their subtests did (so a strict
// subtest's failure never counts against its seed parent). A level's score
// is passed / (passed + failed).
//
// With -path-prefix, requests to /edge/… go to SEGMENT/… and the field of
// asset tracking events named after the segment (the specification's
// `edge`) is read as `edge`.
//
// # Operation coverage
//
// Every request of the suite goes through one checking transport, which
// records its method, path and status. After the run the suite maps them
// to the operations of the contract the gateway serves at
// GET /edge/openapi.json (path templates; a percent-encoded segment such
// as a%2Fb is one segment), prints
//
//	conformance: N/M operations exercised
//
// and fails the run (non-zero exit) naming every operation that was never
// called. Coverage is not enforced when -run, -skip or -level selects a
// part of the suite, and not measured for an external gateway that serves
// no contract.
//
// # Reports
//
// The JSON report holds the gateway (url, version, startedBySuite,
// storage, pathPrefix); started, finished, result ("pass" or "fail", as
// the exit code), filter, error (why no test ran); the seed and strict
// scores; counts and tests: every test and subtest with its level, result,
// whether it is scored, and, from edged-conformance, its duration and
// output; the coverage per operation and the requests outside the
// contract sent on purpose. The JUnit report has a test suite per level
// with its scored cases (a failure's message is the first line the test
// logged) and the score as a property, and a test suite "coverage" with a
// case per operation.
//
// Writing tests: write func testX(t *testing.T) in a .go file of this
// package, add {"TestX", Seed or Strict, testX} to suite and
// func TestX(t *testing.T) { runSuiteTest(t) } to suite_test.go (checked
// by TestSuiteWrappers); call the helpers with the test's t (api, apiAs,
// doRaw, checkError, …), which record the outcome and the calls.
//
// edged-conformance runs the tests in a child process (the same program,
// with EDGED_CONFORMANCE_CHILD set) through the testing package with
// -test.v=test2json, reads that test stream for every test's result,
// duration and output, and receives the requests made and the subtests
// marked strict through a file of events.
package conformance
