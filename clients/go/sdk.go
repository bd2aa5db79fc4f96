package edgeclient

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Client is the convenience client of the gateway: every generated
// XxxWithResponse method of ClientWithResponses, plus a session token that
// is sent in the authorization header of every request once set by
// WithToken, Login or SetToken. It is safe for concurrent use.
type Client struct {
	*ClientWithResponses

	mu    sync.RWMutex
	token string
}

// Option configures New. WithToken and WithTimeout are options, and so is
// every generated ClientOption (WithHTTPClient, WithRequestEditorFn,
// WithBaseURL), in any order.
type Option interface {
	apply(*settings)
}

// settings collects the options of one New call.
type settings struct {
	raw     []ClientOption
	token   string
	timeout time.Duration
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
// response, to d. It applies to the doer given by WithHTTPClient too,
// wherever that option comes. Zero means no bound beyond the request's
// context; a negative d makes New fail.
func WithTimeout(d time.Duration) Option {
	return optionFunc(func(s *settings) { s.timeout = d })
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
	var s settings
	for _, o := range opts {
		if o != nil {
			o.apply(&s)
		}
	}
	if s.timeout < 0 {
		return nil, fmt.Errorf("edged: negative timeout %v", s.timeout)
	}
	c := &Client{token: s.token}
	raw := append(s.raw[:len(s.raw):len(s.raw)],
		// Runs after every generated option, so the timeout wraps the
		// final doer whatever the order the caller gave.
		func(rc *RawClient) error {
			if s.timeout > 0 {
				doer := rc.Client
				if doer == nil {
					doer = &http.Client{}
				}
				rc.Client = timeoutDoer{next: doer, timeout: s.timeout}
			}
			return nil
		},
		// Last editor of the client: the session token wins over editors
		// given as options; per-call editors still run after it.
		WithRequestEditorFn(c.authorize),
	)
	cwr, err := NewClientWithResponses(baseURL, raw...)
	if err != nil {
		return nil, err
	}
	c.ClientWithResponses = cwr
	return c, nil
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
// ErrTooManyRequests.
func (c *Client) Login(ctx context.Context, username, password string) (*LoginResult, error) {
	resp, err := Check(c.LoginWithResponse(ctx, LoginJSONRequestBody{Username: username, Password: password}))
	if err != nil {
		return nil, err
	}
	if resp.JSON200 == nil {
		return nil, fmt.Errorf("edged: login answered %d without a JSON body", resp.StatusCode())
	}
	c.SetToken(resp.JSON200.Token)
	return resp.JSON200, nil
}

// Logout ends the session of the client's token and forgets the token.
func (c *Client) Logout(ctx context.Context) error {
	if _, err := Check(c.LogoutWithResponse(ctx)); err != nil {
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

// timeoutDoer bounds each request of next by a deadline that lasts until the
// response body is closed.
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
