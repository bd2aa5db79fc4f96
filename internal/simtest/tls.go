package simtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// ServerTLS is a certificate authority and a server certificate it signed
// for 127.0.0.1 and localhost, written to files a counterpart can load.
type ServerTLS struct {
	// CAPEM is the authority's certificate, PEM: what a client trusts.
	CAPEM string
	// CertFile and KeyFile hold the server's certificate and private key, PEM.
	CertFile, KeyFile string
}

// NewServerTLS makes a fresh authority and server certificate, valid for
// an hour, in the test's temporary directory.
func NewServerTLS(t testing.TB) ServerTLS {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "edged test authority"},
		NotBefore: now.Add(-time.Minute), NotAfter: now.Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Minute), NotAfter: now.Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := ServerTLS{
		CAPEM:    string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})),
		CertFile: filepath.Join(dir, "server.crt"), KeyFile: filepath.Join(dir, "server.key"),
	}
	if err := os.WriteFile(s.CertFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.KeyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// MosquittoPasswordFile writes a mosquitto password file holding user with
// password (hashed by Debian's mosquitto_passwd) and returns its path.
func MosquittoPasswordFile(t testing.TB, user, password string) string {
	t.Helper()
	bin := Program(t, "mosquitto_passwd", "install Debian's mosquitto package (apt-get install mosquitto)", "/usr/bin")
	path := filepath.Join(t.TempDir(), "passwords")
	if out, err := exec.Command(bin, "-c", "-b", path, user, password).CombinedOutput(); err != nil { //nolint:gosec,noctx // the test's own arguments
		t.Fatalf("mosquitto_passwd: %v: %s", err, out)
	}
	return path
}
