// Package certstore is the gateway's certificate store: a directory
// "certs" in the data directory holding PEM files named after the
// certificate,
//
//	<data dir>/certs/<name>.cert   one or more PEM "CERTIFICATE" blocks
//	<data dir>/certs/<name>.key    the PEM private key of <name>.cert
//
// The directory is private to the gateway's user (mode 0700, files 0600),
// as the whole data directory is.
//
// rest_api.certificateName names the HTTPS server certificate (a
// self-signed one is created at first use if missing) and
// rest_api.authCertificateName the certificate authority that signs the
// client certificates users log in with (only its .cert file is needed).
package certstore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/edged/edged/internal/durable"
	"github.com/edged/edged/internal/fileperm"
)

// Dir is the name of the store's directory inside the data directory.
const Dir = "certs"

// File name extensions of a certificate and its key.
const (
	CertExt = ".cert"
	KeyExt  = ".key"
)

// selfSignedValidity is how long a generated server certificate is valid.
const selfSignedValidity = 10 * 365 * 24 * time.Hour

// ErrNotFound means the store holds no certificate of that name.
var ErrNotFound = errors.New("certificate not found")

// validName matches the certificate names the store accepts: a plain file
// name, so a configured name can never reach outside the store.
var validName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$`)

// Store is a certificate store rooted at a directory. Its methods read the
// files on every call, so replacing a file takes effect at once. Safe for
// concurrent use.
type Store struct {
	dir string
	now func() time.Time
}

// New returns the store of dataDir (its "certs" subdirectory, created when
// a certificate is first written).
func New(dataDir string) *Store {
	return &Store{dir: filepath.Join(dataDir, Dir), now: time.Now}
}

// Secure makes the store's directory and the files in it readable by the
// owner only (files an operator copied in with a wider mode included). A
// store not created yet is no error.
func (s *Store) Secure() error {
	if err := fileperm.TightenDir(s.dir); err != nil {
		return fmt.Errorf("certstore: %s: %w", s.dir, err)
	}
	return nil
}

// Path returns the directory of the store.
func (s *Store) Path() string { return s.dir }

// CertPath returns the file of certificate name.
func (s *Store) CertPath(name string) string { return filepath.Join(s.dir, name+CertExt) }

// KeyPath returns the file of the private key of certificate name.
func (s *Store) KeyPath(name string) string { return filepath.Join(s.dir, name+KeyExt) }

func checkName(name string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("certstore: %q is not a valid certificate name (letters, digits, '.', '_', '-')", name)
	}
	return nil
}

// Certificates returns the certificates in name's .cert file, in file
// order. A missing file gives an error wrapping ErrNotFound; a file with no
// certificate or a malformed one gives another error.
func (s *Store) Certificates(name string) ([]*x509.Certificate, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(s.CertPath(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("certstore: %s: %w", s.CertPath(name), ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("certstore: %w", err)
	}
	certs, err := ParsePEM(b)
	if err != nil {
		return nil, fmt.Errorf("certstore: %s: %w", s.CertPath(name), err)
	}
	return certs, nil
}

// Pool returns the certificates of name as a pool of trusted roots, for
// verifying client certificates. Errors are those of Certificates.
func (s *Store) Pool(name string) (*x509.CertPool, error) {
	certs, err := s.Certificates(name)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	for _, c := range certs {
		pool.AddCert(c)
	}
	return pool, nil
}

// ParsePEM returns the certificates of the PEM "CERTIFICATE" blocks in b;
// other blocks are skipped. It is an error when there is none or one does
// not parse.
func ParsePEM(b []byte) ([]*x509.Certificate, error) {
	var certs []*x509.Certificate
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("malformed certificate: %w", err)
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, errors.New("no PEM certificate found")
	}
	return certs, nil
}

// ServerCertificate loads the key pair name for a TLS server. When neither
// file exists it first creates a self-signed ECDSA P-256 certificate for
// "localhost", the host name and the loopback addresses, valid for ten
// years, and reports created. A pair of which only one file exists, or that
// does not load, is an error: the store never overwrites an operator's
// files.
func (s *Store) ServerCertificate(name string) (cert tls.Certificate, created bool, err error) {
	if err := checkName(name); err != nil {
		return tls.Certificate{}, false, err
	}
	certPath, keyPath := s.CertPath(name), s.KeyPath(name)
	_, errCert := os.Stat(certPath)
	_, errKey := os.Stat(keyPath)
	if errors.Is(errCert, os.ErrNotExist) && errors.Is(errKey, os.ErrNotExist) {
		if err := s.createSelfSigned(name); err != nil {
			return tls.Certificate{}, false, err
		}
		created = true
	}
	cert, err = tls.LoadX509KeyPair(certPath, keyPath)
	if err != nil {
		return tls.Certificate{}, false, fmt.Errorf("certstore: load %s and %s: %w", certPath, keyPath, err)
	}
	return cert, created, nil
}

// createSelfSigned writes a new self-signed certificate and key as name.
func (s *Store) createSelfSigned(name string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("certstore: generate key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return fmt.Errorf("certstore: serial number: %w", err)
	}
	hosts := []string{"localhost"}
	if h, err := os.Hostname(); err == nil && h != "" && h != "localhost" {
		hosts = append(hosts, h)
	}
	now := s.now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: hosts[len(hosts)-1], Organization: []string{"edged self-signed"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(selfSignedValidity),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		DNSNames:              hosts,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return fmt.Errorf("certstore: create certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return fmt.Errorf("certstore: encode key: %w", err)
	}
	if err := fileperm.PrivateDir(s.dir); err != nil {
		return fmt.Errorf("certstore: %s: %w", s.dir, err)
	}
	root, err := os.OpenRoot(s.dir)
	if err != nil {
		return fmt.Errorf("certstore: %w", err)
	}
	defer func() { _ = root.Close() }()
	// The key first, so a crash in between leaves no certificate without
	// its key (which would be refused at the next start).
	if err := writeNew(root, name+KeyExt, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})); err != nil {
		return err
	}
	if err := writeNew(root, name+CertExt, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})); err != nil {
		return err
	}
	// Both names survive a power cut only once the directory is synced.
	return durable.SyncDir(s.dir)
}

// writeNew creates the file path inside root with data, readable by the
// owner only; it fails if the file exists.
func writeNew(root *os.Root, path string, data []byte) error {
	f, err := root.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileperm.File)
	if err != nil {
		return fmt.Errorf("certstore: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return fmt.Errorf("certstore: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return fmt.Errorf("certstore: sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("certstore: write %s: %w", path, err)
	}
	return nil
}
