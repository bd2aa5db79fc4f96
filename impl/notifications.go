package impl

import (
	"context"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/notification"
)

// ListNotificationPlugins (GET /edge/notification/plugin) lists the
// notification service's rule and delivery plugins.
func (s *Server) ListNotificationPlugins(ctx context.Context, _ gen.ListNotificationPluginsRequestObject) (gen.ListNotificationPluginsResponseObject, error) {
	p, err := s.notifications.Plugins(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.ListNotificationPlugins200JSONResponse{Rules: pluginsOut(p.Rules, gen.Rule), Delivery: pluginsOut(p.Delivery, gen.Delivery)}
	return out, nil
}

func pluginsOut(in []notification.Plugin, typ gen.NotificationPluginType) []gen.NotificationPlugin {
	out := make([]gen.NotificationPlugin, len(in))
	for i, p := range in {
		out[i] = gen.NotificationPlugin{Name: p.Name, Version: p.Version, Type: typ, Description: p.Description, Config: itemsOut(p.Config)}
	}
	return out
}

// ListNotificationTypes (GET /edge/notification/type) lists the
// notification types.
func (s *Server) ListNotificationTypes(context.Context, gen.ListNotificationTypesRequestObject) (gen.ListNotificationTypesResponseObject, error) {
	out := gen.ListNotificationTypes200JSONResponse{NotificationType: make([]gen.NotificationType, len(notification.Types))}
	for i, t := range notification.Types {
		out.NotificationType[i] = gen.NotificationType(t)
	}
	return out, nil
}

// ListNotifications (GET /edge/notification) lists the instances.
func (s *Server) ListNotifications(ctx context.Context, _ gen.ListNotificationsRequestObject) (gen.ListNotificationsResponseObject, error) {
	list, err := s.notifications.List(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.ListNotifications200JSONResponse{Notifications: make([]gen.Notification, len(list))}
	for i, n := range list {
		out.Notifications[i] = notificationOut(n)
	}
	return out, nil
}

func notificationOut(n notification.Notification) gen.Notification {
	out := gen.Notification{Name: n.Name, Description: n.Description, Rule: n.Rule, RuleConfig: itemsOut(n.RuleConfig.Items),
		Channel: n.Channel, DeliveryConfig: itemsOut(n.Delivery.Items), NotificationType: gen.NotificationType(n.Type),
		Enable: n.Enabled, RetriggerTime: n.RetriggerTime, Channels: make([]string, len(n.Extra))}
	for i, ch := range n.Extra {
		out.Channels[i] = ch.Name
	}
	return out
}

// CreateNotification (POST /edge/notification) creates an instance.
func (s *Server) CreateNotification(ctx context.Context, req gen.CreateNotificationRequestObject) (gen.CreateNotificationResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	b := req.Body
	n, err := s.notifications.Create(ctx, notification.Create{Name: b.Name, Description: valueOr(b.Description, ""),
		Rule: b.Rule, Channel: b.Channel, Type: string(b.NotificationType), Enabled: valueOr(b.Enabled, true),
		RetriggerTime: b.RetriggerTime, RuleConfig: valueOr(b.RuleConfig, nil), DeliveryConfig: valueOr(b.DeliveryConfig, nil)})
	if err != nil {
		return nil, err
	}
	return gen.CreateNotification200JSONResponse(notificationOut(n)), nil
}

// GetNotification (GET /edge/notification/{notification_name}) returns
// an instance.
func (s *Server) GetNotification(ctx context.Context, req gen.GetNotificationRequestObject) (gen.GetNotificationResponseObject, error) {
	n, err := s.notifications.Get(ctx, req.NotificationName)
	if err != nil {
		return nil, err
	}
	return gen.GetNotification200JSONResponse(notificationOut(n)), nil
}

// UpdateNotification (PUT /edge/notification/{notification_name})
// changes an instance.
func (s *Server) UpdateNotification(ctx context.Context, req gen.UpdateNotificationRequestObject) (gen.UpdateNotificationResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	b := req.Body
	in := notification.Update{Description: b.Description, Rule: b.Rule, Channel: b.Channel, Enabled: b.Enabled,
		RetriggerTime: b.RetriggerTime, RuleConfig: valueOr(b.RuleConfig, nil), DeliveryConfig: valueOr(b.DeliveryConfig, nil)}
	if b.NotificationType != nil {
		t := string(*b.NotificationType)
		in.Type = &t
	}
	n, err := s.notifications.Update(ctx, req.NotificationName, in)
	if err != nil {
		return nil, err
	}
	return gen.UpdateNotification200JSONResponse(notificationOut(n)), nil
}

// DeleteNotification (DELETE /edge/notification/{notification_name})
// deletes an instance.
func (s *Server) DeleteNotification(ctx context.Context, req gen.DeleteNotificationRequestObject) (gen.DeleteNotificationResponseObject, error) {
	if err := s.notifications.Delete(ctx, req.NotificationName); err != nil {
		return nil, err
	}
	return gen.DeleteNotification200JSONResponse{Message: "Notification " + req.NotificationName + " deleted"}, nil
}

func channelOut(c notification.Channel) gen.NotificationChannel {
	return gen.NotificationChannel{Name: c.Name, Plugin: c.Plugin, Category: c.Category, Config: itemsOut(c.Config.Items)}
}

// ListNotificationChannels (GET
// /edge/notification/{notification_name}/delivery) lists an instance's
// channels.
func (s *Server) ListNotificationChannels(ctx context.Context, req gen.ListNotificationChannelsRequestObject) (gen.ListNotificationChannelsResponseObject, error) {
	chs, err := s.notifications.Channels(ctx, req.NotificationName)
	if err != nil {
		return nil, err
	}
	out := gen.ListNotificationChannels200JSONResponse{Channels: make([]gen.NotificationChannel, len(chs))}
	for i, c := range chs {
		out.Channels[i] = channelOut(c)
	}
	return out, nil
}

// AddNotificationChannel (POST
// /edge/notification/{notification_name}/delivery) adds a channel.
func (s *Server) AddNotificationChannel(ctx context.Context, req gen.AddNotificationChannelRequestObject) (gen.AddNotificationChannelResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	c, err := s.notifications.AddChannel(ctx, req.NotificationName, req.Body.Name, req.Body.Plugin, valueOr(req.Body.Config, nil))
	if err != nil {
		return nil, err
	}
	return gen.AddNotificationChannel200JSONResponse(channelOut(c)), nil
}

// GetNotificationChannel (GET
// /edge/notification/{notification_name}/delivery/{channel_name}) returns
// a channel.
func (s *Server) GetNotificationChannel(ctx context.Context, req gen.GetNotificationChannelRequestObject) (gen.GetNotificationChannelResponseObject, error) {
	c, err := s.notifications.Channel(ctx, req.NotificationName, req.ChannelName)
	if err != nil {
		return nil, err
	}
	return gen.GetNotificationChannel200JSONResponse(channelOut(c)), nil
}

// DeleteNotificationChannel (DELETE
// /edge/notification/{notification_name}/delivery/{channel_name})
// deletes an extra channel.
func (s *Server) DeleteNotificationChannel(ctx context.Context, req gen.DeleteNotificationChannelRequestObject) (gen.DeleteNotificationChannelResponseObject, error) {
	if err := s.notifications.DeleteChannel(ctx, req.NotificationName, req.ChannelName); err != nil {
		return nil, err
	}
	return gen.DeleteNotificationChannel200JSONResponse{Message: "Channel " + req.ChannelName + " of notification " + req.NotificationName + " deleted"}, nil
}
