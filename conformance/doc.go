// Package conformance is the black-box test suite of the edged API. It
// drives a gateway only through the Go SDK (clients/go) and plain HTTP, so
// it can check any gateway that claims to implement the contract:
//
//	go test ./conformance -args -url=http://gateway:8081 -admin-password=… -report=/tmp/report.json
//	EDGE_URL=http://gateway:8081 EDGE_ADMIN_PASSWORD=… go test ./conformance
//
// Without a URL it builds cmd/edged and starts it on a temporary data
// directory and a free port, with the embedded SQLite store, or with the
// PostgreSQL database named by EDGE_CONFORMANCE_DB. Tests use unique names,
// so a gateway under test may hold other data; tests that would destroy
// it (restart, shutdown, purging every asset, killing the process) run
// only on a gateway the suite started, and skip otherwise. So do the
// tests of the protocol plugins, which start their counterparts on this
// machine: the pymodbus simulator (tools/sim, `make sim-tools`) and
// Debian's mosquitto with its command-line clients. A counterpart that is
// not installed skips its test, unless EDGE_REQUIRE_SIMULATORS is set (make
// test sets it), which makes it a failure.
//
// Flags (after -args) and their environment variables:
//
//	-url URL              EDGE_URL                  the gateway under test (empty: start one)
//	-admin-password PW    EDGE_ADMIN_PASSWORD       password of the "admin" user of an external gateway;
//	                                                without it the tests that need an admin skip
//	-token TOKEN          EDGE_TOKEN                a session token sent with every request that has none
//	                                                of its own
//	-report FILE          EDGE_CONFORMANCE_REPORT   write a JSON report of the run
//
// A gateway whose rest_api.authentication is mandatory is tested with
// -token, or with -admin-password: the suite then logs in as admin once
// and sends that session with every request that carries no token of its
// own, except the requests that check what anonymous callers get. The
// admin password is tried once at start, so a wrong one stops the run
// before it can lock the account.
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
// with each operation's number of calls and distinct statuses, and fails
// the run (non-zero exit) naming every operation that was never called.
// Coverage is not enforced when -run or -skip selects a part of the suite.
//
// # Report
//
// -report FILE (a path relative to the package directory, where go test
// runs, or an absolute one) writes JSON with:
//
//   - gateway: url, version (from ping), startedBySuite, storage;
//   - started, finished, result ("pass" or "fail", as the exit code),
//     filter (the -run/-skip selection, if any), error (why no test ran,
//     when the gateway could not be reached, logged in to or read);
//   - counts and tests: every test and subtest with "pass", "fail" or
//     "skip", kept by the suite itself (a cleanup records t.Failed() and
//     t.Skipped() when the test ends; no -json needed); "unknown" marks a
//     top-level test that ended without calling any of the suite's
//     helpers, so its outcome was not seen;
//   - coverage: exercised, total, per operation (operationId, method,
//     path) its calls and statuses, the operations never called, and the
//     requests outside the contract sent on purpose (unknown paths, wrong
//     methods).
//
// Writing tests: call the helpers with the test's t (api, apiAs, doRaw,
// checkError, …), which also record the outcome; a test that may skip
// before any request calls needOwnGateway or track first.
package conformance
