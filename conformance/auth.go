package conformance

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// TestMandatoryAuthentication switches the shared gateway to mandatory
// authentication (restored when the test ends) and checks who may do what.
func testMandatoryAuthentication(t *testing.T) {
	admin := adminToken(t)
	viewer, viewerPw := newUser(t, admin, 3, "")
	changeItemAs(t, admin, "rest_api", "authentication", "mandatory")

	t.Run("no token is 401", func(t *testing.T) {
		for _, r := range []rawRequest{
			{method: "GET", path: "/edge/category"},
			{method: "GET", path: "/edge/audit"},
			{method: "GET", path: "/edge/user"},
			{method: "PUT", path: "/edge/category/service/name", ctype: "application/json", body: strings.NewReader(`{"value":"x"}`)},
			{method: "POST", path: "/edge/admin/user", ctype: "application/json", body: strings.NewReader(`{"username":"abc","password":"Secret-Pass-1"}`)},
			{method: "PUT", path: "/edge/shutdown"},
			{method: "PUT", path: "/edge/restart"},
		} {
			r.anonymous = true
			resp := doRaw(t, r)
			checkError(t, resp.status, resp.body, http.StatusUnauthorized)
		}
	})
	t.Run("an invalid token is 401", func(t *testing.T) {
		resp := doRaw(t, rawRequest{method: "GET", path: "/edge/category", headers: map[string]string{"authorization": "Bearer not-a-token"}})
		checkError(t, resp.status, resp.body, http.StatusUnauthorized)
	})
	t.Run("metrics need no token while allowPing", func(t *testing.T) {
		resp, err := apiAnonymous(t).GetMetricsWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "getMetrics", resp.StatusCode(), resp.Body, http.StatusOK)
	})
	t.Run("ping needs no token while allowPing", func(t *testing.T) {
		resp, err := apiAnonymous(t).PingWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "ping", resp.StatusCode(), resp.Body, http.StatusOK)
		if resp.JSON200.AuthenticationOptional {
			t.Error("ping authenticationOptional = true in mandatory mode")
		}
	})
	viewTok := ""
	t.Run("login returns message, uid, token, admin", func(t *testing.T) {
		res := loginUser(t, viewer.UserName, viewerPw)
		if res.Uid != viewer.UserId || res.Admin || res.Token == "" || res.Message == "" {
			t.Errorf("login = %+v", res)
		}
		viewTok = res.Token
	})
	t.Run("view role reads configuration", func(t *testing.T) {
		for _, p := range []string{"/edge/category", "/edge/category/rest_api", "/edge/audit", "/edge/user"} {
			resp := doRaw(t, rawRequest{method: "GET", path: p, headers: map[string]string{"authorization": viewTok}})
			wantStatus(t, "GET "+p+" as view", resp.status, resp.body, http.StatusOK)
		}
	})
	t.Run("view role gets 403 on user management and writes", func(t *testing.T) {
		for _, r := range []rawRequest{
			{method: "POST", path: "/edge/admin/user", ctype: "application/json", body: strings.NewReader(`{"username":"abc","password":"Secret-Pass-1"}`)},
			{method: "GET", path: "/edge/user/role"},
			{method: "PUT", path: "/edge/admin/" + strconv.Itoa(viewer.UserId), ctype: "application/json", body: strings.NewReader(`{"role_id":1}`)},
			{method: "DELETE", path: "/edge/admin/" + strconv.Itoa(viewer.UserId) + "/delete"},
			{method: "PUT", path: "/edge/1/logout"},
			{method: "PUT", path: "/edge/category/service/name", ctype: "application/json", body: strings.NewReader(`{"value":"x"}`)},
			{method: "GET", path: "/edge/asset"},
			{method: "DELETE", path: "/edge/asset"},
			{method: "PUT", path: "/edge/shutdown"},
			{method: "PUT", path: "/edge/restart"},
		} {
			r.headers = map[string]string{"authorization": viewTok}
			resp := doRaw(t, r)
			checkError(t, resp.status, resp.body, http.StatusForbidden)
		}
	})
	t.Run("the password change needs no token", func(t *testing.T) {
		resp := doRaw(t, rawRequest{method: "PUT", path: "/edge/user/" + strconv.Itoa(viewer.UserId) + "/password", ctype: "application/json",
			body: jsonBody(t, map[string]string{"current_password": viewerPw, "new_password": "Changed-Pass-7"}), anonymous: true})
		wantStatus(t, "changePassword without a token", resp.status, resp.body, http.StatusOK)
		loginUser(t, viewer.UserName, "Changed-Pass-7")
	})
	t.Run("admin token works for everything", func(t *testing.T) {
		resp, err := apiAs(t, admin).ListRolesWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "listRoles as admin", resp.StatusCode(), resp.Body, http.StatusOK)
	})
	t.Run("ping needs a token without allowPing", func(t *testing.T) {
		changeItemAs(t, admin, "rest_api", "allowPing", "false")
		resp := doRaw(t, rawRequest{method: "GET", path: "/edge/ping", anonymous: true})
		checkError(t, resp.status, resp.body, http.StatusUnauthorized)
		resp = doRaw(t, rawRequest{method: "GET", path: "/edge/ping", headers: map[string]string{"authorization": admin}})
		wantStatus(t, "ping with a token", resp.status, resp.body, http.StatusOK)
	})
	t.Run("metrics need a token without allowPing", func(t *testing.T) {
		changeItemAs(t, admin, "rest_api", "allowPing", "false")
		resp := doRaw(t, rawRequest{method: "GET", path: "/edge/metrics", anonymous: true})
		checkError(t, resp.status, resp.body, http.StatusUnauthorized)
		resp = doRaw(t, rawRequest{method: "GET", path: "/edge/metrics", headers: map[string]string{"authorization": admin}})
		wantStatus(t, "metrics with a token", resp.status, resp.body, http.StatusOK)
	})
}

// TestOptionalAuthentication checks what anonymous callers may do in the
// default, optional mode.
func testOptionalAuthentication(t *testing.T) {
	if v := getItem(t, "rest_api", "authentication").Value; v != "optional" {
		t.Skipf("the gateway under test has authentication %q", v)
	}
	tests := []struct {
		name   string
		req    rawRequest
		status int
	}{
		{name: "read configuration", req: rawRequest{method: "GET", path: "/edge/category/rest_api"}, status: 200},
		{name: "list users", req: rawRequest{method: "GET", path: "/edge/user"}, status: 401},
		{name: "create a category", req: rawRequest{method: "POST", path: "/edge/category", ctype: "application/json",
			body: strings.NewReader(`{"key":"` + unique("conf-anon") + `","description":"anonymous","items":{}}`)}, status: 200},
		{name: "write rest_api", req: rawRequest{method: "PUT", path: "/edge/category/rest_api/authentication", ctype: "application/json",
			body: strings.NewReader(`{"value":"mandatory"}`)}, status: 401},
		{name: "reset a password item", req: rawRequest{method: "DELETE", path: "/edge/category/password/length/value"}, status: 401},
		{name: "merge into rest_api", req: rawRequest{method: "POST", path: "/edge/category", ctype: "application/json",
			body: strings.NewReader(`{"key":"rest_api","description":"x","items":{}}`)}, status: 401},
		{name: "roles list", req: rawRequest{method: "GET", path: "/edge/user/role"}, status: 401},
		{name: "create a user", req: rawRequest{method: "POST", path: "/edge/admin/user", ctype: "application/json",
			body: strings.NewReader(`{"username":"abc","password":"Secret-Pass-1"}`)}, status: 401},
		{name: "log out", req: rawRequest{method: "PUT", path: "/edge/logout"}, status: 401},
		{name: "change own real name", req: rawRequest{method: "PUT", path: "/edge/user", ctype: "application/json",
			body: strings.NewReader(`{"real_name":"x"}`)}, status: 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.anonymous = true
			resp := doRaw(t, tc.req)
			if tc.status == http.StatusOK {
				wantStatus(t, tc.name, resp.status, resp.body, http.StatusOK)
				return
			}
			checkError(t, resp.status, resp.body, tc.status)
		})
	}
	if v := getItem(t, "rest_api", "authentication").Value; v != "optional" {
		t.Errorf("rest_api.authentication = %q after refused anonymous writes", v)
	}
}

// TestAuthMethod checks that rest_api.authMethod takes effect at once.
func testAuthMethod(t *testing.T) {
	admin := adminToken(t)
	u, pw := newUser(t, admin, 2, "")
	t.Run("certificate refuses passwords", func(t *testing.T) {
		changeItemAs(t, admin, "rest_api", "authMethod", "certificate")
		resp := doRaw(t, rawRequest{method: "POST", path: "/edge/login", ctype: "application/json",
			body: jsonBody(t, map[string]string{"username": u.UserName, "password": pw})})
		msg := checkError(t, resp.status, resp.body, http.StatusUnauthorized)
		if !strings.Contains(msg, "certificate") {
			t.Errorf("message %q does not say that certificates are needed", msg)
		}
		if s := tokenStatus(t, admin); s != http.StatusOK {
			t.Errorf("an existing session: status %d, want 200", s)
		}
	})
	t.Run("password refuses certificates", func(t *testing.T) {
		changeItemAs(t, admin, "rest_api", "authMethod", "password")
		ca := newTestCA(t, "Throwaway CA")
		resp := doRaw(t, rawRequest{method: "POST", path: "/edge/authenticate", ctype: "text/plain",
			body: strings.NewReader(string(ca.issue(t, u.UserName, time.Hour).pem))})
		msg := checkError(t, resp.status, resp.body, http.StatusUnauthorized)
		if !strings.Contains(msg, "password") {
			t.Errorf("message %q does not say that passwords are needed", msg)
		}
	})
	loginUser(t, u.UserName, pw)
}

// ---- certificates ----

type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

type testCert struct {
	pem []byte
	tls tls.Certificate
}

func newTestCA(t *testing.T, name string) testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue makes a client certificate for user cn valid for validFor from an
// hour ago (a negative validFor gives an expired one).
func (ca testCA) issue(t *testing.T, cn string, validFor time.Duration) testCert {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	start := time.Now().Add(-time.Hour)
	if validFor < 0 {
		start = time.Now().Add(2 * validFor)
	}
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: cn},
		NotBefore: start, NotAfter: time.Now().Add(validFor),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return testCert{
		pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		tls: tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
	}
}

// postAt sends body to url+path with client and returns status and body.
func postAt(t *testing.T, client *http.Client, url, path, ctype string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url+path, strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("POST %s: Content-Type %q, want application/json", path, ct)
	}
	return resp.StatusCode, b
}

// wantLogin checks a login answer: 200 with exactly message, uid, token
// and admin, for user uid.
func wantLogin(t *testing.T, what string, status int, body []byte, uid int, admin bool) string {
	t.Helper()
	wantStatus(t, what, status, body, http.StatusOK)
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(got) != 4 || got["message"] == "" || got["uid"] != float64(uid) || got["admin"] != admin {
		t.Errorf("%s = %s, want {message, uid: %d, token, admin: %v}", what, body, uid, admin)
	}
	tok, _ := got["token"].(string)
	if tok == "" {
		t.Errorf("%s: no token", what)
	}
	return tok
}

// TestCertificateLogin runs a gateway of its own with a certificate
// authority in its certificate store (<data>/certs/ca.cert, the default
// rest_api.authCertificateName) and logs in with client certificates. A
// certificate is public, so one sent as a PEM body proves nothing by
// itself: over HTTP it is refused; over HTTPS the TLS client certificate
// logs in (the handshake proves possession of its key), and a PEM body is
// accepted only when it is that same certificate.
func testCertificateLogin(t *testing.T) {
	needOwnGateway(t, "one whose certificate store the test can fill")
	dataDir := filepath.Join(t.TempDir(), "data")
	ca := newTestCA(t, "Conformance CA")
	other := newTestCA(t, "Unknown CA")
	if err := os.MkdirAll(filepath.Join(dataDir, "certs"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, "certs", "ca.cert"), ca.pem, 0o600); err != nil {
		t.Fatal(err)
	}
	gw, err := startGateway(gatewayBinary, dataDir, "")
	if err != nil {
		t.Fatal(err)
	}
	running := gw
	t.Cleanup(func() {
		if running != nil {
			if err := running.stop(); err != nil {
				t.Errorf("stop the gateway: %v", err)
			}
		}
	})

	admin := loginAt(t, gw.url, "admin", adminPassword).Token
	create := func(name string, role int, access edgeclient.UserCreateAccessMethod) int {
		resp, err := apiAsAt(t, gw.url, admin).CreateUserWithResponse(t.Context(), edgeclient.UserCreate{
			Username: name, Password: "Device-Pass-1", RoleId: &role, AccessMethod: &access})
		must(t, err)
		wantStatus(t, "createUser "+name, resp.StatusCode(), resp.Body, http.StatusOK)
		return resp.JSON200.UserId
	}
	device := create("device-01", 4, edgeclient.UserCreateAccessMethodCert)
	create("pwd-only", 2, edgeclient.UserCreateAccessMethodPwd)
	deviceCert := ca.issue(t, "device-01", 24*time.Hour)
	adminCert := ca.issue(t, "ADMIN", time.Hour)
	plain := &http.Client{Timeout: 30 * time.Second}

	t.Run("a PEM body without the TLS handshake is refused", func(t *testing.T) {
		for _, path := range []string{"/edge/login", "/edge/authenticate"} {
			for name, c := range map[string]testCert{"device": deviceCert, "admin": adminCert} {
				status, body := postAt(t, plain, gw.url, path, "text/plain", c.pem)
				if msg := checkError(t, status, body, http.StatusUnauthorized); !strings.Contains(msg, "TLS") {
					t.Errorf("%s with the %s certificate: message %q does not say that the TLS client certificate is needed", path, name, msg)
				}
			}
		}
		status, body := postAt(t, plain, gw.url, "/edge/authenticate", "text/plain", []byte("not PEM"))
		checkError(t, status, body, http.StatusBadRequest)
		status, body = postAt(t, plain, gw.url, "/edge/authenticate", "", nil)
		checkError(t, status, body, http.StatusUnauthorized)
	})
	t.Run("certificate-only user cannot use a password", func(t *testing.T) {
		status, body := postAt(t, plain, gw.url, "/edge/login", "application/json", []byte(`{"username":"device-01","password":"Device-Pass-1"}`))
		if msg := checkError(t, status, body, http.StatusUnauthorized); !strings.Contains(msg, "certificate") {
			t.Errorf("message %q does not mention the certificate", msg)
		}
	})

	// HTTPS: served on httpsPort after a restart, with a self-signed
	// certificate made at start; the TLS client certificate logs in.
	httpsPort, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	for item, value := range map[string]string{"httpsPort": strconv.Itoa(httpsPort), "enableHttp": "false"} {
		r, err := apiAsAt(t, gw.url, admin).SetCategoryItemWithResponse(t.Context(), "rest_api", item, edgeclient.SetCategoryItemJSONRequestBody{Value: value})
		must(t, err)
		wantStatus(t, "set rest_api/"+item, r.StatusCode(), r.Body, http.StatusOK)
	}
	running = nil
	if err := gw.stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	hgw, roots, err := startHTTPSGateway(dataDir, httpsPort)
	if err != nil {
		t.Fatal(err)
	}
	running = hgw
	tlsClient := func(certs ...tls.Certificate) *http.Client {
		return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: certs, MinVersion: tls.VersionTLS12}}}
	}
	t.Run("HTTPS with the TLS client certificate", func(t *testing.T) {
		for _, path := range []string{"/edge/authenticate", "/edge/login"} {
			status, body := postAt(t, tlsClient(deviceCert.tls), hgw.url, path, "", nil)
			wantLogin(t, path+" over TLS", status, body, device, false)
			status, body = postAt(t, tlsClient(deviceCert.tls), hgw.url, path, "text/plain", deviceCert.pem)
			wantLogin(t, path+" over TLS with the same certificate as PEM body", status, body, device, false)
		}
		status, body := postAt(t, tlsClient(adminCert.tls), hgw.url, "/edge/authenticate", "", nil)
		wantLogin(t, "admin certificate over TLS", status, body, 1, true)
		// Passwords work over HTTPS as well.
		status, body = postAt(t, tlsClient(), hgw.url, "/edge/login", "application/json",
			[]byte(`{"username":"admin","password":"`+adminPassword+`"}`))
		wantLogin(t, "password login over HTTPS", status, body, 1, true)
	})
	t.Run("HTTPS with a PEM body other than the TLS client certificate", func(t *testing.T) {
		for _, path := range []string{"/edge/login", "/edge/authenticate"} {
			// The device's key proves nothing about the admin's
			// certificate.
			status, body := postAt(t, tlsClient(deviceCert.tls), hgw.url, path, "text/plain", adminCert.pem)
			checkError(t, status, body, http.StatusUnauthorized)
			status, body = postAt(t, tlsClient(), hgw.url, path, "text/plain", adminCert.pem)
			checkError(t, status, body, http.StatusUnauthorized)
		}
	})
	t.Run("HTTPS with refused certificates", func(t *testing.T) {
		tests := []struct {
			name string
			cert testCert
			msg  string
		}{
			{name: "other authority", cert: other.issue(t, "device-01", time.Hour), msg: "not signed"},
			{name: "expired", cert: ca.issue(t, "device-01", -time.Hour), msg: "not valid"},
			{name: "unknown user", cert: ca.issue(t, "ghost", time.Hour), msg: "ghost"},
			{name: "password-only user", cert: ca.issue(t, "pwd-only", time.Hour), msg: "password"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				status, body := postAt(t, tlsClient(tc.cert.tls), hgw.url, "/edge/authenticate", "", nil)
				if msg := checkError(t, status, body, http.StatusUnauthorized); !strings.Contains(msg, tc.msg) {
					t.Errorf("message %q does not contain %q", msg, tc.msg)
				}
			})
		}
		status, body := postAt(t, tlsClient(), hgw.url, "/edge/authenticate", "", nil)
		checkError(t, status, body, http.StatusUnauthorized)
	})
}

// startHTTPSGateway starts the suite's binary on dataDir, whose
// configuration serves HTTPS on port, and waits until ping answers over
// TLS. It returns the gateway and the pool trusting its (self-signed)
// server certificate, read from the certificate store.
func startHTTPSGateway(dataDir string, port int) (*gateway, *x509.CertPool, error) {
	logPath := filepath.Join(dataDir, "edged-https.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = logFile.Close() }()
	cmd := exec.Command(gatewayBinary, "--data", dataDir, "--log-level", "debug")
	cmd.Env = append(os.Environ(), "EDGE_ADMIN_PASSWORD="+adminPassword)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("start edged: %w", err)
	}
	gw := &gateway{url: "https://127.0.0.1:" + strconv.Itoa(port), cmd: cmd, logPath: logPath, done: make(chan error, 1)}
	go func() { gw.done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-gw.done:
			gw.dumpLog()
			return nil, nil, fmt.Errorf("edged exited before it was ready: %w", err)
		default:
		}
		if pemBytes, err := os.ReadFile(filepath.Join(dataDir, "certs", "edged.cert")); err == nil {
			roots := x509.NewCertPool()
			if roots.AppendCertsFromPEM(pemBytes) {
				c := &http.Client{Timeout: time.Second, Transport: &http.Transport{
					TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}}
				req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, gw.url+"/edge/ping", nil)
				if resp, err := c.Do(req); err == nil {
					_ = resp.Body.Close()
					if resp.StatusCode == http.StatusOK {
						return gw, roots, nil
					}
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	gw.dumpLog()
	return nil, nil, errors.New("edged did not answer ping over HTTPS within 30s")
}
