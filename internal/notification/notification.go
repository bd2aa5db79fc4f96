// Package notification keeps the gateway's notification instances and
// hands them to the notification service. An instance lives in
// configuration categories, children of the category Notifications:
// `<name>` (its settings), `rule<name>` (its rule plugin's items),
// `delivery<name>` (its own delivery channel's items) and
// `<name>_channel_<channel>` for each extra channel. The rule and delivery
// plugins belong to the notification service's process, which the
// manager asks for their items and to check a configuration; every change
// to an instance, through the API or to one of its categories, hands the
// whole set to the process again. The manager also feeds the process what
// the rules watch: committed readings of the assets they name, the audit
// codes they name, and the statistics.
package notification

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Parent is the category whose children are the instances' categories.
const Parent = "Notifications"

// Items of an instance's own category.
const (
	itemName          = "name"
	itemDescription   = "description"
	itemRule          = "rule"
	itemChannel       = "channel"
	itemType          = "notification_type"
	itemEnable        = "enable"
	itemRetrigger     = "retrigger_time"
	itemPlugin        = "plugin" // of an extra channel's category
	channelSeparator  = "_channel_"
	auditAdded        = auditcode.NotificationAdded
	auditDeleted      = auditcode.NotificationDeleted
	defaultRetrigger  = "60"
	serviceTypeNotify = db.ServiceNotification
)

// Types are the notification types.
var Types = []string{"one shot", "retriggered", "toggled"}

// Services reaches the running notification service; *service.Manager
// implements it. Notification returns a Conflict fault when none runs;
// Running reports whether one does.
type Services interface {
	Notification() (edgeplugin.NotificationCalls, error)
	Running(typ string) bool
}

// Config is the configuration manager as the instances use it;
// *configmgr.Manager implements it.
type Config interface {
	Create(ctx context.Context, in configmgr.CategoryInput) (configmgr.Category, error)
	Category(ctx context.Context, key string) (configmgr.Category, error)
	Value(ctx context.Context, key, item string) (string, error)
	SetValues(ctx context.Context, key string, values map[string]string) (configmgr.Category, error)
	Children(ctx context.Context, key string) ([]configmgr.Category, error)
	AddChildren(ctx context.Context, parent string, children []string) ([]string, error)
	Subscribe(key string, fn func(ctx context.Context, c configmgr.Category) error) (cancel func())
}

// Store removes categories; *db.DB implements it.
type Store interface {
	DeleteCategory(ctx context.Context, key string) (bool, error)
}

// Auditor writes audit entries.
type Auditor interface {
	Record(ctx context.Context, source, severity string, details any) error
}

// Options are a Manager's dependencies.
type Options struct {
	Config   Config
	Store    Store
	Audit    Auditor
	Services Services
	Logger   *slog.Logger
}

// Manager keeps the notification instances. It is safe for concurrent
// use.
type Manager struct {
	o    Options
	log  *slog.Logger
	feed *Feed

	mu   sync.Mutex        // serialises changes to instances; guards subs
	subs map[string]func() // category key → its subscription's cancel

	changed chan struct{} // cap 1: an instance's category changed
}

// New returns a Manager.
func New(o Options) *Manager {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	m := &Manager{o: o, log: o.Logger, subs: map[string]func(){}, changed: make(chan struct{}, 1)}
	m.feed = newFeed(o.Services, o.Logger)
	return m
}

// Feed returns what hands the notification service the data its rules
// watch.
func (m *Manager) Feed() *Feed { return m.feed }

// Plugin is a rule or delivery plugin of the notification service.
type Plugin struct {
	Name        string                    `json:"name"`
	Version     string                    `json:"version"`
	Type        string                    `json:"type"` // rule or delivery
	Description string                    `json:"description"`
	Config      map[string]configmgr.Item `json:"config"`
}

// Plugins are the notification service's plugins.
type Plugins struct {
	Rules    []Plugin `json:"rules"`
	Delivery []Plugin `json:"delivery"`
}

// Plugins asks the running notification service for its plugins.
// Errors: Conflict when none runs.
func (m *Manager) Plugins(ctx context.Context) (Plugins, error) {
	n, err := m.o.Services.Notification()
	if err != nil {
		return Plugins{}, err
	}
	ps, err := n.Plugins(ctx)
	if err != nil {
		return Plugins{}, err
	}
	return Plugins{Rules: plugins(ps.Rules, pluginRule), Delivery: plugins(ps.Deliveries, pluginDelivery)}, nil
}

// Plugin types.
const (
	pluginRule     = "rule"
	pluginDelivery = "delivery"
)

// plugins converts the service's plugins of type typ; each item's value
// is its default.
func plugins(in []edgeplugin.NotificationPlugin, typ string) []Plugin {
	out := make([]Plugin, len(in))
	for i, p := range in {
		items := make(map[string]configmgr.Item, len(p.Items))
		for n, it := range p.Items {
			items[n] = configmgr.Item{Description: it.Description, Type: it.Type, Default: it.Default, DisplayName: it.DisplayName,
				Order: it.Order, Options: it.Options, Minimum: it.Minimum, Maximum: it.Maximum, Length: it.Length,
				Readonly: it.Readonly, Mandatory: it.Mandatory, Validity: it.Validity, Value: it.Default}
		}
		out[i] = Plugin{Name: p.Name, Version: p.Version, Type: typ, Description: p.Description, Config: items}
	}
	return out
}

func find(list []Plugin, name string) (Plugin, bool) {
	i := slices.IndexFunc(list, func(p Plugin) bool { return p.Name == name })
	if i < 0 {
		return Plugin{}, false
	}
	return list[i], true
}

// rule returns the rule plugin named name; NotFound names the others.
func (p Plugins) rule(name string) (Plugin, error) {
	r, ok := find(p.Rules, name)
	if !ok {
		return Plugin{}, fault.New(fault.NotFound, "rule plugin %q not found; the rule plugins are %s", name, names(p.Rules))
	}
	return r, nil
}

// delivery returns the delivery plugin named name; NotFound names the
// others.
func (p Plugins) delivery(name string) (Plugin, error) {
	d, ok := find(p.Delivery, name)
	if !ok {
		return Plugin{}, fault.New(fault.NotFound, "delivery plugin %q not found; the delivery plugins are %s", name, names(p.Delivery))
	}
	return d, nil
}

// CheckPlugins reports whether the running notification service has the
// rule plugin rule and the delivery plugin delivery (either may be empty,
// and is then not checked), with the error Create or AddChannel would give
// if not: a configuration plan checks with it.
func (m *Manager) CheckPlugins(ctx context.Context, rule, delivery string) error {
	plugins, err := m.Plugins(ctx)
	if err != nil {
		return err
	}
	if rule != "" {
		if _, err := plugins.rule(rule); err != nil {
			return err
		}
	}
	if delivery != "" {
		if _, err := plugins.delivery(delivery); err != nil {
			return err
		}
	}
	return nil
}

func names(list []Plugin) string {
	out := make([]string, len(list))
	for i, p := range list {
		out[i] = p.Name
	}
	return strings.Join(out, ", ")
}

// Channel is a delivery channel of an instance.
type Channel struct {
	Name     string
	Plugin   string
	Category string
	Config   configmgr.Category
}

// Notification is an instance.
type Notification struct {
	Name          string
	Description   string
	Rule          string
	RuleConfig    configmgr.Category
	Channel       string
	Delivery      configmgr.Category
	Type          string
	Enabled       bool
	RetriggerTime float64 // seconds
	Extra         []Channel
}

// Create is an instance to create.
type Create struct {
	Name, Description, Rule, Channel, Type string
	Enabled                                bool
	RetriggerTime                          *float64
	RuleConfig, DeliveryConfig             map[string]string
}

// Update changes fields of an instance; nil ones stay.
type Update struct {
	Description, Rule, Channel, Type *string
	Enabled                          *bool
	RetriggerTime                    *float64
	RuleConfig, DeliveryConfig       map[string]string
}

func ruleKey(name string) string     { return "rule" + name }
func deliveryKey(name string) string { return "delivery" + name }
func channelKey(name, channel string) string {
	return name + channelSeparator + channel
}

// instanceItems are the items of an instance's own category, each at its
// default.
func instanceItems(rule, channel string) map[string]configmgr.Item {
	items := map[string]configmgr.Item{
		itemDescription: {Description: "What the notification is about", Type: configmgr.TypeString, DisplayName: "Description", Order: "1"},
		itemRule:        {Description: "The rule plugin", Type: configmgr.TypeString, Default: rule, DisplayName: "Rule", Order: "2", Readonly: "true"},
		itemChannel:     {Description: "The delivery plugin of the notification's own channel", Type: configmgr.TypeString, Default: channel, DisplayName: "Channel", Order: "3", Readonly: "true"},
		itemType: {Description: "When it sends: once per trigger, again while triggered every retrigger time, or on trigger and clear",
			Type: configmgr.TypeEnumeration, Options: Types, Default: Types[0], DisplayName: "Type", Order: "4"},
		itemEnable:    {Description: "Evaluate the rule", Type: configmgr.TypeBoolean, Default: "true", DisplayName: "Enabled", Order: "5"},
		itemRetrigger: {Description: "Seconds between two sends of a retriggered notification", Type: configmgr.TypeFloat, Default: defaultRetrigger, Minimum: "0", Maximum: "86400", DisplayName: "Retrigger time", Order: "6"},
	}
	for n, it := range items {
		it.Value = it.Default
		items[n] = it
	}
	return items
}

// pluginItems returns a plugin's items, with their defaults as values.
func pluginItems(p Plugin) map[string]configmgr.Item {
	out := make(map[string]configmgr.Item, len(p.Config))
	for n, it := range p.Config {
		it.Value = it.Default
		out[n] = it
	}
	return out
}

// requireMandatory returns items for a new category of a plugin: a
// mandatory item without a default must be given a value, which becomes
// its default (a category cannot hold a mandatory item without one).
func requireMandatory(key string, items map[string]configmgr.Item, values map[string]string) (map[string]configmgr.Item, error) {
	out := maps.Clone(items)
	for _, n := range slices.Sorted(maps.Keys(items)) {
		it := items[n]
		if it.Mandatory != "true" || it.Default != "" {
			continue
		}
		v := values[n]
		if v == "" {
			return nil, fault.New(fault.Invalid, "item %q of %s is mandatory: give it a value", n, key)
		}
		it.Default, it.Value = v, v
		out[n] = it
	}
	return out, nil
}

// channelItems are the items of an extra channel's category: its plugin's
// and the readonly plugin name.
func channelItems(p Plugin) map[string]configmgr.Item {
	out := pluginItems(p)
	out[itemPlugin] = configmgr.Item{Description: "The delivery plugin", Type: configmgr.TypeString, Default: p.Name, Value: p.Name, DisplayName: "Plugin", Order: "0", Readonly: "true"}
	return out
}

// exists reports whether the category key exists.
func (m *Manager) exists(ctx context.Context, key string) (bool, error) {
	_, err := m.o.Config.Category(ctx, key)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fault.NotFound):
		return false, nil
	}
	return false, fmt.Errorf("notification: %w", err)
}

// applied returns the items with values set (already checked).
func applied(items map[string]configmgr.Item, values map[string]string) map[string]configmgr.Item {
	out := maps.Clone(items)
	for n, v := range values {
		it := out[n]
		it.Value = v
		out[n] = it
	}
	return out
}

// Create checks the whole request, then creates the instance's
// categories and hands the instances to the notification service. Errors:
// Invalid (a name, a value, a configuration the service refuses),
// NotFound (an unknown plugin), Conflict (a name taken, or no
// notification service running).
func (m *Manager) Create(ctx context.Context, in Create) (Notification, error) {
	if err := configmgr.CheckName("notification", in.Name); err != nil {
		return Notification{}, err
	}
	if !slices.Contains(Types, in.Type) {
		return Notification{}, fault.New(fault.Invalid, "notification_type %q is not one of %s", in.Type, strings.Join(Types, ", "))
	}
	plugins, err := m.Plugins(ctx)
	if err != nil {
		return Notification{}, err
	}
	rule, err := plugins.rule(in.Rule)
	if err != nil {
		return Notification{}, err
	}
	delivery, err := plugins.delivery(in.Channel)
	if err != nil {
		return Notification{}, err
	}
	own := instanceItems(in.Rule, in.Channel)
	ownValues := map[string]string{itemDescription: in.Description, itemType: in.Type, itemEnable: strconv.FormatBool(in.Enabled)}
	if in.RetriggerTime != nil {
		ownValues[itemRetrigger] = strconv.FormatFloat(*in.RetriggerTime, 'f', -1, 64)
	}
	if ownValues, err = configmgr.CheckValues(in.Name, own, ownValues); err != nil {
		return Notification{}, err
	}
	ruleItems, err := requireMandatory("the rule", pluginItems(rule), in.RuleConfig)
	if err != nil {
		return Notification{}, err
	}
	deliveryItems, err := requireMandatory("the delivery", pluginItems(delivery), in.DeliveryConfig)
	if err != nil {
		return Notification{}, err
	}
	ruleValues, err := configmgr.CheckValues(ruleKey(in.Name), ruleItems, in.RuleConfig)
	if err != nil {
		return Notification{}, err
	}
	deliveryValues, err := configmgr.CheckValues(deliveryKey(in.Name), deliveryItems, in.DeliveryConfig)
	if err != nil {
		return Notification{}, err
	}
	ownCat := configmgr.Category{Key: in.Name, Items: applied(own, ownValues)}
	inst := wireOf(in.Name, ownCat, applied(ruleItems, ruleValues), applied(deliveryItems, deliveryValues), nil)
	if err := m.validate(ctx, inst); err != nil {
		return Notification{}, err
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	for _, key := range []string{in.Name, ruleKey(in.Name), deliveryKey(in.Name)} {
		switch taken, err := m.exists(ctx, key); {
		case err != nil:
			return Notification{}, err
		case taken:
			return Notification{}, fault.New(fault.Conflict, "a configuration category named %q already exists", key)
		}
	}
	if err := m.ensureParent(ctx); err != nil {
		return Notification{}, err
	}
	created := []string{}
	undo := func() {
		for _, key := range created {
			if _, err := m.o.Store.DeleteCategory(context.WithoutCancel(ctx), key); err != nil {
				m.log.Error("category of a half-created notification not removed", "category", key, "error", err)
			}
		}
	}
	steps := []struct {
		key, desc string
		items     map[string]configmgr.Item
		values    map[string]string
	}{
		{in.Name, "Notification " + in.Name, own, ownValues},
		{ruleKey(in.Name), "Rule " + in.Rule + " of notification " + in.Name, ruleItems, ruleValues},
		{deliveryKey(in.Name), "Delivery " + in.Channel + " of notification " + in.Name, deliveryItems, deliveryValues},
	}
	for _, st := range steps {
		if err := m.createCategory(ctx, st.key, st.desc, st.items, st.values); err != nil {
			undo()
			return Notification{}, err
		}
		created = append(created, st.key)
	}
	if _, err := m.o.Config.AddChildren(ctx, in.Name, []string{ruleKey(in.Name), deliveryKey(in.Name)}); err != nil {
		undo()
		return Notification{}, fmt.Errorf("notification: %w", err)
	}
	if _, err := m.o.Config.AddChildren(ctx, Parent, []string{in.Name}); err != nil {
		undo()
		return Notification{}, fmt.Errorf("notification: %w", err)
	}
	m.audit(ctx, auditAdded, map[string]any{"name": in.Name, "rule": in.Rule, "channel": in.Channel, "type": in.Type})
	m.watch(in.Name, ruleKey(in.Name), deliveryKey(in.Name))
	m.pushLocked(ctx)
	return m.get(ctx, in.Name)
}

// createCategory creates a category with values (already checked).
func (m *Manager) createCategory(ctx context.Context, key, desc string, items map[string]configmgr.Item, values map[string]string) error {
	if _, err := m.o.Config.Create(ctx, configmgr.CategoryInput{Key: key, Description: desc, DisplayName: key, Items: items}); err != nil {
		return fmt.Errorf("notification: create category %q: %w", key, err)
	}
	changed := map[string]string{}
	for n, v := range values {
		if v != items[n].Default {
			changed[n] = v
		}
	}
	if len(changed) > 0 {
		if _, err := m.o.Config.SetValues(ctx, key, changed); err != nil {
			return fmt.Errorf("notification: set values of %q: %w", key, err)
		}
	}
	return nil
}

// ensureParent creates the category Notifications when it is missing.
func (m *Manager) ensureParent(ctx context.Context) error {
	ok, err := m.exists(ctx, Parent)
	if err != nil || ok {
		return err
	}
	_, err = m.o.Config.Create(ctx, configmgr.CategoryInput{Key: Parent, Description: "Notification instances", DisplayName: Parent,
		Items: map[string]configmgr.Item{}})
	if err != nil {
		return fmt.Errorf("notification: create category %q: %w", Parent, err)
	}
	return nil
}

// validate asks the notification service whether it can run inst.
func (m *Manager) validate(ctx context.Context, inst Wire) error {
	n, err := m.o.Services.Notification()
	if err != nil {
		return err
	}
	return n.Validate(ctx, inst)
}

// watch subscribes to changes of an instance's categories; m.mu is held.
func (m *Manager) watch(keys ...string) {
	for _, key := range keys {
		if m.subs[key] != nil {
			continue
		}
		// A change may come from this manager, which holds m.mu while
		// the configuration manager tells its listeners: the push is
		// left to the pusher goroutine.
		m.subs[key] = m.o.Config.Subscribe(key, func(context.Context, configmgr.Category) error {
			select {
			case m.changed <- struct{}{}:
			default:
			}
			return nil
		})
	}
}

// unwatch ends the subscriptions of keys; m.mu is held.
func (m *Manager) unwatch(keys ...string) {
	for _, key := range keys {
		if cancel := m.subs[key]; cancel != nil {
			cancel()
			delete(m.subs, key)
		}
	}
}

// Start subscribes to the categories of the existing instances, tells the
// feed what they watch, and hands the notification service every change
// of those categories until ctx ends.
func (m *Manager) Start(ctx context.Context) error {
	list, err := m.List(ctx)
	if err != nil {
		return err
	}
	m.mu.Lock()
	for _, n := range list {
		m.watch(n.Name, ruleKey(n.Name), deliveryKey(n.Name))
		for _, ch := range n.Extra {
			m.watch(ch.Category)
		}
	}
	m.mu.Unlock()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-m.changed:
				if err := m.Push(ctx); err != nil {
					m.log.Error("changed notification instances not handed to the notification service", "error", err)
				}
			}
		}
	}()
	return m.Push(ctx)
}

// Get returns the instance name; NotFound when there is none.
func (m *Manager) Get(ctx context.Context, name string) (Notification, error) {
	return m.get(ctx, name)
}

func (m *Manager) get(ctx context.Context, name string) (Notification, error) {
	own, err := m.o.Config.Category(ctx, name)
	if errors.Is(err, fault.NotFound) {
		return Notification{}, fault.New(fault.NotFound, "notification %q not found", name)
	}
	if err != nil {
		return Notification{}, fmt.Errorf("notification: %w", err)
	}
	if _, ok := own.Items[itemRule]; !ok {
		return Notification{}, fault.New(fault.NotFound, "notification %q not found", name)
	}
	if _, ok := own.Items[itemChannel]; !ok {
		return Notification{}, fault.New(fault.NotFound, "notification %q not found", name)
	}
	if parent, err := m.isChild(ctx, name); err != nil || !parent {
		if err != nil {
			return Notification{}, err
		}
		return Notification{}, fault.New(fault.NotFound, "notification %q not found", name)
	}
	rule, err := m.o.Config.Category(ctx, ruleKey(name))
	if err != nil {
		return Notification{}, fmt.Errorf("notification: rule of %q: %w", name, err)
	}
	delivery, err := m.o.Config.Category(ctx, deliveryKey(name))
	if err != nil {
		return Notification{}, fmt.Errorf("notification: delivery of %q: %w", name, err)
	}
	retrigger, _ := strconv.ParseFloat(own.Items[itemRetrigger].Value, 64)
	n := Notification{Name: name, Description: own.Items[itemDescription].Value, Rule: own.Items[itemRule].Value,
		RuleConfig: rule, Channel: own.Items[itemChannel].Value, Delivery: delivery, Type: own.Items[itemType].Value,
		Enabled: own.Items[itemEnable].Value == "true", RetriggerTime: retrigger}
	children, err := m.o.Config.Children(ctx, name)
	if err != nil {
		return Notification{}, fmt.Errorf("notification: channels of %q: %w", name, err)
	}
	for _, c := range children {
		ch, ok := strings.CutPrefix(c.Key, name+channelSeparator)
		if !ok {
			continue
		}
		n.Extra = append(n.Extra, Channel{Name: ch, Plugin: c.Items[itemPlugin].Value, Category: c.Key, Config: c})
	}
	slices.SortFunc(n.Extra, func(a, b Channel) int { return strings.Compare(a.Name, b.Name) })
	return n, nil
}

// isChild reports whether key is a child of Notifications.
func (m *Manager) isChild(ctx context.Context, key string) (bool, error) {
	children, err := m.o.Config.Children(ctx, Parent)
	if errors.Is(err, fault.NotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("notification: %w", err)
	}
	return slices.ContainsFunc(children, func(c configmgr.Category) bool { return c.Key == key }), nil
}

// List returns every instance, sorted by name.
func (m *Manager) List(ctx context.Context) ([]Notification, error) {
	children, err := m.o.Config.Children(ctx, Parent)
	if errors.Is(err, fault.NotFound) {
		return []Notification{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("notification: %w", err)
	}
	out := make([]Notification, 0, len(children))
	for _, c := range children {
		n, err := m.get(ctx, c.Key)
		if errors.Is(err, fault.NotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b Notification) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Update changes an instance, checked as a whole first like Create.
func (m *Manager) Update(ctx context.Context, name string, in Update) (Notification, error) {
	cur, err := m.get(ctx, name)
	if err != nil {
		return Notification{}, err
	}
	plugins, err := m.Plugins(ctx)
	if err != nil {
		return Notification{}, err
	}
	ruleName, channelName := cur.Rule, cur.Channel
	if in.Rule != nil {
		ruleName = *in.Rule
	}
	if in.Channel != nil {
		channelName = *in.Channel
	}
	rule, err := plugins.rule(ruleName)
	if err != nil {
		return Notification{}, err
	}
	delivery, err := plugins.delivery(channelName)
	if err != nil {
		return Notification{}, err
	}
	ownValues := map[string]string{}
	if in.Description != nil {
		ownValues[itemDescription] = *in.Description
	}
	if in.Type != nil {
		if !slices.Contains(Types, *in.Type) {
			return Notification{}, fault.New(fault.Invalid, "notification_type %q is not one of %s", *in.Type, strings.Join(Types, ", "))
		}
		ownValues[itemType] = *in.Type
	}
	if in.Enabled != nil {
		ownValues[itemEnable] = strconv.FormatBool(*in.Enabled)
	}
	if in.RetriggerTime != nil {
		ownValues[itemRetrigger] = strconv.FormatFloat(*in.RetriggerTime, 'f', -1, 64)
	}
	own := instanceItems(ruleName, channelName)
	if ownValues, err = configmgr.CheckValues(name, own, ownValues); err != nil {
		return Notification{}, err
	}
	newRule, newChannel := ruleName != cur.Rule, channelName != cur.Channel
	ruleItems, deliveryItems := cur.RuleConfig.Items, cur.Delivery.Items
	if newRule {
		if ruleItems, err = requireMandatory("the rule", pluginItems(rule), in.RuleConfig); err != nil {
			return Notification{}, err
		}
	}
	if newChannel {
		if deliveryItems, err = requireMandatory("the delivery", pluginItems(delivery), in.DeliveryConfig); err != nil {
			return Notification{}, err
		}
	}
	ruleValues, err := configmgr.CheckValues(ruleKey(name), ruleItems, in.RuleConfig)
	if err != nil {
		return Notification{}, err
	}
	deliveryValues, err := configmgr.CheckValues(deliveryKey(name), deliveryItems, in.DeliveryConfig)
	if err != nil {
		return Notification{}, err
	}
	ownNow := cur.ownCategory()
	for n, v := range ownValues {
		it := ownNow.Items[n]
		it.Value = v
		ownNow.Items[n] = it
	}
	ownNow.Items[itemRule] = configmgr.Item{Value: ruleName}
	ownNow.Items[itemChannel] = configmgr.Item{Value: channelName}
	if err := m.validate(ctx, wireOf(name, ownNow, applied(ruleItems, ruleValues), applied(deliveryItems, deliveryValues), cur.Extra)); err != nil {
		return Notification{}, err
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	if newRule || newChannel {
		// The readonly plugin names change with the plugins: the
		// category's definition is replaced, keeping the other values.
		if _, err := m.o.Config.Create(ctx, configmgr.CategoryInput{Key: name, Description: "Notification " + name, DisplayName: name, Items: own}); err != nil {
			return Notification{}, fmt.Errorf("notification: %w", err)
		}
	}
	if len(ownValues) > 0 {
		if _, err := m.o.Config.SetValues(ctx, name, ownValues); err != nil {
			return Notification{}, fmt.Errorf("notification: %w", err)
		}
	}
	for _, part := range []struct {
		key, desc string
		replace   bool
		items     map[string]configmgr.Item
		values    map[string]string
	}{
		{ruleKey(name), "Rule " + ruleName + " of notification " + name, newRule, ruleItems, ruleValues},
		{deliveryKey(name), "Delivery " + channelName + " of notification " + name, newChannel, deliveryItems, deliveryValues},
	} {
		if part.replace {
			m.unwatch(part.key)
			if _, err := m.o.Store.DeleteCategory(ctx, part.key); err != nil {
				return Notification{}, fmt.Errorf("notification: %w", err)
			}
			if err := m.createCategory(ctx, part.key, part.desc, part.items, part.values); err != nil {
				return Notification{}, err
			}
			if _, err := m.o.Config.AddChildren(ctx, name, []string{part.key}); err != nil {
				return Notification{}, fmt.Errorf("notification: %w", err)
			}
			m.watch(part.key)
			continue
		}
		if len(part.values) > 0 {
			if _, err := m.o.Config.SetValues(ctx, part.key, part.values); err != nil {
				return Notification{}, fmt.Errorf("notification: %w", err)
			}
		}
	}
	m.pushLocked(ctx)
	return m.get(ctx, name)
}

// ownCategory rebuilds the instance's own category from n.
func (n Notification) ownCategory() configmgr.Category {
	return configmgr.Category{Key: n.Name, Items: map[string]configmgr.Item{
		itemDescription: {Value: n.Description}, itemRule: {Value: n.Rule}, itemChannel: {Value: n.Channel},
		itemType: {Value: n.Type}, itemEnable: {Value: strconv.FormatBool(n.Enabled)},
		itemRetrigger: {Value: strconv.FormatFloat(n.RetriggerTime, 'f', -1, 64)},
	}}
}

// Delete removes an instance with its categories and channels.
func (m *Manager) Delete(ctx context.Context, name string) error {
	n, err := m.get(ctx, name)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := []string{ruleKey(name), deliveryKey(name)}
	for _, ch := range n.Extra {
		keys = append(keys, ch.Category)
	}
	keys = append(keys, name)
	m.unwatch(keys...)
	for _, key := range keys {
		if _, err := m.o.Store.DeleteCategory(ctx, key); err != nil {
			return fmt.Errorf("notification: delete category %q: %w", key, err)
		}
	}
	m.audit(ctx, auditDeleted, map[string]any{"name": name})
	m.pushLocked(ctx)
	return nil
}

// Channels returns the instance's channels, its own first.
func (m *Manager) Channels(ctx context.Context, name string) ([]Channel, error) {
	n, err := m.get(ctx, name)
	if err != nil {
		return nil, err
	}
	return append([]Channel{{Name: name, Plugin: n.Channel, Category: deliveryKey(name), Config: n.Delivery}}, n.Extra...), nil
}

// Channel returns one channel of an instance.
func (m *Manager) Channel(ctx context.Context, name, channel string) (Channel, error) {
	all, err := m.Channels(ctx, name)
	if err != nil {
		return Channel{}, err
	}
	i := slices.IndexFunc(all, func(c Channel) bool { return c.Name == channel })
	if i < 0 {
		return Channel{}, fault.New(fault.NotFound, "notification %q has no channel %q", name, channel)
	}
	return all[i], nil
}

// AddChannel adds an extra delivery channel to an instance.
func (m *Manager) AddChannel(ctx context.Context, name, channel, pluginName string, values map[string]string) (Channel, error) {
	if err := configmgr.CheckName("channel", channel); err != nil {
		return Channel{}, err
	}
	n, err := m.get(ctx, name)
	if err != nil {
		return Channel{}, err
	}
	if channel == name || slices.ContainsFunc(n.Extra, func(c Channel) bool { return c.Name == channel }) {
		return Channel{}, fault.New(fault.Conflict, "notification %q already has a channel %q", name, channel)
	}
	plugins, err := m.Plugins(ctx)
	if err != nil {
		return Channel{}, err
	}
	p, err := plugins.delivery(pluginName)
	if err != nil {
		return Channel{}, err
	}
	key := channelKey(name, channel)
	items, err := requireMandatory("the channel", channelItems(p), values)
	if err != nil {
		return Channel{}, err
	}
	checked, err := configmgr.CheckValues(key, items, values)
	if err != nil {
		return Channel{}, err
	}
	extra := append(slices.Clone(n.Extra), Channel{Name: channel, Plugin: pluginName, Category: key, Config: configmgr.Category{Key: key, Items: applied(items, checked)}})
	if err := m.validate(ctx, wireOf(name, n.ownCategory(), n.RuleConfig.Items, n.Delivery.Items, extra)); err != nil {
		return Channel{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch taken, err := m.exists(ctx, key); {
	case err != nil:
		return Channel{}, err
	case taken:
		return Channel{}, fault.New(fault.Conflict, "a configuration category named %q already exists", key)
	}
	if err := m.createCategory(ctx, key, "Channel "+channel+" of notification "+name, items, checked); err != nil {
		return Channel{}, err
	}
	if _, err := m.o.Config.AddChildren(ctx, name, []string{key}); err != nil {
		return Channel{}, fmt.Errorf("notification: %w", err)
	}
	m.watch(key)
	m.pushLocked(ctx)
	return m.Channel(ctx, name, channel)
}

// DeleteChannel removes an extra channel, audited NTFDL with the channel's
// name (its category goes without the configuration's audit entry, as an
// instance's do). The instance's own channel cannot be removed (Invalid).
func (m *Manager) DeleteChannel(ctx context.Context, name, channel string) error {
	ch, err := m.Channel(ctx, name, channel)
	if err != nil {
		return err
	}
	if ch.Category == deliveryKey(name) {
		return fault.New(fault.Invalid, "channel %q is the notification's own: change it with PUT /edge/notification/{name} or delete the notification", channel)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.unwatch(ch.Category)
	if _, err := m.o.Store.DeleteCategory(ctx, ch.Category); err != nil {
		return fmt.Errorf("notification: delete category %q: %w", ch.Category, err)
	}
	m.pushLocked(ctx)
	m.audit(ctx, auditDeleted, map[string]any{"name": name, "channel": channel})
	return nil
}

// audit writes an entry; a failure is logged, since what it records has
// happened.
func (m *Manager) audit(ctx context.Context, source string, details any) {
	if err := m.o.Audit.Record(context.WithoutCancel(ctx), source, auditcode.Information, details); err != nil {
		m.log.Error("audit entry not written", "source", source, "error", err)
	}
}
