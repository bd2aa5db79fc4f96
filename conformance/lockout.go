package conformance

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// loginRequest is a password login of username.
func loginRequest(username, password string) rawRequest {
	b, _ := json.Marshal(map[string]string{"username": username, "password": password})
	return rawRequest{method: "POST", path: "/edge/login", ctype: "application/json", body: strings.NewReader(string(b)), anonymous: true}
}

// wantRetryAfter checks the Retry-After header of a 429: whole seconds,
// 1 up to max.
func wantRetryAfter(t testing.TB, r rawResponse, maxSecs int) {
	t.Helper()
	secs, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || secs < 1 || secs > maxSecs {
		t.Errorf("Retry-After = %q, want 1..%d seconds", r.header.Get("Retry-After"), maxSecs)
	}
}

// TestLockoutBurst sends 100 wrong guesses and the right password at once
// (decisions §2): the check of a password and the count of a failure are
// one step, so at most 5 guesses are compared before the client is locked
// out, however many arrive together. Were the count taken after the
// comparison, every guess of the burst would be compared.
func testLockoutBurst(t *testing.T) {
	admin := adminToken(t)
	u, pw := newUser(t, admin, 2, "")
	const guesses, right = 100, 50
	reqs := make([]rawRequest, guesses+1)
	answers := make([]rawResponse, guesses+1)
	errs := make([]error, guesses+1)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range reqs {
		password := "wrong-guess-" + strconv.Itoa(i)
		if i == right {
			password = pw
		}
		reqs[i] = loginRequest(u.UserName, password)
		wg.Go(func() {
			<-start
			answers[i], errs[i] = sendRaw(t.Context(), httpClient, reqs[i])
		})
	}
	close(start)
	wg.Wait()

	compared, locked := 0, 0
	for i, a := range answers {
		if errs[i] != nil {
			t.Fatalf("guess %d: %v", i, errs[i])
		}
		checkRaw(t, reqs[i], a)
		switch {
		case i == right:
		case a.status == http.StatusUnauthorized:
			if msg := checkError(t, a.status, a.body, http.StatusUnauthorized); msg != msgNoMatch {
				t.Errorf("guess %d: message %q, want %q", i, msg, msgNoMatch)
			}
			compared++
		case a.status == http.StatusTooManyRequests:
			checkError(t, a.status, a.body, http.StatusTooManyRequests)
			wantRetryAfter(t, a, 60)
			locked++
		default:
			t.Errorf("guess %d: status %d, want 401 or 429; body %s", i, a.status, truncate(a.body))
		}
	}
	switch rightStatus := answers[right].status; rightStatus {
	case http.StatusOK:
		// The right password cleared the count once: the guesses counted
		// before it (at most 4) and after it (at most 5) were compared.
		if compared > 9 {
			t.Errorf("%d of %d wrong guesses were compared (401), %d refused (429); want at most 9 compared", compared, guesses, locked)
		}
	case http.StatusTooManyRequests:
		// Five guesses came first and locked the client out.
		if compared != 5 {
			t.Errorf("%d of %d wrong guesses were compared (401), %d refused (429); want exactly 5 compared", compared, guesses, locked)
		}
		r := doRaw(t, loginRequest(u.UserName, pw))
		checkError(t, r.status, r.body, http.StatusTooManyRequests)
	default:
		t.Errorf("the right password in the burst: status %d, want 200 or 429; body %s", rightStatus, truncate(answers[right].body))
	}
}

// secondLoopbackAddress returns a loopback address other than the one the
// suite reaches the gateway under test from, to send requests from a
// second client address, or "" when the gateway is not on this host's IPv4
// loopback. The address is drawn at random from 127.0.0.0/8, so that a run
// is not hindered by the locks of an earlier one (a lock lasts a minute and
// more).
func secondLoopbackAddress() string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ""
	}
	ip := net.ParseIP(u.Hostname())
	if u.Hostname() == "localhost" {
		ip = net.IPv4(127, 0, 0, 1)
	}
	if ip == nil || ip.To4() == nil || !ip.IsLoopback() {
		return ""
	}
	for {
		b := make([]byte, 3)
		_, _ = rand.Read(b)
		other := net.IPv4(127, b[0], b[1], 2+b[2]%250)
		if !other.Equal(ip) {
			return other.String()
		}
	}
}

// clientFrom returns an HTTP client whose connections come from the local
// address addr.
func clientFrom(addr string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}, Timeout: 10 * time.Second}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// TestLockoutPerClientAddress locks a second client address out of
// accounts (decisions §2: failures count per user and client address) and
// checks that the suite's own address still logs in to them: an anonymous
// client cannot lock an account, admin included, for everyone. It needs a
// second address to send from, so it runs only against a gateway on this
// host's IPv4 loopback (the whole of 127.0.0.0/8 is this host on Linux).
func testLockoutPerClientAddress(t *testing.T) {
	admin := adminToken(t)
	addr := secondLoopbackAddress()
	if addr == "" {
		t.Skip("the gateway under test is not on this host's IPv4 loopback: no second client address to lock out")
	}
	other := clientFrom(addr)
	defer other.CloseIdleConnections()
	probe, err := sendRaw(context.Background(), other, rawRequest{method: "GET", path: "/edge/ping", anonymous: true})
	if err != nil {
		if errors.Is(err, syscall.EADDRNOTAVAIL) {
			t.Skipf("this system cannot send from %s: %v", addr, err)
		}
		t.Fatal(err)
	}
	if probe.status != http.StatusOK && probe.status != http.StatusUnauthorized {
		t.Fatalf("ping from %s: status %d", addr, probe.status)
	}

	u, pw := newUser(t, admin, 2, "")
	accounts := []struct{ name, password string }{{u.UserName, pw}}
	if ownGateway {
		// On its own gateway the suite locks admin out of the second
		// address too, the case that matters most.
		accounts = append(accounts, struct{ name, password string }{"admin", adminPass()})
	}
	for _, acc := range accounts {
		t.Run(acc.name, func(t *testing.T) {
			for i := range 5 {
				r := doRawWith(t, other, loginRequest(acc.name, "wrong-"+strconv.Itoa(i)))
				checkError(t, r.status, r.body, http.StatusUnauthorized)
			}
			r := doRawWith(t, other, loginRequest(acc.name, acc.password))
			checkError(t, r.status, r.body, http.StatusTooManyRequests)
			wantRetryAfter(t, r, 60)
			// The suite's own address is not locked out.
			loginUser(t, acc.name, acc.password)
			r = doRawWith(t, other, loginRequest(acc.name, acc.password))
			checkError(t, r.status, r.body, http.StatusTooManyRequests)
		})
	}
	if !hasAudit(t, edgeclient.LOGFL, "clientAddress", addr) {
		t.Errorf("no LOGFL entry names the client address %s", addr)
	}
}
