package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/system"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// fakeService is a notification or dispatcher service's process, in
// memory: it records calls and lets the test call the gateway back.
type fakeService struct {
	host   plugin.ServiceHost
	calls  chan string // method names of the calls it got
	bodies chan string // and their bodies
	died   chan error  // a send ends Run with that error, as a crash would
	cfgs   chan plugin.Config
	once   sync.Once
	ended  chan struct{}
}

func (f *fakeService) Run(ctx context.Context) error {
	defer f.once.Do(func() { close(f.ended) })
	select {
	case <-ctx.Done():
		return nil
	case err := <-f.died:
		return err
	}
}

// record notes a call and what it was called with.
func (f *fakeService) record(call string, arg any) {
	f.calls <- call
	b, _ := json.Marshal(arg)
	f.bodies <- string(b)
}

func (f *fakeService) Plugins(context.Context) (edgeplugin.NotificationPlugins, error) {
	f.record("Plugins", nil)
	return edgeplugin.NotificationPlugins{Rules: []edgeplugin.NotificationPlugin{{Name: "threshold"}}}, nil
}

func (f *fakeService) Validate(_ context.Context, in edgeplugin.NotificationInstance) error {
	f.record("Validate", in)
	return nil
}

func (f *fakeService) SetInstances(_ context.Context, set []edgeplugin.NotificationInstance) error {
	f.record("SetInstances", set)
	return nil
}

func (f *fakeService) Readings(_ context.Context, rs []edgeplugin.Reading) error {
	f.record("Readings", rs)
	return nil
}

func (f *fakeService) Audited(_ context.Context, code string, _ time.Time) error {
	f.record("Audited", code)
	return nil
}

func (f *fakeService) Statistics(context.Context, time.Time, map[string]int64) error { return nil }

func (f *fakeService) Write(_ context.Context, req edgeplugin.ControlRequest) ([]edgeplugin.ControlResult, error) {
	f.record("Write", req)
	if req.Name == "refuse" {
		return nil, fault.New(fault.Invalid, "refused: %s", req.Name)
	}
	return []edgeplugin.ControlResult{{Service: req.Name}}, nil
}

func (f *fakeService) Operate(_ context.Context, req edgeplugin.ControlRequest) ([]edgeplugin.ControlResult, error) {
	f.record("Operate", req)
	return []edgeplugin.ControlResult{{Service: req.Name}}, nil
}

func (f *fakeService) Reconfigure(_ context.Context, cfg plugin.Config) error {
	f.cfgs <- cfg
	return nil
}

// serviceCtl hands out the processes a fake service definition starts.
type serviceCtl struct {
	started chan *fakeService
}

func (c *serviceCtl) definition(kind string) plugin.Definition {
	return plugin.Definition{Name: "edged-service-" + kind, Version: "1.0.0", Kind: kind, External: true,
		NewService: func(env plugin.ServiceEnv, _ plugin.Config) (plugin.Service, error) {
			f := &fakeService{host: env.Host, calls: make(chan string, 20), bodies: make(chan string, 20), died: make(chan error, 1),
				cfgs: make(chan plugin.Config, 5), ended: make(chan struct{})}
			c.started <- f
			return f, nil
		}}
}

// valve is a south plugin that writes and runs operations.
type valve struct {
	mu     sync.Mutex
	writes []string
}

func (v *valve) definition() plugin.Definition {
	return plugin.Definition{Name: "valve", Version: "1.0.0", Kind: plugin.KindSouth,
		New: func(plugin.Env, plugin.Config) (plugin.South, error) { return valveInstance{v}, nil }}
}

type valveInstance struct{ v *valve }

func (i valveInstance) Run(ctx context.Context, sink plugin.Sink) error {
	rc, err := sink.Submit([]plugin.Reading{{Asset: "valve1", Timestamp: time.Now().UTC(), Values: json.RawMessage(`{"open":1}`)}})
	if err != nil {
		return err
	}
	if err := rc.Wait(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}
func (valveInstance) Reconfigure(plugin.Config) error { return nil }
func (i valveInstance) Write(_ context.Context, asset string, values map[string]any) error {
	if _, ok := values["open"]; !ok {
		return fmt.Errorf("%w: only open", plugin.ErrNotWritable)
	}
	if values["open"] == "jam" {
		return errors.New("device timeout")
	}
	i.v.mu.Lock()
	defer i.v.mu.Unlock()
	i.v.writes = append(i.v.writes, fmt.Sprintf("%s %v", asset, values["open"]))
	return nil
}
func (i valveInstance) Operate(_ context.Context, op string, _ map[string]any) error {
	i.v.mu.Lock()
	defer i.v.mu.Unlock()
	i.v.writes = append(i.v.writes, "op "+op)
	return nil
}

func TestHostedServices(t *testing.T) {
	ctl := &serviceCtl{started: make(chan *fakeService, 10)}
	v := &valve{}
	e := newEnv(t, []plugin.Definition{ctl.definition(plugin.KindNotification), ctl.definition(plugin.KindDispatcher),
		v.definition(), newFakeCtl().definition()}, nil)
	ctx := t.Context()

	e.create(CreateRequest{Name: "plc", Type: "south", Plugin: "valve", Enabled: true})
	if _, err := e.m.Dispatcher(); !errors.Is(err, fault.Conflict) || !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Dispatcher with none running = %v, want Conflict", err)
	}
	e.create(CreateRequest{Name: "alerts", Type: "Notification", Enabled: true})
	notify := <-ctl.started
	e.create(CreateRequest{Name: "control", Type: "dispatcher", Enabled: true})
	dispatch := <-ctl.started

	if _, err := e.m.Create(ctx, CreateRequest{Name: "alerts2", Type: "notification", Enabled: true}); !isKind(err, fault.Conflict) {
		t.Errorf("a second notification service = %v, want Conflict", err)
	}
	if got := e.m.Status("alerts"); got != system.StatusRunning {
		t.Errorf("status = %q, want running", got)
	}
	if n := e.auditCount("NTFST"); n != 1 {
		t.Errorf("NTFST entries = %d, want 1", n)
	}
	if n := e.auditCount("DSPST"); n != 1 {
		t.Errorf("DSPST entries = %d, want 1", n)
	}
	recs, err := e.m.Records(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]string{}
	for _, r := range recs {
		types[r.Name] = r.Type
	}
	if types["alerts"] != TypeNotification || types["control"] != TypeDispatcher {
		t.Errorf("record types %v", types)
	}

	n, err := e.m.Notification()
	if err != nil {
		t.Fatal(err)
	}
	if ps, err := n.Plugins(ctx); err != nil || len(ps.Rules) != 1 || <-notify.calls != "Plugins" {
		t.Errorf("Plugins = %+v, %v", ps, err)
	}
	<-notify.bodies
	d, err := e.m.Dispatcher()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write(ctx, edgeplugin.ControlRequest{Name: "refuse"}); !isKind(err, fault.Invalid) {
		t.Errorf("a refusal of the process = %v, want its Invalid fault", err)
	}
	<-dispatch.calls
	<-dispatch.bodies

	// The gateway's side of the calls the processes make.
	details := json.RawMessage(`{"name":"x"}`)
	reading := func(asset, values string) []edgeplugin.Reading {
		return []edgeplugin.Reading{{Asset: asset, Timestamp: time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC), Values: json.RawMessage(values)}}
	}
	hostCases := []struct {
		name string
		call func(h plugin.ServiceHost) error
		svc  *fakeService
		want *fault.Kind // nil: succeeds
	}{
		{name: "notification sends NTFSN", svc: notify, call: func(h plugin.ServiceHost) error {
			return h.Audit(ctx, edgeplugin.AuditEntry{Source: "NTFSN", Severity: "INFORMATION", Details: details})
		}},
		{name: "notification may not write DSPST", svc: notify, want: fault.Invalid, call: func(h plugin.ServiceHost) error {
			return h.Audit(ctx, edgeplugin.AuditEntry{Source: "DSPST", Severity: "INFORMATION"})
		}},
		{name: "notification may not write", svc: notify, want: fault.Invalid, call: func(h plugin.ServiceHost) error {
			return h.Write(ctx, "plc", "valve1", map[string]any{"open": 0})
		}},
		{name: "notification may not list services", svc: notify, want: fault.Invalid, call: func(h plugin.ServiceHost) error {
			_, err := h.Services(ctx)
			return err
		}},
		{name: "ingest", svc: notify, call: func(h plugin.ServiceHost) error {
			return h.Ingest(ctx, reading("alarm", `{"state":"triggered"}`))
		}},
		{name: "ingest without readings", svc: notify, want: fault.Invalid, call: func(h plugin.ServiceHost) error {
			return h.Ingest(ctx, reading("alarm", ``))
		}},
		{name: "ingest of an asset code over the limit", svc: notify, want: fault.Invalid, call: func(h plugin.ServiceHost) error {
			return h.Ingest(ctx, reading(strings.Repeat("a", plugin.MaxAssetCode+1), `{"state":"x"}`))
		}},
		{name: "dispatcher writes", svc: dispatch, call: func(h plugin.ServiceHost) error {
			return h.Write(ctx, "plc", "valve1", map[string]any{"open": 0})
		}},
		{name: "unknown datapoint", svc: dispatch, want: fault.Invalid, call: func(h plugin.ServiceHost) error {
			return h.Write(ctx, "plc", "valve1", map[string]any{"shut": 0})
		}},
		{name: "device failure", svc: dispatch, want: fault.BadGateway, call: func(h plugin.ServiceHost) error {
			return h.Write(ctx, "plc", "", map[string]any{"open": "jam"})
		}},
		{name: "unknown service", svc: dispatch, want: fault.NotFound, call: func(h plugin.ServiceHost) error {
			return h.Write(ctx, "nope", "", map[string]any{"open": 1})
		}},
		{name: "operation", svc: dispatch, call: func(h plugin.ServiceHost) error {
			return h.Operate(ctx, "plc", "flush", nil)
		}},
		{name: "dispatcher may not ingest", svc: dispatch, want: fault.Invalid, call: func(h plugin.ServiceHost) error {
			return h.Ingest(ctx, reading("alarm", `{"state":"x"}`))
		}},
		{name: "dispatcher may not dispatch", svc: dispatch, want: fault.Invalid, call: func(h plugin.ServiceHost) error {
			_, err := h.Dispatch(ctx, edgeplugin.ControlRequest{Destination: "service", Name: "plc"})
			return err
		}},
		{name: "dispatcher may not write NTFSN", svc: dispatch, want: fault.Invalid, call: func(h plugin.ServiceHost) error {
			return h.Audit(ctx, edgeplugin.AuditEntry{Source: "NTFSN", Severity: "INFORMATION"})
		}},
	}
	for _, c := range hostCases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call(c.svc.host)
			if c.want == nil && err != nil || c.want != nil && !isKind(err, c.want) {
				t.Errorf("host call = %v, want %v", err, c.want)
			}
		})
	}
	v.mu.Lock()
	writes := fmt.Sprint(v.writes)
	v.mu.Unlock()
	if writes != "[valve1 0 op flush]" {
		t.Errorf("device saw %s", writes)
	}
	if n := e.auditCount("NTFSN"); n != 1 {
		t.Errorf("NTFSN entries = %d, want 1", n)
	}
	rs, err := e.db.AssetReadings(ctx, "alarm", db.Window{Limit: 10})
	if err != nil || len(rs) != 1 {
		t.Errorf("readings of the asset delivery: %v, %v", rs, err)
	}
	// The valve's reading is tracked when its batch commits, which its
	// Run goroutine may not have reached yet: wait for it to be tracked.
	var targets []edgeplugin.ControlTarget
	poll := time.NewTicker(10 * time.Millisecond)
	defer poll.Stop()
	for deadline := time.Now().Add(10 * time.Second); ; <-poll.C {
		targets, err = dispatch.host.Services(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(targets) != 1 || len(targets[0].Assets) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(targets) != 1 || targets[0].Name != "plc" || !targets[0].Running || !targets[0].Writes || !targets[0].Operates || fmt.Sprint(targets[0].Assets) != "[valve1]" {
		t.Errorf("services = %+v", targets)
	}
	// A notification's setpoint goes through the dispatcher.
	if _, err := notify.host.Dispatch(ctx, edgeplugin.ControlRequest{Destination: "service", Name: "plc", Caller: "spoofed"}); err != nil {
		t.Fatal(err)
	}
	if got := <-dispatch.calls; got != "Write" {
		t.Errorf("dispatcher got %q, want Write", got)
	}
	if got := <-dispatch.bodies; !strings.Contains(got, `"caller":"notification service alerts"`) {
		t.Errorf("dispatcher got %s, want the notification service named as the caller", got)
	}

	// A crash restarts the process, after the backoff.
	notify.died <- errors.New("killed")
	if n := waitAudit(e, "NTFSD", 1); n != 1 {
		t.Errorf("NTFSD entries = %d after a crash", n)
	}
	var next *fakeService
	for next == nil {
		select {
		case next = <-ctl.started:
		case <-time.After(10 * time.Millisecond):
			e.clk.Advance(time.Second)
		}
	}
	if n, err := e.m.Notification(); err != nil && !isKind(err, fault.Conflict) {
		t.Errorf("Notification after restart = %v", err)
	} else if err == nil {
		if _, err := n.Plugins(ctx); err != nil {
			t.Errorf("Plugins after restart = %v", err)
		}
	}

	if err := e.m.Delete(ctx, "control"); err != nil {
		t.Fatal(err)
	}
	<-dispatch.ended
	if n := e.auditCount("DSPSD"); n != 1 {
		t.Errorf("DSPSD entries = %d, want 1", n)
	}
	if _, err := e.m.Dispatcher(); !errors.Is(err, fault.Conflict) {
		t.Errorf("Dispatcher after delete = %v, want Conflict", err)
	}
}

// waitAudit waits up to ten seconds for n entries of source.
func waitAudit(e *env, source string, n int) int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := e.auditCount(source)
		if got >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
}
