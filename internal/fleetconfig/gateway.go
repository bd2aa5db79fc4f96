package fleetconfig

import (
	"context"
	"errors"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/notification"
	"github.com/edged/edged/internal/service"
	"github.com/edged/edged/internal/user"
)

// Gateway returns the Target of a running gateway: its configuration,
// service, filter, notification and user managers.
func Gateway(cfg *configmgr.Manager, svcs *service.Manager, filters *filter.Manager, notes *notification.Manager, users *user.Service) Target {
	return Target{Config: cfg, Services: services{svcs}, Filters: filterStore{filters},
		Notifications: notifications{notes}, Users: userStore{users}, Seeded: configmgr.SeededKeys()}
}

type services struct{ m *service.Manager }

func (s services) List(ctx context.Context) ([]db.Service, error) { return s.m.Registered(ctx) }
func (s services) Schedules(ctx context.Context) ([]db.Schedule, error) {
	return s.m.Schedules(ctx)
}
func (s services) Create(ctx context.Context, in NewService) error {
	_, err := s.m.Create(ctx, service.CreateRequest{Name: in.Name, Type: in.Type, Plugin: in.Plugin, Enabled: in.Enabled, Config: in.Config})
	return err
}
func (s services) CheckPlugin(ctx context.Context, typ, plugin string) error {
	return s.m.CheckPlugin(ctx, typ, plugin)
}
func (s services) Delete(ctx context.Context, name string) error { return s.m.Delete(ctx, name) }
func (s services) SetEnabled(ctx context.Context, name string, enabled bool) error {
	_, err := s.m.SetScheduleEnabled(ctx, service.ScheduleSelector{Name: name}, enabled)
	return err
}

type filterStore struct{ m *filter.Manager }

func (f filterStore) List(ctx context.Context) ([]FilterInfo, error) {
	list, err := f.m.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]FilterInfo, len(list))
	for i, x := range list {
		out[i] = FilterInfo{Name: x.Name, Plugin: x.Plugin}
	}
	return out, nil
}

// Pipeline returns a service's pipeline; a service without one (a
// notification service) has none.
func (f filterStore) Pipeline(ctx context.Context, svc string) ([]string, error) {
	names, err := f.m.Pipeline(ctx, svc)
	if errors.Is(err, fault.NotFound) {
		return nil, nil
	}
	return names, err
}
func (f filterStore) Create(ctx context.Context, name, plugin string, values map[string]string) error {
	_, err := f.m.Create(ctx, name, plugin, values)
	return err
}
func (f filterStore) CheckPlugin(_ context.Context, plugin string) error {
	return f.m.CheckPlugin(plugin)
}
func (f filterStore) Delete(ctx context.Context, name string) error { return f.m.Delete(ctx, name) }
func (f filterStore) SetPipeline(ctx context.Context, svc string, filters []string) error {
	_, err := f.m.SetPipeline(ctx, svc, filters, false)
	return err
}

type notifications struct{ m *notification.Manager }

func (n notifications) List(ctx context.Context) ([]NotificationInfo, error) {
	list, err := n.m.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]NotificationInfo, len(list))
	for i, x := range list {
		info := NotificationInfo{Name: x.Name, Description: x.Description, Type: x.Type, Rule: x.Rule, Channel: x.Channel,
			Enabled: x.Enabled, RetriggerTime: x.RetriggerTime, RuleKey: x.RuleConfig.Key, DeliveryKey: x.Delivery.Key}
		for _, c := range x.Extra {
			info.Channels = append(info.Channels, ChannelInfo{Name: c.Name, Plugin: c.Plugin, Key: c.Category})
		}
		out[i] = info
	}
	return out, nil
}
func (n notifications) Create(ctx context.Context, x Notification) error {
	rt := x.RetriggerTime
	_, err := n.m.Create(ctx, notification.Create{Name: x.Name, Description: x.Description, Rule: x.Rule, Channel: x.Channel,
		Type: x.Type, Enabled: x.Enabled, RetriggerTime: &rt, RuleConfig: texts(x.RuleConfig), DeliveryConfig: texts(x.DeliveryConfig)})
	return err
}
func (n notifications) CheckPlugins(ctx context.Context, rule, delivery string) error {
	return n.m.CheckPlugins(ctx, rule, delivery)
}
func (n notifications) Update(ctx context.Context, name string, ch NotificationChange) error {
	_, err := n.m.Update(ctx, name, notification.Update{Description: ch.Description, Rule: ch.Rule, Channel: ch.Channel,
		Type: ch.Type, Enabled: ch.Enabled, RetriggerTime: ch.RetriggerTime, RuleConfig: ch.RuleConfig, DeliveryConfig: ch.DeliveryConfig})
	return err
}
func (n notifications) Delete(ctx context.Context, name string) error { return n.m.Delete(ctx, name) }
func (n notifications) AddChannel(ctx context.Context, name, channel, plugin string, values map[string]string) error {
	_, err := n.m.AddChannel(ctx, name, channel, plugin, values)
	return err
}
func (n notifications) DeleteChannel(ctx context.Context, name, channel string) error {
	return n.m.DeleteChannel(ctx, name, channel)
}

type userStore struct{ s *user.Service }

func (u userStore) List(ctx context.Context) ([]UserInfo, error) {
	list, err := u.s.List(ctx, user.Filter{})
	if err != nil {
		return nil, err
	}
	out := make([]UserInfo, len(list))
	for i, x := range list {
		out[i] = UserInfo{ID: x.ID, Name: x.Username, RealName: x.RealName, Description: x.Description,
			AccessMethod: x.AccessMethod, Role: int64(x.Role)}
	}
	return out, nil
}
func (u userStore) Roles(ctx context.Context) (map[string]int64, error) {
	roles, err := u.s.Roles(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(roles))
	for _, r := range roles {
		out[r.Name] = int64(r.ID)
	}
	return out, nil
}
func (u userStore) Create(ctx context.Context, in NewUser) error {
	_, err := u.s.Create(ctx, user.NewUser{Username: in.Name, Password: in.Password, Role: user.Role(in.Role),
		AccessMethod: in.AccessMethod, RealName: in.RealName, Description: in.Description})
	return err
}
func (u userStore) Update(ctx context.Context, id int64, ch UserChange) error {
	c := user.Change{RealName: ch.RealName, Description: ch.Description, AccessMethod: ch.AccessMethod}
	if ch.Role != nil {
		r := user.Role(*ch.Role)
		c.Role = &r
	}
	_, err := u.s.Update(ctx, id, c)
	return err
}
func (u userStore) Delete(ctx context.Context, id int64) error { return u.s.Delete(ctx, id) }
