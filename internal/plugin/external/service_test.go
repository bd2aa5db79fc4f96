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

// gatewayHost is the gateway's ServiceHost of the tests: its Write to
// service "lookup" succeeds, to "fault" fails with the fault of the kind
// named by the asset, to "panic" panics; its Audit reports each entry on
// seen as "<source> <details>".
type gatewayHost struct {
	edgeplugin.UnsupportedHost
	seen chan string
}

var kindsByName = map[string]*fault.Kind{"invalid": fault.Invalid, "not found": fault.NotFound,
	"conflict": fault.Conflict, "unavailable": fault.Unavailable, "bad gateway": fault.BadGateway,
	"not implemented": fault.NotImplemented, "forbidden": fault.Forbidden}

func (h *gatewayHost) Audit(_ context.Context, e edgeplugin.AuditEntry) error {
	select {
	case h.seen <- e.Source + " " + string(e.Details):
	default:
	}
	return nil
}

func (h *gatewayHost) Write(_ context.Context, service, asset string, _ map[string]any) error {
	switch service {
	case "lookup":
		return nil
	case "fault":
		if asset == "plain" {
			return errors.New("a plain gateway failure")
		}
		return fault.Wrap(kindsByName[asset], errors.New("private cause"), "gateway fault %s", asset)
	case "panic":
		panic("the host broke")
	}
	return fault.New(fault.NotFound, "no gateway service %q", service)
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

// write makes a control write of the test service named name.
func write(t *testing.T, svc plugin.Service, name, destination string, values map[string]any) ([]edgeplugin.ControlResult, error) {
	t.Helper()
	d, ok := svc.(plugin.DispatcherService)
	if !ok {
		t.Fatalf("an instance of a dispatcher service is a %T, no DispatcherService", svc)
	}
	return d.Write(t.Context(), edgeplugin.ControlRequest{Name: name, Destination: destination, Values: values})
}

// waitRunning waits until svc's process has started: until a call is no
// longer refused as made to a service that is not running.
func waitRunning(t *testing.T, svc plugin.Service) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := write(t, svc, "ask", "lookup", nil)
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
	if _, err := write(t, svc, "count", "", nil); !errors.Is(err, fault.Unavailable) {
		t.Errorf("Write before the start = %v, want fault.Unavailable", err)
	}
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(ctx) }()
	// The process tells the gateway it started, from a goroutine of its
	// own after Start, with the state restored.
	host.waitFor(t, `CTLWR {"count":5,"service":"dispatch1"}`)
	// That call can reach the gateway before the answer to Start does,
	// on a busy machine: the service is running once it answers.
	waitRunning(t, svc)

	t.Run("calls", func(t *testing.T) {
		if got, err := write(t, svc, "count", "", nil); err != nil || len(got) != 1 || got[0].Asset != "6" {
			t.Errorf("count = %+v, %v; want 6, the restored 5 plus one", got, err)
		}
		// The gateway called back from inside a call of the gateway.
		if got, err := write(t, svc, "ask", "lookup", nil); err != nil || len(got) != 1 || got[0].Error != "" {
			t.Errorf("ask = %+v, %v", got, err)
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
				_, err := write(t, svc, "fail", "", map[string]any{"code": int(tc.code)})
				f, isFault := fault.As(err)
				switch {
				case err == nil:
					t.Fatal("Write = nil")
				case tc.kind == nil && isFault:
					t.Errorf("Write = fault %v %q, want a plain error", f.Kind, f.Message)
				case tc.kind == nil && !strings.Contains(err.Error(), "failure"):
					t.Errorf("Write = %v, want the plugin's message", err)
				case tc.kind != nil && (!isFault || f.Kind != tc.kind || f.Message != fmt.Sprintf("failure of code %d", tc.code)):
					t.Errorf("Write = %#v, want a fault %v with the plugin's message", err, tc.kind)
				}
			})
		}
		_, err := write(t, svc, "nonesuch", "", nil)
		if f, ok := fault.As(err); !ok || f.Kind != fault.Invalid || f.Message != `no request "nonesuch"` {
			t.Errorf("an unsupported request = %v, want fault.Invalid with the plugin's message", err)
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
				got, err := write(t, svc, "ask", "fault", map[string]any{"asset": tc.name})
				if err != nil {
					t.Fatal(err)
				}
				if want := fmt.Sprintf("%d %s", tc.code, tc.message); len(got) != 1 || got[0].Error != want {
					t.Errorf("the process saw %+v, want %q", got, want)
				}
			})
		}
		// A fault of the gateway returned by the service as it is comes
		// back as the same fault.
		_, err := write(t, svc, "relay", "fault", map[string]any{"asset": "conflict"})
		if f, ok := fault.As(err); !ok || f.Kind != fault.Conflict || f.Message != "gateway fault conflict" {
			t.Errorf("relayed conflict = %v", err)
		}
		// A panic of the gateway's host is an internal error, not the
		// gateway's end.
		got, err := write(t, svc, "ask", "panic", nil)
		if err != nil || len(got) != 1 || !strings.HasPrefix(got[0].Error, "7 ") || !strings.Contains(got[0].Error, "the host broke") {
			t.Errorf("ask of a panicking host = %+v, %v", got, err)
		}
	})

	// A plugin that never answers a changed configuration fails the
	// change after callWait instead of holding the configuration write.
	t.Run("hung plugin", func(t *testing.T) {
		defer func(w time.Duration) { callWait = w }(callWait)
		callWait = 500 * time.Millisecond
		done := make(chan error, 1)
		go func() { done <- svc.Reconfigure(context.Background(), plugin.Config{"hang": "1"}) }()
		select {
		case err := <-done:
			if !errors.Is(err, fault.Unavailable) {
				t.Errorf("Reconfigure of a hung plugin = %v, want fault.Unavailable", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("Reconfigure of a hung plugin did not return in 20 s")
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
	if _, err := write(t, svc, "count", "", nil); !errors.Is(err, fault.Unavailable) {
		t.Errorf("Write after the run = %v, want fault.Unavailable", err)
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
	host.waitFor(t, `CTLWR {"count":0,"service":"d2"}`)
	inner := svc.(persistingDispatcher).extService
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
	if _, err := svc.(plugin.DispatcherService).Write(ctx, edgeplugin.ControlRequest{Name: "count"}); !errors.Is(err, fault.Unavailable) || ctx.Err() != nil {
		t.Errorf("Write after the kill = %v, want fault.Unavailable at once", err)
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

// TestServiceFault: a service's error of a code with a fault kind is
// that fault; one without (CodeInternal) names the plugin.
func TestServiceFault(t *testing.T) {
	if f, ok := fault.As(serviceFault("p", edgeplugin.Errorf(edgeplugin.CodeBusy, "m"))); !ok || f.Kind != fault.TooMany || f.Message != "m" {
		t.Errorf("a busy service = %v", f)
	}
	if err := serviceFault("p", edgeplugin.Errorf(edgeplugin.CodeInternal, "m")); err.Error() != `service plugin "p": m` {
		t.Errorf("an internal error = %v", err)
	}
	if serviceFault("p", nil) != nil {
		t.Error("serviceFault(nil) != nil")
	}
}
