// Command apicompat is the contract's breaking-change check: it compares the
// contract (openapi.yaml) with the last released one (api/released/openapi.yaml)
// with oasdiff's backward-compatibility checks and fails on a break the
// version does not announce. A break is allowed only when the contract's
// info.version has a higher major version than the released one's (semantic
// versioning: a change that breaks a client bumps the major version).
//
//	go run . -released ../../api/released/openapi.yaml -contract ../../openapi.yaml
//
// It exits 1 on an unannounced break, 2 when a contract cannot be read.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	released := flag.String("released", "api/released/openapi.yaml", "the last released contract")
	contract := flag.String("contract", "openapi.yaml", "the contract to check")
	flag.Parse()
	os.Exit(run(os.Stdout, *released, *contract))
}

func run(w io.Writer, releasedPath, contractPath string) int {
	released, err := os.ReadFile(releasedPath) //nolint:gosec // the contract named on the command line
	if err != nil {
		_, _ = fmt.Fprintln(w, err)
		return 2
	}
	contract, err := os.ReadFile(contractPath) //nolint:gosec // the contract named on the command line
	if err != nil {
		_, _ = fmt.Fprintln(w, err)
		return 2
	}
	r, err := Compare(released, contract)
	if err != nil {
		_, _ = fmt.Fprintln(w, err)
		return 2
	}
	_, _ = io.WriteString(w, r.Report(releasedPath, contractPath))
	if !r.OK() {
		return 1
	}
	return 0
}
