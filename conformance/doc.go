// Package conformance is the black-box test suite of the edged API. It
// drives a gateway only through the Go SDK (clients/go) and plain HTTP, so
// it can check any gateway that claims to implement the contract:
//
//	go test ./conformance -args -url=http://gateway:8081
//	EDGE_URL=http://gateway:8081 go test ./conformance
//
// Without a URL it builds cmd/edged and starts it on a temporary data
// directory and a free port, with the embedded SQLite store, or with the
// PostgreSQL database named by EDGE_CONFORMANCE_DB. Tests use unique names,
// so a gateway under test may hold other data.
package conformance
