package main

import (
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// fakeGateway is the Host the test serves to the process: it records
// calls.
type fakeGateway struct {
	edgeplugin.UnsupportedHost
	mu    sync.Mutex
	calls []string
}

func (g *fakeGateway) record(call string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, call)
}

func (g *fakeGateway) Audit(_ context.Context, e edgeplugin.AuditEntry) error {
	g.record("audit " + e.Source)
	return nil
}

func (g *fakeGateway) Ingest(_ context.Context, rs []edgeplugin.Reading) error {
	for _, r := range rs {
		g.record("ingest " + r.Asset)
	}
	return nil
}

func (g *fakeGateway) methods() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string{}, g.calls...)
}

// TestProcess builds the executable, runs it as the gateway does and
// drives it through the contract.
func TestProcess(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "edged-notification")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	p, err := edgeplugin.Launch(ctx, bin, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if p.Info.Kind != edgeplugin.KindNotification || p.Info.Name != "notification" || p.Version != edgeplugin.ProtocolVersion {
		t.Fatalf("info %+v, protocol version %d", p.Info, p.Version)
	}
	n := p.Notification()
	if err := n.SetInstances(ctx, nil); edgeplugin.CodeOf(err) != edgeplugin.CodeUnavailable {
		t.Errorf("SetInstances before Start = %v, want CodeUnavailable", err)
	}
	gw := &fakeGateway{}
	if err := p.StartService(ctx, edgeplugin.Start{Service: "notify"}, gw); err != nil {
		t.Fatal(err)
	}
	ps, err := n.Plugins(ctx)
	if err != nil || len(ps.Deliveries) == 0 || ps.Deliveries[0].Name != "asset" || len(ps.Rules) == 0 {
		t.Fatalf("Plugins = %+v, %v", ps, err)
	}
	hot := edgeplugin.NotificationInstance{Name: "hot", Rule: "threshold", Type: "toggled", Enabled: true,
		RuleConfig: map[string]string{"asset": "boiler", "datapoint": "temp", "value": "80"},
		Channels:   []edgeplugin.NotificationChannel{{Name: "a", Plugin: "asset", Config: map[string]string{"asset": "alerts"}}}}
	magic := hot
	magic.Rule = "magic"
	if err := n.Validate(ctx, magic); edgeplugin.CodeOf(err) != edgeplugin.CodeInvalid {
		t.Errorf("Validate of an unknown rule = %v, want CodeInvalid", err)
	}
	if err := n.SetInstances(ctx, []edgeplugin.NotificationInstance{magic}); edgeplugin.CodeOf(err) != edgeplugin.CodeInvalid {
		t.Errorf("SetInstances with an unknown rule = %v, want CodeInvalid", err)
	}
	if err := n.SetInstances(ctx, []edgeplugin.NotificationInstance{hot}); err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2026, 11, 26, 10, 0, 0, 5e8, time.UTC)
	if err := n.Readings(ctx, []edgeplugin.Reading{{Asset: "boiler", Timestamp: ts, Values: json.RawMessage(`{"temp":99}`)}}); err != nil {
		t.Fatal(err)
	}
	// The reading of 99 triggered hot: the asset delivery ingests, then the
	// send is audited.
	deadline := time.Now().Add(30 * time.Second)
	for strings.Join(gw.methods(), ",") != "ingest alerts,audit NTFSN" {
		if time.Now().After(deadline) {
			t.Fatalf("the gateway was called for %q, want the ingest and audit of the send", gw.methods())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRestartsLeaveNoGoroutine starts the service ten times, as the
// gateway does when it reconnects, with an instance whose timer runs, and
// checks that no engine of a previous start is left running.
func TestRestartsLeaveNoGoroutine(t *testing.T) {
	s := newService()
	quiet := edgeplugin.NotificationInstance{Name: "quiet", Rule: "data_availability", Type: "one shot", Enabled: true,
		RuleConfig: map[string]string{"asset": "boiler", "mode": "notSeen", "within": "60"},
		Channels:   []edgeplugin.NotificationChannel{{Name: "a", Plugin: "asset", Config: map[string]string{"asset": "alerts"}}}}
	before := runtime.NumGoroutine()
	for range 10 {
		if err := s.Start(t.Context(), edgeplugin.Start{Service: "notify"}, &fakeGateway{}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetInstances(t.Context(), []edgeplugin.NotificationInstance{quiet}); err != nil {
			t.Fatal(err)
		}
	}
	s.close()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines after 10 restarts, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
