package edgeclient_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

func TestTime(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		want    time.Time
		wantErr bool
	}{
		{name: "milliseconds", json: `"2024-05-01 10:15:42.123"`, want: time.Date(2024, 5, 1, 10, 15, 42, 123e6, time.UTC)},
		{name: "microseconds", json: `"2024-05-01 10:15:42.123456"`, want: time.Date(2024, 5, 1, 10, 15, 42, 123456e3, time.UTC)},
		{name: "no fraction", json: `"2024-05-01 10:15:42"`, want: time.Date(2024, 5, 1, 10, 15, 42, 0, time.UTC)},
		{name: "RFC 3339 with offset", json: `"2024-05-01T12:15:42.5+02:00"`, want: time.Date(2024, 5, 1, 10, 15, 42, 5e8, time.UTC)},
		{name: "not a time", json: `"yesterday"`, wantErr: true},
		{name: "not a string", json: `1714558542`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e edgeclient.AuditEntry
			err := json.Unmarshal([]byte(`{"timestamp":`+tt.json+`,"source":"LOGGN","severity":"INFORMATION","details":{}}`), &e)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("decoded %v, want an error", e.Timestamp)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !e.Timestamp.Equal(tt.want) || e.Timestamp.Location() != time.UTC {
				t.Errorf("got %v, want %v", e.Timestamp.Time, tt.want)
			}
		})
	}
	b, err := json.Marshal(edgeclient.Time{Time: time.Date(2024, 5, 1, 12, 15, 42, 123456e3, time.FixedZone("CEST", 7200))})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `"2024-05-01 10:15:42.123456"` {
		t.Errorf("marshalled %s", b)
	}
}

// auditPages serves total audit entries numbered total-1 (newest) down to
// 0, in pages by limit and skip, and counts the requests.
func auditPages(t *testing.T, total int, failAtSkip int) (*edgeclient.Client, *int) {
	t.Helper()
	requests := 0
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		skip, _ := strconv.Atoi(r.URL.Query().Get("skip"))
		w.Header().Set("Content-Type", "application/json")
		if skip == failAtSkip {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprintf(w, `{"message":"bad skip %d"}`, skip)
			return
		}
		entries := []map[string]any{}
		for i := total - 1 - skip; i >= 0 && len(entries) < limit; i-- {
			entries = append(entries, map[string]any{"timestamp": "2024-05-01 10:15:42.123", "source": "LOGGN", "severity": "INFORMATION", "details": map[string]any{"n": i}})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"totalCount": total, "audit": entries})
	})
	return newClient(t, h), &requests
}

func TestAuditEntries(t *testing.T) {
	tests := []struct {
		name         string
		total        int
		params       edgeclient.ListAuditEntriesParams
		stopAfter    int // break the loop after this many entries; 0: never
		failAtSkip   int
		wantN        int
		wantRequests int
		wantErr      bool
	}{
		{name: "three full pages", total: 30, params: edgeclient.ListAuditEntriesParams{Limit: edgeclient.Ptr(10)}, wantN: 30, wantRequests: 3},
		{name: "last page short", total: 25, params: edgeclient.ListAuditEntriesParams{Limit: edgeclient.Ptr(10)}, wantN: 25, wantRequests: 3},
		{name: "default page size", total: 150, wantN: 150, wantRequests: 2},
		{name: "from skip", total: 25, params: edgeclient.ListAuditEntriesParams{Limit: edgeclient.Ptr(10), Skip: edgeclient.Ptr(20)}, wantN: 5, wantRequests: 1},
		{name: "empty", total: 0, wantN: 0, wantRequests: 1},
		{name: "loop ends early", total: 30, params: edgeclient.ListAuditEntriesParams{Limit: edgeclient.Ptr(10)}, stopAfter: 12, wantN: 12, wantRequests: 2},
		{name: "error on the second page", total: 30, params: edgeclient.ListAuditEntriesParams{Limit: edgeclient.Ptr(10)}, failAtSkip: 10, wantN: 10, wantRequests: 2, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fail := -1
			if tt.failAtSkip > 0 {
				fail = tt.failAtSkip
			}
			c, requests := auditPages(t, tt.total, fail)
			n, next := 0, tt.total-1-deref(tt.params.Skip)
			var gotErr error
			for e, err := range c.AuditEntries(context.Background(), tt.params) {
				if err != nil {
					gotErr = err
					break
				}
				if got := int(e.Details["n"].(float64)); got != next {
					t.Fatalf("entry %d is number %d, want %d", n, got, next)
				}
				next--
				n++
				if n == tt.stopAfter {
					break
				}
			}
			if n != tt.wantN || *requests != tt.wantRequests {
				t.Errorf("%d entries in %d requests, want %d in %d", n, *requests, tt.wantN, tt.wantRequests)
			}
			if tt.wantErr != (gotErr != nil) || (gotErr != nil && !errors.Is(gotErr, edgeclient.ErrBadRequest)) {
				t.Errorf("err = %v, want error: %v", gotErr, tt.wantErr)
			}
		})
	}
}

func TestTasksStopAtAShortPage(t *testing.T) {
	var skips []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		skips = append(skips, r.URL.Query().Get("skip"))
		skip, _ := strconv.Atoi(r.URL.Query().Get("skip"))
		tasks := []map[string]any{}
		for i := skip; i < 7 && len(tasks) < 3; i++ {
			tasks = append(tasks, map[string]any{"id": "6f7a2a61-8d0b-4c63-9d9e-5bd7a7f2e0c1", "name": "purge", "processName": "purge",
				"state": "Complete", "startTime": "2024-05-01 10:15:42.123", "endTime": "2024-05-01 10:15:43.123", "reason": "", "pid": i})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"tasks": tasks})
	})
	c := newClient(t, h)
	var pids []int
	for task, err := range c.Tasks(context.Background(), edgeclient.ListTasksParams{Limit: edgeclient.Ptr(3)}) {
		if err != nil {
			t.Fatal(err)
		}
		if task.EndTime == nil || task.EndTime.Sub(task.StartTime.Time) != time.Second {
			t.Errorf("task %d: start %v end %v", task.Pid, task.StartTime, task.EndTime)
		}
		pids = append(pids, task.Pid)
	}
	if fmt.Sprint(pids) != "[0 1 2 3 4 5 6]" || fmt.Sprint(skips) != "[0 3 6]" {
		t.Errorf("pids %v from skips %v", pids, skips)
	}
}

// selfSigned returns a certificate for name, usable for both TLS ends.
func selfSigned(t *testing.T, name string) (tls.Certificate, *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost"}, IsCA: true, BasicConstraintsValid: true,
		IPAddresses: nil,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, leaf
}

func TestLoginWithCertificate(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/edge/authenticate" && len(r.TLS.PeerCertificates) > 0:
			_, _ = fmt.Fprintf(w, `{"message":"Logged in successfully","uid":7,"token":"cert-%s","admin":false}`, r.TLS.PeerCertificates[0].Subject.CommonName)
		case r.URL.Path == "/edge/authenticate":
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"No credentials"}`))
		default:
			_, _ = fmt.Fprintf(w, `{"uptime":1,"health":"green","version":"1","hostName":%q}`, r.Header.Get("authorization"))
		}
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequestClientCert, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	clientCert, _ := selfSigned(t, "alice")

	c, err := edgeclient.New(srv.URL, edgeclient.WithTLSConfig(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{clientCert}, MinVersion: tls.VersionTLS12}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.LoginWithCertificate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Token != "cert-alice" || c.Token() != "cert-alice" || res.Uid != 7 {
		t.Fatalf("result %+v, token %q", res, c.Token())
	}
	ping, err := c.PingWithResponse(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ping.JSON200.HostName != "cert-alice" {
		t.Errorf("the next request sent authorization %q", ping.JSON200.HostName)
	}

	anon, err := edgeclient.New(srv.URL, edgeclient.WithTLSConfig(&tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := anon.LoginWithCertificate(context.Background()); !errors.Is(err, edgeclient.ErrUnauthorized) {
		t.Fatalf("without a certificate: err = %v, want ErrUnauthorized", err)
	}
}

func deref[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}
