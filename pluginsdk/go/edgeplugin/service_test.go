package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	hplugin "github.com/hashicorp/go-plugin"
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
	p := Plugin{Info: Info{Name: "echo", Version: "1", Kind: kind, Persists: true}}
	if kind == KindNotification {
		p.NewNotification = func() Notification { return &echoNotification{} }
	} else {
		p.NewDispatcher = func() Dispatcher { return &echoDispatcher{} }
	}
	return p
}

// testConnect serves p in this process over a real gRPC connection, as
// package plugintest does (which this package's tests cannot import).
func testConnect(t testing.TB, p Plugin) (*Client, Info, error) {
	gp, err := GRPCPlugin(p)
	if err != nil {
		return nil, Info{}, err
	}
	client, _ := hplugin.TestPluginGRPCConn(t, false, hplugin.PluginSet{PluginName: gp})
	t.Cleanup(func() { _ = client.Close() })
	raw, err := client.Dispense(PluginName)
	if err != nil {
		return nil, Info{}, err
	}
	c := raw.(*Client)
	info, err := c.Describe(t.Context())
	return c, info, err
}

// life is the part of the echo services every kind shares.
type life struct {
	mu      sync.Mutex
	host    Host
	started Start
	config  Config
}

func (s *life) Start(ctx context.Context, st Start, host Host) error {
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
		details, _ := json.Marshal(map[string]string{"service": st.Service})
		_ = host.Audit(context.Background(), AuditEntry{Source: "START", Severity: "INFORMATION", Details: details})
	}()
	return nil
}

func (s *life) Reconfigure(_ context.Context, cfg Config) error {
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

func (s *life) State(context.Context) (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(map[string]any{"service": s.started.Service, "restored": s.started.State, "config": s.config})
}

func (s *life) gateway() Host {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.host
}

// echoDispatcher's Write does what the request's name says:
//
//	echo    answers one result per value, "name=value" in Asset
//	fail    fails with the code of value "code" (0: a plain error)
//	relay   writes its values through the host to service "code" and
//	        answers the host's error in a result: "code message"
//	exit    ends the process (without answering)
//
// Operate answers the operation and its parameters as Write's echo.
type echoDispatcher struct{ life }

func (d *echoDispatcher) Write(ctx context.Context, req ControlRequest) ([]ControlResult, error) {
	switch req.Name {
	case "fail":
		n, _ := strconv.Atoi(fmt.Sprint(req.Values["code"]))
		if n == 0 {
			return nil, errors.New("a plain failure")
		}
		return nil, fmt.Errorf("wrapped: %w", Errorf(Code(n), "failure of code %d", n))
	case "relay":
		err := d.gateway().Write(ctx, "code", "", req.Values)
		return []ControlResult{{Service: "relay", Error: fmt.Sprintf("%d %v", CodeOf(err), err)}}, nil
	case "exit":
		os.Exit(3)
	}
	return echoValues(req.Name, req.Values), nil
}

func (d *echoDispatcher) Operate(_ context.Context, req ControlRequest) ([]ControlResult, error) {
	return echoValues(req.Operation, req.Parameters), nil
}

// echoValues answers one result per value, sorted by name.
func echoValues(service string, values map[string]any) []ControlResult {
	out := []ControlResult{}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		out = append(out, ControlResult{Service: service, Asset: fmt.Sprintf("%s=%v (%T)", k, values[k], values[k])})
	}
	return out
}

// echoNotification records what it is handed and answers it back through
// the host: SetInstances audits each instance, Readings ingests them.
type echoNotification struct {
	life
	instances []NotificationInstance
}

func (n *echoNotification) Plugins(context.Context) (NotificationPlugins, error) {
	return NotificationPlugins{Rules: []NotificationPlugin{{Name: "threshold", Version: "1.0.0", Description: "d",
		Items: map[string]Item{"value": {Type: "float", Default: "1", Order: "1"}}}},
		Deliveries: []NotificationPlugin{{Name: "asset", Version: "1.0.0", Items: map[string]Item{}}}}, nil
}

func (n *echoNotification) Validate(_ context.Context, in NotificationInstance) error {
	if in.Rule != "threshold" {
		return Errorf(CodeInvalid, "no rule %q", in.Rule)
	}
	return nil
}

func (n *echoNotification) SetInstances(ctx context.Context, set []NotificationInstance) error {
	n.mu.Lock()
	n.instances = set
	n.mu.Unlock()
	for _, in := range set {
		details, _ := json.Marshal(in)
		if err := n.gateway().Audit(ctx, AuditEntry{Source: "INST", Severity: "INFORMATION", Details: details}); err != nil {
			return err
		}
	}
	return nil
}

func (n *echoNotification) Readings(ctx context.Context, rs []Reading) error {
	return n.gateway().Ingest(ctx, rs)
}

func (n *echoNotification) Audited(ctx context.Context, code string, at time.Time) error {
	details, _ := json.Marshal(map[string]any{"code": code, "at": at})
	return n.gateway().Audit(ctx, AuditEntry{Source: "SEEN", Severity: "INFORMATION", Details: details})
}

func (n *echoNotification) Statistics(ctx context.Context, at time.Time, counters map[string]int64) error {
	_, err := n.gateway().Dispatch(ctx, ControlRequest{Destination: "service", Name: "stats",
		Values: map[string]any{"readings": counters["READINGS"]}, Caller: at.Format(time.RFC3339)})
	return err
}

// recordingHost is a gateway's Host: it records every call as a line on
// seen; Write to service "code" fails with the code of its value "code"
// (0: a plain error), Services answers one service.
type recordingHost struct {
	seen chan string
}

func newRecordingHost() *recordingHost { return &recordingHost{seen: make(chan string, 64)} }

func (h *recordingHost) Audit(_ context.Context, e AuditEntry) error {
	h.seen <- fmt.Sprintf("audit %s %s %s", e.Source, e.Severity, e.Details)
	return nil
}

func (h *recordingHost) Ingest(_ context.Context, rs []Reading) error {
	for _, r := range rs {
		h.seen <- fmt.Sprintf("ingest %s %s %s", r.Asset, r.Timestamp.Format(time.RFC3339Nano), r.Values)
	}
	return nil
}

func (h *recordingHost) Dispatch(_ context.Context, req ControlRequest) ([]ControlResult, error) {
	h.seen <- fmt.Sprintf("dispatch %s %s %v %s", req.Destination, req.Name, req.Values, req.Caller)
	return []ControlResult{{Service: req.Name}}, nil
}

func (h *recordingHost) Services(context.Context) ([]ControlTarget, error) {
	return []ControlTarget{{Name: "s1", Plugin: "modbus", Running: true, Writes: true, Assets: []string{"a"}}}, nil
}

func (h *recordingHost) Write(_ context.Context, service, asset string, values map[string]any) error {
	if service == "code" {
		n, _ := strconv.Atoi(fmt.Sprint(values["code"]))
		if n == 0 {
			return errors.New("a plain host failure")
		}
		return Errorf(Code(n), "host failure of code %d", n)
	}
	h.seen <- fmt.Sprintf("write %s %s %v", service, asset, values)
	return nil
}

func (h *recordingHost) Operate(_ context.Context, service, operation string, params map[string]any) error {
	h.seen <- fmt.Sprintf("operate %s %s %v", service, operation, params)
	return nil
}

// waitFor waits for the host to see want, failing after a while.
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

func startService(t *testing.T, kind string, host Host) *Client {
	t.Helper()
	c, info, err := testConnect(t, servicePlugin(kind))
	if err != nil || info.Kind != kind {
		t.Fatalf("connect: %+v, %v", info, err)
	}
	if err := c.StartService(t.Context(), Start{Service: "n1", Config: Config{"a": "1"}, State: json.RawMessage(`{"n":7}`)}, host); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDispatcherRoundTrip(t *testing.T) {
	host := newRecordingHost()
	c := startService(t, KindDispatcher, host)
	host.waitFor(t, `audit START INFORMATION {"service":"n1"}`)
	d := c.Dispatcher()
	// An integer beyond 2^53 keeps every digit; Go numbers become
	// json.Number; strings and booleans stay.
	got, err := d.Write(t.Context(), ControlRequest{Destination: "service", Name: "echo", Caller: "admin",
		Values: map[string]any{"big": json.Number("9007199254740993"), "f": 1.5, "i": 7, "s": "on", "b": true}})
	want := []ControlResult{{"echo", "b=true (bool)", ""}, {"echo", "big=9007199254740993 (json.Number)", ""},
		{"echo", "f=1.5 (json.Number)", ""}, {"echo", "i=7 (json.Number)", ""}, {"echo", "s=on (string)", ""}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Write = %+v, %v; want %+v", got, err, want)
	}
	got, err = d.Operate(t.Context(), ControlRequest{Destination: "broadcast", Operation: "reset", Parameters: map[string]any{"n": json.Number("-2e3")}})
	if err != nil || !reflect.DeepEqual(got, []ControlResult{{"reset", "n=-2e3 (json.Number)", ""}}) {
		t.Errorf("Operate = %+v, %v", got, err)
	}
	for _, bad := range []any{json.Number("0x10"), json.Number(""), []int{1}, nil} {
		if _, err := d.Write(t.Context(), ControlRequest{Name: "echo", Values: map[string]any{"v": bad}}); CodeOf(err) != CodeInvalid {
			t.Errorf("Write of %#v = %v (code %v), want CodeInvalid", bad, err, CodeOf(err))
		}
	}
	if st, err := c.State(t.Context()); err != nil || string(st) != `{"config":{"a":"1"},"restored":{"n":7},"service":"n1"}` {
		t.Errorf("State = %s, %v", st, err)
	}
	if err := c.Reconfigure(t.Context(), Config{"b": "2"}); err != nil {
		t.Fatal(err)
	}
	if st, err := c.State(t.Context()); err != nil || !strings.Contains(string(st), `"config":{"b":"2"}`) {
		t.Errorf("State after Reconfigure = %s, %v", st, err)
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

func TestNotificationRoundTrip(t *testing.T) {
	host := newRecordingHost()
	c := startService(t, KindNotification, host)
	n := c.Notification()
	ps, err := n.Plugins(t.Context())
	if err != nil || len(ps.Rules) != 1 || ps.Rules[0].Items["value"].Default != "1" || len(ps.Deliveries) != 1 || ps.Deliveries[0].Name != "asset" {
		t.Fatalf("Plugins = %+v, %v", ps, err)
	}
	in := NotificationInstance{Name: "hot", Description: "d", Rule: "threshold", RuleConfig: map[string]string{"value": "80"},
		Channels: []NotificationChannel{{Name: "hot", Plugin: "asset", Config: map[string]string{"asset": "alerts"}}},
		Type:     "retriggered", Enabled: true, RetriggerTime: 1500 * time.Millisecond}
	if err := n.Validate(t.Context(), in); err != nil {
		t.Fatal(err)
	}
	bad := in
	bad.Rule = "magic"
	if err := n.Validate(t.Context(), bad); CodeOf(err) != CodeInvalid || err.Error() != `no rule "magic"` {
		t.Errorf("Validate of a bad instance = %v (code %v)", err, CodeOf(err))
	}
	bad.Rule, bad.RetriggerTime = "threshold", -time.Second
	if err := n.Validate(t.Context(), bad); CodeOf(err) != CodeInvalid {
		t.Errorf("Validate of a negative retrigger time = %v (code %v)", err, CodeOf(err))
	}
	if err := n.SetInstances(t.Context(), []NotificationInstance{in}); err != nil {
		t.Fatal(err)
	}
	wantIn, _ := json.Marshal(in)
	host.waitFor(t, "audit INST INFORMATION "+string(wantIn))
	ts := time.Date(2026, 11, 26, 10, 0, 0, 500, time.UTC)
	r, _ := NewReading("boiler", ts, map[string]any{"temp": 99})
	if err := n.Readings(t.Context(), []Reading{r}); err != nil {
		t.Fatal(err)
	}
	host.waitFor(t, `ingest boiler 2026-11-26T10:00:00.0000005Z {"temp":99}`)
	if err := n.Readings(t.Context(), []Reading{{Asset: "boiler", Timestamp: ts, Values: json.RawMessage(`[1]`)}}); CodeOf(err) != CodeInvalid {
		t.Errorf("Readings whose values are no object = %v (code %v)", err, CodeOf(err))
	}
	if err := n.Audited(t.Context(), "SRVFL", ts); err != nil {
		t.Fatal(err)
	}
	host.waitFor(t, `audit SEEN INFORMATION {"at":"2026-11-26T10:00:00.0000005Z","code":"SRVFL"}`)
	if err := n.Audited(t.Context(), "", ts); CodeOf(err) != CodeInvalid {
		t.Errorf("Audited without a code = %v", err)
	}
	if err := n.Statistics(t.Context(), ts, map[string]int64{"READINGS": 12}); err != nil {
		t.Fatal(err)
	}
	host.waitFor(t, `dispatch service stats map[readings:12] 2026-11-26T10:00:00Z`)
}

func TestServiceStartRefused(t *testing.T) {
	c, _, err := testConnect(t, servicePlugin(KindDispatcher))
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

// TestServiceErrorCodes sends every code both ways: from the service to
// the gateway, and from the gateway's Host to the service.
func TestServiceErrorCodes(t *testing.T) {
	d := startService(t, KindDispatcher, newRecordingHost()).Dispatcher()
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
			values := map[string]any{"code": int(tc.code)}
			// service → gateway
			_, err := d.Write(t.Context(), ControlRequest{Name: "fail", Values: values})
			wantMsg := fmt.Sprintf("wrapped: failure of code %d", tc.code)
			if tc.code == 0 {
				wantMsg = "a plain failure"
			}
			if CodeOf(err) != tc.want || err.Error() != wantMsg {
				t.Errorf("Write = %v (code %v), want %q of code %v", err, CodeOf(err), wantMsg, tc.want)
			}
			// gateway → service
			got, err := d.Write(t.Context(), ControlRequest{Name: "relay", Values: values})
			if err != nil {
				t.Fatal(err)
			}
			wantMsg = fmt.Sprintf("%d host failure of code %d", tc.want, tc.code)
			if tc.code == 0 {
				wantMsg = fmt.Sprintf("%d a plain host failure", tc.want)
			}
			if len(got) != 1 || got[0].Error != wantMsg {
				t.Errorf("the service saw %+v, want %q", got, wantMsg)
			}
		})
	}
}

func TestHostCallsEndWithContext(t *testing.T) {
	host := &blockingHost{entered: make(chan struct{}, 1)}
	d := startService(t, KindDispatcher, host).Dispatcher()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// The caller gives up while the call is inside the gateway's host
	// (a deadline would race with the one the plugin's side derives from
	// it, which may end first and let the relay answer in time).
	go func() {
		<-host.entered
		cancel()
	}()
	_, err := d.Write(ctx, ControlRequest{Name: "relay"})
	if CodeOf(err) != CodeUnavailable || !errors.Is(err, context.Canceled) {
		t.Errorf("Write after its context ended = %v (code %v)", err, CodeOf(err))
	}
}

// blockingHost's Write answers only when the call's ctx ends, and says on
// entered that a call came in.
type blockingHost struct {
	UnsupportedHost
	entered chan struct{}
}

func (h *blockingHost) Write(ctx context.Context, _, _ string, _ map[string]any) error {
	h.entered <- struct{}{}
	<-ctx.Done()
	return ctx.Err()
}

func TestServiceKindChecked(t *testing.T) {
	cases := []struct {
		name string
		p    Plugin
	}{
		{"service without its constructor", Plugin{Info: Info{Name: "s", Version: "1", Kind: KindNotification}}},
		{"dispatcher constructor for a notification", Plugin{Info: Info{Name: "s", Version: "1", Kind: KindNotification},
			NewDispatcher: func() Dispatcher { return &echoDispatcher{} }}},
		{"service constructor of a south kind", Plugin{Info: Info{Name: "s", Version: "1", Kind: KindSouth},
			NewNotification: func() Notification { return &echoNotification{} }}},
		{"service constructor with North", Plugin{Info: Info{Name: "s", Version: "1", Kind: KindDispatcher}, North: &north{},
			NewDispatcher: func() Dispatcher { return &echoDispatcher{} }}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.p.check(); err == nil {
				t.Error("check = nil")
			}
		})
	}
	c, _, err := testConnect(t, Plugin{Info: Info{Name: "n", Version: "1", Kind: KindNorth}, North: &north{}})
	if err != nil {
		t.Fatal(err)
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
			if _, err := p.Dispatcher().Write(t.Context(), ControlRequest{Name: "exit"}); err == nil {
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
			host.waitFor(t, `audit START INFORMATION {"service":"d1"}`)
			// The host is served across processes too.
			got, err := p.Dispatcher().Write(t.Context(), ControlRequest{Name: "relay", Values: map[string]any{"code": 2}})
			if err != nil || len(got) != 1 || got[0].Error != "2 host failure of code 2" {
				t.Fatalf("relay = %+v, %v", got, err)
			}
			tc.kill(t, p)
			select {
			case <-p.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("Done is not closed 10 s after the process died")
			}
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			_, err = p.Dispatcher().Write(ctx, ControlRequest{Name: "echo"})
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
