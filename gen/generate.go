// Package gen holds the server code generated from openapi.yaml: the models,
// the chi routes, the strict server interface that impl/ implements, and the
// embedded spec the request validator uses. Everything but this file and
// server.cfg.yaml is generated: run `make generate`, never edit by hand.
package gen

//go:generate go tool oapi-codegen -config server.cfg.yaml ../openapi.yaml
