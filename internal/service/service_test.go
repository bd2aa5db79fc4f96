package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/system"
)

// fakeCtl observes and drives the fake plugin's instances.
type fakeCtl struct {
	news      chan plugin.Config    // every New, with its configuration
	runs      chan *fakePlugin      // every Run start
	reconfigs chan plugin.Config    // every Reconfigure
	restored  chan json.RawMessage  // every Restore
	emit      chan []plugin.Reading // readings the running instance submits
	committed chan error            // the outcome of each submission
	stubborn  atomic.Bool           // Run ignores cancellation until release
	release   chan struct{}         // ends a stubborn Run
	failNew   atomic.Bool           // New fails
	openErr   atomic.Pointer[error] // Open fails with this
}

func newFakeCtl() *fakeCtl {
	return &fakeCtl{news: make(chan plugin.Config, 20), runs: make(chan *fakePlugin, 20), reconfigs: make(chan plugin.Config, 20),
		restored: make(chan json.RawMessage, 20), emit: make(chan []plugin.Reading), committed: make(chan error, 20),
		release: make(chan struct{})}
}

type fakePlugin struct {
	ctl   *fakeCtl
	mode  string
	count int64
}

func (c *fakeCtl) definition() plugin.Definition {
	return plugin.Definition{
		Name: "fake", Version: "2.0.0", Kind: plugin.KindSouth, Description: "a test plugin", Persists: true,
		Items: map[string]configmgr.Item{
			"mode":  {Description: "mode; a change needs a restart", Type: configmgr.TypeString, Default: "a"},
			"level": {Description: "level", Type: configmgr.TypeInteger, Default: "1", Minimum: "0", Maximum: "10"},
		},
		New: func(_ plugin.Env, cfg plugin.Config) (plugin.South, error) {
			c.news <- cfg
			if c.failNew.Load() {
				return nil, errors.New("cannot create")
			}
			return &fakePlugin{ctl: c, mode: cfg["mode"]}, nil
		},
	}
}

func (p *fakePlugin) Open(context.Context) error {
	if e := p.ctl.openErr.Load(); e != nil {
		return *e
	}
	return nil
}

func (p *fakePlugin) Run(ctx context.Context, sink plugin.Sink) error {
	p.ctl.runs <- p
	for {
		select {
		case <-ctx.Done():
			if p.ctl.stubborn.Load() {
				<-p.ctl.release
			}
			return nil
		case rs := <-p.ctl.emit:
			p.count += int64(len(rs))
			r, err := sink.Submit(rs)
			if err == nil {
				err = r.Wait(ctx)
			}
			p.ctl.committed <- err
		}
	}
}

func (p *fakePlugin) Reconfigure(cfg plugin.Config) error {
	p.ctl.reconfigs <- cfg
	if cfg["mode"] != p.mode {
		return plugin.ErrRestart
	}
	return nil
}

func (p *fakePlugin) State() (json.RawMessage, error) {
	return json.Marshal(map[string]int64{"count": p.count})
}

func (p *fakePlugin) Restore(data json.RawMessage) error {
	p.ctl.restored <- data
	var st map[string]int64
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	p.count = st["count"]
	return nil
}

// boom is a plugin whose Run panics until healthy is set.
type boom struct {
	attempts chan int
	running  chan struct{}
	healthy  atomic.Bool
	n        atomic.Int32
}

func (b *boom) definition() plugin.Definition {
	return plugin.Definition{Name: "boom", Version: "0.1", Kind: plugin.KindSouth, Description: "panics",
		New: func(plugin.Env, plugin.Config) (plugin.South, error) {
			b.attempts <- int(b.n.Add(1))
			return b, nil
		}}
}

func (b *boom) Run(ctx context.Context, _ plugin.Sink) error {
	if !b.healthy.Load() {
		panic("boom")
	}
	b.running <- struct{}{}
	<-ctx.Done()
	return nil
}

func (b *boom) Reconfigure(plugin.Config) error { return nil }

// env is a manager over a real SQLite database with a fake clock.
type env struct {
	t     *testing.T
	db    *db.DB
	clk   *clock.Fake
	cfg   *configmgr.Manager
	m     *Manager
	stats *ingest.Counters
}

func newEnv(t *testing.T, defs []plugin.Definition, tweak func(*Options)) *env {
	t.Helper()
	d := dbtest.SQLite(t)
	clk := clock.NewFake(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC))
	auditLog := audit.New(d, nil)
	cfg := configmgr.New(d, auditLog, nil)
	if err := cfg.Seed(t.Context()); err != nil {
		t.Fatal(err)
	}
	reg, err := plugin.NewRegistry(defs...)
	if err != nil {
		t.Fatal(err)
	}
	counters := ingest.NewCounters(d, nil)
	o := Options{
		Store: d, Config: cfg, Audit: auditLog, Plugins: reg, Counters: counters, Clock: clk, CorePort: 8081,
		Tracker: ingest.NewTracker(d, func(ctx context.Context) (string, error) {
			return cfg.Value(ctx, configmgr.CategoryService, configmgr.ItemServiceName)
		}, clk),
	}
	if tweak != nil {
		tweak(&o)
	}
	m := New(o)
	if err := m.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, db: d, clk: clk, cfg: cfg, m: m, stats: counters}
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	return e
}

func (e *env) create(req CreateRequest) Created {
	e.t.Helper()
	c, err := e.m.Create(e.t.Context(), req)
	if err != nil {
		e.t.Fatalf("Create %q: %v", req.Name, err)
	}
	return c
}

func (e *env) auditCount(source string) int {
	e.t.Helper()
	_, n, err := e.db.ListAudit(e.t.Context(), db.AuditFilter{Source: source})
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-t.Context().Done():
		t.Fatalf("no %s", what)
		var zero T
		return zero
	}
}

func isKind(err error, k *fault.Kind) bool { return errors.Is(err, k) }

func TestCreateValidation(t *testing.T) {
	ctl := newFakeCtl()
	e := newEnv(t, []plugin.Definition{ctl.definition()}, nil)
	e.create(CreateRequest{Name: "taken", Type: "south", Plugin: "fake"}) // disabled: never started
	if _, err := e.db.CreateSchedule(t.Context(), db.Schedule{ID: "00000000-0000-4000-8000-000000000001",
		Name: "purge", ProcessName: "purge", Type: db.ScheduleInterval, RepeatSeconds: 600}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		req  CreateRequest
		kind *fault.Kind
	}{
		{name: "empty name", req: CreateRequest{Name: "", Type: "south", Plugin: "fake"}, kind: fault.Invalid},
		{name: "leading space", req: CreateRequest{Name: " x", Type: "south", Plugin: "fake"}, kind: fault.Invalid},
		{name: "control character", req: CreateRequest{Name: "a\tb", Type: "south", Plugin: "fake"}, kind: fault.Invalid},
		{name: "too long", req: CreateRequest{Name: string(make([]byte, 101)), Type: "south", Plugin: "fake"}, kind: fault.Invalid},
		{name: "unknown type", req: CreateRequest{Name: "x", Type: "sideways", Plugin: "fake"}, kind: fault.Invalid},
		{name: "north", req: CreateRequest{Name: "x", Type: "North", Plugin: "fake"}, kind: fault.NotImplemented},
		{name: "notification not installed", req: CreateRequest{Name: "x", Type: "notification"}, kind: fault.NotFound},
		{name: "dispatcher not installed", req: CreateRequest{Name: "x", Type: "DISPATCHER"}, kind: fault.NotFound},
		{name: "no plugin", req: CreateRequest{Name: "x", Type: "south"}, kind: fault.Invalid},
		{name: "unknown plugin", req: CreateRequest{Name: "x", Type: "south", Plugin: "nope"}, kind: fault.NotFound},
		{name: "config value out of range", req: CreateRequest{Name: "x", Type: "south", Plugin: "fake", Config: map[string]string{"level": "11"}}, kind: fault.Invalid},
		{name: "config item unknown", req: CreateRequest{Name: "x", Type: "south", Plugin: "fake", Config: map[string]string{"colour": "red"}}, kind: fault.Invalid},
		{name: "readonly plugin item", req: CreateRequest{Name: "x", Type: "south", Plugin: "fake", Config: map[string]string{"plugin": "boom"}}, kind: fault.Invalid},
		{name: "bad buffer threshold", req: CreateRequest{Name: "x", Type: "south", Plugin: "fake", Config: map[string]string{ItemBufferThreshold: "0"}}, kind: fault.Invalid},
		{name: "name of a service", req: CreateRequest{Name: "taken", Type: "south", Plugin: "fake"}, kind: fault.Conflict},
		{name: "name of a schedule", req: CreateRequest{Name: "purge", Type: "south", Plugin: "fake"}, kind: fault.Conflict},
		{name: "name of a category", req: CreateRequest{Name: "rest_api", Type: "south", Plugin: "fake"}, kind: fault.Conflict},
		{name: "reserved name", req: CreateRequest{Name: CoreName, Type: "south", Plugin: "fake"}, kind: fault.Conflict},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.m.Create(t.Context(), c.req)
			if !isKind(err, c.kind) {
				t.Fatalf("Create = %v, want a %v fault", err, c.kind)
			}
			if c.req.Name == "x" {
				if _, err := e.db.GetService(t.Context(), "x"); !errors.Is(err, db.ErrNotFound) {
					t.Errorf("service x exists after a refused create: %v", err)
				}
				if _, err := e.db.GetScheduleByName(t.Context(), "x"); !errors.Is(err, db.ErrNotFound) {
					t.Errorf("schedule x exists after a refused create: %v", err)
				}
				if _, err := e.cfg.Category(t.Context(), "x"); !isKind(err, fault.NotFound) {
					t.Errorf("category x exists after a refused create: %v", err)
				}
			}
		})
	}
	select {
	case <-ctl.news:
		t.Error("a refused create started a plugin")
	default:
	}
}

func TestCreateRunAndDelete(t *testing.T) {
	ctl := newFakeCtl()
	e := newEnv(t, []plugin.Definition{ctl.definition()}, nil)
	ctx := t.Context()
	c := e.create(CreateRequest{Name: "bar/svc", Type: "SOUTH", Plugin: "fake", Enabled: true,
		Config: map[string]string{"level": "07", ItemMaxSendLatency: "0"}})
	if !c.Started || c.ScheduleID == "" {
		t.Fatalf("Create = %+v", c)
	}
	cfg := recv(t, ctl.news, "New")
	if cfg["level"] != "7" || cfg["mode"] != "a" || cfg[ItemPlugin] != "fake" {
		t.Errorf("plugin configuration = %v", cfg)
	}
	p := recv(t, ctl.runs, "Run")

	cat, err := e.cfg.Category(ctx, "bar/svc")
	if err != nil {
		t.Fatal(err)
	}
	if it := cat.Items[ItemPlugin]; it.Value != "fake" || it.Readonly != "true" {
		t.Errorf("plugin item = %+v", it)
	}
	if _, ok := cat.Items[ItemBufferThreshold]; !ok {
		t.Errorf("category lacks %s", ItemBufferThreshold)
	}
	sched, err := e.m.Schedule(ctx, ScheduleSelector{ID: c.ScheduleID})
	if err != nil || sched.Name != "bar/svc" || sched.Type != db.ScheduleStartup || !sched.Enabled || sched.ProcessName != processName {
		t.Errorf("schedule = %+v, %v", sched, err)
	}
	if e.m.Status("bar/svc") != system.StatusRunning || e.auditCount("SRVRG") != 1 || e.auditCount("SCHAD") != 1 {
		t.Errorf("status %s, SRVRG %d, SCHAD %d", e.m.Status("bar/svc"), e.auditCount("SRVRG"), e.auditCount("SCHAD"))
	}

	// Readings flow to storage, statistics and the asset tracker.
	ctl.emit <- []plugin.Reading{{Asset: "a/1", Timestamp: e.clk.Now(), Values: json.RawMessage(`{"v":1}`)},
		{Asset: "a/1", Timestamp: e.clk.Now(), Values: json.RawMessage(`{"v":2}`)}}
	if err := recv(t, ctl.committed, "commit"); err != nil {
		t.Fatal(err)
	}
	south := southOf(t, e, "bar/svc")
	if south.Assets[0] != (AssetCount{Asset: "a/1", Count: 2}) || south.Plugin != "fake" || south.PluginVersion != "2.0.0" || !south.ScheduleEnabled {
		t.Errorf("south record = %+v", south)
	}
	if south.Address != "localhost" || south.ManagementPort != 8081 || south.Status != system.StatusRunning {
		t.Errorf("south record connection = %+v", south.Record)
	}
	recs, err := e.m.Records(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.Name+"/"+r.Type)
		if r.ManagementPort != 8081 {
			t.Errorf("record %s: management port %d, want the API's 8081", r.Name, r.ManagementPort)
		}
	}
	if !slices.Equal(names, []string{CoreName + "/Core", StorageName + "/Storage", "bar/svc/Southbound"}) {
		t.Errorf("records = %v", names)
	}
	if only, _ := e.m.Records(ctx, "southbound"); len(only) != 1 || only[0].Name != "bar/svc" {
		t.Errorf("records of type southbound = %+v", only)
	}

	// Delete stops it, persisting the plugin's state first, then removes it all.
	if err := e.m.Delete(ctx, "bar/svc"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if p.count != 2 {
		t.Errorf("plugin count = %d", p.count)
	}
	if e.m.Status("bar/svc") != system.StatusShutdown || e.auditCount("SRVUN") != 1 {
		t.Errorf("after delete: status %s, SRVUN %d", e.m.Status("bar/svc"), e.auditCount("SRVUN"))
	}
	if err := e.m.Delete(ctx, "bar/svc"); !isKind(err, fault.NotFound) {
		t.Errorf("Delete again = %v, want NotFound", err)
	}
	for _, name := range []string{CoreName, StorageName} {
		if err := e.m.Delete(ctx, name); !isKind(err, fault.Invalid) {
			t.Errorf("Delete %s = %v, want Invalid", name, err)
		}
	}
	if _, err := e.cfg.Category(ctx, "bar/svc"); !isKind(err, fault.NotFound) {
		t.Errorf("category after delete: %v", err)
	}
	if _, err := e.db.GetPluginData(ctx, "bar/svc", "bar/svc"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("plugin data after delete: %v", err)
	}
	if _, err := e.db.GetStatistic(ctx, "bar/svc-Ingest"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("ingest statistic after delete: %v", err)
	}
	assets, err := e.db.ListAssets(ctx)
	if err != nil || len(assets) != 1 || assets[0].Count != 2 {
		t.Errorf("readings after delete = %+v, %v; want 2 kept", assets, err)
	}
}

// southOf returns the south record of name.
func southOf(t *testing.T, e *env, name string) SouthRecord {
	t.Helper()
	recs, err := e.m.South(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no south record of %s in %+v", name, recs)
	return SouthRecord{}
}

func TestSupervisorRestartsWithBackoff(t *testing.T) {
	b := &boom{attempts: make(chan int, 10), running: make(chan struct{}, 1)}
	e := newEnv(t, []plugin.Definition{b.definition()}, func(o *Options) {
		o.Backoff = Backoff{Initial: time.Second, Max: 4 * time.Second, ResetAfter: time.Hour}
	})
	e.create(CreateRequest{Name: "b", Type: "south", Plugin: "boom", Enabled: true})
	if n := recv(t, b.attempts, "first attempt"); n != 1 {
		t.Fatalf("attempt %d", n)
	}

	e.clk.BlockUntil(1) // the backoff after the first panic
	if got := e.m.Status("b"); got != system.StatusFailed {
		t.Errorf("status after a panic = %s, want failed", got)
	}
	if !slices.Contains(e.m.Statuses(), system.StatusFailed) {
		t.Errorf("Statuses = %v, want failed among them", e.m.Statuses())
	}
	if n := e.auditCount("SRVFL"); n != 1 {
		t.Errorf("SRVFL entries = %d, want 1", n)
	}
	// The backoff is jittered: between 80 % of it and all of it.
	e.clk.Advance(799 * time.Millisecond)
	if e.clk.Pending() != 1 {
		t.Fatal("restarted before 80 % of the 1 s backoff")
	}
	e.clk.Advance(201 * time.Millisecond)
	if n := recv(t, b.attempts, "second attempt"); n != 2 {
		t.Fatalf("attempt %d", n)
	}

	e.clk.BlockUntil(1) // the backoff doubles to 2 s
	e.clk.Advance(1500 * time.Millisecond)
	select {
	case n := <-b.attempts:
		t.Fatalf("attempt %d after 1.5 s of a 2 s backoff", n)
	default:
	}
	b.healthy.Store(true)
	e.clk.Advance(500 * time.Millisecond)
	if n := recv(t, b.attempts, "third attempt"); n != 3 {
		t.Fatalf("attempt %d", n)
	}
	recv(t, b.running, "healthy run")
	if got := e.m.Status("b"); got != system.StatusRunning {
		t.Errorf("status after recovering = %s, want running", got)
	}
	if n := e.auditCount("SRVFL"); n != 2 {
		t.Errorf("SRVFL entries = %d, want 2", n)
	}
}

func TestBackoffDelays(t *testing.T) {
	b := Backoff{Initial: time.Second, Max: 10 * time.Second}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for i, w := range want {
		if got := b.Delay(i); got != w {
			t.Errorf("delay(%d) = %v, want %v", i, got, w)
		}
	}
	if got := b.Delay(200); got != 10*time.Second {
		t.Errorf("delay(200) = %v", got)
	}
}

func TestStartFailureIsRetried(t *testing.T) {
	ctl := newFakeCtl()
	openErr := errors.New("port in use")
	ctl.openErr.Store(&openErr)
	e := newEnv(t, []plugin.Definition{ctl.definition()}, nil)
	e.create(CreateRequest{Name: "f", Type: "south", Plugin: "fake", Enabled: true})
	recv(t, ctl.news, "first New")
	e.clk.BlockUntil(1)
	if got := e.m.Status("f"); got != system.StatusFailed {
		t.Errorf("status = %s, want failed", got)
	}
	ctl.openErr.Store(nil)
	e.clk.Advance(time.Second)
	recv(t, ctl.news, "second New")
	recv(t, ctl.runs, "Run after the retry")
	if got := e.m.Status("f"); got != system.StatusRunning {
		t.Errorf("status = %s, want running", got)
	}
}

func TestReconfigure(t *testing.T) {
	ctl := newFakeCtl()
	e := newEnv(t, []plugin.Definition{ctl.definition()}, nil)
	ctx := t.Context()
	e.create(CreateRequest{Name: "r", Type: "south", Plugin: "fake", Enabled: true})
	recv(t, ctl.news, "New")
	recv(t, ctl.runs, "Run")

	// A live change reaches the running instance.
	if _, err := e.cfg.SetValue(ctx, "r", "level", "5"); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, ctl.reconfigs, "Reconfigure"); got["level"] != "5" {
		t.Errorf("Reconfigure got level %q", got["level"])
	}
	select {
	case <-ctl.news:
		t.Fatal("a live change restarted the plugin")
	default:
	}

	// A change needing a restart makes a new instance, which gets the
	// state the old one persisted.
	ctl.emit <- []plugin.Reading{{Asset: "x", Timestamp: e.clk.Now(), Values: json.RawMessage(`{}`)}}
	if _, err := e.cfg.SetValue(ctx, "r", "mode", "b"); err != nil {
		t.Fatal(err)
	}
	recv(t, ctl.reconfigs, "Reconfigure")
	if got := recv(t, ctl.news, "New after restart"); got["mode"] != "b" {
		t.Errorf("new instance mode = %q", got["mode"])
	}
	if got := recv(t, ctl.restored, "Restore"); string(got) != `{"count": 1}` && string(got) != `{"count":1}` {
		t.Errorf("restored %s, want count 1", got)
	}
	recv(t, ctl.runs, "Run after restart")
	if e.auditCount("SRVFL") != 0 {
		t.Error("a restart for a configuration change was audited as a failure")
	}
}

func TestScheduleStopsAndStarts(t *testing.T) {
	ctl := newFakeCtl()
	e := newEnv(t, []plugin.Definition{ctl.definition()}, nil)
	ctx := t.Context()
	c := e.create(CreateRequest{Name: "s", Type: "south", Plugin: "fake", Enabled: true})
	recv(t, ctl.news, "New")
	recv(t, ctl.runs, "Run")
	ctl.emit <- []plugin.Reading{{Asset: "x", Timestamp: e.clk.Now(), Values: json.RawMessage(`{}`)}}

	s, err := e.m.SetScheduleEnabled(ctx, ScheduleSelector{Name: "s"}, false)
	if err != nil || s.Enabled || s.ID != c.ScheduleID {
		t.Fatalf("disable = %+v, %v", s, err)
	}
	if e.m.Status("s") != system.StatusShutdown || e.auditCount("SCHCH") != 1 || e.auditCount("SRVUN") != 1 {
		t.Errorf("after disable: status %s, SCHCH %d, SRVUN %d", e.m.Status("s"), e.auditCount("SCHCH"), e.auditCount("SRVUN"))
	}
	data, err := e.m.PluginData(ctx, "s", "s")
	if err != nil || !json.Valid(data) {
		t.Fatalf("persisted data = %s, %v", data, err)
	}
	// Disabling again changes nothing and writes nothing.
	if _, err := e.m.SetScheduleEnabled(ctx, ScheduleSelector{ID: c.ScheduleID}, false); err != nil || e.auditCount("SCHCH") != 1 {
		t.Errorf("second disable: %v, SCHCH %d", err, e.auditCount("SCHCH"))
	}

	// A gateway restarted on the same storage keeps it stopped.
	again := New(e.m.o)
	if err := again.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if again.Status("s") != system.StatusShutdown {
		t.Error("a disabled service started at gateway start")
	}

	if _, err := e.m.SetScheduleEnabled(ctx, ScheduleSelector{ID: c.ScheduleID}, true); err != nil {
		t.Fatal(err)
	}
	recv(t, ctl.news, "New after enable")
	if got := recv(t, ctl.restored, "Restore"); string(got) != string(data) {
		t.Errorf("restored %s, want %s", got, data)
	}
	recv(t, ctl.runs, "Run after enable")
	if e.m.Status("s") != system.StatusRunning {
		t.Errorf("status after enable = %s", e.m.Status("s"))
	}

	for _, sel := range []ScheduleSelector{{Name: "nope"}, {ID: "00000000-0000-4000-8000-000000000099"}} {
		if _, err := e.m.SetScheduleEnabled(ctx, sel, true); !isKind(err, fault.NotFound) {
			t.Errorf("SetScheduleEnabled(%+v) = %v, want NotFound", sel, err)
		}
	}
}

func TestStartAtGatewayStart(t *testing.T) {
	ctl := newFakeCtl()
	e := newEnv(t, []plugin.Definition{ctl.definition()}, nil)
	e.create(CreateRequest{Name: "on", Type: "south", Plugin: "fake", Enabled: true})
	recv(t, ctl.news, "New")
	recv(t, ctl.runs, "Run")
	e.create(CreateRequest{Name: "off", Type: "south", Plugin: "fake", Enabled: false})
	e.m.Shutdown(t.Context())
	if e.m.Status("on") != system.StatusShutdown {
		t.Fatal("Shutdown left a service running")
	}
	if _, err := e.m.SetScheduleEnabled(t.Context(), ScheduleSelector{Name: "off"}, true); err != nil {
		t.Fatal(err)
	}
	if e.m.Status("off") != system.StatusShutdown {
		t.Error("a service started after Shutdown")
	}

	next := New(e.m.o)
	t.Cleanup(func() { next.Shutdown(context.Background()) })
	if err := next.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		recv(t, ctl.runs, "Run at start")
	}
	if next.Status("on") != system.StatusRunning || next.Status("off") != system.StatusRunning {
		t.Errorf("statuses at start: on %s, off %s", next.Status("on"), next.Status("off"))
	}
}

func TestSafeMode(t *testing.T) {
	ctl := newFakeCtl()
	e := newEnv(t, []plugin.Definition{ctl.definition()}, func(o *Options) { o.SafeMode = true })
	c := e.create(CreateRequest{Name: "safe", Type: "south", Plugin: "fake", Enabled: true})
	if c.Started {
		t.Error("Create started a service in safe mode")
	}
	if _, err := e.m.SetScheduleEnabled(t.Context(), ScheduleSelector{Name: "safe"}, true); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctl.news:
		t.Fatal("a plugin was created in safe mode")
	default:
	}
	if e.m.Status("safe") != system.StatusShutdown {
		t.Errorf("status = %s", e.m.Status("safe"))
	}
}

func TestUnresponsive(t *testing.T) {
	ctl := newFakeCtl()
	ctl.stubborn.Store(true)
	e := newEnv(t, []plugin.Definition{ctl.definition()}, func(o *Options) { o.StopGrace = 5 * time.Second })
	e.create(CreateRequest{Name: "u", Type: "south", Plugin: "fake", Enabled: true})
	recv(t, ctl.runs, "Run")
	done := make(chan error, 1)
	go func() {
		_, err := e.m.SetScheduleEnabled(context.Background(), ScheduleSelector{Name: "u"}, false)
		done <- err
	}()
	e.clk.BlockUntil(1) // the stop grace
	e.clk.Advance(5 * time.Second)
	if err := recv(t, done, "disable"); err != nil {
		t.Fatal(err)
	}
	if got := e.m.Status("u"); got != system.StatusUnresponsive {
		t.Errorf("status = %s, want unresponsive", got)
	}
	if system.Health(e.m.Statuses()) != system.Amber {
		t.Errorf("health = %s, want amber", system.Health(e.m.Statuses()))
	}
	close(ctl.release)
}

func TestPluginDataRules(t *testing.T) {
	ctl := newFakeCtl()
	e := newEnv(t, []plugin.Definition{ctl.definition()}, nil)
	ctx := t.Context()
	e.create(CreateRequest{Name: "p", Type: "south", Plugin: "fake", Enabled: true})
	recv(t, ctl.runs, "Run")

	if got, err := e.m.PersistentPlugins(ctx, "p"); err != nil || !slices.Equal(got, []string{"p"}) {
		t.Errorf("PersistentPlugins = %v, %v", got, err)
	}
	if _, err := e.m.PersistentPlugins(ctx, "nope"); !isKind(err, fault.NotFound) {
		t.Errorf("PersistentPlugins unknown = %v", err)
	}
	steps := []struct {
		name string
		run  func() error
		kind *fault.Kind
	}{
		{name: "get none", run: func() error { _, err := e.m.PluginData(ctx, "p", "p"); return err }, kind: fault.NotFound},
		{name: "get unknown service", run: func() error { _, err := e.m.PluginData(ctx, "nope", "nope"); return err }, kind: fault.NotFound},
		{name: "get unknown instance", run: func() error { _, err := e.m.PluginData(ctx, "p", "filter"); return err }, kind: fault.NotFound},
		{name: "set while running", run: func() error { return e.m.SetPluginData(ctx, "p", "p", json.RawMessage(`{}`)) }, kind: fault.Conflict},
		{name: "delete while running", run: func() error { return e.m.DeletePluginData(ctx, "p", "p") }, kind: fault.Conflict},
		{name: "stop", run: func() error {
			_, err := e.m.SetScheduleEnabled(ctx, ScheduleSelector{Name: "p"}, false)
			return err
		}},
		{name: "set while data exists", run: func() error { return e.m.SetPluginData(ctx, "p", "p", json.RawMessage(`{}`)) }, kind: fault.Conflict},
		{name: "delete", run: func() error { return e.m.DeletePluginData(ctx, "p", "p") }},
		{name: "delete none", run: func() error { return e.m.DeletePluginData(ctx, "p", "p") }, kind: fault.NotFound},
		{name: "set", run: func() error { return e.m.SetPluginData(ctx, "p", "p", json.RawMessage(`{"count": 41}`)) }},
		{name: "get", run: func() error {
			data, err := e.m.PluginData(ctx, "p", "p")
			if err == nil && string(data) != `{"count": 41}` {
				return fmt.Errorf("data %s", data)
			}
			return err
		}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			err := s.run()
			if s.kind == nil && err != nil || s.kind != nil && !isKind(err, s.kind) {
				t.Fatalf("err = %v, want %v", err, s.kind)
			}
		})
	}
	if _, err := e.m.SetScheduleEnabled(ctx, ScheduleSelector{Name: "p"}, true); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, ctl.restored, "Restore of the posted data"); string(got) != `{"count": 41}` {
		t.Errorf("restored %s", got)
	}
}

func TestDeprecateTrackingEvent(t *testing.T) {
	ctl := newFakeCtl()
	e := newEnv(t, []plugin.Definition{ctl.definition()}, nil)
	ctx := t.Context()
	e.create(CreateRequest{Name: "t", Type: "south", Plugin: "fake", Enabled: true, Config: map[string]string{ItemMaxSendLatency: "0"}})
	recv(t, ctl.runs, "Run")
	emit := func() {
		ctl.emit <- []plugin.Reading{{Asset: "bar/one", Timestamp: e.clk.Now(), Values: json.RawMessage(`{}`)}}
		if err := recv(t, ctl.committed, "commit"); err != nil {
			t.Fatal(err)
		}
	}
	emit()
	if got := southOf(t, e, "t").Assets; len(got) != 1 {
		t.Fatalf("south assets = %+v", got)
	}
	ev, err := e.m.TrackingEvents(ctx, db.TrackingFilter{Service: "t"})
	if err != nil || len(ev) != 1 || ev[0].Edge != "Edge Gateway" || ev[0].Plugin != "fake" {
		t.Fatalf("events = %+v, %v", ev, err)
	}

	if err := e.m.DeprecateTrackingEvent(ctx, "t", "bar/one", db.EventIngest); err != nil {
		t.Fatal(err)
	}
	if e.auditCount("ASTDP") != 1 {
		t.Error("no ASTDP entry")
	}
	if err := e.m.DeprecateTrackingEvent(ctx, "t", "bar/one", db.EventIngest); !isKind(err, fault.Conflict) {
		t.Errorf("second deprecation = %v, want Conflict", err)
	}
	if err := e.m.DeprecateTrackingEvent(ctx, "t", "nope", db.EventIngest); !isKind(err, fault.NotFound) {
		t.Errorf("unknown event = %v, want NotFound", err)
	}
	if got := southOf(t, e, "t").Assets; len(got) != 0 {
		t.Errorf("south assets of a deprecated event = %+v", got)
	}
	// The next sighting clears the deprecation.
	emit()
	if got := southOf(t, e, "t").Assets; len(got) != 1 || got[0].Count != 2 {
		t.Errorf("south assets after a new sighting = %+v", got)
	}
}

func TestSchedulesChangedHook(t *testing.T) {
	ctl := newFakeCtl()
	var calls atomic.Int32
	e := newEnv(t, []plugin.Definition{ctl.definition()}, func(o *Options) { o.SchedulesChanged = func() { calls.Add(1) } })
	ctx := t.Context()
	e.create(CreateRequest{Name: "h", Type: "south", Plugin: "fake"})
	steps := []struct {
		name string
		run  func() error
		want int32
	}{
		{name: "create", run: func() error { return nil }, want: 1},
		{name: "enable", run: func() error { _, err := e.m.SetScheduleEnabled(ctx, ScheduleSelector{Name: "h"}, true); return err }, want: 2},
		{name: "enable again changes nothing", run: func() error { _, err := e.m.SetScheduleEnabled(ctx, ScheduleSelector{Name: "h"}, true); return err }, want: 2},
		{name: "delete", run: func() error { return e.m.Delete(ctx, "h") }, want: 3},
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := calls.Load(); got != s.want {
			t.Errorf("%s: %d calls, want %d", s.name, got, s.want)
		}
	}
}
