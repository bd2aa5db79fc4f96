package fleetconfig

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/edged/edged/internal/fault"
)

// base is a small gateway: one seeded category, a south service with a
// filter in its pipeline, a notification with a channel, a schedule and
// two users.
func base() state {
	return state{
		doc: Document{
			Version:    Version,
			Categories: []Category{{Name: "PURGE_READ", Items: Values{"age": Plain("72"), "retainUnsent": Plain("false")}}},
			Services: []Service{{Name: "s1", Type: "south", Plugin: "sinusoid", Enabled: true,
				Config: Values{"assetName": Plain("sine"), "key": {Text: "k1", secret: true}}, Pipeline: []string{"f1"}}},
			Filters: []Filter{{Name: "f1", Plugin: "scale", Config: Values{"factor": Plain("2")}}},
			Notifications: []Notification{{Name: "n1", Type: "one shot", Enabled: true, Rule: "Threshold",
				RuleConfig: Values{"value": Plain("10")}, Channel: "log", DeliveryConfig: Values{"level": Plain("info")},
				Channels: []Channel{{Name: "c1", Plugin: "log", Config: Values{"level": Plain("warn")}}}}},
			Schedules: []Schedule{{Name: "purge", Enabled: true}},
			Users: []User{{Name: "admin", Role: "admin", AccessMethod: "any"},
				{Name: "op", Role: "view", RealName: "Operator", AccessMethod: "any"}},
		},
		userIDs:  map[string]int64{"admin": 1, "op": 2},
		channels: map[string]string{"n1\x00c1": "n1_channel_c1"},
		roles:    map[string]int64{"admin": 1, "user": 2, "view": 3, "data-view": 4, "control": 5},
	}
}

// clone deep-copies a document through its JSON form (secrets keep their
// text, since Value marshals the text of a secret).
func clone(t *testing.T, d Document) Document {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var out Document
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name string
		edit func(d *Document)
		want []Change
	}{
		{name: "same document: no change", edit: func(*Document) {}},
		{name: "absent sections are not managed", edit: func(d *Document) {
			d.Services, d.Filters, d.Notifications, d.Schedules, d.Users = nil, nil, nil, nil, nil
		}},
		{name: "an item not listed is left alone", edit: func(d *Document) {
			d.Categories[0].Items = Values{"age": Plain("72")}
		}},
		{name: "category item changed", edit: func(d *Document) { d.Categories[0].Items["age"] = Plain("24") },
			want: []Change{changed("category", "PURGE_READ", "items.age", "72", "24")}},
		{name: "secret changed shows masked", edit: func(d *Document) { d.Services[0].Config["key"] = Plain("k2") },
			want: []Change{changed("service", "s1", "config.key", "****", "****")}},
		{name: "service disabled and its pipeline emptied", edit: func(d *Document) {
			d.Services[0].Enabled, d.Services[0].Pipeline = false, nil
		}, want: []Change{changed("service", "s1", "enabled", "true", "false"), changed("service", "s1", "pipeline", "f1", "")}},
		{name: "service type in another case is the same", edit: func(d *Document) { d.Services[0].Type = "South" }},
		{name: "service removed, filter kept", edit: func(d *Document) { d.Services = []Service{} },
			want: []Change{{Action: ActionRemove, Kind: "service", Name: "s1"}}},
		{name: "service and filter created, pipeline set after both", edit: func(d *Document) {
			d.Filters = append(d.Filters, Filter{Name: "f2", Plugin: "delta"})
			d.Services = append(d.Services, Service{Name: "s2", Type: "south", Plugin: "sinusoid", Pipeline: []string{"f2"}})
		}, want: []Change{{Action: ActionCreate, Kind: "filter", Name: "f2"}, {Action: ActionCreate, Kind: "service", Name: "s2"},
			changed("service", "s2", "pipeline", "", "f2")}},
		{name: "filter removed after the pipeline lets it go", edit: func(d *Document) {
			d.Filters, d.Services[0].Pipeline = []Filter{}, []string{}
		}, want: []Change{changed("service", "s1", "pipeline", "f1", ""), {Action: ActionRemove, Kind: "filter", Name: "f1"}}},
		{name: "filter config changed", edit: func(d *Document) { d.Filters[0].Config["factor"] = Plain("3") },
			want: []Change{changed("filter", "f1", "config.factor", "2", "3")}},
		{name: "notification fields and channel", edit: func(d *Document) {
			n := &d.Notifications[0]
			n.Enabled, n.RuleConfig["value"] = false, Plain("20")
			n.Channels[0].Config["level"] = Plain("error")
			n.Channels = append(n.Channels, Channel{Name: "c2", Plugin: "log"})
		}, want: []Change{changed("notification", "n1", "enabled", "true", "false"),
			changed("notification", "n1", "ruleConfig.value", "10", "20"),
			changed("channel", "n1/c1", "config.level", "warn", "error"),
			{Action: ActionCreate, Kind: "channel", Name: "n1/c2"}}},
		{name: "notification rule replaced", edit: func(d *Document) {
			d.Notifications[0].Rule, d.Notifications[0].RuleConfig = "Average", Values{"window": Plain("5")}
		}, want: []Change{changed("notification", "n1", "rule", "Threshold", "Average")}},
		{name: "channel removed", edit: func(d *Document) { d.Notifications[0].Channels = nil },
			want: []Change{{Action: ActionRemove, Kind: "channel", Name: "n1/c1"}}},
		{name: "notification removed and created", edit: func(d *Document) {
			d.Notifications = []Notification{{Name: "n2", Rule: "Threshold", Channel: "log", Type: "retriggered"}}
		}, want: []Change{{Action: ActionRemove, Kind: "notification", Name: "n1"}, {Action: ActionCreate, Kind: "notification", Name: "n2"}}},
		{name: "schedule disabled", edit: func(d *Document) { d.Schedules[0].Enabled = false },
			want: []Change{changed("schedule", "purge", "enabled", "true", "false")}},
		{name: "user changed, created, admin never removed", edit: func(d *Document) {
			pw := Plain("Secret-1x")
			d.Users = []User{{Name: "OP", Role: "control", RealName: "Op", AccessMethod: "pwd"},
				{Name: "eng", Role: "user", Password: &pw}}
		}, want: []Change{changed("user", "op", "role", "view", "control"), changed("user", "op", "realName", "Operator", "Op"),
			changed("user", "op", "accessMethod", "any", "pwd"), {Action: ActionCreate, Kind: "user", Name: "eng"}}},
		{name: "users removed but admin", edit: func(d *Document) { d.Users = []User{} },
			want: []Change{{Action: ActionRemove, Kind: "user", Name: "op"}}},
		{name: "a new category with definitions", edit: func(d *Document) {
			d.Categories = append(d.Categories, Category{Name: "site", Definitions: map[string]Definition{
				"line": {Type: "string", Description: "Line", Default: "1"}}, Items: Values{"line": Plain("2")}})
		}, want: []Change{{Action: ActionCreate, Kind: "category", Name: "site"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cur := base()
			want := clone(t, cur.doc)
			tc.edit(&want)
			p, err := diff(cur, want)
			if err != nil {
				t.Fatal(err)
			}
			got := p.changes()
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				gj, _ := json.MarshalIndent(got, "", " ")
				wj, _ := json.MarshalIndent(tc.want, "", " ")
				t.Fatalf("changes\n%s\nwant\n%s", gj, wj)
			}
			for _, s := range p {
				if s.run == nil {
					t.Fatalf("step %v has nothing to run", s.changes)
				}
			}
		})
	}
}

func TestDiffRefuses(t *testing.T) {
	tests := []struct {
		name string
		edit func(d *Document)
		msg  string
	}{
		{name: "unknown item", edit: func(d *Document) { d.Categories[0].Items["nope"] = Plain("1") }, msg: `has no item "nope"`},
		{name: "missing category without definitions", edit: func(d *Document) {
			d.Categories = append(d.Categories, Category{Name: "site", Items: Values{}})
		}, msg: `category "site" does not exist`},
		{name: "value without definition", edit: func(d *Document) {
			d.Categories = append(d.Categories, Category{Name: "site", Definitions: map[string]Definition{"a": {Type: "string"}},
				Items: Values{"b": Plain("x")}})
		}, msg: `item "b" has a value but no definition`},
		{name: "plugin changed", edit: func(d *Document) { d.Services[0].Plugin = "http_south" }, msg: "cannot change"},
		{name: "filter plugin changed", edit: func(d *Document) { d.Filters[0].Plugin = "delta" }, msg: "cannot change"},
		{name: "channel plugin changed", edit: func(d *Document) { d.Notifications[0].Channels[0].Plugin = "email" }, msg: "cannot change"},
		{name: "new user without password", edit: func(d *Document) { d.Users = append(d.Users, User{Name: "eng", Role: "user"}) },
			msg: `user "eng" is new and the document gives no password`},
		{name: "unknown role", edit: func(d *Document) { d.Users[1].Role = "boss" }, msg: `role "boss" is not one of`},
		{name: "unknown schedule", edit: func(d *Document) { d.Schedules = append(d.Schedules, Schedule{Name: "backup"}) },
			msg: `schedule "backup" is not one of the gateway's own schedules`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cur := base()
			want := clone(t, cur.doc)
			tc.edit(&want)
			_, err := diff(cur, want)
			if !errors.Is(err, fault.Invalid) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want Invalid with %q", err, tc.msg)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	ref := &SecretRef{FromEnv: "X"}
	tests := []struct {
		name string
		doc  Document
		msg  string
	}{
		{name: "no version", doc: Document{}, msg: "version 0 is not supported"},
		{name: "unresolved item reference", doc: Document{Version: 1, Services: []Service{{Name: "s", Type: "south", Plugin: "p",
			Config: Values{"key": {Ref: ref}}}}}, msg: `service "s", item "key": the secret reference (fromEnv "X") is not resolved`},
		{name: "unresolved password", doc: Document{Version: 1, Users: []User{{Name: "u", Password: &Value{Ref: ref}}}},
			msg: `user "u": the password reference`},
		{name: "twice", doc: Document{Version: 1, Filters: []Filter{{Name: "f"}, {Name: "f"}}}, msg: `filter "f" is listed twice`},
		{name: "no name", doc: Document{Version: 1, Schedules: []Schedule{{}}}, msg: "a schedule of the document has no name"},
		{name: "channel twice", doc: Document{Version: 1, Notifications: []Notification{{Name: "n", Channels: []Channel{{Name: "c"}, {Name: "c"}}}}},
			msg: `channel "n/c" is listed twice`},
		{name: "user twice in another case", doc: Document{Version: 1, Users: []User{{Name: "Op"}, {Name: "op"}}}, msg: `user "op" is listed twice`},
		{name: "service without plugin", doc: Document{Version: 1, Services: []Service{{Name: "s"}}}, msg: "needs a type and a plugin"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := check(tc.doc)
			if !errors.Is(err, fault.Invalid) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want Invalid with %q", err, tc.msg)
			}
		})
	}
	if err := check(Document{Version: 1}); err != nil {
		t.Fatalf("an empty document: %v", err)
	}
}

func TestValueJSON(t *testing.T) {
	tests := []struct {
		name, in string
		want     Value
		err      bool
	}{
		{name: "string", in: `"a"`, want: Plain("a")},
		{name: "number", in: `6683`, want: Plain("6683")},
		{name: "boolean", in: `true`, want: Plain("true")},
		{name: "env reference", in: `{"fromEnv": "A"}`, want: Value{Ref: &SecretRef{FromEnv: "A"}}},
		{name: "file reference", in: `{"fromFile": "/f"}`, want: Value{Ref: &SecretRef{FromFile: "/f"}}},
		{name: "both", in: `{"fromEnv": "A", "fromFile": "/f"}`, err: true},
		{name: "neither", in: `{}`, err: true},
		{name: "unknown field", in: `{"fromVault": "A"}`, err: true},
		{name: "null", in: `null`, err: true},
		{name: "array", in: `[]`, err: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var v Value
			err := json.Unmarshal([]byte(tc.in), &v)
			if (err != nil) != tc.err {
				t.Fatalf("error %v, want error %v", err, tc.err)
			}
			if !tc.err && !reflect.DeepEqual(v, tc.want) {
				t.Fatalf("got %+v, want %+v", v, tc.want)
			}
		})
	}
}

func TestEnvName(t *testing.T) {
	if got := EnvName("EDGE_SECRET", "north 1/a", "password"); got != "EDGE_SECRET_NORTH_1_A_PASSWORD" {
		t.Fatalf("got %q", got)
	}
}

func TestRefs(t *testing.T) {
	tests := []struct {
		name string
		in   Value
		want Value
	}{
		{name: "a set secret becomes a reference", in: Value{Text: "s3cret", secret: true},
			want: Value{Ref: &SecretRef{FromEnv: "EDGE_SECRET_SVC_PASSWORD"}}},
		{name: "an empty secret stays empty", in: Value{Text: "", secret: true}, want: Value{Text: "", secret: true}},
		{name: "a plain value stays", in: Plain("x"), want: Plain("x")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Values{"password": tc.in}
			refs(v, "EDGE_SECRET", "svc")
			got := v["password"]
			if got.Text != tc.want.Text || (got.Ref == nil) != (tc.want.Ref == nil) ||
				(got.Ref != nil && *got.Ref != *tc.want.Ref) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
