package certstore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestServerCertificate(t *testing.T) {
	dir := t.TempDir()
	s := New(dir)
	cert, created, err := s.ServerCertificate("edged")
	if err != nil {
		t.Fatal(err)
	}
	if !created {
		t.Error("created = false on an empty store")
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := leaf.PublicKey.(*ecdsa.PublicKey); !ok {
		t.Errorf("key type %T, want ECDSA", leaf.PublicKey)
	}
	if err := leaf.VerifyHostname("localhost"); err != nil {
		t.Errorf("not valid for localhost: %v", err)
	}
	if err := leaf.VerifyHostname("127.0.0.1"); err != nil {
		t.Errorf("not valid for 127.0.0.1: %v", err)
	}
	for name, want := range map[string]os.FileMode{"": 0o700, "edged.key": 0o600, "edged.cert": 0o600} {
		st, err := os.Stat(filepath.Join(dir, "certs", name))
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != want {
			t.Errorf("certs/%s: mode %v, want %v", name, got, want)
		}
	}
	again, created, err := s.ServerCertificate("edged")
	if err != nil {
		t.Fatal(err)
	}
	if created || string(again.Certificate[0]) != string(cert.Certificate[0]) {
		t.Error("a second call replaced the certificate")
	}
}

// TestSecure checks that files an operator copied into the store, or an
// older version wrote, with modes readable by others are made private.
func TestSecure(t *testing.T) {
	dir := t.TempDir()
	s := New(dir)
	if err := s.Secure(); err != nil {
		t.Fatalf("Secure on a store not created yet: %v", err)
	}
	write(t, s.CertPath("ca"), "x")
	if err := os.Chmod(s.CertPath("ca"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.Path(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Secure(); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{s.Path(): 0o700, s.CertPath("ca"): 0o600} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", path, got, want)
		}
	}
}

func TestServerCertificateRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, s *Store)
		cert  string
		msg   string
	}{
		{name: "key without certificate", cert: "half", msg: "load",
			setup: func(t *testing.T, s *Store) { write(t, s.KeyPath("half"), "x") }},
		{name: "garbage files are not overwritten", cert: "junk", msg: "load",
			setup: func(t *testing.T, s *Store) {
				write(t, s.KeyPath("junk"), "x")
				write(t, s.CertPath("junk"), "y")
			}},
		{name: "name outside the store", cert: "../etc/passwd", msg: "not a valid certificate name"},
		{name: "empty name", cert: "", msg: "not a valid certificate name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(t.TempDir())
			if tc.setup != nil {
				tc.setup(t, s)
			}
			_, _, err := s.ServerCertificate(tc.cert)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want one containing %q", err, tc.msg)
			}
		})
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func selfSigned(t *testing.T, cn string) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func TestCertificatesAndPool(t *testing.T) {
	s := New(t.TempDir())
	a, b := selfSigned(t, "A"), selfSigned(t, "B")
	write(t, s.CertPath("bundle"), "comment\n"+string(a)+"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"+string(b))
	write(t, s.CertPath("empty"), "nothing here")
	write(t, s.CertPath("broken"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")

	certs, err := s.Certificates("bundle")
	if err != nil {
		t.Fatal(err)
	}
	if len(certs) != 2 || certs[0].Subject.CommonName != "A" || certs[1].Subject.CommonName != "B" {
		t.Errorf("Certificates = %d certs", len(certs))
	}
	pool, err := s.Pool("bundle")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := certs[1].Verify(x509.VerifyOptions{Roots: pool}); err != nil {
		t.Errorf("pool does not hold B: %v", err)
	}
	tests := []struct {
		name     string
		notFound bool
	}{
		{name: "missing", notFound: true},
		{name: "empty"},
		{name: "broken"},
		{name: "../bundle"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Pool(tc.name)
			if err == nil || errors.Is(err, ErrNotFound) != tc.notFound {
				t.Fatalf("err = %v, want an error (ErrNotFound %v)", err, tc.notFound)
			}
		})
	}
}
