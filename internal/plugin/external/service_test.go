package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// buildTestService builds testdata/svcplugin, a dispatcher service.
func buildTestService(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "svcplugin")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./testdata/svcplugin")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the test service: %v: %s", err, b)
	}
	return bin
}

// gatewayHost is the gateway's ServiceHost of the tests: it answers
// "lookup" with the body, "fault" with the fault of the kind named in the
// body, "panic" by panicking, and reports every call on seen.
type gatewayHost struct{ seen chan string }

var kindsByName = map[string]*fault.Kind{"invalid": fault.Invalid, "not found": fault.NotFound,
	"conflict": fault.Conflict, "unavailable": fault.Unavailable, "bad gateway": fault.BadGateway,
	"not implemented": fault.NotImplemented, "forbidden": fault.Forbidden}

func (h *gatewayHost) Call(_ context.Context, method string, body []byte) ([]byte, error) {
	select {
	case h.seen <- method + " " + string(body):
	default:
	}
	switch method {
	case "lookup", "started":
		return body, nil
	case "fault":
		var name string
		if err := json.Unmarshal(body, &name); err != nil {
			return nil, err
		}
		if name == "plain" {
			return nil, errors.New("a plain gateway failure")
		}
		return nil, fault.Wrap(kindsByName[name], errors.New("private cause"), "gateway fault %s", name)
	case "panic":
		panic("the host broke")
	}
	return nil, fault.New(fault.NotFound, "no gateway method %q", method)
}

func (h *gatewayHost) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case got := <-h.seen:
			if got == want {
				return
			}
		case <-deadline:
			t.Fatalf("the gateway saw no call %q", want)
		}
	}
}

// waitRunning waits until svc's process has started: until a call is no
// longer refused as made to a service that is not running.
func waitRunning(t *testing.T, svc plugin.Service) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := svc.Call(t.Context(), "echo", nil)
		if !errors.Is(err, fault.Unavailable) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the service does not answer 20 s after it started: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServicePlugin runs a dispatcher service in its own process through
// the host-side adapter: start with restored state, calls both ways, the
// error mapping, a clean stop with the state taken, and a kill -9.
func TestServicePlugin(t *testing.T) {
	bin := buildTestService(t)
	def, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if def.Name != "test_dispatcher" || def.Kind != plugin.KindDispatcher || !def.Persists || def.NewService == nil {
		t.Fatalf("definition = %+v", def)
	}
	host := &gatewayHost{seen: make(chan string, 64)}
	env := plugin.ServiceEnv{Env: plugin.Env{Service: "dispatch1", Clock: clock.Real{}, Logger: slog.New(slog.DiscardHandler)}, Host: host}
	svc, err := def.NewService(env, plugin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := svc.(plugin.Persister)
	if !ok {
		t.Fatalf("an instance of a persisting service is a %T, no Persister", svc)
	}
	if err := p.Restore(json.RawMessage(`{"count":5}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Call(t.Context(), "echo", nil); !errors.Is(err, fault.Unavailable) {
		t.Errorf("Call before the start = %v, want fault.Unavailable", err)
	}
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(ctx) }()
	// The process tells the gateway it started, from a goroutine of its
	// own after Start, with the state restored.
	host.waitFor(t, `started {"count":5,"service":"dispatch1"}`)
	// That call can reach the gateway before the answer to Start does,
	// on a busy machine: the service is running once it answers.
	waitRunning(t, svc)

	t.Run("calls", func(t *testing.T) {
		if got, err := svc.Call(t.Context(), "echo", []byte(`{"a":[1,"b"]}`)); err != nil || string(got) != `{"a":[1,"b"]}` {
			t.Errorf("echo = %s, %v", got, err)
		}
		if got, err := svc.Call(t.Context(), "count", nil); err != nil || string(got) != "6" {
			t.Errorf("count = %s, %v; want 6, the restored 5 plus one", got, err)
		}
		// The gateway called back from inside a call of the gateway.
		if got, err := svc.Call(t.Context(), "ask", []byte(`{"method":"lookup","body":{"id":7}}`)); err != nil || string(got) != `{"body":{"id":7}}` {
			t.Errorf("ask = %s, %v", got, err)
		}
		if err := svc.Reconfigure(t.Context(), plugin.Config{"restart": "1"}); !errors.Is(err, plugin.ErrRestart) {
			t.Errorf("Reconfigure asking a restart = %v", err)
		}
		if err := svc.Reconfigure(t.Context(), plugin.Config{}); err != nil {
			t.Errorf("Reconfigure = %v", err)
		}
	})

	// What a service's error becomes in the gateway.
	t.Run("service errors", func(t *testing.T) {
		cases := []struct {
			name string
			code edgeplugin.Code
			kind *fault.Kind // nil: a plain error
		}{
			{"invalid", edgeplugin.CodeInvalid, fault.Invalid},
			{"not found", edgeplugin.CodeNotFound, fault.NotFound},
			{"conflict", edgeplugin.CodeConflict, fault.Conflict},
			{"unsupported", edgeplugin.CodeUnsupported, fault.Invalid},
			{"unavailable", edgeplugin.CodeUnavailable, fault.Unavailable},
			{"failed at the device", edgeplugin.CodeFailed, fault.BadGateway},
			{"busy", edgeplugin.CodeBusy, fault.TooMany},
			{"internal", edgeplugin.CodeInternal, nil},
			{"without a code", 0, nil},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := svc.Call(t.Context(), "fail", fmt.Appendf(nil, `{"code":%d}`, tc.code))
				f, isFault := fault.As(err)
				switch {
				case err == nil:
					t.Fatal("Call = nil")
				case tc.kind == nil && isFault:
					t.Errorf("Call = fault %v %q, want a plain error", f.Kind, f.Message)
				case tc.kind == nil && !strings.Contains(err.Error(), "failure"):
					t.Errorf("Call = %v, want the plugin's message", err)
				case tc.kind != nil && (!isFault || f.Kind != tc.kind || f.Message != fmt.Sprintf("failure of code %d", tc.code)):
					t.Errorf("Call = %#v, want a fault %v with the plugin's message", err, tc.kind)
				}
			})
		}
		_, err := svc.Call(t.Context(), "nonesuch", nil)
		if f, ok := fault.As(err); !ok || f.Kind != fault.Invalid || f.Message != `no method "nonesuch"` {
			t.Errorf("an unsupported method = %v, want fault.Invalid with the plugin's message", err)
		}
	})

	// What the gateway's error becomes in the process, and back.
	t.Run("gateway errors", func(t *testing.T) {
		cases := []struct {
			name    string
			code    edgeplugin.Code
			message string
		}{
			{"invalid", edgeplugin.CodeInvalid, "gateway fault invalid"},
			{"not found", edgeplugin.CodeNotFound, "gateway fault not found"},
			{"conflict", edgeplugin.CodeConflict, "gateway fault conflict"},
			{"unavailable", edgeplugin.CodeUnavailable, "gateway fault unavailable"},
			{"bad gateway", edgeplugin.CodeFailed, "gateway fault bad gateway"},
			{"not implemented", edgeplugin.CodeUnsupported, "gateway fault not implemented"},
			{"forbidden", edgeplugin.CodeInternal, "gateway fault forbidden"},
			{"plain", edgeplugin.CodeInternal, "a plain gateway failure"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got, err := svc.Call(t.Context(), "ask", fmt.Appendf(nil, `{"method":"fault","body":%q}`, tc.name))
				if err != nil {
					t.Fatal(err)
				}
				var seen struct {
					Code    edgeplugin.Code
					Message string
				}
				if err := json.Unmarshal(got, &seen); err != nil || seen.Code != tc.code || seen.Message != tc.message {
					t.Errorf("the process saw %s, want %q of code %v", got, tc.message, tc.code)
				}
			})
		}
		// A fault of the gateway returned by the service as it is comes
		// back as the same fault.
		_, err := svc.Call(t.Context(), "relay", []byte(`{"method":"fault","body":"conflict"}`))
		if f, ok := fault.As(err); !ok || f.Kind != fault.Conflict || f.Message != "gateway fault conflict" {
			t.Errorf("relayed conflict = %v", err)
		}
		// A panic of the gateway's host is an internal error, not the
		// gateway's end.
		got, err := svc.Call(t.Context(), "ask", []byte(`{"method":"panic"}`))
		if err != nil || !strings.Contains(string(got), `"code":7`) || !strings.Contains(string(got), "the host broke") {
			t.Errorf("ask of a panicking host = %s, %v", got, err)
		}
	})

	stop()
	select {
	case err := <-ran:
		if err != nil {
			t.Fatalf("Run after its ctx ended = %v, want nil", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return 20 s after its ctx ended")
	}
	if st, err := p.State(); err != nil || string(st) != `{"count":6}` {
		t.Errorf("state after the run = %s, %v", st, err)
	}
	if _, err := svc.Call(t.Context(), "echo", nil); !errors.Is(err, fault.Unavailable) {
		t.Errorf("Call after the run = %v, want fault.Unavailable", err)
	}
}

// TestServiceProcessKilled: a kill -9 of the process ends Run with an
// error, and calls fail, instead of hanging.
func TestServiceProcessKilled(t *testing.T) {
	bin := buildTestService(t)
	def, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	host := &gatewayHost{seen: make(chan string, 64)}
	svc, err := def.NewService(plugin.ServiceEnv{Env: plugin.Env{Service: "d2"}, Host: host}, plugin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	opener, ok := svc.(plugin.Opener)
	if !ok {
		t.Fatalf("a service instance is a %T, no Opener", svc)
	}
	if err := opener.Open(t.Context()); err != nil {
		t.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(t.Context()) }()
	host.waitFor(t, `started {"count":0,"service":"d2"}`)
	inner := svc.(*persistingService).extService
	inner.mu.Lock()
	pid := inner.proc.Pid()
	inner.mu.Unlock()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ran:
		if err == nil {
			t.Error("Run after a kill -9 of the process = nil, want an error")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return 20 s after a kill -9 of the process")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := svc.Call(ctx, "echo", nil); !errors.Is(err, fault.Unavailable) || ctx.Err() != nil {
		t.Errorf("Call after the kill = %v, want fault.Unavailable at once", err)
	}
}

func TestServiceStartRefused(t *testing.T) {
	bin := buildTestService(t)
	def, err := Load(t.Context(), bin, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := def.NewService(plugin.ServiceEnv{}, plugin.Config{}); err == nil {
		t.Error("NewService without a ServiceHost = nil")
	}
	svc, err := def.NewService(plugin.ServiceEnv{Env: plugin.Env{Service: "d3"}, Host: &gatewayHost{seen: make(chan string, 8)}},
		plugin.Config{"refuse": "no route"})
	if err != nil {
		t.Fatal(err)
	}
	err = svc.Run(t.Context())
	if f, ok := fault.As(err); !ok || f.Kind != fault.Invalid || !strings.Contains(f.Message, "refused: no route") {
		t.Errorf("Run of a service that refuses to start = %v", err)
	}
}

// TestCodeKindTable checks the one table both ways, without processes.
func TestCodeKindTable(t *testing.T) {
	toKind := []struct {
		code edgeplugin.Code
		kind *fault.Kind
	}{
		{edgeplugin.CodeInvalid, fault.Invalid},
		{edgeplugin.CodeNotFound, fault.NotFound},
		{edgeplugin.CodeConflict, fault.Conflict},
		{edgeplugin.CodeUnsupported, fault.Invalid},
		{edgeplugin.CodeUnavailable, fault.Unavailable},
		{edgeplugin.CodeFailed, fault.BadGateway},
		{edgeplugin.CodeBusy, fault.TooMany},
		{edgeplugin.CodeInternal, nil},
	}
	for _, tc := range toKind {
		t.Run("code "+tc.code.String(), func(t *testing.T) {
			err := serviceFault("p", edgeplugin.Errorf(tc.code, "m"))
			f, ok := fault.As(err)
			switch {
			case tc.kind == nil && ok:
				t.Errorf("= fault %v, want a plain error", f.Kind)
			case tc.kind != nil && (!ok || f.Kind != tc.kind || f.Message != "m"):
				t.Errorf("= %v, want fault %v %q", err, tc.kind, "m")
			case tc.kind == fault.TooMany && f.RetryAfterSeconds < 1:
				t.Errorf("a busy service's fault has no Retry-After: %+v", f)
			}
		})
	}
	toCode := []struct {
		name string
		err  error
		code edgeplugin.Code
	}{
		{"invalid", fault.New(fault.Invalid, "m"), edgeplugin.CodeInvalid},
		{"not found", fault.New(fault.NotFound, "m"), edgeplugin.CodeNotFound},
		{"conflict", fault.New(fault.Conflict, "m"), edgeplugin.CodeConflict},
		{"unavailable", fault.New(fault.Unavailable, "m"), edgeplugin.CodeUnavailable},
		{"too many", fault.New(fault.TooMany, "m"), edgeplugin.CodeBusy},
		{"bad gateway", fault.New(fault.BadGateway, "m"), edgeplugin.CodeFailed},
		{"not implemented", fault.New(fault.NotImplemented, "m"), edgeplugin.CodeUnsupported},
		{"wrapped fault", fmt.Errorf("wrapped: %w", fault.New(fault.NotFound, "m")), edgeplugin.CodeNotFound},
		{"kind without a code", fault.New(fault.Unauthorized, "m"), edgeplugin.CodeInternal},
		{"plain error", errors.New("m"), edgeplugin.CodeInternal},
	}
	for _, tc := range toCode {
		t.Run("kind "+tc.name, func(t *testing.T) {
			err := hostError(tc.err)
			if edgeplugin.CodeOf(err) != tc.code || err.Error() != "m" {
				t.Errorf("= %v of code %v, want code %v", err, edgeplugin.CodeOf(err), tc.code)
			}
		})
	}
}
