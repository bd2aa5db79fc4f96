package app

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/certstore"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// restAPI is a fake rest_api category.
type restAPI map[string]string

func (c restAPI) Value(_ context.Context, key, item string) (string, error) {
	v, ok := c[item]
	if key != configmgr.CategoryRESTAPI || !ok {
		return "", fault.New(fault.NotFound, "no %s/%s", key, item)
	}
	return v, nil
}

func TestChooseTransport(t *testing.T) {
	base := func(over map[string]string) restAPI {
		c := restAPI{"enableHttp": "true", "httpPort": "8081", "httpsPort": "1995", "certificateName": "edged"}
		for k, v := range over {
			c[k] = v
		}
		return c
	}
	tests := []struct {
		name    string
		config  restAPI
		port    int
		want    transport
		wantErr string
	}{
		{name: "http", config: base(nil), want: transport{Port: 8081}},
		{name: "flag overrides the http port", config: base(nil), port: 9000, want: transport{Port: 9000}},
		{name: "https", config: base(map[string]string{"enableHttp": "false"}), want: transport{HTTPS: true, Port: 1995, Certificate: "edged"}},
		{name: "flag does not override the https port", config: base(map[string]string{"enableHttp": "false", "certificateName": "site"}), port: 9000,
			want: transport{HTTPS: true, Port: 1995, Certificate: "site"}},
		{name: "bad port", config: base(map[string]string{"httpPort": "http"}), wantErr: "not a port"},
		{name: "bad boolean", config: base(map[string]string{"enableHttp": "maybe"}), wantErr: "not a boolean"},
		{name: "missing item", config: restAPI{"enableHttp": "false"}, wantErr: "httpsPort"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := chooseTransport(t.Context(), tc.config, tc.port)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("chooseTransport = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// TestListenHTTPS serves over the HTTPS listener and checks that the
// self-signed certificate is made and that client certificates are
// requested but not required.
func TestListenHTTPS(t *testing.T) {
	dir := t.TempDir()
	certs := certstore.New(dir)
	ln, err := listen(t.Context(), transport{HTTPS: true, Port: 0, Certificate: "edged"}, certs, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, strconv.Itoa(len(r.TLS.PeerCertificates)))
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	serverCerts, err := certs.Pool("edged")
	if err != nil {
		t.Fatalf("the self-signed certificate is not in the store: %v", err)
	}
	url := "https://localhost:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	tests := []struct {
		name       string
		clientCert bool
		want       string
	}{
		{name: "without client certificate", want: "0"},
		{name: "with client certificate", clientCert: true, want: "1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &tls.Config{RootCAs: serverCerts, MinVersion: tls.VersionTLS12}
			if tc.clientCert {
				cfg.Certificates = []tls.Certificate{clientCertificate(t)}
			}
			c := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			b, _ := io.ReadAll(resp.Body)
			if string(b) != tc.want {
				t.Errorf("peer certificates seen = %s, want %s", b, tc.want)
			}
		})
	}
}

// clientCertificate returns a self-signed client certificate; the TLS
// layer does not verify it (certificate logins do).
func clientCertificate(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "device"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
