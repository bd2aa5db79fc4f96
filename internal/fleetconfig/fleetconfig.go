package fleetconfig

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/configmgr"
)

// ConfigStore is the configuration manager as this package uses it;
// *configmgr.Manager implements it.
type ConfigStore interface {
	Categories(ctx context.Context) ([]configmgr.Category, error)
	Value(ctx context.Context, key, item string) (string, error)
	SetValues(ctx context.Context, key string, values map[string]string) (configmgr.Category, error)
	Create(ctx context.Context, in configmgr.CategoryInput) (configmgr.Category, error)
}

// NewService is a service to create.
type NewService struct {
	Name, Type, Plugin string
	Enabled            bool
	Config             map[string]string
}

// ServiceStore lists, creates and removes services and enables schedules.
type ServiceStore interface {
	List(ctx context.Context) ([]db.Service, error)
	Schedules(ctx context.Context) ([]db.Schedule, error)
	Create(ctx context.Context, in NewService) error
	// CheckPlugin returns the error Create would give for a service of
	// type typ and plugin name because of its type or plugin, or nil.
	CheckPlugin(ctx context.Context, typ, plugin string) error
	Delete(ctx context.Context, name string) error
	// SetEnabled enables or disables the schedule name (a service's
	// schedule starts and stops the service).
	SetEnabled(ctx context.Context, name string, enabled bool) error
}

// FilterInfo is a filter instance.
type FilterInfo struct{ Name, Plugin string }

// FilterStore manages filter instances and pipelines.
type FilterStore interface {
	List(ctx context.Context) ([]FilterInfo, error)
	Pipeline(ctx context.Context, service string) ([]string, error)
	Create(ctx context.Context, name, plugin string, values map[string]string) error
	// CheckPlugin returns the error Create would give for plugin, or nil.
	CheckPlugin(ctx context.Context, plugin string) error
	Delete(ctx context.Context, name string) error
	SetPipeline(ctx context.Context, service string, filters []string) error
}

// NotificationInfo is a notification instance with the keys of the
// categories holding its rule's, delivery's and channels' configuration.
type NotificationInfo struct {
	Name, Description, Type, Rule, Channel string
	Enabled                                bool
	RetriggerTime                          float64
	RuleKey, DeliveryKey                   string
	Channels                               []ChannelInfo
}

// ChannelInfo is an extra channel and the key of its category.
type ChannelInfo struct{ Name, Plugin, Key string }

// NotificationChange changes fields of a notification; nil ones stay.
type NotificationChange struct {
	Description, Type, Rule, Channel *string
	Enabled                          *bool
	RetriggerTime                    *float64
	RuleConfig, DeliveryConfig       map[string]string
}

// NotificationStore manages notification instances and their channels.
type NotificationStore interface {
	List(ctx context.Context) ([]NotificationInfo, error)
	Create(ctx context.Context, n Notification) error
	// CheckPlugins returns the error Create, Update or AddChannel would
	// give for the rule plugin rule or the delivery plugin delivery (an
	// empty one is not checked), or nil.
	CheckPlugins(ctx context.Context, rule, delivery string) error
	Update(ctx context.Context, name string, ch NotificationChange) error
	Delete(ctx context.Context, name string) error
	AddChannel(ctx context.Context, name, channel, plugin string, values map[string]string) error
	DeleteChannel(ctx context.Context, name, channel string) error
}

// UserInfo is a user account.
type UserInfo struct {
	ID                                        int64
	Name, RealName, Description, AccessMethod string
	Role                                      int64
}

// NewUser is a user to create.
type NewUser struct {
	Name, Password, RealName, Description, AccessMethod string
	Role                                                int64
}

// UserChange changes fields of a user; nil ones stay.
type UserChange struct {
	Role                                *int64
	RealName, Description, AccessMethod *string
}

// UserStore manages users.
type UserStore interface {
	List(ctx context.Context) ([]UserInfo, error)
	// Roles returns the role ids by name.
	Roles(ctx context.Context) (map[string]int64, error)
	Create(ctx context.Context, in NewUser) error
	Update(ctx context.Context, id int64, ch UserChange) error
	Delete(ctx context.Context, id int64) error
}

// Target is the gateway a Manager reads and writes.
type Target struct {
	Config        ConfigStore
	Services      ServiceStore
	Filters       FilterStore
	Notifications NotificationStore
	Users         UserStore
	// Seeded are the keys of the categories the gateway seeds: exported
	// without definitions, since every gateway has them.
	Seeded []string
}

// Manager exports, plans and applies documents. Safe for concurrent use:
// applies run one at a time.
type Manager struct {
	t  Target
	mu sync.Mutex // serialises Apply
}

// New returns a Manager over t.
func New(t Target) *Manager { return &Manager{t: t} }

// Export returns the gateway's configuration, every list sorted by name
// and every secret replaced by a reference to an environment variable
// named after it.
func (m *Manager) Export(ctx context.Context) (Document, error) {
	s, err := m.snapshot(ctx)
	if err != nil {
		return Document{}, err
	}
	d := s.doc
	for i := range d.Categories {
		refs(d.Categories[i].Items, "EDGE_SECRET", d.Categories[i].Name)
	}
	for i := range d.Services {
		refs(d.Services[i].Config, "EDGE_SECRET", d.Services[i].Name)
	}
	for i := range d.Filters {
		refs(d.Filters[i].Config, "EDGE_SECRET", d.Filters[i].Name)
	}
	for i := range d.Notifications {
		n := &d.Notifications[i]
		refs(n.RuleConfig, "EDGE_SECRET", n.Name+"_rule")
		refs(n.DeliveryConfig, "EDGE_SECRET", n.Name+"_delivery")
		for j := range n.Channels {
			refs(n.Channels[j].Config, "EDGE_SECRET", n.Name+"_"+n.Channels[j].Name)
		}
	}
	for i := range d.Users {
		if s.userIDs[strings.ToLower(d.Users[i].Name)] == adminID {
			continue // it exists on every gateway; its password is its own
		}
		d.Users[i].Password = &Value{Ref: &SecretRef{FromEnv: EnvName("EDGE_PASSWORD", d.Users[i].Name)}}
	}
	return d, nil
}

// refs replaces each secret of v that is set by a reference to the
// environment variable prefix_owner_item. An empty secret (a password
// item nobody set) stays empty: there is nothing to keep out of the
// document, and a reference would ask every target for a variable.
func refs(v Values, prefix, owner string) {
	for item, x := range v {
		if x.secret && x.Text != "" {
			v[item] = Value{Ref: &SecretRef{FromEnv: EnvName(prefix, owner, item)}}
		}
	}
}

// EnvName joins parts into an environment variable name: upper case,
// every character that is not a letter or digit an underscore.
func EnvName(parts ...string) string {
	s := strings.Join(parts, "_")
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToUpper(r)
		}
		return '_'
	}, s)
}

// Plan returns what applying want would change. An invalid document is a
// fault of kind Invalid naming what is wrong.
func (m *Manager) Plan(ctx context.Context, want Document) (Result, error) {
	p, err := m.plan(ctx, want)
	if err != nil {
		return Result{}, err
	}
	return summarize(p.changes()), nil
}

// Apply makes the gateway hold want, writing only what differs, and
// returns the changes made. Errors are those of Plan, and then nothing was
// written, or of a write, and then the changes before it stay (applying
// again continues from there).
func (m *Manager) Apply(ctx context.Context, want Document) (Result, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.plan(ctx, want)
	if err != nil {
		return Result{}, err
	}
	var done []Change
	for _, s := range p {
		if err := s.run(ctx, m.t); err != nil {
			return Result{}, fmt.Errorf("%s %s %q: %w", s.changes[0].Action, s.changes[0].Kind, s.changes[0].Name, err)
		}
		done = append(done, s.changes...)
	}
	return summarize(done), nil
}

func (m *Manager) plan(ctx context.Context, want Document) (plan, error) {
	if err := check(want); err != nil {
		return nil, err
	}
	cur, err := m.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	if err := m.normalize(ctx, &want, cur); err != nil {
		return nil, err
	}
	p, err := diff(cur, want)
	if err != nil {
		return nil, err
	}
	for _, s := range p {
		if s.check == nil {
			continue
		}
		if err := s.check(ctx, m.t); err != nil {
			return nil, fmt.Errorf("%s %s %q: %w", s.changes[0].Action, s.changes[0].Kind, s.changes[0].Name, err)
		}
	}
	return p, nil
}

// check refuses a document of another version, an unresolved secret
// reference, a nameless or twice-named entry.
func check(d Document) error {
	if d.Version != Version {
		return invalid("document version %d is not supported: this gateway reads version %d", d.Version, Version)
	}
	refErr := func(what string, v Values) error {
		for _, item := range slices.Sorted(maps.Keys(v)) {
			if r := v[item].Ref; r != nil {
				return invalid("%s, item %q: the secret reference (%s) is not resolved; the gateway never reads secrets a document names: resolve references before sending (edged config does)", what, item, r)
			}
		}
		return nil
	}
	var errs []error
	names := map[string]map[string]bool{}
	named := func(kind, name string) {
		if names[kind] == nil {
			names[kind] = map[string]bool{}
		}
		switch {
		case name == "":
			errs = append(errs, invalid("a %s of the document has no name", kind))
		case names[kind][name]:
			errs = append(errs, invalid("%s %q is listed twice", kind, name))
		}
		names[kind][name] = true
	}
	for _, c := range d.Categories {
		named("category", c.Name)
		errs = append(errs, refErr(fmt.Sprintf("category %q", c.Name), c.Items))
	}
	for _, s := range d.Services {
		named("service", s.Name)
		errs = append(errs, refErr(fmt.Sprintf("service %q", s.Name), s.Config))
		if s.Type == "" || s.Plugin == "" {
			errs = append(errs, invalid("service %q needs a type and a plugin", s.Name))
		}
	}
	for _, f := range d.Filters {
		named("filter", f.Name)
		errs = append(errs, refErr(fmt.Sprintf("filter %q", f.Name), f.Config))
	}
	for _, n := range d.Notifications {
		named("notification", n.Name)
		errs = append(errs, refErr(fmt.Sprintf("notification %q rule", n.Name), n.RuleConfig),
			refErr(fmt.Sprintf("notification %q delivery", n.Name), n.DeliveryConfig))
		for _, c := range n.Channels {
			named("channel", n.Name+"/"+c.Name)
			errs = append(errs, refErr(fmt.Sprintf("channel %q of notification %q", c.Name, n.Name), c.Config))
		}
	}
	for _, s := range d.Schedules {
		named("schedule", s.Name)
	}
	for _, u := range d.Users {
		named("user", strings.ToLower(u.Name))
		if u.Password != nil && u.Password.Ref != nil {
			errs = append(errs, invalid("user %q: the password reference (%s) is not resolved; resolve references before sending (edged config does)", u.Name, u.Password.Ref))
		}
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// normalize puts every value of want whose category exists into its
// stored form (booleans in lower case, integers canonical), so that a
// value written differently is no change; a value its item refuses is
// Invalid.
func (m *Manager) normalize(ctx context.Context, want *Document, cur state) error {
	cats, err := m.t.Config.Categories(ctx)
	if err != nil {
		return err
	}
	defs := byName(cats, func(c configmgr.Category) string { return c.Key })
	norm := func(key string, v Values) error {
		c, ok := defs[key]
		if !ok {
			return nil // created by the apply: the create checks
		}
		for item, x := range v {
			def, ok := c.Items[item]
			if !ok || (def.Type != configmgr.TypePassword && def.Value == x.Text) {
				continue // diff names an unknown item; a stored value is no change
			}
			out, err := configmgr.CheckValues(key, map[string]configmgr.Item{item: def}, map[string]string{item: x.Text})
			if err != nil {
				return err
			}
			v[item] = Value{Text: out[item]}
		}
		return nil
	}
	for _, c := range want.Categories {
		if err := norm(c.Name, c.Items); err != nil {
			return err
		}
	}
	for _, s := range want.Services {
		if err := norm(s.Name, s.Config); err != nil {
			return err
		}
	}
	for _, f := range want.Filters {
		if err := norm(f.Name, f.Config); err != nil {
			return err
		}
	}
	have := byName(cur.notes, func(n NotificationInfo) string { return n.Name })
	for _, n := range want.Notifications {
		h, ok := have[n.Name]
		if !ok {
			continue
		}
		if h.Rule == n.Rule {
			if err := norm(h.RuleKey, n.RuleConfig); err != nil {
				return err
			}
		}
		if h.Channel == n.Channel {
			if err := norm(h.DeliveryKey, n.DeliveryConfig); err != nil {
				return err
			}
		}
		for _, c := range n.Channels {
			if key, ok := cur.channels[n.Name+"\x00"+c.Name]; ok {
				if err := norm(key, c.Config); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// snapshot reads the gateway's configuration with raw values.
func (m *Manager) snapshot(ctx context.Context) (state, error) {
	st := state{userIDs: map[string]int64{}, channels: map[string]string{}}
	cats, err := m.t.Config.Categories(ctx)
	if err != nil {
		return state{}, err
	}
	byKey := byName(cats, func(c configmgr.Category) string { return c.Key })
	owned := map[string]bool{notificationParent: true}
	values := func(key string) (Values, error) {
		owned[key] = true
		c, ok := byKey[key]
		if !ok {
			return Values{}, nil
		}
		out := Values{}
		for name, it := range c.Items {
			if it.Readonly == "true" {
				continue
			}
			if it.Type != configmgr.TypePassword {
				out[name] = Value{Text: it.Value}
				continue
			}
			raw, err := m.t.Config.Value(ctx, key, name)
			if err != nil {
				return nil, err
			}
			out[name] = Value{Text: raw, secret: true}
		}
		return out, nil
	}

	svcs, err := m.t.Services.List(ctx)
	if err != nil {
		return state{}, err
	}
	st.doc.Version = Version
	st.doc.Services = []Service{}
	for _, s := range svcs {
		cfg, err := values(s.Name)
		if err != nil {
			return state{}, err
		}
		pipe, err := m.t.Filters.Pipeline(ctx, s.Name)
		if err != nil {
			return state{}, err
		}
		if pipe == nil {
			pipe = []string{}
		}
		st.doc.Services = append(st.doc.Services, Service{Name: s.Name, Type: s.Type, Plugin: s.Plugin,
			Enabled: s.ScheduleEnabled, Config: cfg, Pipeline: pipe})
	}

	filters, err := m.t.Filters.List(ctx)
	if err != nil {
		return state{}, err
	}
	st.doc.Filters = []Filter{}
	for _, f := range filters {
		cfg, err := values(f.Name)
		if err != nil {
			return state{}, err
		}
		st.doc.Filters = append(st.doc.Filters, Filter{Name: f.Name, Plugin: f.Plugin, Config: cfg})
	}

	notes, err := m.t.Notifications.List(ctx)
	if err != nil {
		return state{}, err
	}
	st.notes = notes
	st.doc.Notifications = []Notification{}
	for _, n := range notes {
		owned[n.Name] = true
		rc, err := values(n.RuleKey)
		if err != nil {
			return state{}, err
		}
		dc, err := values(n.DeliveryKey)
		if err != nil {
			return state{}, err
		}
		out := Notification{Name: n.Name, Description: n.Description, Type: n.Type, Enabled: n.Enabled,
			RetriggerTime: n.RetriggerTime, Rule: n.Rule, RuleConfig: rc, Channel: n.Channel, DeliveryConfig: dc, Channels: []Channel{}}
		for _, c := range n.Channels {
			cc, err := values(c.Key)
			if err != nil {
				return state{}, err
			}
			st.channels[n.Name+"\x00"+c.Name] = c.Key
			out.Channels = append(out.Channels, Channel{Name: c.Name, Plugin: c.Plugin, Config: cc})
		}
		st.doc.Notifications = append(st.doc.Notifications, out)
	}

	scheds, err := m.t.Services.Schedules(ctx)
	if err != nil {
		return state{}, err
	}
	st.doc.Schedules = []Schedule{}
	for _, s := range scheds {
		// A service's schedule follows the service; a north task's
		// schedule is named after its category (north tasks are not
		// managed yet).
		if owned[s.Name] || byKey[s.Name].Key != "" {
			owned[s.Name] = true
			continue
		}
		st.doc.Schedules = append(st.doc.Schedules, Schedule{Name: s.Name, Enabled: s.Enabled})
	}

	seeded := map[string]bool{}
	for _, k := range m.t.Seeded {
		seeded[k] = true
	}
	st.doc.Categories = []Category{}
	for _, c := range cats {
		if owned[c.Key] {
			continue
		}
		items, err := values(c.Key)
		if err != nil {
			return state{}, err
		}
		out := Category{Name: c.Key, Items: items}
		if !seeded[c.Key] {
			out.Description, out.DisplayName = c.Description, c.DisplayName
			out.Definitions = map[string]Definition{}
			for name, it := range c.Items {
				out.Definitions[name] = definitionOf(it)
			}
		}
		st.doc.Categories = append(st.doc.Categories, out)
	}

	roles, err := m.t.Users.Roles(ctx)
	if err != nil {
		return state{}, err
	}
	st.roles = roles
	roleName := map[int64]string{}
	for n, id := range roles {
		roleName[id] = n
	}
	users, err := m.t.Users.List(ctx)
	if err != nil {
		return state{}, err
	}
	st.doc.Users = []User{}
	for _, u := range users {
		st.userIDs[strings.ToLower(u.Name)] = u.ID
		st.doc.Users = append(st.doc.Users, User{Name: u.Name, Role: roleName[u.Role], RealName: u.RealName,
			Description: u.Description, AccessMethod: u.AccessMethod})
	}
	sortDocument(&st.doc)
	return st, nil
}

// notificationParent is the category holding the notification instances.
const notificationParent = "Notifications"

// sortDocument sorts every list by name, so an export is stable.
func sortDocument(d *Document) {
	slices.SortFunc(d.Categories, func(a, b Category) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(d.Services, func(a, b Service) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(d.Filters, func(a, b Filter) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(d.Notifications, func(a, b Notification) int { return strings.Compare(a.Name, b.Name) })
	for i := range d.Notifications {
		slices.SortFunc(d.Notifications[i].Channels, func(a, b Channel) int { return strings.Compare(a.Name, b.Name) })
	}
	slices.SortFunc(d.Schedules, func(a, b Schedule) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(d.Users, func(a, b User) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
}

func definitionOf(it configmgr.Item) Definition {
	return Definition{Type: it.Type, Description: it.Description, Default: it.Default, DisplayName: it.DisplayName,
		Order: it.Order, Options: it.Options, Validity: it.Validity, Minimum: it.Minimum, Maximum: it.Maximum,
		Length: it.Length, Readonly: it.Readonly, Mandatory: it.Mandatory}
}

// categoryInput is the definition of a category the document creates.
func categoryInput(c Category) configmgr.CategoryInput {
	in := configmgr.CategoryInput{Key: c.Name, Description: c.Description, DisplayName: c.DisplayName, Items: map[string]configmgr.Item{}}
	for name, d := range c.Definitions {
		in.Items[name] = configmgr.Item{Type: d.Type, Description: d.Description, Default: d.Default, DisplayName: d.DisplayName,
			Order: d.Order, Options: d.Options, Validity: d.Validity, Minimum: d.Minimum, Maximum: d.Maximum,
			Length: d.Length, Readonly: d.Readonly, Mandatory: d.Mandatory}
	}
	return in
}

func floatText(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
