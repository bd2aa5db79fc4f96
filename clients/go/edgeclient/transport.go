package edgeclient

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxErrorBody bounds how much of an error answer is read into an APIError.
const maxErrorBody = 1 << 20

// errorDoer turns every answer outside 2xx into an *APIError, so that each
// generated call returns it as its error.
type errorDoer struct {
	next HttpRequestDoer
}

func (d errorDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.next.Do(req)
	if err != nil || (resp.StatusCode >= 200 && resp.StatusCode < 300) {
		return resp, err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if err != nil {
		return nil, err
	}
	return nil, errorFromHTTP(resp, body)
}

// retryDoer sends an idempotent request again when the gateway answers 429
// or 503, up to retries times, waiting as Retry-After asks or else an
// exponential backoff; a wait longer than maxWait is not made.
type retryDoer struct {
	next    HttpRequestDoer
	retries int
	maxWait time.Duration
	sleep   func(context.Context, time.Duration) error
}

// idempotent are the methods whose repetition has the effect of one request
// (RFC 9110, 9.2.2).
var idempotent = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodOptions: true,
	http.MethodPut: true, http.MethodDelete: true,
}

func (d retryDoer) Do(req *http.Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := d.next.Do(req)
		if err != nil || attempt >= d.retries || !idempotent[req.Method] ||
			(resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable) {
			return resp, err
		}
		wait, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now())
		if !ok {
			wait = backoff(attempt)
		}
		if wait > d.maxWait {
			return resp, nil
		}
		if req.Body != nil && req.Body != http.NoBody {
			if req.GetBody == nil {
				return resp, nil // the body cannot be sent twice
			}
			body, bodyErr := req.GetBody()
			if bodyErr != nil {
				return resp, nil //nolint:nilerr // the answer stands when its request cannot be sent again
			}
			req = req.Clone(req.Context())
			req.Body = body
		}
		// The answer is dropped: read it to the end so that the connection
		// can be reused.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		_ = resp.Body.Close()
		if err := d.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
	}
}

// backoff is the wait before retry attempt+1 without a Retry-After:
// 250 ms doubling each time, up to 8 s, half of it random so that clients
// turned away together do not come back together.
func backoff(attempt int) time.Duration {
	d := 250 * time.Millisecond << min(attempt, 5)
	return d/2 + rand.N(d/2+1) //nolint:gosec // jitter, not a secret
}

// retryAfter parses a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil {
		return time.Duration(max(s, 0)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// sleepCtx waits for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// timeoutDoer bounds each request of next by a deadline that lasts until the
// answer's body is closed.
type timeoutDoer struct {
	next    HttpRequestDoer
	timeout time.Duration
}

func (d timeoutDoer) Do(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), d.timeout)
	resp, err := d.next.Do(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelOnClose releases a request's deadline when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
