package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSenderPost checks that a sender sends what http.Client would, keeps
// one connection for many requests, opens a new one when the server
// closes it, and returns the status and text of every answer.
func TestSenderPost(t *testing.T) {
	var mu sync.Mutex
	conns := map[string]int{} // requests per client address
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		conns[r.RemoteAddr]++
		mu.Unlock()
		switch {
		case r.Method != http.MethodPost || r.URL.Path != "/sensor-reading" || r.Header.Get("Content-Type") != "application/json":
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusBadRequest)
		case string(body) == "close":
			w.Header().Set("Connection", "close")
			_, _ = io.WriteString(w, "closing")
		case string(body) == "refuse":
			http.Error(w, "refused", http.StatusConflict)
		default:
			_, _ = io.WriteString(w, "got "+string(body))
		}
	}))
	defer srv.Close()
	s, err := newSender(srv.URL + "/sensor-reading")
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	for _, tc := range []struct {
		name, body, text string
		status           int
	}{
		{"first", "[1]", "got [1]", http.StatusOK},
		{"same connection", "[2]", "got [2]", http.StatusOK},
		{"refused", "refuse", "refused\n", http.StatusConflict},
		{"server closes", "close", "closing", http.StatusOK},
		{"new connection", "[3]", "got [3]", http.StatusOK},
	} {
		status, text, err := s.post(t.Context(), []byte(tc.body))
		if err != nil || status != tc.status || text != tc.text {
			t.Errorf("%s: post = %d %q %v; want %d %q", tc.name, status, text, err, tc.status, tc.text)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	var counts []int
	for _, n := range conns {
		counts = append(counts, n)
	}
	if len(counts) != 2 || counts[0]+counts[1] != 5 || (counts[0] != 4 && counts[1] != 4) {
		t.Errorf("requests per connection = %v; want 4 on the first, 1 on the second", conns)
	}
}

// TestSenderContextEnds checks that the end of the context ends a request
// whose answer does not come.
func TestSenderContextEnds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	accepted := make(chan struct{})
	go func() { // accepts, reads the request and never answers
		c, err := ln.Accept()
		if err == nil {
			_, _ = c.Read(make([]byte, 1)) // the request is on its way
		}
		close(accepted)
		if err == nil {
			_, _ = io.Copy(io.Discard, c)
		}
	}()
	s, err := newSender("http://" + ln.Addr().String() + "/sensor-reading")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, _, err := s.post(ctx, []byte("[]"))
		done <- err
	}()
	<-accepted
	cancel()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "closed") {
			t.Errorf("post after the context ended = %v; want a closed connection", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("post did not end with its context")
	}
}
