// Package edgeclient is the Go SDK of the edged gateway: a client for every
// operation of its REST API, generated from openapi.yaml. It depends on no
// server code.
package edgeclient

//go:generate go tool oapi-codegen -config client.cfg.yaml ../../openapi.yaml
