package httpsouth

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/plugin"
)

// BenchmarkHTTPSouthIngest measures readings/s posted to http_south in
// batches of 100 by 4 concurrent senders and committed to storage (every
// request answered 200 only after its commit), with the ingest buffer,
// statistics and asset tracking of a real service and the default
// settings (group commit, bufferThreshold 1000). One op is one
// batch. Compare with BenchmarkInsertReadings in db/ (docs/benchmarks.md).
func BenchmarkHTTPSouthIngest(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchIngest(b, dbtest.SQLite(b), ingest.DefaultLimits) })
	b.Run("postgres", func(b *testing.B) { benchIngest(b, dbtest.Postgres(b), ingest.DefaultLimits) })
}

const (
	benchSenders = 4
	benchBatch   = 100
	benchAssets  = 10
)

func benchIngest(b *testing.B, d *db.DB, limits ingest.Limits) {
	clk := clock.Real{}
	counters := ingest.NewCounters(d, nil)
	tracker := ingest.NewTracker(d, func(context.Context) (string, error) { return "bench", nil }, clk)
	buf := ingest.New(ingest.Options{Service: "bench", Plugin: Name, Store: d, Counters: counters, Tracker: tracker,
		Clock: clk, Limits: limits})
	port := freePort(b)
	p, err := Definition().New(plugin.Env{Service: "bench", Clock: clk}, config(port, "sensor-reading", ""))
	if err != nil {
		b.Fatal(err)
	}
	h := p.(*HTTPSouth)
	if err := h.Open(b.Context()); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- h.Run(ctx, buf) }()
	ctx2, stopFlush := context.WithCancel(context.Background())
	flushed := make(chan struct{})
	go func() { // statistics are flushed as in a gateway, once a second
		defer close(flushed)
		counters.Run(ctx2, clk, time.Second)
	}()
	b.Cleanup(func() {
		cancel()
		if err := <-ran; err != nil {
			b.Error(err)
		}
		_ = buf.Close(context.Background())
		stopFlush()
		<-flushed
	})

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchSenders * 2}}
	url := fmt.Sprintf("http://127.0.0.1:%d/sensor-reading", port)
	var next atomic.Int64 // batches handed out
	t0 := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	b.ResetTimer()
	var wg sync.WaitGroup
	for range benchSenders {
		wg.Go(func() {
			var body []byte
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				body = benchBody(body[:0], i, t0)
				req, _ := http.NewRequestWithContext(b.Context(), http.MethodPost, url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
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
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "readings/s")
}

// benchBody appends batch i: 100 readings of one of ten assets, shaped like
// a sinusoid's, with sensor times increasing per asset.
func benchBody(buf []byte, i int64, t0 time.Time) []byte {
	return appendBatch(buf, i, t0, benchBatch)
}

// appendBatch appends batch i of n readings, as benchBody.
func appendBatch(buf []byte, i int64, t0 time.Time, n int) []byte {
	asset := "bench-" + strconv.FormatInt(i%benchAssets, 10)
	base := t0.Add(time.Duration(i/benchAssets*int64(n)) * time.Millisecond)
	buf = append(buf, '[')
	for k := range n {
		if k > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"timestamp":"`...)
		buf = base.Add(time.Duration(k)*time.Millisecond).AppendFormat(buf, "2006-01-02 15:04:05.000000")
		buf = append(buf, `","asset":"`...)
		buf = append(buf, asset...)
		buf = append(buf, `","readings":{"sinusoid":`...)
		buf = strconv.AppendFloat(buf, float64(k%360)/360, 'f', 4, 64)
		buf = append(buf, `,"seq":`...)
		buf = strconv.AppendInt(buf, i*int64(n)+int64(k), 10)
		buf = append(buf, "}}"...)
	}
	return append(buf, ']')
}
