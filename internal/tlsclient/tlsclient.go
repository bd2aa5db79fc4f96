// Package tlsclient makes the TLS configuration of the gateway's outgoing
// connections (brokers, mail servers): TLS 1.2 at least, trusting either
// the system's roots or the authority certificates an item names.
package tlsclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// ErrNoCertificate means CA material held no PEM certificate.
var ErrNoCertificate = errors.New("holds no PEM certificate")

// Config returns the configuration of a client of serverName ("" for
// none: the caller's library sets it from the address) that trusts the
// certificates of caPEM, or the system's roots when caPEM is empty. It
// fails with ErrNoCertificate when caPEM is set but holds no certificate.
func Config(serverName string, caPEM []byte) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: serverName}
	if len(caPEM) == 0 {
		return cfg, nil
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, ErrNoCertificate
	}
	cfg.RootCAs = pool
	return cfg, nil
}

// ConfigFile is Config with the certificates read from caFile ("" for
// the system's roots), at the time of the call, so that a file put in
// place later is found on the next connection.
func ConfigFile(serverName, caFile string) (*tls.Config, error) {
	if caFile == "" {
		return Config(serverName, nil)
	}
	pem, err := os.ReadFile(caFile) //nolint:gosec // the CA file an admin configured for the connection
	if err != nil {
		return nil, fmt.Errorf("CA file: %w", err)
	}
	cfg, err := Config(serverName, pem)
	if err != nil {
		return nil, fmt.Errorf("CA file %s %w", caFile, err)
	}
	return cfg, nil
}
