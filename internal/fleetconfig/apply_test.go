package fleetconfig

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// fake is a gateway in memory: categories with typed items, services,
// filters and pipelines, notifications with channels, schedules and users.
// writes counts every change made to it.
type fake struct {
	cats      map[string]configmgr.Category
	services  []db.Service
	schedules []db.Schedule
	filters   []FilterInfo
	pipelines map[string][]string
	notes     []NotificationInfo
	users     []UserInfo
	nextUser  int64
	writes    int
}

// pluginItems are the configuration items of the fake's plugins.
var pluginItems = map[string]map[string]configmgr.Item{
	"sinusoid": {"assetName": {Type: "string", Default: "sinusoid"}, "rate": {Type: "integer", Default: "1"},
		"plugin": {Type: "string", Default: "sinusoid", Readonly: "true"}},
	"http_north": {"url": {Type: "string", Default: "http://localhost:6683"}, "apiKey": {Type: configmgr.TypePassword}},
	"scale":      {"factor": {Type: "float", Default: "1"}, "enable": {Type: "boolean", Default: "true"}},
	"threshold":  {"asset": {Type: "string"}, "value": {Type: "float", Default: "0"}},
	"average":    {"asset": {Type: "string"}, "window": {Type: "integer", Default: "10"}},
	"webhook":    {"url": {Type: "string"}, "token": {Type: configmgr.TypePassword}},
	"mqtt":       {"topic": {Type: "string", Default: "alerts"}},
}

// fakePlugin is the fakes' CheckPlugin: a plugin not in pluginItems is
// not installed.
func fakePlugin(name string) error {
	if name == "" {
		return nil
	}
	if _, ok := pluginItems[name]; !ok {
		return fault.New(fault.NotFound, "plugin %q not found", name)
	}
	return nil
}

func newFake() *fake {
	f := &fake{cats: map[string]configmgr.Category{}, pipelines: map[string][]string{}, nextUser: 2}
	f.cats["PURGE_READ"] = configmgr.Category{Key: "PURGE_READ", Items: map[string]configmgr.Item{
		"age": {Type: "integer", Default: "72", Value: "72"}, "retainUnsent": {Type: "boolean", Default: "false", Value: "false"}}}
	f.schedules = []db.Schedule{{Name: "purge", Enabled: true}}
	f.users = []UserInfo{{ID: 1, Name: "admin", Role: 1, AccessMethod: "any", RealName: "Admin user"}}
	return f
}

func (f *fake) target() Target {
	return Target{Config: fakeConfig{f}, Services: fakeServices{f}, Filters: fakeFilters{f}, Notifications: fakeNotes{f},
		Users: fakeUsers{f}, Seeded: []string{"PURGE_READ"}}
}

// addCategory creates key with the items of plugin (or defs), each at its
// default, then sets values.
func (f *fake) addCategory(key string, defs map[string]configmgr.Item, values map[string]string) error {
	if _, ok := f.cats[key]; ok {
		return fault.New(fault.Conflict, "category %q exists", key)
	}
	items := map[string]configmgr.Item{}
	for n, d := range defs {
		d.Value = d.Default
		items[n] = d
	}
	f.cats[key] = configmgr.Category{Key: key, Items: items}
	f.writes++
	if len(values) == 0 {
		return nil
	}
	_, err := fakeConfig{f}.SetValues(context.Background(), key, values)
	return err
}

type fakeConfig struct{ f *fake }

func (c fakeConfig) Categories(context.Context) ([]configmgr.Category, error) {
	var out []configmgr.Category
	for _, k := range slices.Sorted(maps.Keys(c.f.cats)) {
		cat := c.f.cats[k]
		masked := configmgr.Category{Key: cat.Key, Description: cat.Description, DisplayName: cat.DisplayName, Items: map[string]configmgr.Item{}}
		for n, it := range cat.Items {
			if it.Type == configmgr.TypePassword && it.Value != "" {
				it.Value = "****"
			}
			masked.Items[n] = it
		}
		out = append(out, masked)
	}
	return out, nil
}

func (c fakeConfig) Value(_ context.Context, key, item string) (string, error) {
	it, ok := c.f.cats[key].Items[item]
	if !ok {
		return "", fault.New(fault.NotFound, "%s/%s", key, item)
	}
	return it.Value, nil
}

func (c fakeConfig) SetValues(_ context.Context, key string, values map[string]string) (configmgr.Category, error) {
	cat, ok := c.f.cats[key]
	if !ok {
		return configmgr.Category{}, fault.New(fault.NotFound, "category %q", key)
	}
	for n, v := range values {
		it, ok := cat.Items[n]
		if !ok || it.Readonly == "true" {
			return configmgr.Category{}, fault.New(fault.Invalid, "item %q of %q", n, key)
		}
		it.Value = v
		cat.Items[n] = it
	}
	c.f.writes++
	return cat, nil
}

func (c fakeConfig) Create(_ context.Context, in configmgr.CategoryInput) (configmgr.Category, error) {
	if err := c.f.addCategory(in.Key, in.Items, nil); err != nil {
		return configmgr.Category{}, err
	}
	cat := c.f.cats[in.Key]
	cat.Description, cat.DisplayName = in.Description, in.DisplayName
	c.f.cats[in.Key] = cat
	return cat, nil
}

type fakeServices struct{ f *fake }

func (s fakeServices) List(context.Context) ([]db.Service, error) {
	return slices.Clone(s.f.services), nil
}
func (s fakeServices) Schedules(context.Context) ([]db.Schedule, error) {
	return slices.Clone(s.f.schedules), nil
}
func (s fakeServices) Create(_ context.Context, in NewService) error {
	if err := s.f.addCategory(in.Name, pluginItems[in.Plugin], in.Config); err != nil {
		return err
	}
	s.f.services = append(s.f.services, db.Service{Name: in.Name, Type: strings.ToLower(in.Type), Plugin: in.Plugin, ScheduleEnabled: in.Enabled})
	s.f.schedules = append(s.f.schedules, db.Schedule{Name: in.Name, Enabled: in.Enabled})
	s.f.pipelines[in.Name] = []string{}
	return nil
}
func (s fakeServices) CheckPlugin(_ context.Context, _, plugin string) error {
	return fakePlugin(plugin)
}
func (s fakeServices) Delete(_ context.Context, name string) error {
	s.f.services = slices.DeleteFunc(s.f.services, func(x db.Service) bool { return x.Name == name })
	s.f.schedules = slices.DeleteFunc(s.f.schedules, func(x db.Schedule) bool { return x.Name == name })
	delete(s.f.cats, name)
	delete(s.f.pipelines, name)
	s.f.writes++
	return nil
}
func (s fakeServices) SetEnabled(_ context.Context, name string, enabled bool) error {
	for i := range s.f.schedules {
		if s.f.schedules[i].Name == name {
			s.f.schedules[i].Enabled = enabled
		}
	}
	for i := range s.f.services {
		if s.f.services[i].Name == name {
			s.f.services[i].ScheduleEnabled = enabled
		}
	}
	s.f.writes++
	return nil
}

type fakeFilters struct{ f *fake }

func (x fakeFilters) List(context.Context) ([]FilterInfo, error) {
	return slices.Clone(x.f.filters), nil
}
func (x fakeFilters) Pipeline(_ context.Context, svc string) ([]string, error) {
	return slices.Clone(x.f.pipelines[svc]), nil
}
func (x fakeFilters) Create(_ context.Context, name, plugin string, values map[string]string) error {
	if err := x.f.addCategory(name, pluginItems[plugin], values); err != nil {
		return err
	}
	x.f.filters = append(x.f.filters, FilterInfo{Name: name, Plugin: plugin})
	return nil
}
func (x fakeFilters) CheckPlugin(_ context.Context, plugin string) error { return fakePlugin(plugin) }
func (x fakeFilters) Delete(_ context.Context, name string) error {
	for svc, p := range x.f.pipelines {
		if slices.Contains(p, name) {
			return fault.New(fault.Conflict, "filter %q is in the pipeline of %q", name, svc)
		}
	}
	x.f.filters = slices.DeleteFunc(x.f.filters, func(i FilterInfo) bool { return i.Name == name })
	delete(x.f.cats, name)
	x.f.writes++
	return nil
}
func (x fakeFilters) SetPipeline(_ context.Context, svc string, filters []string) error {
	x.f.pipelines[svc] = slices.Clone(filters)
	x.f.writes++
	return nil
}

type fakeNotes struct{ f *fake }

func (n fakeNotes) find(name string) *NotificationInfo {
	for i := range n.f.notes {
		if n.f.notes[i].Name == name {
			return &n.f.notes[i]
		}
	}
	return nil
}
func (n fakeNotes) List(context.Context) ([]NotificationInfo, error) {
	out := slices.Clone(n.f.notes)
	for i := range out {
		out[i].Channels = slices.Clone(out[i].Channels)
	}
	return out, nil
}
func (n fakeNotes) Create(_ context.Context, x Notification) error {
	if err := n.f.addCategory("rule"+x.Name, pluginItems[x.Rule], texts(x.RuleConfig)); err != nil {
		return err
	}
	if err := n.f.addCategory("delivery"+x.Name, pluginItems[x.Channel], texts(x.DeliveryConfig)); err != nil {
		return err
	}
	n.f.notes = append(n.f.notes, NotificationInfo{Name: x.Name, Description: x.Description, Type: x.Type, Rule: x.Rule,
		Channel: x.Channel, Enabled: x.Enabled, RetriggerTime: x.RetriggerTime, RuleKey: "rule" + x.Name, DeliveryKey: "delivery" + x.Name})
	return nil
}
func (n fakeNotes) CheckPlugins(_ context.Context, rule, delivery string) error {
	if err := fakePlugin(rule); err != nil {
		return err
	}
	return fakePlugin(delivery)
}
func (n fakeNotes) Update(ctx context.Context, name string, ch NotificationChange) error {
	x := n.find(name)
	if x == nil {
		return fault.New(fault.NotFound, "notification %q", name)
	}
	set := func(p *string, to *string) {
		if to != nil {
			*p = *to
		}
	}
	set(&x.Description, ch.Description)
	set(&x.Type, ch.Type)
	if ch.Enabled != nil {
		x.Enabled = *ch.Enabled
	}
	if ch.RetriggerTime != nil {
		x.RetriggerTime = *ch.RetriggerTime
	}
	if ch.Rule != nil { // a new rule: a new category
		x.Rule = *ch.Rule
		delete(n.f.cats, x.RuleKey)
		if err := n.f.addCategory(x.RuleKey, pluginItems[x.Rule], ch.RuleConfig); err != nil {
			return err
		}
	} else if len(ch.RuleConfig) > 0 {
		if _, err := fakeConfig(n).SetValues(ctx, x.RuleKey, ch.RuleConfig); err != nil {
			return err
		}
	}
	if ch.Channel != nil {
		x.Channel = *ch.Channel
		delete(n.f.cats, x.DeliveryKey)
		if err := n.f.addCategory(x.DeliveryKey, pluginItems[x.Channel], ch.DeliveryConfig); err != nil {
			return err
		}
	} else if len(ch.DeliveryConfig) > 0 {
		if _, err := fakeConfig(n).SetValues(ctx, x.DeliveryKey, ch.DeliveryConfig); err != nil {
			return err
		}
	}
	n.f.writes++
	return nil
}
func (n fakeNotes) Delete(_ context.Context, name string) error {
	x := n.find(name)
	delete(n.f.cats, x.RuleKey)
	delete(n.f.cats, x.DeliveryKey)
	for _, c := range x.Channels {
		delete(n.f.cats, c.Key)
	}
	n.f.notes = slices.DeleteFunc(n.f.notes, func(i NotificationInfo) bool { return i.Name == name })
	n.f.writes++
	return nil
}
func (n fakeNotes) AddChannel(_ context.Context, name, channel, plugin string, values map[string]string) error {
	x := n.find(name)
	key := name + "_channel_" + channel
	if err := n.f.addCategory(key, pluginItems[plugin], values); err != nil {
		return err
	}
	x.Channels = append(x.Channels, ChannelInfo{Name: channel, Plugin: plugin, Key: key})
	return nil
}
func (n fakeNotes) DeleteChannel(_ context.Context, name, channel string) error {
	x := n.find(name)
	x.Channels = slices.DeleteFunc(x.Channels, func(c ChannelInfo) bool {
		if c.Name == channel {
			delete(n.f.cats, c.Key)
		}
		return c.Name == channel
	})
	n.f.writes++
	return nil
}

type fakeUsers struct{ f *fake }

func (u fakeUsers) List(context.Context) ([]UserInfo, error) { return slices.Clone(u.f.users), nil }
func (u fakeUsers) Roles(context.Context) (map[string]int64, error) {
	return map[string]int64{"admin": 1, "user": 2, "view": 3, "data-view": 4, "control": 5}, nil
}
func (u fakeUsers) Create(_ context.Context, in NewUser) error {
	if in.Password == "" {
		return fault.New(fault.Invalid, "no password")
	}
	access := in.AccessMethod
	if access == "" {
		access = "any"
	}
	u.f.users = append(u.f.users, UserInfo{ID: u.f.nextUser, Name: in.Name, Role: in.Role, RealName: in.RealName,
		Description: in.Description, AccessMethod: access})
	u.f.nextUser++
	u.f.writes++
	return nil
}
func (u fakeUsers) Update(_ context.Context, id int64, ch UserChange) error {
	for i := range u.f.users {
		x := &u.f.users[i]
		if x.ID != id {
			continue
		}
		if ch.Role != nil {
			x.Role = *ch.Role
		}
		for _, p := range []struct{ to, from *string }{{&x.RealName, ch.RealName}, {&x.Description, ch.Description}, {&x.AccessMethod, ch.AccessMethod}} {
			if p.from != nil {
				*p.to = *p.from
			}
		}
	}
	u.f.writes++
	return nil
}
func (u fakeUsers) Delete(_ context.Context, id int64) error {
	u.f.users = slices.DeleteFunc(u.f.users, func(x UserInfo) bool { return x.ID == id })
	u.f.writes++
	return nil
}

// desired is a document configuring every kind, with resolved secrets.
func desired() Document {
	pw := Plain("Operator-1x!")
	return Document{
		Version: Version,
		Categories: []Category{{Name: "PURGE_READ", Items: Values{"age": Plain("24")}},
			{Name: "site", Description: "Site", DisplayName: "Site", Definitions: map[string]Definition{
				"line": {Type: "string", Description: "Line", Default: "1"}, "key": {Type: configmgr.TypePassword, Description: "Key"}},
				Items: Values{"line": Plain("7"), "key": Plain("site-secret")}}},
		Services: []Service{
			{Name: "sine", Type: "south", Plugin: "sinusoid", Enabled: true, Config: Values{"assetName": Plain("wave"), "rate": Plain("5")},
				Pipeline: []string{"double"}},
			{Name: "up", Type: "north", Plugin: "http_north", Enabled: false, Config: Values{"url": Plain("http://central"), "apiKey": Plain("north-secret")},
				Pipeline: []string{}}},
		Filters: []Filter{{Name: "double", Plugin: "scale", Config: Values{"factor": Plain("2"), "enable": Plain("true")}}},
		Notifications: []Notification{{Name: "hot", Description: "too hot", Type: "one shot", Enabled: true, RetriggerTime: 30,
			Rule: "threshold", RuleConfig: Values{"asset": Plain("boiler"), "value": Plain("80")},
			Channel: "webhook", DeliveryConfig: Values{"url": Plain("http://hook"), "token": Plain("hook-secret")},
			Channels: []Channel{{Name: "bus", Plugin: "mqtt", Config: Values{"topic": Plain("plant/alerts")}}}}},
		Schedules: []Schedule{{Name: "purge", Enabled: false}},
		Users: []User{{Name: "admin", Role: "admin", RealName: "Admin user", AccessMethod: "any"},
			{Name: "operator", Role: "view", RealName: "Op", Description: "shift", AccessMethod: "any", Password: &pw}},
	}
}

// secrets are the values of the references an export of desired holds.
var secrets = map[string]string{
	"EDGE_SECRET_SITE_KEY": "site-secret", "EDGE_SECRET_UP_APIKEY": "north-secret",
	"EDGE_SECRET_HOT_DELIVERY_TOKEN": "hook-secret", "EDGE_PASSWORD_OPERATOR": "Operator-1x!",
}

// resolved replaces the references of d by the values of secrets.
func resolved(t *testing.T, d Document) Document {
	t.Helper()
	d = clone(t, d)
	fix := func(v *Value) {
		if v == nil || v.Ref == nil {
			return
		}
		s, ok := secrets[v.Ref.FromEnv]
		if !ok {
			t.Fatalf("the export references %s", v.Ref)
		}
		*v = Plain(s)
	}
	fixAll := func(vs Values) {
		for k, v := range vs {
			fix(&v)
			vs[k] = v
		}
	}
	for _, c := range d.Categories {
		fixAll(c.Items)
	}
	for _, s := range d.Services {
		fixAll(s.Config)
	}
	for _, n := range d.Notifications {
		fixAll(n.RuleConfig)
		fixAll(n.DeliveryConfig)
	}
	for i := range d.Users {
		fix(d.Users[i].Password)
	}
	return d
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestApplyRoundTrip(t *testing.T) {
	ctx := context.Background()
	gw := newFake()
	m := New(gw.target())

	res, err := m.Apply(ctx, desired())
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Create == 0 || res.Summary.Change == 0 {
		t.Fatalf("first apply: %s", jsonOf(t, res))
	}
	writes := gw.writes
	again, err := m.Apply(ctx, desired())
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Changes) != 0 || gw.writes != writes {
		t.Fatalf("second apply changed %s (%d writes)", jsonOf(t, again), gw.writes-writes)
	}

	exported, err := m.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	text := jsonOf(t, exported)
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Fatalf("the export holds the secret %q:\n%s", s, text)
		}
	}

	// Applied to a fresh gateway, the export reproduces the gateway.
	fresh := newFake()
	mf := New(fresh.target())
	if _, err := mf.Apply(ctx, resolved(t, exported)); err != nil {
		t.Fatal(err)
	}
	got, err := mf.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := jsonOf(t, got), text; g != w {
		t.Fatalf("the fresh gateway exports\n%s\nwant\n%s", g, w)
	}
	plan, err := mf.Plan(ctx, resolved(t, exported))
	if err != nil || len(plan.Changes) != 0 {
		t.Fatalf("plan of the export on the fresh gateway: %v %s", err, jsonOf(t, plan))
	}

	// A changed document: the plan shows what apply then does.
	next := resolved(t, exported)
	n := &next.Notifications[0]
	n.Rule, n.RuleConfig, n.Channels = "average", Values{"asset": Plain("boiler"), "window": Plain("60")}, []Channel{}
	next.Services = next.Services[:1] // "sine": "up" goes
	next.Users = next.Users[:1]       // admin
	plan, err = mf.Plan(ctx, next)
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{{Action: ActionRemove, Kind: "service", Name: "up"},
		changed("notification", "hot", "rule", "threshold", "average"),
		{Action: ActionRemove, Kind: "channel", Name: "hot/bus"},
		{Action: ActionRemove, Kind: "user", Name: "operator"}}
	if g, w := jsonOf(t, plan.Changes), jsonOf(t, want); g != w {
		t.Fatalf("plan\n%s\nwant\n%s", g, w)
	}
	if _, err := mf.Apply(ctx, next); err != nil {
		t.Fatal(err)
	}
	after, err := mf.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Services) != 1 || len(after.Users) != 1 || after.Notifications[0].Rule != "average" ||
		after.Notifications[0].RuleConfig["window"].Text != "60" || len(after.Notifications[0].Channels) != 0 {
		t.Fatalf("after apply: %s", jsonOf(t, after))
	}
	if _, ok := fresh.cats["hot_channel_bus"]; ok {
		t.Fatal("the removed channel's category stayed")
	}
}

func TestApplyRefusesBeforeWriting(t *testing.T) {
	gw := newFake()
	m := New(gw.target())
	d := desired()
	d.Users = append(d.Users, User{Name: "nopw", Role: "view"})
	_, err := m.Apply(context.Background(), d)
	if err == nil || !strings.Contains(err.Error(), `user "nopw" is new`) {
		t.Fatalf("error %v", err)
	}
	if gw.writes != 0 {
		t.Fatalf("a refused document wrote %d times", gw.writes)
	}
}

// TestPlanRefusesUnknownPlugins checks that a document naming a plugin
// the gateway lacks is refused by the plan as the apply refuses it (404,
// naming the entry), before anything is written, not planned as a create
// that the apply then fails half way.
func TestPlanRefusesUnknownPlugins(t *testing.T) {
	tests := []struct {
		name   string
		change func(d *Document)
		want   string
	}{
		{name: "new filter", change: func(d *Document) { d.Filters = append(d.Filters, Filter{Name: "f2", Plugin: "nosuch"}) },
			want: `create filter "f2"`},
		{name: "new service", change: func(d *Document) {
			d.Services = append(d.Services, Service{Name: "s2", Type: "south", Plugin: "nosuch", Pipeline: []string{}})
		}, want: `create service "s2"`},
		{name: "new notification's rule", change: func(d *Document) {
			d.Notifications = append(d.Notifications, Notification{Name: "n2", Type: "one shot", Rule: "nosuch", Channel: "webhook"})
		}, want: `create notification "n2"`},
		{name: "new notification's channel", change: func(d *Document) {
			d.Notifications = append(d.Notifications, Notification{Name: "n2", Type: "one shot", Rule: "threshold", Channel: "webhook",
				Channels: []Channel{{Name: "c", Plugin: "nosuch"}}})
		}, want: `create notification "n2"`},
		{name: "changed rule", change: func(d *Document) { d.Notifications[0].Rule = "nosuch" }, want: `change notification "hot"`},
		{name: "added channel", change: func(d *Document) {
			d.Notifications[0].Channels = append(d.Notifications[0].Channels, Channel{Name: "c2", Plugin: "nosuch"})
		}, want: `create channel "hot/c2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gw := newFake()
			m := New(gw.target())
			if _, err := m.Apply(context.Background(), resolved(t, desired())); err != nil {
				t.Fatal(err)
			}
			d := resolved(t, desired())
			tt.change(&d)
			writes := gw.writes
			for _, call := range []func(context.Context, Document) (Result, error){m.Plan, m.Apply} {
				_, err := call(context.Background(), d)
				if err == nil || !errors.Is(err, fault.NotFound) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "nosuch") {
					t.Fatalf("error %v, want NotFound naming %s and the plugin", err, tt.want)
				}
			}
			if gw.writes != writes {
				t.Fatalf("a document naming an unknown plugin wrote %d times", gw.writes-writes)
			}
		})
	}
}

func TestApplyReportsTheFailedWrite(t *testing.T) {
	gw := newFake()
	m := New(gw.target())
	d := Document{Version: Version, Filters: []Filter{{Name: "double", Plugin: "scale"}},
		Services: []Service{{Name: "double", Type: "south", Plugin: "sinusoid"}}} // the filter's category takes the name
	_, err := m.Apply(context.Background(), d)
	if err == nil || !strings.Contains(err.Error(), `create service "double"`) || !errorsIsConflict(err) {
		t.Fatalf("error %v", err)
	}
	if len(gw.filters) != 1 {
		t.Fatalf("the write before the failure is not kept: %v", gw.filters)
	}
}

func errorsIsConflict(err error) bool { return errors.Is(err, fault.Conflict) }
