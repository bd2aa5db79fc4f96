package external

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// dispatchHost is the gateway's Host of the Python dispatcher example:
// one south service "valve" that writes, with asset "tank"; it records
// the writes and reports each audit entry on seen.
type dispatchHost struct {
	edgeplugin.UnsupportedHost
	seen chan edgeplugin.AuditEntry

	mu     sync.Mutex
	writes []string
}

func (h *dispatchHost) Services(context.Context) ([]edgeplugin.ControlTarget, error) {
	return []edgeplugin.ControlTarget{{Name: "valve", Plugin: "valve", Running: true, Writes: true, Assets: []string{"tank"}}}, nil
}

func (h *dispatchHost) Write(_ context.Context, service, asset string, values map[string]any) error {
	if values["setpoint"] == nil {
		return fault.New(fault.Invalid, "no setpoint")
	}
	b, _ := json.Marshal(values)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.writes = append(h.writes, service+"/"+asset+" "+string(b))
	return nil
}

func (h *dispatchHost) Audit(_ context.Context, e edgeplugin.AuditEntry) error {
	h.seen <- e
	return nil
}

// TestPythonDispatcherService runs the Python SDK's dispatcher example as
// a dispatcher service through the host-side adapter: the gateway calls
// its Dispatcher.Write, and the process calls the gateway's Host
// (Services, Write, Audit) through go-plugin's broker.
func TestPythonDispatcherService(t *testing.T) {
	if sdkPython(t) == "" {
		t.Skip("no plugin SDK Python")
	}
	sdk, err := filepath.Abs("../../../pluginsdk/python")
	if err != nil {
		t.Fatal(err)
	}
	def, err := Load(t.Context(), filepath.Join(sdk, "examples", "dispatcher", "plugin"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if def.Name != "dispatcher_py" || def.Kind != plugin.KindDispatcher || !def.Persists || def.NewService == nil {
		t.Fatalf("definition = %+v", def)
	}
	host := &dispatchHost{seen: make(chan edgeplugin.AuditEntry, 16)}
	env := plugin.ServiceEnv{Env: plugin.Env{Service: "dispatch1", Clock: clock.Real{}, Logger: slog.New(slog.DiscardHandler)}, Host: host}
	svc, err := def.NewService(env, plugin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := svc.(plugin.Persister)
	if err := p.Restore(json.RawMessage(`{"requests":4}`)); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(ctx) }()

	// The first call may come before the process has started.
	var got []edgeplugin.ControlResult
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err = write(t, svc, "tank", "asset", map[string]any{"setpoint": 21.5})
		if !errors.Is(err, fault.Unavailable) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil || len(got) != 1 || got[0].Service != "valve" || got[0].Asset != "tank" || got[0].Error != "" {
		t.Fatalf("Write = %+v, %v", got, err)
	}
	host.mu.Lock()
	writes := append([]string(nil), host.writes...)
	host.mu.Unlock()
	if len(writes) != 1 || writes[0] != `valve/tank {"setpoint":21.5}` {
		t.Errorf("the gateway's Host saw writes %q", writes)
	}
	select {
	case e := <-host.seen:
		var d map[string]any
		if err := json.Unmarshal(e.Details, &d); e.Source != "CTLWR" || e.Severity != "SUCCESS" || err != nil || d["service"] != "dispatch1" {
			t.Errorf("audit entry = %s %s %s", e.Source, e.Severity, e.Details)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the service wrote no audit entry")
	}

	// The gateway's refusal reaches the process and comes back as the
	// result's error; the service's own refusal is the gateway's fault.
	got, err = write(t, svc, "valve", "service", map[string]any{"other": true})
	if err != nil || len(got) != 1 || got[0].Error != "no setpoint" {
		t.Errorf("Write refused by the host = %+v, %v", got, err)
	}
	<-host.seen
	if _, err := write(t, svc, "pump", "service", map[string]any{"setpoint": 1}); !errors.Is(err, fault.NotFound) {
		t.Errorf("Write to no service = %v, want fault.NotFound", err)
	}
	if _, err := write(t, svc, "tank", "asset", nil); !errors.Is(err, fault.Invalid) {
		t.Errorf("Write without values = %v, want fault.Invalid", err)
	}

	stop()
	select {
	case err := <-ran:
		if err != nil {
			t.Fatalf("Run after its ctx ended = %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return 20 s after its ctx ended")
	}
	// 4 restored, 3 requests taken (the one without values was refused
	// before it counted).
	st, err := p.State()
	var state struct{ Requests int }
	if err != nil || json.Unmarshal(st, &state) != nil || state.Requests != 7 {
		t.Errorf("state after the run = %s, %v", st, err)
	}
}
