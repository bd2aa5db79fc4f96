// Package edgeclient is the Go SDK of the edged gateway: a client for every
// operation of its REST API, generated from the contract (openapi.yaml), and
// a thin convenience layer over it. It depends on no server code.
//
// New returns a Client: every generated XxxWithResponse method, a session
// token sent with every request once Login (or WithToken) set it, a
// 30-second timeout per request (WithTimeout), retries of idempotent requests
// answered 429 or 503 (WithRetries), and every answer outside 2xx returned as
// an *APIError, which matches ErrNotFound, ErrUnauthorized and the other
// sentinels with errors.Is. AuditEntries and Tasks iterate over paged lists;
// the gateway's timestamps decode into Time.
//
// The generated lower-level clients stay reachable: Client.Raw, and
// NewClientWithResponses and NewRawClient, which send exactly what they are
// given and return every answer as it came (Check turns their non-2xx
// answers into *APIError).
package edgeclient
