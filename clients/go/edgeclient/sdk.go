package edgeclient

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Defaults of New.
const (
	// DefaultTimeout bounds each request, from sending it to reading the
	// whole answer (WithTimeout).
	DefaultTimeout = 30 * time.Second
	// DefaultRetries is how many times an idempotent request answered 429
	// or 503 is sent again (WithRetries).
	DefaultRetries = 3
	// DefaultMaxRetryWait is the longest wait before a retry; an answer
	// whose Retry-After asks for more is returned at once (WithMaxRetryWait).
	DefaultMaxRetryWait = 30 * time.Second
)

// Client is the convenience client of the gateway: every generated
// XxxWithResponse method, each returning an *APIError for an answer outside
// 2xx beside the parsed response (client.convenience.gen.go), plus the
// session token, sent in the authorization header of every
// request once Login, LoginWithCertificate, WithToken or SetToken set it.
// It is safe for concurrent use.
type Client struct {
	*ClientWithResponses

	// Raw is the same client, token, timeout and retries included, whose
	// calls return every answer as it came, a non-2xx one too (its
	// JSON400, JSON404, … fields hold the documented error bodies).
	Raw *ClientWithResponses

	mu    sync.RWMutex
	token string
}

// Option configures New. WithToken, WithTimeout, WithRetries,
// WithMaxRetryWait and WithTLSConfig are options, and so is every
// generated ClientOption (WithHTTPClient, WithRequestEditorFn,
// WithBaseURL), in any order.
type Option interface {
	apply(*settings)
}

// settings collects the options of one New call.
type settings struct {
	raw          []ClientOption
	token        string
	timeout      time.Duration
	retries      int
	maxRetryWait time.Duration
	tlsConfig    *tls.Config
}

// apply makes every generated ClientOption an Option.
func (o ClientOption) apply(s *settings) { s.raw = append(s.raw, o) }

type optionFunc func(*settings)

func (f optionFunc) apply(s *settings) { f(s) }

// WithToken sets the session token sent, bare, in the authorization header
// of every request (a later Login or SetToken replaces it).
func WithToken(token string) Option {
	return optionFunc(func(s *settings) { s.token = token })
}

// WithTimeout bounds every request, from sending it to reading the whole
// answer, to d (DefaultTimeout without this option); each retry gets d
// anew. It applies to the doer given by WithHTTPClient too. Zero means no
// bound beyond the request's context; a negative d makes New fail.
func WithTimeout(d time.Duration) Option {
	return optionFunc(func(s *settings) { s.timeout = d })
}

// WithRetries sets how many times a GET, HEAD, OPTIONS, PUT or DELETE
// answered 429 (too many requests) or 503 (storage unavailable) is sent
// again (DefaultRetries without this option; 0: never). Each retry waits
// as the answer's Retry-After asks, or else an exponential backoff from a
// quarter of a second; POST is never retried.
func WithRetries(n int) Option {
	return optionFunc(func(s *settings) { s.retries = n })
}

// WithMaxRetryWait caps the wait before a retry (DefaultMaxRetryWait
// without this option): an answer whose Retry-After asks for longer is
// returned at once.
func WithMaxRetryWait(d time.Duration) Option {
	return optionFunc(func(s *settings) { s.maxRetryWait = d })
}

// WithTLSConfig sets the TLS configuration of the HTTP client New builds:
// the certificate authority of the gateway's HTTPS certificate (RootCAs)
// and, for LoginWithCertificate, the client certificate (Certificates).
// It has no effect with WithHTTPClient, whose doer brings its own.
func WithTLSConfig(c *tls.Config) Option {
	return optionFunc(func(s *settings) { s.tlsConfig = c })
}

// New returns a client of the gateway at baseURL, e.g.
// "http://localhost:8081" (the API's paths, /edge/…, are appended to it).
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("edged: base URL %q: %w", baseURL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("edged: base URL %q: want http:// or https:// and a host", baseURL)
	}
	s := settings{timeout: DefaultTimeout, retries: DefaultRetries, maxRetryWait: DefaultMaxRetryWait}
	for _, o := range opts {
		if o != nil {
			o.apply(&s)
		}
	}
	switch {
	case s.timeout < 0:
		return nil, fmt.Errorf("edged: negative timeout %v", s.timeout)
	case s.retries < 0:
		return nil, fmt.Errorf("edged: negative number of retries %d", s.retries)
	case s.maxRetryWait < 0:
		return nil, fmt.Errorf("edged: negative retry wait %v", s.maxRetryWait)
	}
	c := &Client{token: s.token}
	build := func(errors bool) (*ClientWithResponses, error) {
		raw := append(s.raw[:len(s.raw):len(s.raw)],
			// Runs after every generated option, so that the layers wrap
			// the final doer whatever the order the caller gave.
			func(rc *RawClient) error {
				rc.Client = s.wrap(rc.Client, errors)
				return nil
			},
			// Last editor of the client: the session token wins over
			// editors given as options; per-call editors still run after it.
			WithRequestEditorFn(c.authorize),
		)
		return NewClientWithResponses(baseURL, raw...)
	}
	if c.ClientWithResponses, err = build(true); err != nil {
		return nil, err
	}
	if c.Raw, err = build(false); err != nil {
		return nil, err
	}
	return c, nil
}

// wrap layers the timeout, the retries and, when errors is set, the
// *APIError of non-2xx answers over doer (the default HTTP client when nil).
func (s *settings) wrap(doer HttpRequestDoer, errors bool) HttpRequestDoer {
	if doer == nil {
		doer = s.httpClient()
	}
	if s.timeout > 0 {
		doer = timeoutDoer{next: doer, timeout: s.timeout}
	}
	if s.retries > 0 {
		doer = retryDoer{next: doer, retries: s.retries, maxWait: s.maxRetryWait, sleep: sleepCtx}
	}
	if errors {
		doer = errorDoer{next: doer}
	}
	return doer
}

// httpClient is the HTTP client of a Client built without WithHTTPClient.
func (s *settings) httpClient() *http.Client {
	if s.tlsConfig == nil {
		return &http.Client{}
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = s.tlsConfig
	return &http.Client{Transport: t}
}

// Token returns the session token the client sends, or "".
func (c *Client) Token() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.token
}

// SetToken replaces the session token; "" stops sending one.
func (c *Client) SetToken(token string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.token = token
}

// Login logs in with a user name and password and keeps the session token
// for the following requests. A wrong name or password is an *APIError
// matching ErrUnauthorized; a locked account one matching
// ErrTooManyRequests, whose RetryAfter says for how long.
func (c *Client) Login(ctx context.Context, username, password string) (*LoginResult, error) {
	return c.keepToken(c.LoginWithResponse(ctx, LoginJSONRequestBody{Username: username, Password: password}))
}

// LoginWithCertificate logs in with the client certificate the TLS
// connection presents (WithTLSConfig, or the doer of WithHTTPClient) and
// keeps the session token. It needs an https:// base URL and a gateway
// that requests client certificates; the certificate's subject common name
// is the user name.
func (c *Client) LoginWithCertificate(ctx context.Context) (*LoginResult, error) {
	return c.keepToken(c.AuthenticateWithBodyWithResponse(ctx, "text/plain", nil))
}

// loginResponse is what both log-in calls answer.
type loginResponse interface {
	Response
	result() *LoginResult
}

func (r *LoginResponse) result() *LoginResult        { return r.JSON200 }
func (r *AuthenticateResponse) result() *LoginResult { return r.JSON200 }

func (c *Client) keepToken(resp loginResponse, err error) (*LoginResult, error) {
	if _, err := Check(resp, err); err != nil {
		return nil, err
	}
	res := resp.result()
	if res == nil {
		return nil, fmt.Errorf("edged: login answered %d without a JSON body", resp.StatusCode())
	}
	c.SetToken(res.Token)
	return res, nil
}

// Logout ends the session of the client's token and forgets the token.
func (c *Client) Logout(ctx context.Context) error {
	if _, err := c.LogoutWithResponse(ctx); err != nil {
		return err
	}
	c.SetToken("")
	return nil
}

// authorize is the request editor that sends the session token.
func (c *Client) authorize(_ context.Context, req *http.Request) error {
	if t := c.Token(); t != "" {
		req.Header.Set("authorization", t)
	}
	return nil
}
