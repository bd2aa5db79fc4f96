package notification_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/notification"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// process stands in for the notification service's process: it answers
// the calls the manager makes the way the contract between them says,
// and records what it was handed.
type process struct {
	mu        sync.Mutex
	down      bool
	instances [][]notification.Wire
	readings  [][]edgeplugin.Reading
	audits    []string
}

func (p *process) Notification() (edgeplugin.NotificationCalls, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		return nil, fault.New(fault.Conflict, "no notification service is running")
	}
	return p, nil
}

func (p *process) Plugins(context.Context) (edgeplugin.NotificationPlugins, error) {
	return edgeplugin.NotificationPlugins{
		Rules: []edgeplugin.NotificationPlugin{{Name: "threshold", Version: "1.0.0", Description: "compare", Items: map[string]edgeplugin.Item{
			"asset":     {Type: "string", Description: "Asset", Mandatory: "true"},
			"datapoint": {Type: "string", Description: "Datapoint", Default: ""},
			"value":     {Type: "float", Description: "Value", Default: "0"},
		}}},
		Deliveries: []edgeplugin.NotificationPlugin{
			{Name: "webhook", Version: "1.0.0", Description: "POST", Items: map[string]edgeplugin.Item{
				"url":   {Type: "URL", Description: "URL", Default: "http://localhost:1/hook"},
				"token": {Type: "password", Description: "Token", Default: ""}}},
			{Name: "email", Version: "1.0.0", Description: "SMTP", Items: map[string]edgeplugin.Item{
				"to": {Type: "string", Description: "To", Default: "ops@example.com"}}},
		},
	}, nil
}

func (p *process) Validate(_ context.Context, w notification.Wire) error {
	if w.Rule != "threshold" || w.Type == "" || len(w.Channels) == 0 || w.Channels[0].Plugin == "" {
		return fault.New(fault.Invalid, "incomplete instance %+v", w)
	}
	if w.RuleConfig["datapoint"] == "refused" {
		return fault.New(fault.Invalid, "the rule cannot use datapoint %q", "refused")
	}
	return nil
}

func (p *process) SetInstances(_ context.Context, ws []notification.Wire) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.instances = append(p.instances, ws)
	return nil
}

func (p *process) Readings(_ context.Context, rs []edgeplugin.Reading) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.readings = append(p.readings, rs)
	return nil
}

func (p *process) Audited(_ context.Context, code string, _ time.Time) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.audits = append(p.audits, code)
	return nil
}

func (p *process) Statistics(context.Context, time.Time, map[string]int64) error { return nil }

func (p *process) Running(string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.down
}

// last returns the last set of instances the process was handed.
func (p *process) last() []notification.Wire {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.instances) == 0 {
		return nil
	}
	return p.instances[len(p.instances)-1]
}

func (p *process) setDown(down bool) {
	p.mu.Lock()
	p.down = down
	p.mu.Unlock()
}

type fixture struct {
	d    *db.DB
	cfg  *configmgr.Manager
	log  *audit.Logger
	proc *process
	m    *notification.Manager
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	d := dbtest.SQLite(t)
	log := audit.New(d, nil)
	cfg := configmgr.New(d, log, nil)
	proc := &process{}
	m := notification.New(notification.Options{Config: cfg, Store: d, Audit: log, Services: proc})
	return &fixture{d: d, cfg: cfg, log: log, proc: proc, m: m}
}

func ptr[T any](v T) *T { return &v }

func overheat() notification.Create {
	return notification.Create{Name: "overheat", Description: "too hot", Rule: "threshold", Channel: "webhook",
		Type: "toggled", Enabled: true, RetriggerTime: ptr(30.0),
		RuleConfig:     map[string]string{"asset": "motor", "datapoint": "temperature", "value": "80"},
		DeliveryConfig: map[string]string{"url": "http://alarms.local/hook", "token": "s3cret"}}
}

func auditCount(t *testing.T, f *fixture, source string) int {
	t.Helper()
	_, total, err := f.log.List(t.Context(), audit.Filter{Source: source, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

func TestCreateStoresHandsOverAndAudits(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	n, err := f.m.Create(ctx, overheat())
	if err != nil {
		t.Fatal(err)
	}
	if n.Name != "overheat" || n.Rule != "threshold" || n.Channel != "webhook" || n.Type != "toggled" || !n.Enabled || n.RetriggerTime != 30 {
		t.Errorf("created %+v", n)
	}
	if got := n.RuleConfig.Items["datapoint"].Value; got != "temperature" {
		t.Errorf("rule datapoint = %q", got)
	}
	if got := n.Delivery.Items["token"].Value; got != configmgr.PasswordMask {
		t.Errorf("token read back as %q, want the mask", got)
	}
	for _, key := range []string{"overheat", "ruleoverheat", "deliveryoverheat"} {
		if _, err := f.cfg.Category(ctx, key); err != nil {
			t.Errorf("category %q: %v", key, err)
		}
	}
	ws := f.proc.last()
	if len(ws) != 1 || ws[0].Name != "overheat" || ws[0].Type != "toggled" || ws[0].RetriggerTime != 30*time.Second ||
		len(ws[0].Channels) != 1 || ws[0].Channels[0].Plugin != "webhook" || ws[0].Channels[0].Config["token"] != "s3cret" {
		t.Errorf("process was handed %+v; want the instance with its password in clear", ws)
	}
	if got := auditCount(t, f, "NTFAD"); got != 1 {
		t.Errorf("NTFAD entries = %d, want 1", got)
	}
	list, err := f.m.List(ctx)
	if err != nil || len(list) != 1 || list[0].Name != "overheat" {
		t.Errorf("List = %+v, %v", list, err)
	}
}

func TestCreateRefusals(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *notification.Create)
		down   bool
		want   *fault.Kind
	}{
		{name: "empty name", change: func(c *notification.Create) { c.Name = "" }, want: fault.Invalid},
		{name: "name with a control character", change: func(c *notification.Create) { c.Name = "a\x01b" }, want: fault.Invalid},
		{name: "unknown type", change: func(c *notification.Create) { c.Type = "twice" }, want: fault.Invalid},
		{name: "unknown rule", change: func(c *notification.Create) { c.Rule = "nope" }, want: fault.NotFound},
		{name: "unknown delivery", change: func(c *notification.Create) { c.Channel = "pigeon" }, want: fault.NotFound},
		{name: "value breaking its item's type", change: func(c *notification.Create) { c.RuleConfig["value"] = "hot" }, want: fault.Invalid},
		{name: "unknown rule item", change: func(c *notification.Create) { c.RuleConfig["colour"] = "red" }, want: fault.Invalid},
		{name: "configuration the service refuses", change: func(c *notification.Create) { c.RuleConfig["datapoint"] = "refused" }, want: fault.Invalid},
		{name: "mandatory item missing", change: func(c *notification.Create) { delete(c.RuleConfig, "asset") }, want: fault.Invalid},
		{name: "negative retrigger time", change: func(c *notification.Create) { c.RetriggerTime = ptr(-1.0) }, want: fault.Invalid},
		{name: "no notification service", down: true, want: fault.Conflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			in := overheat()
			if tt.change != nil {
				tt.change(&in)
			}
			f.proc.setDown(tt.down)
			_, err := f.m.Create(t.Context(), in)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Create = %v, want a %v fault", err, tt.want)
			}
			if list, _ := f.m.List(t.Context()); len(list) != 0 {
				t.Errorf("something was created: %+v", list)
			}
		})
	}
}

func TestCreateTakenName(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.m.Create(ctx, overheat()); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Create(ctx, overheat()); !errors.Is(err, fault.Conflict) {
		t.Errorf("second Create = %v, want Conflict", err)
	}
	in := overheat()
	in.Name = "rest_api" // a seeded category's key
	if _, err := f.cfg.Create(ctx, configmgr.CategoryInput{Key: "rest_api", Description: "x", Items: map[string]configmgr.Item{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Create(ctx, in); !errors.Is(err, fault.Conflict) {
		t.Errorf("Create over a category = %v, want Conflict", err)
	}
	if _, err := f.m.Get(ctx, "rest_api"); !errors.Is(err, fault.NotFound) {
		t.Errorf("Get of a category that is no notification = %v, want NotFound", err)
	}
}

func TestUpdate(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.m.Create(ctx, overheat()); err != nil {
		t.Fatal(err)
	}
	n, err := f.m.Update(ctx, "overheat", notification.Update{Type: ptr("one shot"), Enabled: ptr(false),
		RuleConfig: map[string]string{"value": "90"}})
	if err != nil {
		t.Fatal(err)
	}
	if n.Type != "one shot" || n.Enabled || n.RuleConfig.Items["value"].Value != "90" || n.RuleConfig.Items["datapoint"].Value != "temperature" {
		t.Errorf("updated %+v", n)
	}
	n, err = f.m.Update(ctx, "overheat", notification.Update{Channel: ptr("email"), DeliveryConfig: map[string]string{"to": "a@b.c"}})
	if err != nil {
		t.Fatal(err)
	}
	if n.Channel != "email" || n.Delivery.Items["to"].Value != "a@b.c" {
		t.Errorf("after a new channel plugin %+v", n)
	}
	if _, ok := n.Delivery.Items["url"]; ok {
		t.Errorf("the old plugin's items stayed: %v", n.Delivery.Items)
	}
	if ws := f.proc.last(); len(ws) != 1 || ws[0].Channels[0].Plugin != "email" || ws[0].Enabled {
		t.Errorf("process was handed %+v", ws)
	}
	for name, in := range map[string]notification.Update{
		"bad value":      {RuleConfig: map[string]string{"value": "x"}},
		"unknown rule":   {Rule: ptr("nope")},
		"unknown type":   {Type: ptr("sometimes")},
		"refused config": {RuleConfig: map[string]string{"datapoint": "refused"}},
	} {
		if _, err := f.m.Update(ctx, "overheat", in); err == nil {
			t.Errorf("%s: Update succeeded", name)
		}
	}
	if _, err := f.m.Update(ctx, "nobody", notification.Update{Enabled: ptr(true)}); !errors.Is(err, fault.NotFound) {
		t.Errorf("Update of an unknown instance = %v, want NotFound", err)
	}
}

func TestChannelsAndDelete(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.m.Create(ctx, overheat()); err != nil {
		t.Fatal(err)
	}
	ch, err := f.m.AddChannel(ctx, "overheat", "mail", "email", map[string]string{"to": "ops@plant.example"})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Category != "overheat_channel_mail" || ch.Plugin != "email" || ch.Config.Items["to"].Value != "ops@plant.example" {
		t.Errorf("added %+v", ch)
	}
	for name, tt := range map[string]struct {
		channel, plugin string
		want            *fault.Kind
	}{
		"same name again": {"mail", "email", fault.Conflict},
		"instance's name": {"overheat", "email", fault.Conflict},
		"unknown plugin":  {"sms", "sms", fault.NotFound},
	} {
		if _, err := f.m.AddChannel(ctx, "overheat", tt.channel, tt.plugin, nil); !errors.Is(err, tt.want) {
			t.Errorf("%s: AddChannel = %v, want %v", name, err, tt.want)
		}
	}
	all, err := f.m.Channels(ctx, "overheat")
	if err != nil || len(all) != 2 || all[0].Name != "overheat" || all[1].Name != "mail" {
		t.Fatalf("Channels = %+v, %v", all, err)
	}
	if ws := f.proc.last(); len(ws) != 1 || len(ws[0].Channels) != 2 || ws[0].Channels[1].Config["to"] != "ops@plant.example" {
		t.Errorf("process was handed %+v", ws)
	}
	if err := f.m.DeleteChannel(ctx, "overheat", "overheat"); !errors.Is(err, fault.Invalid) {
		t.Errorf("deleting the own channel = %v, want Invalid", err)
	}
	if err := f.m.DeleteChannel(ctx, "overheat", "mail"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Channel(ctx, "overheat", "mail"); !errors.Is(err, fault.NotFound) {
		t.Errorf("deleted channel still there: %v", err)
	}
	// The channel's deletion is audited: NTFDL naming the channel.
	entries, _, err := f.log.List(ctx, audit.Filter{Source: "NTFDL", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || !strings.Contains(string(entries[0].Details), `"channel":"mail"`) {
		t.Errorf("NTFDL entries after deleting channel mail = %+v, want one naming it", entries)
	}
	if err := f.m.Delete(ctx, "overheat"); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"overheat", "ruleoverheat", "deliveryoverheat"} {
		if _, err := f.cfg.Category(ctx, key); !errors.Is(err, fault.NotFound) {
			t.Errorf("category %q after delete: %v", key, err)
		}
	}
	if ws := f.proc.last(); len(ws) != 0 {
		t.Errorf("process still has %+v", ws)
	}
	if got := auditCount(t, f, "NTFDL"); got != 2 {
		t.Errorf("NTFDL entries = %d, want the channel's and the instance's", got)
	}
	if err := f.m.Delete(ctx, "overheat"); !errors.Is(err, fault.NotFound) {
		t.Errorf("second Delete = %v, want NotFound", err)
	}
}

func TestCategoryChangeReachesTheProcess(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if _, err := f.m.Create(ctx, overheat()); err != nil {
		t.Fatal(err)
	}
	if err := f.m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.cfg.SetValue(ctx, "ruleoverheat", "value", "99"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		ws := f.proc.last()
		if len(ws) == 1 && ws[0].RuleConfig["value"] == "99" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the process never got the changed value: %+v", ws)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestFeedHandsOverWatchedReadingsAndAudits(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	in := overheat()
	if _, err := f.m.Create(ctx, in); err != nil {
		t.Fatal(err)
	}
	feed := f.m.Feed()
	go feed.Run(ctx, func() map[string]int64 { return nil })
	at := time.Date(2026, 11, 26, 10, 0, 0, 5, time.UTC)
	feed.Committed("svc", []plugin.Reading{
		{Asset: "motor", Timestamp: at, Values: json.RawMessage(`{"temperature":81}`)},
		{Asset: "pump", Timestamp: at, Values: json.RawMessage(`{"temperature":99}`)},
		{Asset: "motor \"2\"", Timestamp: at, Values: json.RawMessage(`{"temperature":1}`)},
	})
	feed.Audited("SRVFL", at) // no rule watches it
	deadline := time.Now().Add(10 * time.Second)
	for {
		f.proc.mu.Lock()
		got := slices.Clone(f.proc.readings)
		f.proc.mu.Unlock()
		if len(got) > 0 {
			rs := got[0]
			if len(rs) != 1 || rs[0].Asset != "motor" || !rs[0].Timestamp.Equal(at) || string(rs[0].Values) != `{"temperature":81}` {
				t.Errorf("handed %+v; want only the motor's reading", rs)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no readings handed over")
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.proc.mu.Lock()
	audits := slices.Clone(f.proc.audits)
	f.proc.mu.Unlock()
	if len(audits) != 0 {
		t.Errorf("unwatched audit codes handed over: %v", audits)
	}
	if !strings.Contains(f.proc.last()[0].RuleConfig["asset"], "motor") {
		t.Error("instance lost its asset")
	}
}
