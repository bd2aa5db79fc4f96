package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain serves echoService when the test binary is started as a plugin
// (by Launch, which sets the handshake's cookie), so the tests below can
// run a real plugin process, and kill it.
func TestMain(m *testing.M) {
	if os.Getenv(Handshake.MagicCookieKey) == Handshake.MagicCookieValue {
		if role := os.Getenv(testRoleEnv); role != "" {
			serveRole(role) // limits_test.go
			os.Exit(0)
		}
		Serve(servicePlugin(KindDispatcher))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func servicePlugin(kind string) Plugin {
	return Plugin{Info: Info{Name: "echo", Version: "1", Kind: kind, Persists: true},
		NewService: func() Service { return &echoService{} }}
}

// echoService is a service whose methods exercise the contract:
//
//	echo    answers the request body
//	fail    answers an error of the code {"code":n} names, or a plain one for 0
//	relay   calls the host's method {"method":m,"body":b} and answers
//	        {"body":…} or {"code":n,"message":…}
//	exit    ends the process (without answering)
type echoService struct {
	mu      sync.Mutex
	host    Host
	started Start
	config  Config
}

func (s *echoService) Start(ctx context.Context, st Start, host Host) error {
	if st.Config["refuse"] != "" {
		return Errorf(CodeInvalid, "refused: %s", st.Config["refuse"])
	}
	s.mu.Lock()
	s.host, s.started, s.config = host, st, st.Config
	s.mu.Unlock()
	// The host stays usable after Start returned: tell it from a goroutine
	// once Start's ctx ended, which gRPC does when the call has returned.
	go func() {
		<-ctx.Done()
		body, _ := json.Marshal(map[string]string{"service": st.Service})
		_, _ = host.Call(context.Background(), "started", body)
	}()
	return nil
}

func (s *echoService) Call(ctx context.Context, method string, body []byte) ([]byte, error) {
	switch method {
	case "echo":
		return body, nil
	case "fail":
		var req struct{ Code Code }
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, Errorf(CodeInvalid, "fail: %v", err)
		}
		if req.Code == 0 {
			return nil, errors.New("a plain failure")
		}
		return nil, fmt.Errorf("wrapped: %w", Errorf(req.Code, "failure of code %d", req.Code))
	case "relay":
		var req struct {
			Method string
			Body   json.RawMessage
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, Errorf(CodeInvalid, "relay: %v", err)
		}
		s.mu.Lock()
		host := s.host
		s.mu.Unlock()
		got, err := host.Call(ctx, req.Method, req.Body)
		if err != nil {
			return json.Marshal(map[string]any{"code": CodeOf(err), "message": err.Error()})
		}
		return json.Marshal(map[string]json.RawMessage{"body": got})
	case "config":
		s.mu.Lock()
		defer s.mu.Unlock()
		return json.Marshal(s.config)
	case "exit":
		os.Exit(3)
	}
	return nil, Errorf(CodeUnsupported, "no method %q", method)
}

func (s *echoService) Reconfigure(_ context.Context, cfg Config) error {
	switch {
	case cfg["restart"] != "":
		return ErrRestart
	case cfg["bad"] != "":
		return errors.New("bad configuration")
	}
	s.mu.Lock()
	s.config = cfg
	s.mu.Unlock()
	return nil
}

func (s *echoService) State(context.Context) (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(map[string]any{"service": s.started.Service, "restored": s.started.State})
}

// recordingHost is a gateway's Host: it records every call and answers
// "lookup" with the body, "missing" with CodeNotFound, "code" with the
// error of the code in the body.
type recordingHost struct {
	mu    sync.Mutex
	calls []string
	seen  chan string
}

func newRecordingHost() *recordingHost { return &recordingHost{seen: make(chan string, 16)} }

func (h *recordingHost) Call(_ context.Context, method string, body []byte) ([]byte, error) {
	h.mu.Lock()
	h.calls = append(h.calls, method)
	h.mu.Unlock()
	h.seen <- method + " " + string(body)
	switch method {
	case "lookup", "started":
		return body, nil
	case "code":
		n, _ := strconv.Atoi(string(body))
		if n == 0 {
			return nil, errors.New("a plain host failure")
		}
		return nil, Errorf(Code(n), "host failure of code %d", n)
	}
	return nil, Errorf(CodeNotFound, "the gateway has no method %q", method)
}

// waitFor returns the next call the host saw, failing after a while.
func (h *recordingHost) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case got := <-h.seen:
			if got == want {
				return
			}
		case <-deadline:
			t.Fatalf("the host saw no %q", want)
		}
	}
}

func startEcho(t *testing.T, host Host) *Client {
	t.Helper()
	c, info, err := TestConnect(t, servicePlugin(KindNotification))
	if err != nil || info.Kind != KindNotification {
		t.Fatalf("connect: %+v, %v", info, err)
	}
	if err := c.StartService(t.Context(), Start{Service: "n1", Config: Config{"a": "1"}, State: json.RawMessage(`{"n":7}`)}, host); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestServiceCallRoundTrip(t *testing.T) {
	host := newRecordingHost()
	c := startEcho(t, host)
	host.waitFor(t, `started {"service":"n1"}`)
	for _, body := range []string{`{"x":[1,2,{"y":"é"}]}`, `"text"`, ``} {
		got, err := c.Call(t.Context(), "echo", []byte(body))
		if err != nil || string(got) != body {
			t.Errorf("echo of %q = %q, %v", body, got, err)
		}
	}
	if _, err := c.Call(t.Context(), "echo", []byte(`{not json`)); CodeOf(err) != CodeInvalid {
		t.Errorf("a body that is not JSON = %v (code %v), want CodeInvalid", err, CodeOf(err))
	}
	if st, err := c.State(t.Context()); err != nil || string(st) != `{"restored":{"n":7},"service":"n1"}` {
		t.Errorf("State = %s, %v", st, err)
	}
	if err := c.Reconfigure(t.Context(), Config{"b": "2"}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Call(t.Context(), "config", nil); err != nil || string(got) != `{"b":"2"}` {
		t.Errorf("config after Reconfigure = %s, %v", got, err)
	}
	if err := c.Reconfigure(t.Context(), Config{"restart": "y"}); !errors.Is(err, ErrRestart) {
		t.Errorf("Reconfigure asking a restart = %v", err)
	}
	if err := c.Reconfigure(t.Context(), Config{"bad": "y"}); err == nil || CodeOf(err) != CodeInvalid {
		t.Errorf("Reconfigure refused = %v (code %v)", err, CodeOf(err))
	}
	if err := c.Start(t.Context(), Start{}); err == nil {
		t.Error("Start (not StartService) of a service = nil")
	}
}

func TestServiceStartRefused(t *testing.T) {
	c, _, err := TestConnect(t, servicePlugin(KindDispatcher))
	if err != nil {
		t.Fatal(err)
	}
	err = c.StartService(t.Context(), Start{Service: "d", Config: Config{"refuse": "no port"}}, newRecordingHost())
	if CodeOf(err) != CodeInvalid || err.Error() != "plugin Start: refused: no port" {
		t.Errorf("refused start = %v (code %v)", err, CodeOf(err))
	}
	if err := c.StartService(t.Context(), Start{Service: "d"}, nil); err == nil {
		t.Error("StartService without a host = nil")
	}
}

// TestServiceErrorCodes sends every code both ways: from the service's
// Call to the gateway, and from the gateway's Host to the service.
func TestServiceErrorCodes(t *testing.T) {
	c := startEcho(t, newRecordingHost())
	cases := []struct {
		name string
		code Code
		want Code
	}{
		{"invalid", CodeInvalid, CodeInvalid},
		{"not found", CodeNotFound, CodeNotFound},
		{"conflict", CodeConflict, CodeConflict},
		{"unsupported", CodeUnsupported, CodeUnsupported},
		{"unavailable", CodeUnavailable, CodeUnavailable},
		{"failed", CodeFailed, CodeFailed},
		{"busy", CodeBusy, CodeBusy},
		{"internal", CodeInternal, CodeInternal},
		{"no code", 0, CodeInternal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// service → gateway
			_, err := c.Call(t.Context(), "fail", fmt.Appendf(nil, `{"code":%d}`, tc.code))
			wantMsg := fmt.Sprintf("wrapped: failure of code %d", tc.code)
			if tc.code == 0 {
				wantMsg = "a plain failure"
			}
			if CodeOf(err) != tc.want || err.Error() != wantMsg {
				t.Errorf("Call = %v (code %v), want %q of code %v", err, CodeOf(err), wantMsg, tc.want)
			}
			// gateway → service
			got, err := c.Call(t.Context(), "relay", fmt.Appendf(nil, `{"method":"code","body":%d}`, tc.code))
			if err != nil {
				t.Fatal(err)
			}
			var ans struct {
				Code    Code
				Message string
			}
			wantMsg = fmt.Sprintf("host failure of code %d", tc.code)
			if tc.code == 0 {
				wantMsg = "a plain host failure"
			}
			if err := json.Unmarshal(got, &ans); err != nil || ans.Code != tc.want || ans.Message != wantMsg {
				t.Errorf("the service saw %s, want %q of code %v", got, wantMsg, tc.want)
			}
		})
	}
	if _, err := c.Call(t.Context(), "nonesuch", nil); CodeOf(err) != CodeUnsupported || err.Error() != `no method "nonesuch"` {
		t.Errorf("unknown method = %v (code %v)", err, CodeOf(err))
	}
}

func TestHostCallInsideServiceCall(t *testing.T) {
	host := newRecordingHost()
	c := startEcho(t, host)
	got, err := c.Call(t.Context(), "relay", []byte(`{"method":"lookup","body":{"id":"x"}}`))
	if err != nil || string(got) != `{"body":{"id":"x"}}` {
		t.Fatalf("relay = %s, %v", got, err)
	}
	host.waitFor(t, `lookup {"id":"x"}`)
	// The host's error passes through the service unchanged when it
	// returns it: here the gateway has no such method.
	got, err = c.Call(t.Context(), "relay", []byte(`{"method":"nonesuch"}`))
	if err != nil || string(got) != `{"code":2,"message":"the gateway has no method \"nonesuch\""}` {
		t.Errorf("relay of an unknown host method = %s, %v", got, err)
	}
}

func TestCallEndsWithContext(t *testing.T) {
	host := blockingHost{entered: make(chan struct{}, 1)}
	c := startEcho(t, host)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// The caller gives up while the call is inside the gateway's host
	// (a deadline would race with the one the plugin's side derives from
	// it, which may end first and let the relay answer in time).
	go func() {
		<-host.entered
		cancel()
	}()
	_, err := c.Call(ctx, "relay", []byte(`{"method":"block"}`))
	if CodeOf(err) != CodeUnavailable || !errors.Is(err, context.Canceled) {
		t.Errorf("Call after its context ended = %v (code %v)", err, CodeOf(err))
	}
}

// blockingHost answers only when the call's ctx ends, and says on entered
// that a call came in.
type blockingHost struct{ entered chan struct{} }

func (h blockingHost) Call(ctx context.Context, _ string, _ []byte) ([]byte, error) {
	h.entered <- struct{}{}
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestServiceKindChecked(t *testing.T) {
	cases := []struct {
		name string
		p    Plugin
	}{
		{"service without NewService", Plugin{Info: Info{Name: "s", Version: "1", Kind: KindNotification}}},
		{"NewService of a south kind", Plugin{Info: Info{Name: "s", Version: "1", Kind: KindSouth},
			NewService: func() Service { return &echoService{} }}},
		{"NewService with North", Plugin{Info: Info{Name: "s", Version: "1", Kind: KindDispatcher}, North: &north{},
			NewService: func() Service { return &echoService{} }}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.p.check(); err == nil {
				t.Error("check = nil")
			}
		})
	}
	c, _, err := TestConnect(t, Plugin{Info: Info{Name: "n", Version: "1", Kind: KindNorth}, North: &north{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(t.Context(), "echo", nil); err == nil {
		t.Error("Call to a north plugin = nil")
	}
	if err := c.StartService(t.Context(), Start{}, newRecordingHost()); err == nil {
		t.Error("StartService of a north plugin = nil")
	}
}

func TestErrorfAndCodeOf(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want Code
	}{
		{"nil", nil, 0},
		{"plain", errors.New("x"), CodeInternal},
		{"coded", Errorf(CodeConflict, "x"), CodeConflict},
		{"wrapped", fmt.Errorf("ctx: %w", Errorf(CodeFailed, "x")), CodeFailed},
		{"unknown code", Errorf(Code(99), "x"), CodeInternal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := CodeOf(tc.err); got != tc.want {
				t.Errorf("CodeOf = %v, want %v", got, tc.want)
			}
		})
	}
	inner := errors.New("inner")
	if err := Errorf(CodeFailed, "outer: %w", inner); !errors.Is(err, inner) || err.Error() != "outer: inner" {
		t.Errorf("Errorf with %%w = %v", err)
	}
}

// launchSelf starts this test binary as a plugin process (TestMain).
func launchSelf(t *testing.T, host Host) *Process {
	t.Helper()
	p, err := Launch(t.Context(), os.Args[0], io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	if p.Info.Kind != KindDispatcher {
		t.Fatalf("info = %+v", p.Info)
	}
	if err := p.StartService(t.Context(), Start{Service: "d1"}, host); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestServiceProcessDies: calls to a process that died fail, promptly.
func TestServiceProcessDies(t *testing.T) {
	cases := []struct {
		name string
		kill func(t *testing.T, p *Process)
	}{
		{"exits during a call", func(t *testing.T, p *Process) {
			if _, err := p.Call(t.Context(), "exit", nil); err == nil {
				t.Error("the call the process died in = nil")
			}
		}},
		{"killed by SIGKILL", func(t *testing.T, p *Process) {
			if err := syscall.Kill(p.Pid(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			host := newRecordingHost()
			p := launchSelf(t, host)
			host.waitFor(t, `started {"service":"d1"}`)
			// The host is served across processes too.
			if got, err := p.Call(t.Context(), "relay", []byte(`{"method":"lookup","body":1}`)); err != nil || string(got) != `{"body":1}` {
				t.Fatalf("relay = %s, %v", got, err)
			}
			tc.kill(t, p)
			select {
			case <-p.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("Done is not closed 10 s after the process died")
			}
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			_, err := p.Call(ctx, "echo", []byte(`1`))
			if err == nil || ctx.Err() != nil {
				t.Fatalf("Call to a dead process = %v after %v", err, ctx.Err())
			}
			if CodeOf(err) != CodeUnavailable {
				t.Errorf("Call to a dead process = %v (code %v), want CodeUnavailable", err, CodeOf(err))
			}
			if _, err := p.State(ctx); err == nil {
				t.Error("State of a dead process = nil")
			}
		})
	}
}
