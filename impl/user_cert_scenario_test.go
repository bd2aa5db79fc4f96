package impl_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/edged/edged/impl/internal/scenario"
	"github.com/edged/edged/internal/certstore"
)

// issue returns a certificate for common name cn with client-auth usage,
// signed by parent (self-signed when parent is nil), and its key.
func issue(t *testing.T, cn string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, ca bool) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature}
	if ca {
		tmpl.IsCA, tmpl.BasicConstraintsValid, tmpl.KeyUsage = true, true, x509.KeyUsageCertSign
		tmpl.ExtKeyUsage = nil
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

func pemOf(c *x509.Certificate) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw}))
}

// TestCertificateScenarios: certificate login needs the certificate the
// TLS handshake verified, signed by the authority rest_api.authCertificateName
// names, of a user who may log in with one; a certificate in the body alone
// proves nothing.
func TestCertificateScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		ca, caKey := issue(t, "scenario CA", nil, nil, true)
		if err := os.MkdirAll(filepath.Join(e.DataDir, certstore.Dir), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(e.DataDir, certstore.Dir, "ca"+certstore.CertExt), []byte(pemOf(ca)), 0o600); err != nil {
			t.Fatal(err)
		}
		name, pwdOnly := e.Unique("cert"), e.Unique("cert-pwd")
		e.Call(t, "POST", "/edge/admin/user", map[string]any{"username": name, "password": scenario.Password, "role_id": 3}, admin, 200, nil)
		e.Call(t, "POST", "/edge/admin/user", map[string]any{"username": pwdOnly, "password": scenario.Password, "access_method": "pwd"},
			admin, 200, nil)
		good, _ := issue(t, name, ca, caKey, false)
		other, _ := issue(t, name, ca, caKey, false)
		stranger, _ := issue(t, e.Unique("nobody"), ca, caKey, false)
		pwdCert, _ := issue(t, pwdOnly, ca, caKey, false)
		selfSigned, _ := issue(t, name, nil, nil, false)
		over := func(c *x509.Certificate) *tls.ConnectionState {
			return &tls.ConnectionState{HandshakeComplete: true, PeerCertificates: []*x509.Certificate{c}}
		}
		text := map[string]string{"Content-Type": "text/plain"}
		scenario.Run(t, e, []scn{
			{Name: "authenticate", Method: "POST", URL: "/edge/authenticate", TLS: over(good), ExpectedStatus: 200,
				ExpectedContent: []string{`"token":"`, `"admin":false`}},
			{Name: "authenticate repeating the certificate", Method: "POST", URL: "/edge/authenticate", TLS: over(good), Body: pemOf(good),
				Headers: text, ExpectedStatus: 200},
			{Name: "login with the certificate", Method: "POST", URL: "/edge/login", TLS: over(good), Body: pemOf(good), Headers: text,
				ExpectedStatus: 200},
			{Name: "a body certificate other than the connection's", Method: "POST", URL: "/edge/authenticate", TLS: over(good),
				Body: pemOf(other), Headers: text, ExpectedStatus: 401, ExpectedContent: []string{"not the client certificate"}},
			{Name: "a body certificate without TLS", Method: "POST", URL: "/edge/login", Body: pemOf(good), Headers: text, ExpectedStatus: 401,
				ExpectedContent: []string{"proves nothing"}},
			{Name: "a body that is no certificate", Method: "POST", URL: "/edge/authenticate", TLS: over(good), Body: "hello", Headers: text,
				ExpectedStatus: 400},
			{Name: "a certificate of another authority", Method: "POST", URL: "/edge/authenticate", TLS: over(selfSigned), ExpectedStatus: 401},
			{Name: "a certificate of an unknown user", Method: "POST", URL: "/edge/authenticate", TLS: over(stranger), ExpectedStatus: 401},
			{Name: "a user who logs in with a password only", Method: "POST", URL: "/edge/authenticate", TLS: over(pwdCert), ExpectedStatus: 401},
			{Name: "without the authority", Method: "POST", URL: "/edge/authenticate", TLS: over(good), ExpectedStatus: 401,
				ExpectedContent: []string{"authCertificateName"},
				BeforeTestFunc: func(t *testing.T, e *env) {
					if err := os.Remove(filepath.Join(e.DataDir, certstore.Dir, "ca"+certstore.CertExt)); err != nil {
						t.Fatal(err)
					}
				}},
		})
	})
}
