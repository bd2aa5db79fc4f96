package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/edged/edged/internal/app"
)

// BenchmarkPing measures GET /edge/ping of a whole gateway (SQLite) against
// a bare net/http handler answering a ping-sized JSON body, both over
// loopback HTTP with keep-alive from 32 concurrent clients, as the
// performance targets compare them (docs/benchmarks.md). Compare the
// ns/op of the two sub-benchmarks: their ratio is the gateway's share of
// the bare handler's rate.
func BenchmarkPing(b *testing.B) {
	b.Run("bare", func(b *testing.B) {
		body := []byte(`{"uptime":1,"dataRead":0,"dataSent":0,"dataPurged":0,"authenticationOptional":true,` +
			`"serviceName":"Edge Gateway","hostName":"edge","ipAddresses":["10.0.0.1"],"health":"green","safeMode":false,"version":"x"}`)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}))
		defer srv.Close()
		hammer(b, srv.URL+"/edge/ping")
	})
	b.Run("gateway", func(b *testing.B) {
		port := freePortB(b)
		ctx, stop := context.WithCancel(context.Background())
		ended := make(chan error, 1)
		go func() {
			ended <- app.Run(ctx, app.Config{DataDir: b.TempDir(), Port: port, Version: "bench",
				AdminPassword: "Bench-Admin-1", Logger: slog.New(slog.DiscardHandler)})
		}()
		defer func() {
			stop()
			if err := <-ended; err != nil {
				b.Errorf("the gateway stopped with %v", err)
			}
		}()
		url := "http://127.0.0.1:" + strconv.Itoa(port) + "/edge/ping"
		deadline := time.Now().Add(30 * time.Second)
		for {
			resp, err := http.Get(url) //nolint:noctx // waiting for the gateway to answer
			if err == nil {
				_ = resp.Body.Close()
				break
			}
			if time.Now().After(deadline) {
				b.Fatal("the gateway did not answer")
			}
			time.Sleep(50 * time.Millisecond)
		}
		hammer(b, url)
	})
}

// hammer sends b.N GETs to url from 32 concurrent clients.
func hammer(b *testing.B, url string) {
	b.Helper()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Get(url) //nolint:noctx // a benchmark's request
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
}

func freePortB(b *testing.B) int {
	b.Helper()
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port
}
