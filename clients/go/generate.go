// Package edgeclient is the Go SDK of the edged gateway: a client for every
// operation of its REST API, generated from openapi.yaml. It depends on no
// server code.
//
// Start with New, which returns a Client holding the session token (WithToken,
// Login) and every generated XxxWithResponse method; pass a call's result
// through Check to get a non-2xx answer as an *APIError, which matches
// ErrNotFound, ErrUnauthorized and the other sentinels with errors.Is.
// RawClient and NewClientWithResponses are the generated lower-level clients.
package edgeclient

//go:generate go tool oapi-codegen -config client.cfg.yaml ../../openapi.yaml
