package app

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"strconv"

	"github.com/edged/edged/internal/certstore"
	"github.com/edged/edged/internal/configmgr"
)

// transport is how the API is served, decided at start from rest_api.
type transport struct {
	HTTPS bool
	Port  int
	// Certificate names the server certificate in the certificate store
	// (HTTPS only).
	Certificate string
}

// configValues reads items of category rest_api.
type configValues interface {
	Value(ctx context.Context, key, item string) (string, error)
}

// chooseTransport reads rest_api.enableHttp, httpPort, httpsPort and
// certificateName: HTTP on httpPort (or port, when not 0) when enableHttp
// is true, else HTTPS on httpsPort with the certificate certificateName.
// Changes take effect at the next start.
func chooseTransport(ctx context.Context, config configValues, port int) (transport, error) {
	item := func(name string) (string, error) {
		v, err := config.Value(ctx, configmgr.CategoryRESTAPI, name)
		if err != nil {
			return "", fmt.Errorf("read rest_api.%s: %w", name, err)
		}
		return v, nil
	}
	portOf := func(name string) (int, error) {
		v, err := item(name)
		if err != nil {
			return 0, err
		}
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 65535 {
			return 0, fmt.Errorf("rest_api.%s %q is not a port", name, v)
		}
		return p, nil
	}
	v, err := item(configmgr.ItemEnableHTTP)
	if err != nil {
		return transport{}, err
	}
	enableHTTP, err := strconv.ParseBool(v)
	if err != nil {
		return transport{}, fmt.Errorf("rest_api.%s %q is not a boolean", configmgr.ItemEnableHTTP, v)
	}
	if enableHTTP {
		if port != 0 {
			return transport{Port: port}, nil
		}
		p, err := portOf(configmgr.ItemHTTPPort)
		return transport{Port: p}, err
	}
	p, err := portOf(configmgr.ItemHTTPSPort)
	if err != nil {
		return transport{}, err
	}
	name, err := item(configmgr.ItemCertificateName)
	if err != nil {
		return transport{}, err
	}
	return transport{HTTPS: true, Port: p, Certificate: name}, nil
}

// listen opens the listener of t: plain TCP for HTTP, TLS over it for
// HTTPS, with the server certificate from certs (created self-signed when
// missing). TLS client certificates are requested but not required; the
// handshake proves that the client holds the certificate's key, which is
// what lets a certificate log in, and certificate logins verify the chain
// against the configured authority, which may change while the gateway
// runs.
func listen(ctx context.Context, t transport, certs *certstore.Store, log *slog.Logger) (net.Listener, error) {
	var cfg *tls.Config
	if t.HTTPS {
		cert, created, err := certs.ServerCertificate(t.Certificate)
		if err != nil {
			return nil, fmt.Errorf("HTTPS certificate %q (rest_api.certificateName): %w", t.Certificate, err)
		}
		if created {
			log.Warn("created a self-signed HTTPS certificate; replace it with one your clients trust",
				"certificate", certs.CertPath(t.Certificate), "key", certs.KeyPath(t.Certificate))
		}
		cfg = &tls.Config{
			MinVersion:   tls.VersionTLS12,
			Certificates: []tls.Certificate{cert},
			ClientAuth:   tls.RequestClientCert,
		}
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", ":"+strconv.Itoa(t.Port))
	if err != nil {
		return nil, fmt.Errorf("listen on port %d: %w", t.Port, err)
	}
	if cfg != nil {
		ln = tls.NewListener(ln, cfg)
	}
	return ln, nil
}
