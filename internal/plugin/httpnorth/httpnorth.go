// Package httpnorth is the north plugin that sends readings to another
// gateway's http_south: it POSTs JSON arrays of {timestamp, asset,
// readings} to its url, at most blockSize readings per request, and counts
// a request's readings accepted only on a 2xx answer (http_south answers
// 200 once they are committed).
//
// Failures are of two kinds. A refusal of the readings themselves — 400 or
// 422 (they are invalid to the destination), or 413 for a single reading —
// cannot be cured by waiting: the request is halved until the refused
// reading is alone, and a reading refused rejectAfter times in a row is
// reported rejected (plugin.RejectedError), so the runtime sets it aside
// and forwarding goes on. Anything else — no answer, a timeout, 5xx, 408,
// 429, or a refusal of the request as such (401, 403, 404, …: the
// destination or its configuration is at fault, not the readings) — is a
// destination that does not accept readings now: the same request is
// retried with a growing wait (from retryInitial, doubling up to
// maxRetryInterval, or the server's Retry-After when longer), NHDWN
// (WARNING) is written once and the runtime told (the service is
// unresponsive) until the destination accepts a request again (NHAVL). A
// 413 for several readings halves the request.
package httpnorth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Name is the plugin's name.
const Name = "http_north"

// Configuration items.
const (
	ItemURL              = "url"
	ItemBlockSize        = "blockSize"
	ItemTimeout          = "timeout"
	ItemMaxRetryInterval = "maxRetryInterval"
	ItemRejectAfter      = "rejectAfter"
)

// Defaults of the items and fixed settings.
const (
	DefaultURL = "http://localhost:6683/sensor-reading"
	// retryInitial is the first wait after a failed request.
	retryInitial = 500 * time.Millisecond
	// maxErrorBody bounds how much of a refusal's body is read for the
	// error message.
	maxErrorBody = 4 << 10
	// timestampLayout is how timestamps are sent (UTC, as http_south and
	// the spec read them).
	timestampLayout = "2006-01-02 15:04:05.000000"
)

// Audit sources the plugin writes (decisions §3).
const (
	AuditDown      = auditcode.NorthDown
	AuditAvailable = auditcode.NorthAvailable
)

// Definition describes the plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Name: Name, Version: "1.0.0", Kind: plugin.KindNorth,
		Description: "Sends readings over HTTP to another gateway's http_south, as JSON arrays of {timestamp, asset, readings}",
		Items:       plugin.ItemsOf(Config{}),
		NewNorth: func(env plugin.NorthEnv, cfg plugin.Config) (plugin.North, error) {
			return New(env, cfg, http.DefaultClient)
		},
	}
}

// settings is the configuration in force.
type settings struct {
	url         string
	block       int
	timeout     time.Duration
	maxRetry    time.Duration
	rejectAfter int
}

// HTTPNorth is a running instance.
type HTTPNorth struct {
	env    plugin.NorthEnv
	log    *slog.Logger
	clk    clock.Clock
	client *http.Client
	// unit is the unit of the timeout and retry items (a second; tests
	// shrink it).
	unit time.Duration

	mu  sync.Mutex // guards cfg
	cfg settings

	// down is true from NHDWN until NHAVL; only Send uses it, and Send
	// is not called concurrently.
	down bool
}

var _ plugin.North = (*HTTPNorth)(nil)

// New returns an instance sending with client.
func New(env plugin.NorthEnv, cfg plugin.Config, client *http.Client) (*HTTPNorth, error) {
	h := &HTTPNorth{env: env, log: env.Log(), clk: env.Time(), client: client, unit: time.Second}
	if err := h.Reconfigure(cfg); err != nil {
		return nil, err
	}
	return h, nil
}

// Reconfigure applies a new configuration from the next request on.
func (h *HTTPNorth) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	if !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://") {
		return fmt.Errorf("%s %q is not an http or https URL", ItemURL, c.URL)
	}
	for _, n := range []struct {
		item  string
		value int
	}{{ItemBlockSize, c.BlockSize}, {ItemTimeout, c.Timeout}, {ItemMaxRetryInterval, c.MaxRetryInterval}, {ItemRejectAfter, c.RejectAfter}} {
		if n.value < 1 {
			return fmt.Errorf("%s %d is not positive", n.item, n.value)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cfg = settings{url: c.URL, block: c.BlockSize, rejectAfter: c.RejectAfter,
		timeout: time.Duration(c.Timeout) * h.unit, maxRetry: time.Duration(c.MaxRetryInterval) * h.unit}
	return nil
}

func (h *HTTPNorth) settings() settings {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cfg
}

// failure is a request that did not deliver its readings.
type failure struct {
	status     int           // the answer's status; 0 when there was none
	retryAfter time.Duration // the answer's Retry-After, if any
	err        error
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// rejects reports whether the destination refused the n readings of the
// request themselves, so that sending them again as they are cannot
// succeed: they are invalid to it (400, 422), or a single reading is too
// large (413).
func (f *failure) rejects(n int) bool {
	switch f.status {
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return true
	case http.StatusRequestEntityTooLarge:
		return n == 1
	}
	return false
}

// Send posts readings in requests of at most blockSize, in order, retrying
// each until the destination accepts it. It returns early only when ctx
// ends, or with a *plugin.RejectedError for a reading the destination
// refused rejectAfter times in a row.
func (h *HTTPNorth) Send(ctx context.Context, readings []plugin.Reading) (int, error) {
	sent := 0
	limit := 0   // a smaller request size after a 413 or a refusal; 0: blockSize
	attempt := 0 // consecutive failures of the current request
	refused := 0 // consecutive refusals of the current single reading
	for sent < len(readings) {
		s := h.settings()
		n := min(s.block, len(readings)-sent)
		if limit > 0 {
			n = min(n, limit)
		}
		err := h.post(ctx, s, readings[sent:sent+n])
		if err == nil {
			h.available(ctx, s)
			sent += n
			attempt, refused = 0, 0
			continue
		}
		if ctx.Err() != nil {
			return sent, ctx.Err()
		}
		var f *failure
		if !errors.As(err, &f) {
			return sent, err
		}
		switch {
		case f.status == http.StatusRequestEntityTooLarge && n > 1:
			limit = n / 2
			h.log.Warn("north destination refused a request as too large; sending fewer readings per request",
				"url", s.url, "readings", limit)
			continue
		case f.rejects(n) && n > 1:
			h.available(ctx, s)
			limit = n / 2 // find the reading it refuses
			h.log.Warn("north destination refused a request's readings; sending them in smaller requests to find the refused ones",
				"url", s.url, "readings", limit, "error", err)
			continue
		case f.rejects(n):
			h.available(ctx, s)
			refused++
			if refused >= s.rejectAfter {
				return sent, &plugin.RejectedError{Count: 1, Reason: err.Error()}
			}
		default:
			h.unavailable(ctx, s, err)
		}
		wait := backoff(attempt, s.maxRetry)
		if f.retryAfter > wait {
			wait = min(f.retryAfter, s.maxRetry)
		}
		attempt++
		t := h.clk.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return sent, ctx.Err()
		case <-t.C():
		}
	}
	return sent, nil
}

// unavailable records that the destination does not accept readings:
// NHDWN once, and the runtime told.
func (h *HTTPNorth) unavailable(ctx context.Context, s settings, err error) {
	if h.down {
		return
	}
	h.down = true
	h.log.Warn("north destination unreachable; retrying", "url", s.url, "error", err)
	h.env.Record(ctx, AuditDown, auditcode.Warning, map[string]any{"service": h.env.Service, "url": s.url, "error": err.Error()})
	h.env.ReportDestination(fmt.Errorf("%s: %w", s.url, err))
}

// available records that the destination answers again: NHAVL once after
// NHDWN, and the runtime told.
func (h *HTTPNorth) available(ctx context.Context, s settings) {
	if !h.down {
		return
	}
	h.down = false
	h.log.Info("north destination available again", "url", s.url)
	h.env.Record(ctx, AuditAvailable, auditcode.Information, map[string]any{"service": h.env.Service, "url": s.url})
	h.env.ReportDestination(nil)
}

// backoff is the wait after the attempt-th consecutive failure (0-based):
// retryInitial doubling up to limit.
func backoff(attempt int, limit time.Duration) time.Duration {
	d := retryInitial
	for range attempt {
		if d >= limit {
			break
		}
		d *= 2
	}
	return min(d, limit)
}

// element is one element of a posted array, in http_south's format.
type element struct {
	Timestamp string          `json:"timestamp"`
	Asset     string          `json:"asset"`
	Readings  json.RawMessage `json:"readings"`
}

// post sends one request; nil means the destination accepted every
// reading in it.
func (h *HTTPNorth) post(ctx context.Context, s settings, rs []plugin.Reading) error {
	body := make([]element, len(rs))
	for i, r := range rs {
		values := r.Values
		if len(values) == 0 {
			values = json.RawMessage(`{}`)
		}
		body[i] = element{Timestamp: r.Timestamp.UTC().Format(timestampLayout), Asset: r.Asset, Readings: values}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("http_north: encode readings: %w", err)
	}
	reqCtx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, s.url, bytes.NewReader(raw))
	if err != nil { // the URL is at fault, not the readings: retried until reconfigured
		return &failure{err: fmt.Errorf("build request: %w", err)}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client.Do(req)
	if err != nil {
		return &failure{err: err}
	}
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	_ = resp.Body.Close() // read what matters; the answer's status decides
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	f := &failure{status: resp.StatusCode, err: fmt.Errorf("answered %s: %s", resp.Status, bytes.TrimSpace(msg))}
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
		f.retryAfter = time.Duration(secs) * h.unit
	}
	return f
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.North = (*HTTPNorth)(nil)
)
