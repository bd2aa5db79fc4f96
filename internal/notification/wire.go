package notification

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Wire is an instance as the notification service's process gets it
// (Validate, SetInstances): the plugin contract's instance.
type Wire = edgeplugin.NotificationInstance

// values returns the values of items, without the readonly plugin name of
// an extra channel.
func values(items map[string]configmgr.Item) map[string]string {
	out := make(map[string]string, len(items))
	for n, it := range items {
		if n == itemPlugin && it.Readonly == "true" {
			continue
		}
		out[n] = it.Value
	}
	return out
}

// wireOf builds the process's view of an instance from its categories'
// items (with password values unmasked).
func wireOf(name string, own configmgr.Category, rule, delivery map[string]configmgr.Item, extra []Channel) Wire {
	// A stored value has passed its item's check; "" reads as 0.
	retrigger, _ := strconv.ParseFloat(own.Items[itemRetrigger].Value, 64)
	w := Wire{Name: name, Description: own.Items[itemDescription].Value, Rule: own.Items[itemRule].Value,
		RuleConfig: values(rule), Type: own.Items[itemType].Value, Enabled: own.Items[itemEnable].Value == "true",
		RetriggerTime: time.Duration(retrigger * float64(time.Second)),
		Channels:      []edgeplugin.NotificationChannel{{Name: name, Plugin: own.Items[itemChannel].Value, Config: values(delivery)}}}
	for _, ch := range extra {
		w.Channels = append(w.Channels, edgeplugin.NotificationChannel{Name: ch.Name, Plugin: ch.Plugin, Config: values(ch.Config.Items)})
	}
	return w
}

// unmasked returns the items of c with the values of password items
// read in clear.
func (m *Manager) unmasked(ctx context.Context, c configmgr.Category) (map[string]configmgr.Item, error) {
	c, err := configmgr.Unmasked(ctx, m.o.Config, c)
	if err != nil {
		return nil, fmt.Errorf("notification: %w", err)
	}
	return c.Items, nil
}

// wires returns every instance as the process gets it.
func (m *Manager) wires(ctx context.Context) ([]Wire, error) {
	list, err := m.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Wire, 0, len(list))
	for _, n := range list {
		rule, err := m.unmasked(ctx, n.RuleConfig)
		if err != nil {
			return nil, err
		}
		delivery, err := m.unmasked(ctx, n.Delivery)
		if err != nil {
			return nil, err
		}
		extra := slices.Clone(n.Extra)
		for i, ch := range extra {
			items, err := m.unmasked(ctx, ch.Config)
			if err != nil {
				return nil, err
			}
			extra[i].Config.Items = items
		}
		out = append(out, wireOf(n.Name, n.ownCategory(), rule, delivery, extra))
	}
	return out, nil
}

// Push hands every instance to the running notification service and
// tells the feed what the rules watch. With no notification service
// running there is nothing to do: it gets them when it starts.
func (m *Manager) Push(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.push(ctx, nil)
}

// pushLocked is Push with m.mu held, logging what fails: the change it
// follows is already stored, and the process gets it at its next start.
func (m *Manager) pushLocked(ctx context.Context) {
	if err := m.push(ctx, nil); err != nil {
		m.log.Error("notification instances not handed to the notification service", "error", err)
	}
}

// push hands every instance to to, or to the running notification
// service when to is nil.
func (m *Manager) push(ctx context.Context, to edgeplugin.NotificationCalls) error {
	ws, err := m.wires(ctx)
	if err != nil {
		return err
	}
	m.feed.watch(ws)
	if to == nil {
		if to, err = m.o.Services.Notification(); err != nil {
			if errors.Is(err, fault.Conflict) {
				return nil // none runs
			}
			return err
		}
	}
	if err := to.SetInstances(ctx, ws); err != nil && !errors.Is(err, fault.Conflict) {
		return err
	}
	return nil
}

// Started hands the instances to a notification service process that
// has just started (service.Manager's SetHostedStarted hook). Other
// service types are not its business.
func (m *Manager) Started(ctx context.Context, typ string, inst plugin.Service) error {
	n, ok := inst.(plugin.NotificationService)
	if typ != serviceTypeNotify || !ok {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.push(ctx, n)
}
