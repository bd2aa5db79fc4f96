// Command edged-conformance runs the conformance suite of the edged API
// against a running gateway and writes JUnit XML and JSON reports, with
// the seed level (what the API specification states) and the strict level
// (edged's decisions where it is silent) scored apart:
//
//	go install github.com/edged/edged/cmd/edged-conformance@latest
//	edged-conformance -url http://gateway:8081 -admin-password "$PW" \
//	    -report-junit conformance.xml -report-json conformance.json
//
// -path-prefix tests a gateway whose product segment is not /edge;
// -level seed runs the seed tests only; -list lists the tests and their
// levels; -h lists every flag. See the package conformance.
package main

import (
	"os"

	"github.com/edged/edged/conformance"
)

func main() {
	os.Exit(conformance.Main(os.Args[1:]))
}
