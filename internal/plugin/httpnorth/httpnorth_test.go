package httpnorth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
)

// posted is one request the test server received.
type posted struct {
	elements []element
	status   int // what it answered
}

// destination is an httptest server whose answers the test scripts: each
// request takes the next status from answers (200 once they run out).
type destination struct {
	t        *testing.T
	srv      *httptest.Server
	requests chan posted

	mu         sync.Mutex
	answers    []int
	retryAfter string
	hang       bool // hold each request until its client gives up
	// refuse, when set, answers 400 to every request holding an element
	// it refuses (before answers are consulted).
	refuse func(element) bool
}

func newDestination(t *testing.T, answers ...int) *destination {
	t.Helper()
	d := &destination{t: t, requests: make(chan posted, 100), answers: answers}
	d.srv = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *destination) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var els []element
	if err := json.Unmarshal(raw, &els); err != nil {
		d.t.Errorf("body %s is not an array of elements: %v", raw, err)
	}
	d.mu.Lock()
	status := http.StatusOK
	if d.refuse != nil && slices.ContainsFunc(els, d.refuse) {
		status = http.StatusBadRequest
	} else if len(d.answers) > 0 {
		status, d.answers = d.answers[0], d.answers[1:]
	}
	hang, retryAfter := d.hang, d.retryAfter
	d.hang = false
	d.mu.Unlock()
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		d.t.Errorf("Content-Type = %q", ct)
	}
	if hang {
		<-r.Context().Done()
		d.requests <- posted{elements: els}
		return
	}
	d.requests <- posted{elements: els, status: status}
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"message":"status %d"}`, status)
}

func (d *destination) next(t *testing.T) posted {
	t.Helper()
	select {
	case p := <-d.requests:
		return p
	case <-time.After(10 * time.Second):
		t.Fatal("no request reached the destination")
		return posted{}
	}
}

// auditLog records the entries the plugin writes.
type auditLog struct {
	mu      sync.Mutex
	sources []string
}

func (a *auditLog) record(_ context.Context, source, _ string, _ any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sources = append(a.sources, source)
}

func (a *auditLog) list() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.sources...)
}

// readings returns n readings of asset "a" with values {"i": k}.
func readings(n int) []plugin.Reading {
	base := time.Date(2024, 5, 1, 10, 15, 42, 123456000, time.UTC)
	out := make([]plugin.Reading, n)
	for i := range out {
		out[i] = plugin.Reading{Asset: "a/" + strconv.Itoa(i%2), Timestamp: base.Add(time.Duration(i) * time.Second),
			Values: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}
	}
	return out
}

// setup returns an instance sending to d with the given block size, on a
// fake clock; the timeout and retry items count milliseconds.
func setup(t *testing.T, d *destination, block int, items ...string) (*HTTPNorth, *clock.Fake, *auditLog) {
	t.Helper()
	clk := clock.NewFake(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	log := &auditLog{}
	cfg := plugintest.Defaults(Definition())
	cfg[ItemURL] = d.srv.URL + "/sensor-reading"
	cfg[ItemBlockSize] = strconv.Itoa(block)
	cfg[ItemTimeout] = "5000"
	cfg[ItemMaxRetryInterval] = "4000"
	for i := 0; i+1 < len(items); i += 2 {
		cfg[items[i]] = items[i+1]
	}
	env := plugin.NorthEnv{Env: plugin.Env{Service: "up", Clock: clk}, Audit: log.record}
	h, err := New(env, cfg, d.srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	h.unit = time.Millisecond
	if err := h.Reconfigure(cfg); err != nil { // with the unit in force
		t.Fatal(err)
	}
	return h, clk, log
}

// sendAsync runs Send in a goroutine and returns its outcome channel.
func sendAsync(ctx context.Context, h *HTTPNorth, rs []plugin.Reading) <-chan result {
	out := make(chan result, 1)
	go func() {
		n, err := h.Send(ctx, rs)
		out <- result{n, err}
	}()
	return out
}

type result struct {
	n   int
	err error
}

func TestSendBatchesInOrder(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		block int
		sizes []int
	}{
		{name: "several requests", n: 7, block: 3, sizes: []int{3, 3, 1}},
		{name: "one full request", n: 5, block: 5, sizes: []int{5}},
		{name: "block larger than the readings", n: 2, block: 500, sizes: []int{2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDestination(t)
			h, _, log := setup(t, d, tc.block)
			rs := readings(tc.n)
			n, err := h.Send(t.Context(), rs)
			if err != nil || n != tc.n {
				t.Fatalf("Send = %d, %v; want %d, nil", n, err, tc.n)
			}
			i := 0
			for _, size := range tc.sizes {
				p := d.next(t)
				if len(p.elements) != size {
					t.Fatalf("request of %d readings, want %d", len(p.elements), size)
				}
				for _, e := range p.elements {
					want := element{Timestamp: rs[i].Timestamp.Format(timestampLayout), Asset: rs[i].Asset, Readings: rs[i].Values}
					if e.Timestamp != want.Timestamp || e.Asset != want.Asset || string(e.Readings) != string(want.Readings) {
						t.Errorf("element %d = %+v, want %+v", i, e, want)
					}
					i++
				}
			}
			if len(log.list()) != 0 {
				t.Errorf("audit entries %v for a healthy destination", log.list())
			}
		})
	}
}

func TestSendRetriesWithBackoffAndAuditsTransitions(t *testing.T) {
	// Three failures (no answer counts like 503), then success; the waits
	// double from 500 ms and are capped at maxRetryInterval (4 s).
	d := newDestination(t, 503, 502, 503, 503, 503)
	h, clk, log := setup(t, d, 10)
	out := sendAsync(t.Context(), h, readings(4))
	for i, wait := range []time.Duration{500, 1000, 2000, 4000, 4000} {
		if p := d.next(t); p.status == 200 {
			t.Fatalf("attempt %d succeeded early", i)
		}
		clk.BlockUntil(1)
		clk.Advance(wait*time.Millisecond - time.Millisecond)
		select {
		case r := <-out:
			t.Fatalf("Send returned %v during the backoff", r)
		default:
		}
		if clk.Pending() != 1 {
			t.Fatalf("attempt %d: the wait ended before %v", i, wait*time.Millisecond)
		}
		clk.Advance(time.Millisecond)
	}
	if p := d.next(t); p.status != 200 || len(p.elements) != 4 {
		t.Fatalf("final attempt = %+v", p)
	}
	r := <-out
	if r.n != 4 || r.err != nil {
		t.Fatalf("Send = %d, %v", r.n, r.err)
	}
	if got := log.list(); len(got) != 2 || got[0] != AuditDown || got[1] != AuditAvailable {
		t.Errorf("audit = %v, want one NHDWN then one NHAVL", got)
	}
	// Healthy again: another failure is a new transition.
	d.mu.Lock()
	d.answers = []int{500}
	d.mu.Unlock()
	out = sendAsync(t.Context(), h, readings(1))
	d.next(t)
	clk.BlockUntil(1)
	clk.Advance(500 * time.Millisecond) // the backoff starts afresh
	d.next(t)
	if r := <-out; r.n != 1 || r.err != nil {
		t.Fatalf("Send = %d, %v", r.n, r.err)
	}
	if got := log.list(); len(got) != 4 || got[2] != AuditDown || got[3] != AuditAvailable {
		t.Errorf("audit = %v, want NHDWN, NHAVL twice", got)
	}
}

func TestSendHonoursRetryAfter(t *testing.T) {
	d := newDestination(t, 503)
	d.retryAfter = "2000" // 2 s in the test's unit, longer than the first backoff
	h, clk, _ := setup(t, d, 10)
	out := sendAsync(t.Context(), h, readings(1))
	d.next(t)
	clk.BlockUntil(1)
	clk.Advance(1999 * time.Millisecond)
	if clk.Pending() != 1 {
		t.Fatal("the wait ended before Retry-After")
	}
	clk.Advance(time.Millisecond)
	d.next(t)
	if r := <-out; r.n != 1 || r.err != nil {
		t.Fatalf("Send = %d, %v", r.n, r.err)
	}
}

func TestSendHalvesTooLargeRequests(t *testing.T) {
	d := newDestination(t, 413, 413)
	h, _, _ := setup(t, d, 8)
	n, err := h.Send(t.Context(), readings(8))
	if n != 8 || err != nil {
		t.Fatalf("Send = %d, %v", n, err)
	}
	var sizes []int
	for range 6 { // 8 refused, 4 refused, then 2+2+2+2
		sizes = append(sizes, len(d.next(t).elements))
	}
	if fmt.Sprint(sizes) != "[8 4 2 2 2 2]" {
		t.Errorf("request sizes = %v", sizes)
	}
}

// TestSendSetsAsideARefusedReading: a request whose readings the
// destination refuses is halved until the refused reading is alone; once
// refused rejectAfter times in a row, Send reports what went before it
// accepted and the reading rejected. The destination answered all along:
// no NHDWN.
func TestSendSetsAsideARefusedReading(t *testing.T) {
	for _, rejectAfter := range []int{1, 3} {
		t.Run(fmt.Sprintf("rejectAfter %d", rejectAfter), func(t *testing.T) {
			d := newDestination(t)
			d.refuse = func(e element) bool { return string(e.Readings) == `{"i":2}` }
			h, clk, log := setup(t, d, 4, ItemRejectAfter, strconv.Itoa(rejectAfter))
			out := sendAsync(t.Context(), h, readings(4))
			var sizes []int
			for range 3 { // 4 refused, 2 accepted, 2 refused
				sizes = append(sizes, len(d.next(t).elements))
			}
			for i := range rejectAfter {
				if p := d.next(t); len(p.elements) != 1 || p.status != http.StatusBadRequest {
					t.Fatalf("try %d of the refused reading = %+v", i+1, p)
				}
				if i+1 < rejectAfter {
					clk.BlockUntil(1)
					clk.Advance(backoff(i, 4*time.Second))
				}
			}
			r := <-out
			var rej *plugin.RejectedError
			if r.n != 2 || !errors.As(r.err, &rej) || rej.Count != 1 || !strings.Contains(rej.Reason, "400") {
				t.Fatalf("Send = %d, %v; want 2 and the third reading rejected", r.n, r.err)
			}
			if fmt.Sprint(sizes) != "[4 2 2]" {
				t.Errorf("request sizes = %v", sizes)
			}
			if got := log.list(); len(got) != 0 {
				t.Errorf("audit = %v, want nothing: the destination answered", got)
			}
			if clk.Pending() != 0 {
				t.Errorf("%d timers left", clk.Pending())
			}
		})
	}
}

// TestSendRetriesRefusedRequests: a refusal of the request itself (here
// 404: a wrong URL) is not the readings' fault; it is retried like an
// unreachable destination, and the runtime hears the destination is down
// and back.
func TestSendRetriesRefusedRequests(t *testing.T) {
	d := newDestination(t, http.StatusNotFound, http.StatusForbidden)
	h, clk, log := setup(t, d, 10)
	var states []string
	h.env.Destination = func(err error) { states = append(states, fmt.Sprint(err != nil)) }
	out := sendAsync(t.Context(), h, readings(3))
	for _, wait := range []time.Duration{500 * time.Millisecond, time.Second} {
		d.next(t)
		clk.BlockUntil(1)
		clk.Advance(wait)
	}
	if p := d.next(t); p.status != 200 || len(p.elements) != 3 {
		t.Fatalf("final attempt = %+v", p)
	}
	if r := <-out; r.n != 3 || r.err != nil {
		t.Fatalf("Send = %d, %v", r.n, r.err)
	}
	if got := log.list(); fmt.Sprint(got) != "[NHDWN NHAVL]" {
		t.Errorf("audit = %v", got)
	}
	if fmt.Sprint(states) != "[true false]" {
		t.Errorf("destination reports (down?) = %v, want down then up", states)
	}
}

func TestSendStopsWhenCancelled(t *testing.T) {
	d := newDestination(t, 200, 503)
	h, clk, _ := setup(t, d, 1)
	ctx, cancel := context.WithCancel(t.Context())
	out := sendAsync(ctx, h, readings(3))
	d.next(t)
	d.next(t)
	clk.BlockUntil(1)
	cancel()
	r := <-out
	if r.n != 1 || !errors.Is(r.err, context.Canceled) {
		t.Fatalf("Send = %d, %v; want 1, context.Canceled", r.n, r.err)
	}
}

func TestSendTimesOutAndRetries(t *testing.T) {
	d := newDestination(t)
	d.hang = true
	h, clk, log := setup(t, d, 10)
	cfg := plugintest.Defaults(Definition())
	cfg[ItemURL] = d.srv.URL
	cfg[ItemTimeout] = "20" // 20 ms
	cfg[ItemMaxRetryInterval] = "4000"
	if err := h.Reconfigure(cfg); err != nil {
		t.Fatal(err)
	}
	out := sendAsync(t.Context(), h, readings(2))
	d.next(t) // the hung request, given up by the client
	clk.BlockUntil(1)
	clk.Advance(500 * time.Millisecond)
	if p := d.next(t); p.status != 200 {
		t.Fatalf("retry answered %d", p.status)
	}
	if r := <-out; r.n != 2 || r.err != nil {
		t.Fatalf("Send = %d, %v", r.n, r.err)
	}
	if got := log.list(); len(got) != 2 {
		t.Errorf("audit = %v, want NHDWN and NHAVL", got)
	}
}

func TestReconfigure(t *testing.T) {
	tests := []struct {
		name    string
		item    string
		value   string
		wantErr bool
		want    func(settings) bool
	}{
		{name: "new url", item: ItemURL, value: "https://central:1/x",
			want: func(s settings) bool { return s.url == "https://central:1/x" }},
		{name: "not http", item: ItemURL, value: "ftp://central/x", wantErr: true},
		{name: "zero block", item: ItemBlockSize, value: "0", wantErr: true},
		{name: "not a number", item: ItemTimeout, value: "soon", wantErr: true},
		{name: "new retry limit", item: ItemMaxRetryInterval, value: "5",
			want: func(s settings) bool { return s.maxRetry == 5*time.Second }},
		{name: "new block size", item: ItemBlockSize, value: "7",
			want: func(s settings) bool { return s.block == 7 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := New(plugin.NorthEnv{}, plugintest.Defaults(Definition()), http.DefaultClient)
			if err != nil {
				t.Fatal(err)
			}
			before := h.settings()
			cfg := plugintest.Defaults(Definition())
			cfg[tc.item] = tc.value
			if err := h.Reconfigure(cfg); (err != nil) != tc.wantErr {
				t.Fatalf("Reconfigure = %v, want error %v", err, tc.wantErr)
			}
			got := h.settings()
			switch {
			case tc.wantErr && got != before:
				t.Errorf("a refused change altered the settings to %+v", got)
			case !tc.wantErr && !tc.want(got):
				t.Errorf("settings = %+v", got)
			}
		})
	}
}

func TestDefinitionDefaults(t *testing.T) {
	d := Definition()
	if d.Kind != plugin.KindNorth || d.NewNorth == nil || d.New != nil {
		t.Fatal("http_north is not a north plugin")
	}
	if got := d.Items[ItemURL].Default; got != "http://localhost:6683/sensor-reading" {
		t.Errorf("url default = %q", got)
	}
	inst, err := d.NewNorth(plugin.NorthEnv{}, plugintest.Defaults(d))
	if err != nil || inst == nil {
		t.Fatalf("NewNorth with the defaults = %v, %v", inst, err)
	}
}
