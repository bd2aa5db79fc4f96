package notify

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edged/edged/internal/clock"
)

// Item is a configuration item of a rule or delivery plugin, described as
// the gateway describes configuration items; values are strings whatever
// the type.
type Item struct {
	Description string   `json:"description"`
	Type        string   `json:"type"` // string, integer, float, boolean, enumeration, password, JSON
	Default     string   `json:"default"`
	DisplayName string   `json:"displayName"`
	Order       string   `json:"order"`
	Options     []string `json:"options,omitempty"`
	Minimum     string   `json:"minimum,omitempty"`
	Maximum     string   `json:"maximum,omitempty"`
	Mandatory   string   `json:"mandatory,omitempty"` // "true" when the value may not be empty
}

// PluginInfo describes a rule or delivery plugin.
type PluginInfo struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Version     string          `json:"version"`
	Type        string          `json:"type"` // "rule" or "delivery"
	Items       map[string]Item `json:"config"`
}

// Version is the version of the built-in plugins.
const Version = "1.0.0"

// Plugin types.
const (
	PluginRule     = "rule"
	PluginDelivery = "delivery"
)

// Item types.
const (
	typeString   = "string"
	typeInteger  = "integer"
	typeFloat    = "float"
	typeBoolean  = "boolean"
	typeEnum     = "enumeration"
	typePassword = "password"
	typeJSON     = "JSON"
)

// deps are what deliveries are built with; zero when only validating.
type deps struct {
	host  Host
	clock clock.Clock
	http  *http.Client
}

type rulePlugin struct {
	info  PluginInfo
	build func(c config) (rule, error)
}

type deliveryPlugin struct {
	info  PluginInfo
	build func(c config, d deps) (delivery, error)
}

var (
	rulePlugins     = map[string]rulePlugin{}
	deliveryPlugins = map[string]deliveryPlugin{}
)

func registerRule(name, description string, items map[string]Item, build func(config) (rule, error)) {
	rulePlugins[name] = rulePlugin{info: PluginInfo{Name: name, Description: description, Version: Version,
		Type: PluginRule, Items: items}, build: build}
}

func registerDelivery(name, description string, items map[string]Item, build func(config, deps) (delivery, error)) {
	deliveryPlugins[name] = deliveryPlugin{info: PluginInfo{Name: name, Description: description, Version: Version,
		Type: PluginDelivery, Items: items}, build: build}
}

// Plugins lists the rule and delivery plugins, each sorted by name. The
// caller may change what it gets.
func Plugins() (rules, deliveries []PluginInfo) {
	for _, n := range slices.Sorted(maps.Keys(rulePlugins)) {
		rules = append(rules, clonePlugin(rulePlugins[n].info))
	}
	for _, n := range slices.Sorted(maps.Keys(deliveryPlugins)) {
		deliveries = append(deliveries, clonePlugin(deliveryPlugins[n].info))
	}
	return rules, deliveries
}

func clonePlugin(p PluginInfo) PluginInfo {
	p.Items = maps.Clone(p.Items)
	return p
}

// build checks spec and builds its instance with its rule (channels are
// built apart, see Engine.channels); with zero deps it only validates,
// deliveries included.
func build(spec Instance, d deps) (*instance, error) {
	if strings.TrimSpace(spec.Name) == "" {
		return nil, fmt.Errorf("a notification instance needs a name")
	}
	switch spec.Type {
	case TypeOneShot, TypeToggled:
	case TypeRetriggered:
		if spec.RetriggerTime <= 0 {
			return nil, fmt.Errorf("instance %q: a retriggered notification needs a positive retrigger time", spec.Name)
		}
	default:
		return nil, fmt.Errorf("instance %q: type %q is not %q, %q or %q", spec.Name, spec.Type, TypeOneShot, TypeRetriggered, TypeToggled)
	}
	rp, ok := rulePlugins[spec.Rule]
	if !ok {
		return nil, fmt.Errorf("instance %q: there is no rule plugin %q", spec.Name, spec.Rule)
	}
	c, err := resolve(rp.info.Items, spec.RuleConfig)
	if err != nil {
		return nil, fmt.Errorf("instance %q rule %q: %w", spec.Name, spec.Rule, err)
	}
	r, err := rp.build(c)
	if err != nil {
		return nil, fmt.Errorf("instance %q rule %q: %w", spec.Name, spec.Rule, err)
	}
	if len(spec.Channels) == 0 {
		return nil, fmt.Errorf("instance %q has no delivery channel", spec.Name)
	}
	names := map[string]bool{}
	for _, ch := range spec.Channels {
		if strings.TrimSpace(ch.Name) == "" {
			return nil, fmt.Errorf("instance %q: a channel needs a name", spec.Name)
		}
		if names[ch.Name] {
			return nil, fmt.Errorf("instance %q: channel %q is given twice", spec.Name, ch.Name)
		}
		names[ch.Name] = true
		if d.host == nil { // validating: build the delivery to check it, then drop it
			del, err := newDelivery(ch, d)
			if err != nil {
				return nil, fmt.Errorf("instance %q channel %q: %w", spec.Name, ch.Name, err)
			}
			del.Close()
		}
	}
	return &instance{spec: spec, rule: r}, nil
}

// newDelivery builds the delivery of ch. Building connects to nothing.
func newDelivery(ch Channel, d deps) (delivery, error) {
	dp, ok := deliveryPlugins[ch.Plugin]
	if !ok {
		return nil, fmt.Errorf("there is no delivery plugin %q", ch.Plugin)
	}
	c, err := resolve(dp.info.Items, ch.Config)
	if err != nil {
		return nil, fmt.Errorf("delivery %q: %w", ch.Plugin, err)
	}
	if d.clock == nil {
		d.clock = clock.Real{}
	}
	if d.http == nil {
		d.http = &http.Client{}
	}
	return dp.build(c, d)
}

// config is a plugin's checked configuration: every item's value, given or
// default.
type config map[string]string

// resolve merges given over the items' defaults and checks each value
// against its item: unknown items, empty mandatory items, numbers,
// booleans, options and JSON.
func resolve(items map[string]Item, given map[string]string) (config, error) {
	c := config{}
	for name, it := range items {
		c[name] = it.Default
	}
	for _, name := range slices.Sorted(maps.Keys(given)) {
		if _, ok := items[name]; !ok {
			return nil, fmt.Errorf("there is no item %q", name)
		}
		c[name] = given[name]
	}
	for _, name := range slices.Sorted(maps.Keys(items)) {
		it, v := items[name], c[name]
		if v == "" {
			if it.Mandatory == "true" {
				return nil, fmt.Errorf("item %q needs a value", name)
			}
			continue
		}
		switch it.Type {
		case typeInteger:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("item %q = %q is not an integer", name, v)
			}
			if err := bounds(name, float64(n), it); err != nil {
				return nil, err
			}
		case typeFloat:
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("item %q = %q is not a number", name, v)
			}
			if err := bounds(name, f, it); err != nil {
				return nil, err
			}
		case typeBoolean:
			if v != "true" && v != "false" {
				return nil, fmt.Errorf("item %q = %q is not true or false", name, v)
			}
		case typeEnum:
			if !slices.Contains(it.Options, v) {
				return nil, fmt.Errorf("item %q = %q is not one of %q", name, v, it.Options)
			}
		case typeJSON:
			if !json.Valid([]byte(v)) {
				return nil, fmt.Errorf("item %q is not JSON", name)
			}
		}
	}
	return c, nil
}

func bounds(name string, v float64, it Item) error {
	if it.Minimum != "" {
		if m, _ := strconv.ParseFloat(it.Minimum, 64); v < m {
			return fmt.Errorf("item %q = %g is below its minimum %s", name, v, it.Minimum)
		}
	}
	if it.Maximum != "" {
		if m, _ := strconv.ParseFloat(it.Maximum, 64); v > m {
			return fmt.Errorf("item %q = %g is above its maximum %s", name, v, it.Maximum)
		}
	}
	return nil
}

// The accessors below read values resolve checked; a value that does not
// parse is the zero value.

func (c config) int(name string) int64 {
	n, _ := strconv.ParseInt(c[name], 10, 64)
	return n
}

func (c config) float(name string) float64 {
	f, _ := strconv.ParseFloat(c[name], 64)
	return f
}

func (c config) bool(name string) bool { return c[name] == "true" }

func (c config) seconds(name string) time.Duration { return time.Duration(c.int(name)) * time.Second }

// object decodes item name, a JSON object; empty is nil.
func (c config) object(name string) (map[string]any, error) {
	if c[name] == "" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(c[name]), &m); err != nil || m == nil {
		return nil, fmt.Errorf("item %q is not a JSON object", name)
	}
	return m, nil
}
