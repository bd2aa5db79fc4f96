package portal_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// gateway is an edged process started for a test.
type gateway struct {
	URL string
}

// startGateway builds cmd/edged, runs it on a temporary data directory and a
// free port, waits until it answers ping, and stops it with SIGTERM when the
// test ends.
func startGateway(t *testing.T) *gateway {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "edged")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/edged")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build edged: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()

	logPath := filepath.Join(dir, "edged.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = logFile.Close() }()
	cmd := exec.Command(bin, "--data", filepath.Join(dir, "data"), "--port", strconv.Itoa(port))
	cmd.Env = append(os.Environ(), "EDGE_ADMIN_PASSWORD=Portal-Test-Passw0rd")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("start edged: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Logf("edged exited: %v", err)
			}
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Logf("edged did not stop within 20s of SIGTERM: %v", <-done)
		}
		if t.Failed() {
			if b, err := os.ReadFile(logPath); err == nil {
				t.Logf("edged log:\n%s", b)
			}
		}
	})
	gw := &gateway{URL: "http://127.0.0.1:" + strconv.Itoa(port)}
	if err := gw.waitReady(done, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	return gw
}

// waitReady polls ping until the gateway answers, it exits, or limit passes:
// a separate process offers no other readiness signal.
func (g *gateway) waitReady(done <-chan error, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			return errors.Join(errors.New("edged exited before answering ping"), err)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, g.URL+"/edge/ping", nil)
		resp, err := http.DefaultClient.Do(req)
		cancel()
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("edged did not answer ping within " + limit.String())
}

// TestGatewayServesPortal checks the portal's wiring into a running gateway:
// the routes answer through the gateway's middleware, outside the validated
// API.
func TestGatewayServesPortal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a gateway")
	}
	gw := startGateway(t)
	tests := []struct {
		name        string
		method      string
		path        string
		wantStatus  int
		wantType    string
		wantHeaders map[string]string
	}{
		{name: "docs", method: http.MethodGet, path: "/edge/docs", wantStatus: http.StatusOK, wantType: "text/html; charset=utf-8"},
		{name: "yaml", method: http.MethodGet, path: "/edge/openapi.yaml", wantStatus: http.StatusOK, wantType: "application/yaml"},
		{name: "json", method: http.MethodGet, path: "/edge/openapi.json", wantStatus: http.StatusOK, wantType: "application/json"},
		{name: "head", method: http.MethodHead, path: "/edge/docs", wantStatus: http.StatusOK, wantType: "text/html; charset=utf-8"},
		{name: "trailing slash", method: http.MethodGet, path: "/edge/docs/", wantStatus: http.StatusMovedPermanently,
			wantHeaders: map[string]string{"Location": "/edge/docs"}},
		{name: "wrong method", method: http.MethodPost, path: "/edge/openapi.json", wantStatus: http.StatusMethodNotAllowed, wantType: "application/json",
			wantHeaders: map[string]string{"Allow": "GET"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tt.method, gw.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if tt.wantType != "" && resp.Header.Get("Content-Type") != tt.wantType {
				t.Errorf("Content-Type %q, want %q", resp.Header.Get("Content-Type"), tt.wantType)
			}
			for k, v := range tt.wantHeaders {
				if got := resp.Header.Values(k); len(got) == 0 || got[0] != v {
					t.Errorf("%s %q, want %q first", k, got, v)
				}
			}
			if resp.Header.Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id: the route bypasses the gateway's middleware")
			}
		})
	}
}
