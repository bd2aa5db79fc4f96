package fleetconfig

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/edged/edged/internal/fault"
)

// step is one write of an apply and the changes it makes.
type step struct {
	changes []Change
	run     func(ctx context.Context, t Target) error
	// check, when set, says before anything is written whether run would
	// be refused for a reason the document alone does not show (a plugin
	// the gateway does not have), with run's error: a plan reports it as
	// the apply would, instead of an apply stopping half way.
	check func(ctx context.Context, t Target) error
}

// plan is the ordered steps that turn one state into another.
type plan []step

// changes lists every change of p in order.
func (p plan) changes() []Change {
	var out []Change
	for _, s := range p {
		out = append(out, s.changes...)
	}
	return out
}

// state is a gateway's configuration as diff needs it: the document with
// raw values (secrets marked), the ids of users and the keys of channel
// categories, and the roles by name.
type state struct {
	doc      Document
	userIDs  map[string]int64   // lower-case user name → id
	channels map[string]string  // notification + "\x00" + channel → category key
	roles    map[string]int64   // role name → id
	notes    []NotificationInfo // the notifications as read
}

// adminID is the user that can neither be removed nor lose its role.
const adminID = 1

func ptr(s string) *string { return &s }

func changed(kind, name, field, from, to string) Change {
	return Change{Action: ActionChange, Kind: kind, Name: name, Field: field, From: ptr(from), To: ptr(to)}
}

func invalid(format string, args ...any) error { return fault.New(fault.Invalid, format, args...) }

// texts returns the text of each value.
func texts(v Values) map[string]string {
	out := make(map[string]string, len(v))
	for k, x := range v {
		out[k] = x.Text
	}
	return out
}

// diffValues compares the values want lists with cur: each differing item
// is a change of field prefix+item. An item cur lacks is Invalid.
func diffValues(kind, name, prefix string, cur, want Values) (map[string]string, []Change, error) {
	set := map[string]string{}
	var out []Change
	for _, item := range slices.Sorted(maps.Keys(want)) {
		c, ok := cur[item]
		if !ok {
			return nil, nil, invalid("%s %q has no item %q", kind, name, item)
		}
		w := want[item]
		if c.Text == w.Text {
			continue
		}
		w.secret = c.secret
		set[item] = w.Text
		out = append(out, changed(kind, name, prefix+item, c.shown(), w.shown()))
	}
	return set, out, nil
}

// byName indexes items by the name key returns.
func byName[T any](list []T, key func(T) string) map[string]T {
	out := make(map[string]T, len(list))
	for _, x := range list {
		out[key(x)] = x
	}
	return out
}

// diff returns the steps that make cur hold want, in an order that works:
// categories, users, filters created or changed, services removed, created
// and changed, pipelines, filters removed, notifications, schedules, users
// removed. want must be checked (check) first.
func diff(cur state, want Document) (plan, error) {
	var p plan
	var err error
	steps := []func(state, Document) (plan, error){
		diffCategories, diffUsers, diffFilters, diffServices, diffPipelines, removeFilters,
		diffNotifications, diffSchedules, removeUsers,
	}
	for _, f := range steps {
		var more plan
		if more, err = f(cur, want); err != nil {
			return nil, err
		}
		p = append(p, more...)
	}
	return p, nil
}

func diffCategories(cur state, want Document) (plan, error) {
	var p plan
	have := byName(cur.doc.Categories, func(c Category) string { return c.Name })
	for _, w := range want.Categories {
		c, ok := have[w.Name]
		if ok {
			set, ch, err := diffValues("category", w.Name, "items.", c.Items, w.Items)
			if err != nil {
				return nil, err
			}
			if len(ch) > 0 {
				p = append(p, step{changes: ch, run: func(ctx context.Context, t Target) error {
					_, err := t.Config.SetValues(ctx, w.Name, set)
					return err
				}})
			}
			continue
		}
		if len(w.Definitions) == 0 {
			return nil, invalid("category %q does not exist on this gateway and the document gives no definitions to create it", w.Name)
		}
		for item := range w.Items {
			if _, ok := w.Definitions[item]; !ok {
				return nil, invalid("category %q: item %q has a value but no definition", w.Name, item)
			}
		}
		set := map[string]string{}
		for item, v := range w.Items {
			if v.Text != w.Definitions[item].Default {
				set[item] = v.Text
			}
		}
		p = append(p, step{changes: []Change{{Action: ActionCreate, Kind: "category", Name: w.Name}},
			run: func(ctx context.Context, t Target) error {
				if _, err := t.Config.Create(ctx, categoryInput(w)); err != nil {
					return err
				}
				if len(set) == 0 {
					return nil
				}
				_, err := t.Config.SetValues(ctx, w.Name, set)
				return err
			}})
	}
	return p, nil
}

func diffUsers(cur state, want Document) (plan, error) {
	if want.Users == nil {
		return nil, nil
	}
	var p plan
	have := byName(cur.doc.Users, func(u User) string { return strings.ToLower(u.Name) })
	seen := map[string]bool{}
	for _, w := range want.Users {
		key := strings.ToLower(w.Name)
		if seen[key] {
			return nil, invalid("user %q is listed twice", w.Name)
		}
		seen[key] = true
		role, ok := cur.roles[w.Role]
		if !ok {
			return nil, invalid("user %q: role %q is not one of %s", w.Name, w.Role, strings.Join(slices.Sorted(maps.Keys(cur.roles)), ", "))
		}
		c, ok := have[key]
		if !ok {
			if w.Password == nil {
				return nil, invalid("user %q is new and the document gives no password for it", w.Name)
			}
			in := NewUser{Name: w.Name, Password: w.Password.Text, Role: role, RealName: w.RealName,
				Description: w.Description, AccessMethod: w.AccessMethod}
			p = append(p, step{changes: []Change{{Action: ActionCreate, Kind: "user", Name: w.Name}},
				run: func(ctx context.Context, t Target) error { return t.Users.Create(ctx, in) }})
			continue
		}
		var ch []Change
		upd := UserChange{}
		if c.Role != w.Role {
			ch = append(ch, changed("user", c.Name, "role", c.Role, w.Role))
			upd.Role = &role
		}
		if c.RealName != w.RealName {
			ch = append(ch, changed("user", c.Name, "realName", c.RealName, w.RealName))
			upd.RealName = &w.RealName
		}
		if c.Description != w.Description {
			ch = append(ch, changed("user", c.Name, "description", c.Description, w.Description))
			upd.Description = &w.Description
		}
		if w.AccessMethod != "" && c.AccessMethod != w.AccessMethod {
			ch = append(ch, changed("user", c.Name, "accessMethod", c.AccessMethod, w.AccessMethod))
			upd.AccessMethod = &w.AccessMethod
		}
		if len(ch) > 0 {
			id := cur.userIDs[key]
			p = append(p, step{changes: ch, run: func(ctx context.Context, t Target) error { return t.Users.Update(ctx, id, upd) }})
		}
	}
	return p, nil
}

func removeUsers(cur state, want Document) (plan, error) {
	if want.Users == nil {
		return nil, nil
	}
	var p plan
	keep := byName(want.Users, func(u User) string { return strings.ToLower(u.Name) })
	for _, c := range cur.doc.Users {
		key := strings.ToLower(c.Name)
		id := cur.userIDs[key]
		if _, ok := keep[key]; ok || id == adminID {
			continue
		}
		p = append(p, step{changes: []Change{{Action: ActionRemove, Kind: "user", Name: c.Name}},
			run: func(ctx context.Context, t Target) error { return t.Users.Delete(ctx, id) }})
	}
	return p, nil
}

func diffFilters(cur state, want Document) (plan, error) {
	if want.Filters == nil {
		return nil, nil
	}
	var p plan
	have := byName(cur.doc.Filters, func(f Filter) string { return f.Name })
	for _, w := range want.Filters {
		c, ok := have[w.Name]
		if !ok {
			p = append(p, step{changes: []Change{{Action: ActionCreate, Kind: "filter", Name: w.Name}},
				run: func(ctx context.Context, t Target) error {
					return t.Filters.Create(ctx, w.Name, w.Plugin, texts(w.Config))
				},
				check: func(ctx context.Context, t Target) error { return t.Filters.CheckPlugin(ctx, w.Plugin) }})
			continue
		}
		if c.Plugin != w.Plugin {
			return nil, invalid("filter %q has plugin %q on the gateway and %q in the document: a filter's plugin cannot change; remove the filter, apply, then add it again", w.Name, c.Plugin, w.Plugin)
		}
		set, ch, err := diffValues("filter", w.Name, "config.", c.Config, w.Config)
		if err != nil {
			return nil, err
		}
		if len(ch) > 0 {
			p = append(p, step{changes: ch, run: func(ctx context.Context, t Target) error {
				_, err := t.Config.SetValues(ctx, w.Name, set)
				return err
			}})
		}
	}
	return p, nil
}

func removeFilters(cur state, want Document) (plan, error) {
	if want.Filters == nil {
		return nil, nil
	}
	var p plan
	keep := byName(want.Filters, func(f Filter) string { return f.Name })
	for _, c := range cur.doc.Filters {
		if _, ok := keep[c.Name]; ok {
			continue
		}
		p = append(p, step{changes: []Change{{Action: ActionRemove, Kind: "filter", Name: c.Name}},
			run: func(ctx context.Context, t Target) error { return t.Filters.Delete(ctx, c.Name) }})
	}
	return p, nil
}

func diffServices(cur state, want Document) (plan, error) {
	if want.Services == nil {
		return nil, nil
	}
	var p plan
	have := byName(cur.doc.Services, func(s Service) string { return s.Name })
	keep := byName(want.Services, func(s Service) string { return s.Name })
	for _, c := range cur.doc.Services { // removals first: a name may move to another type
		if _, ok := keep[c.Name]; ok {
			continue
		}
		p = append(p, step{changes: []Change{{Action: ActionRemove, Kind: "service", Name: c.Name}},
			run: func(ctx context.Context, t Target) error { return t.Services.Delete(ctx, c.Name) }})
	}
	for _, w := range want.Services {
		c, ok := have[w.Name]
		if !ok {
			in := NewService{Name: w.Name, Type: w.Type, Plugin: w.Plugin, Enabled: w.Enabled, Config: texts(w.Config)}
			p = append(p, step{changes: []Change{{Action: ActionCreate, Kind: "service", Name: w.Name}},
				run:   func(ctx context.Context, t Target) error { return t.Services.Create(ctx, in) },
				check: func(ctx context.Context, t Target) error { return t.Services.CheckPlugin(ctx, in.Type, in.Plugin) }})
			continue
		}
		if !strings.EqualFold(c.Type, w.Type) || c.Plugin != w.Plugin {
			return nil, invalid("service %q is a %s service of plugin %q on the gateway and a %s service of plugin %q in the document: a service's type and plugin cannot change; remove the service, apply, then add it again",
				w.Name, c.Type, c.Plugin, w.Type, w.Plugin)
		}
		set, ch, err := diffValues("service", w.Name, "config.", c.Config, w.Config)
		if err != nil {
			return nil, err
		}
		if len(ch) > 0 {
			p = append(p, step{changes: ch, run: func(ctx context.Context, t Target) error {
				_, err := t.Config.SetValues(ctx, w.Name, set)
				return err
			}})
		}
		if c.Enabled != w.Enabled {
			p = append(p, step{changes: []Change{changed("service", w.Name, "enabled", boolText(c.Enabled), boolText(w.Enabled))},
				run: func(ctx context.Context, t Target) error { return t.Services.SetEnabled(ctx, w.Name, w.Enabled) }})
		}
	}
	return p, nil
}

// diffPipelines sets the pipelines that differ: a service's pipeline is
// its filters in order, none when the document gives none.
func diffPipelines(cur state, want Document) (plan, error) {
	if want.Services == nil {
		return nil, nil
	}
	var p plan
	have := byName(cur.doc.Services, func(s Service) string { return s.Name })
	for _, w := range want.Services {
		from := have[w.Name].Pipeline
		if slices.Equal(from, w.Pipeline) || (len(from) == 0 && len(w.Pipeline) == 0) {
			continue
		}
		to := slices.Clone(w.Pipeline)
		if to == nil {
			to = []string{}
		}
		p = append(p, step{changes: []Change{changed("service", w.Name, "pipeline", strings.Join(from, ", "), strings.Join(to, ", "))},
			run: func(ctx context.Context, t Target) error { return t.Filters.SetPipeline(ctx, w.Name, to) }})
	}
	return p, nil
}

func diffNotifications(cur state, want Document) (plan, error) {
	if want.Notifications == nil {
		return nil, nil
	}
	var p plan
	have := byName(cur.doc.Notifications, func(n Notification) string { return n.Name })
	keep := byName(want.Notifications, func(n Notification) string { return n.Name })
	for _, c := range cur.doc.Notifications {
		if _, ok := keep[c.Name]; ok {
			continue
		}
		p = append(p, step{changes: []Change{{Action: ActionRemove, Kind: "notification", Name: c.Name}},
			run: func(ctx context.Context, t Target) error { return t.Notifications.Delete(ctx, c.Name) }})
	}
	for _, w := range want.Notifications {
		c, ok := have[w.Name]
		if !ok {
			p = append(p, step{changes: []Change{{Action: ActionCreate, Kind: "notification", Name: w.Name}},
				run: func(ctx context.Context, t Target) error {
					if err := t.Notifications.Create(ctx, w); err != nil {
						return err
					}
					for _, ch := range w.Channels {
						if err := t.Notifications.AddChannel(ctx, w.Name, ch.Name, ch.Plugin, texts(ch.Config)); err != nil {
							return err
						}
					}
					return nil
				},
				check: func(ctx context.Context, t Target) error {
					if err := t.Notifications.CheckPlugins(ctx, w.Rule, w.Channel); err != nil {
						return err
					}
					for _, ch := range w.Channels {
						if err := t.Notifications.CheckPlugins(ctx, "", ch.Plugin); err != nil {
							return err
						}
					}
					return nil
				}})
			continue
		}
		more, err := changeNotification(cur, c, w)
		if err != nil {
			return nil, err
		}
		p = append(p, more...)
	}
	return p, nil
}

// changeNotification returns the steps that make notification c into w.
func changeNotification(cur state, c, w Notification) (plan, error) {
	var p plan
	var ch []Change
	upd := NotificationChange{}
	if c.Description != w.Description {
		ch = append(ch, changed("notification", w.Name, "description", c.Description, w.Description))
		upd.Description = &w.Description
	}
	if c.Type != w.Type {
		ch = append(ch, changed("notification", w.Name, "type", c.Type, w.Type))
		upd.Type = &w.Type
	}
	if c.Enabled != w.Enabled {
		ch = append(ch, changed("notification", w.Name, "enabled", boolText(c.Enabled), boolText(w.Enabled)))
		upd.Enabled = &w.Enabled
	}
	if c.RetriggerTime != w.RetriggerTime {
		ch = append(ch, changed("notification", w.Name, "retriggerTime", floatText(c.RetriggerTime), floatText(w.RetriggerTime)))
		upd.RetriggerTime = &w.RetriggerTime
	}
	if c.Rule != w.Rule { // a new rule: its configuration is the document's
		ch = append(ch, changed("notification", w.Name, "rule", c.Rule, w.Rule))
		upd.Rule, upd.RuleConfig = &w.Rule, texts(w.RuleConfig)
	} else {
		set, more, err := diffValues("notification", w.Name, "ruleConfig.", c.RuleConfig, w.RuleConfig)
		if err != nil {
			return nil, err
		}
		ch = append(ch, more...)
		if len(set) > 0 {
			upd.RuleConfig = set
		}
	}
	if c.Channel != w.Channel {
		ch = append(ch, changed("notification", w.Name, "channel", c.Channel, w.Channel))
		upd.Channel, upd.DeliveryConfig = &w.Channel, texts(w.DeliveryConfig)
	} else {
		set, more, err := diffValues("notification", w.Name, "deliveryConfig.", c.DeliveryConfig, w.DeliveryConfig)
		if err != nil {
			return nil, err
		}
		ch = append(ch, more...)
		if len(set) > 0 {
			upd.DeliveryConfig = set
		}
	}
	if len(ch) > 0 {
		rule, delivery := "", ""
		if upd.Rule != nil {
			rule = *upd.Rule
		}
		if upd.Channel != nil {
			delivery = *upd.Channel
		}
		s := step{changes: ch, run: func(ctx context.Context, t Target) error { return t.Notifications.Update(ctx, w.Name, upd) }}
		if rule != "" || delivery != "" {
			s.check = func(ctx context.Context, t Target) error { return t.Notifications.CheckPlugins(ctx, rule, delivery) }
		}
		p = append(p, s)
	}
	have := byName(c.Channels, func(x Channel) string { return x.Name })
	keep := byName(w.Channels, func(x Channel) string { return x.Name })
	for _, x := range c.Channels {
		if _, ok := keep[x.Name]; !ok {
			p = append(p, step{changes: []Change{{Action: ActionRemove, Kind: "channel", Name: w.Name + "/" + x.Name}},
				run: func(ctx context.Context, t Target) error { return t.Notifications.DeleteChannel(ctx, w.Name, x.Name) }})
		}
	}
	for _, x := range w.Channels {
		h, ok := have[x.Name]
		if !ok {
			p = append(p, step{changes: []Change{{Action: ActionCreate, Kind: "channel", Name: w.Name + "/" + x.Name}},
				run: func(ctx context.Context, t Target) error {
					return t.Notifications.AddChannel(ctx, w.Name, x.Name, x.Plugin, texts(x.Config))
				},
				check: func(ctx context.Context, t Target) error { return t.Notifications.CheckPlugins(ctx, "", x.Plugin) }})
			continue
		}
		if h.Plugin != x.Plugin {
			return nil, invalid("channel %q of notification %q has plugin %q on the gateway and %q in the document: a channel's plugin cannot change; remove the channel, apply, then add it again",
				x.Name, w.Name, h.Plugin, x.Plugin)
		}
		set, more, err := diffValues("channel", w.Name+"/"+x.Name, "config.", h.Config, x.Config)
		if err != nil {
			return nil, err
		}
		if len(more) > 0 {
			key := cur.channels[w.Name+"\x00"+x.Name]
			p = append(p, step{changes: more, run: func(ctx context.Context, t Target) error {
				_, err := t.Config.SetValues(ctx, key, set)
				return err
			}})
		}
	}
	return p, nil
}

func diffSchedules(cur state, want Document) (plan, error) {
	var p plan
	have := byName(cur.doc.Schedules, func(s Schedule) string { return s.Name })
	for _, w := range want.Schedules {
		c, ok := have[w.Name]
		if !ok {
			return nil, invalid("schedule %q is not one of the gateway's own schedules (%s); services' schedules follow their service's enabled flag",
				w.Name, strings.Join(slices.Sorted(maps.Keys(have)), ", "))
		}
		if c.Enabled != w.Enabled {
			p = append(p, step{changes: []Change{changed("schedule", w.Name, "enabled", boolText(c.Enabled), boolText(w.Enabled))},
				run: func(ctx context.Context, t Target) error { return t.Services.SetEnabled(ctx, w.Name, w.Enabled) }})
		}
	}
	return p, nil
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
