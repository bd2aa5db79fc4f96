package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Result is what one load run measured: operations (readings stored, or
// requests answered) completed inside the measured window, its length,
// and the latencies of the requests that ended in it.
type Result struct {
	Ops     int64   `json:"ops"`
	Seconds float64 `json:"seconds"`
	Rate    float64 `json:"rate"`
	// Requests ended in the window, and their latency: median, 99th
	// percentile and maximum, in milliseconds.
	Requests int64   `json:"requests"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	MaxMs    float64 `json:"max_ms"`
	// CPUSeconds is the CPU time of the measured process in the window,
	// when it was measured.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
}

// recorder keeps when each request ended, how long it took and how many
// operations it completed, so that any window can be summarised later.
type recorder struct {
	mu      sync.Mutex
	samples []sample
}

type sample struct {
	ended   time.Time
	latency time.Duration
	ops     int64
}

func (r *recorder) add(began, ended time.Time, ops int64) {
	r.mu.Lock()
	r.samples = append(r.samples, sample{ended: ended, latency: ended.Sub(began), ops: ops})
	r.mu.Unlock()
}

// between summarises the requests that ended in [from, to).
func (r *recorder) between(from, to time.Time) Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	secs := to.Sub(from).Seconds()
	res := Result{Seconds: secs}
	var lat []time.Duration
	for _, s := range r.samples {
		if !s.ended.Before(from) && s.ended.Before(to) {
			res.Ops += s.ops
			lat = append(lat, s.latency)
		}
	}
	res.Rate, res.Requests = float64(res.Ops)/secs, int64(len(lat))
	if len(lat) > 0 {
		slices.Sort(lat)
		at := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / float64(time.Millisecond) }
		res.P50ms, res.P99ms, res.MaxMs = at(0.5), at(0.99), at(1)
	}
	return res
}

// load is a running load: stop ends it and returns the first error a
// request met (a refusal included).
type load struct {
	rec     *recorder
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	failure atomic.Value
}

func (l *load) fail(err error) {
	l.failure.CompareAndSwap(nil, err)
	l.cancel()
}

func (l *load) stop() error {
	l.cancel()
	l.wg.Wait()
	err, _ := l.failure.Load().(error)
	return err
}

// measure lets l run for warmup, then summarises the next duration, and
// stops it.
func (l *load) measure(ctx context.Context, warmup, duration time.Duration) (Result, error) {
	sleep(ctx, warmup)
	from := time.Now()
	sleep(ctx, duration)
	to := time.Now()
	err := l.stop()
	if err == nil {
		err = ctx.Err()
	}
	return l.rec.between(from, to), err
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// newClient returns an HTTP client keeping conns connections open to one
// host.
func newClient(conns int) *http.Client {
	return &http.Client{Transport: &http.Transport{
		MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns,
		DisableCompression: true, DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
	}, Timeout: time.Minute}
}

// ingestLoad posts batches to an http_south URL from concurrent senders,
// each waiting for the answer before the next (as a sender that must know
// its readings are stored does).
type ingestLoad struct {
	URL     string
	Senders int
	Batch   int
	Assets  int // distinct assets; batch i goes to asset i mod Assets
	// PerReading spreads every batch over Assets instead: reading k of
	// batch i goes to asset (i·Batch+k) mod Assets, so a batch of 100
	// names 100 assets.
	PerReading bool
	Prefix     string        // asset name prefix
	Step       time.Duration // sensor time between readings (default 1 ms)
	// First is the number of the first batch, so that consecutive runs
	// against one gateway write new sensor times; Last, when set, is the
	// batch number the senders stop at.
	First, Last int64
}

// start sends from every sender until the load is stopped; every batch
// answered 200 counts its readings, any other answer is an error.
func (l ingestLoad) start(ctx context.Context) *load {
	ctx, cancel := context.WithCancel(ctx)
	ld := &load{rec: &recorder{}, cancel: cancel}
	var next atomic.Int64
	next.Store(l.First)
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for range l.Senders {
		ld.wg.Go(func() {
			s, err := newSender(l.URL)
			if err != nil {
				ld.fail(err)
				return
			}
			defer s.close()
			var body []byte
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if l.Last > 0 && i >= l.Last {
					return
				}
				if l.PerReading {
					body = spreadBody(body[:0], l.Prefix, i, l.Batch, l.Assets, t0, l.Step)
				} else {
					body = batchBody(body[:0], l.Prefix, i, l.Batch, l.Assets, t0, l.Step)
				}
				began := time.Now()
				status, msg, err := s.post(ctx, body)
				ended := time.Now()
				if ctx.Err() != nil {
					return
				}
				if err != nil || status != http.StatusOK {
					ld.fail(failed("POST "+l.URL, status, msg, err))
					return
				}
				ld.rec.add(began, ended, int64(l.Batch))
			}
		})
	}
	return ld
}

// batchBody appends batch i: n readings of one asset shaped like a
// sinusoid's, {"sinusoid": …, "seq": …}, with sensor times step apart (1 ms
// when 0) that go on from batch to batch.
func batchBody(buf []byte, prefix string, i int64, n, assets int, t0 time.Time, step time.Duration) []byte {
	if step <= 0 {
		step = time.Millisecond
	}
	asset := prefix + strconv.FormatInt(i%int64(max(assets, 1)), 10)
	base := t0.Add(time.Duration(i*int64(n)) * step)
	buf = append(buf, '[')
	for k := range n {
		if k > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"timestamp":"`...)
		buf = base.Add(time.Duration(k)*step).AppendFormat(buf, "2006-01-02 15:04:05.000000")
		buf = append(buf, `","asset":"`...)
		buf = append(buf, asset...)
		buf = append(buf, `","readings":{"sinusoid":`...)
		buf = strconv.AppendFloat(buf, float64((i*int64(n)+int64(k))%360)/360, 'f', 4, 64)
		buf = append(buf, `,"seq":`...)
		buf = strconv.AppendInt(buf, i*int64(n)+int64(k), 10)
		buf = append(buf, "}}"...)
	}
	return append(buf, ']')
}

// spreadBody is batchBody with every reading of its own asset: reading k
// of batch i goes to asset (i·n+k) mod assets.
func spreadBody(buf []byte, prefix string, i int64, n, assets int, t0 time.Time, step time.Duration) []byte {
	buf = batchBody(buf, prefix, i, n, 1, t0, step)
	// batchBody named every reading prefix+"0": rename each in turn.
	one := []byte(`"asset":"` + prefix + `0"`)
	var out []byte
	k := int64(0)
	for {
		j := bytes.Index(buf, one)
		if j < 0 {
			break
		}
		out = append(out, buf[:j]...)
		out = append(out, `"asset":"`...)
		out = append(out, prefix...)
		out = strconv.AppendInt(out, (i*int64(n)+k)%int64(max(assets, 1)), 10)
		out = append(out, '"')
		buf = buf[j+len(one):]
		k++
	}
	return append(out, buf...)
}

// post sends body and returns the status and the answer's text.
func post(ctx context.Context, c *http.Client, url string, body []byte) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// getLoad sends GET url from conns concurrent clients, each waiting for
// its answer, until the load is stopped; every 200 counts one op.
func getLoad(ctx context.Context, url string, conns int) *load {
	client := newClient(conns)
	ctx, cancel := context.WithCancel(ctx)
	ld := &load{rec: &recorder{}, cancel: cancel}
	for range conns {
		ld.wg.Go(func() {
			for ctx.Err() == nil {
				began := time.Now()
				status, err := get(ctx, client, url)
				ended := time.Now()
				if ctx.Err() != nil {
					return
				}
				if err != nil || status != http.StatusOK {
					ld.fail(failed("GET "+url, status, "", err))
					return
				}
				ld.rec.add(began, ended, 1)
			}
		})
	}
	go func() {
		ld.wg.Wait()
		client.CloseIdleConnections()
	}()
	return ld
}

// get sends one GET and discards the body.
func get(ctx context.Context, c *http.Client, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, err
}

// runIngestCmd is `edged-load ingest`.
func runIngestCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	url := fs.String("url", "", "http_south URL, e.g. http://127.0.0.1:6683/sensor-reading")
	senders := fs.Int("senders", 4, "concurrent senders")
	batch := fs.Int("batch", 100, "readings per request")
	assets := fs.Int("assets", 10, "distinct assets")
	prefix := fs.String("prefix", "load-", "asset name prefix")
	duration := fs.Duration("duration", 10*time.Second, "measured time")
	warmup := fs.Duration("warmup", time.Second, "time before the measured window")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" {
		return errors.New("ingest: -url is required")
	}
	res, err := ingestLoad{URL: *url, Senders: *senders, Batch: *batch, Assets: *assets, Prefix: *prefix}.start(ctx).measure(ctx, *warmup, *duration)
	if err != nil {
		return err
	}
	return printJSON(res)
}

// failed describes a request that failed: with err when it got no answer,
// else with the status and the answer's text.
func failed(what string, status int, msg string, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return fmt.Errorf("%s: status %d %s", what, status, msg)
}
