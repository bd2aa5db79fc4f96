// Command edged-notification is the gateway's notification service: a
// service package the gateway runs as a plugin process of kind
// notification. It wraps the notification engine (internal/notify) in the
// SDK's Notification service, the typed contract of
// proto/edged/plugin/v1: the gateway asks it for its rule and delivery
// plugins (Plugins), checks an instance (Validate), hands it the whole set
// of instances (SetInstances) after every start and change, and feeds it
// what the rules watch: committed readings (Readings), audit codes
// (Audited) and statistics (Statistics). An invalid instance is
// CodeInvalid; a call before Start is CodeUnavailable.
//
// The service calls the gateway's Host: Audit (NTFSN for each send,
// NTFCL for a toggled notification's clear; INFORMATION or FAILURE),
// Ingest (the asset delivery) and Dispatch (the setpoint delivery, a
// control write through the dispatcher service).
//
// The engine's timers run from Start until the next Start or the end of
// the process. The service has no configuration items and keeps no state:
// the gateway sends the full set of instances after every start.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/edged/edged/internal/notify"
	"github.com/edged/edged/internal/plugin/servicemain"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Version is the service's version, set when its package is built
// (make packages).
var Version = notify.Version

func main() {
	edgeplugin.Serve(plugin())
}

// plugin is the service as the SDK serves it.
func plugin() edgeplugin.Plugin {
	return edgeplugin.Plugin{
		Info: edgeplugin.Info{Name: "notification", Version: Version, Kind: edgeplugin.KindNotification,
			Description: "Notifications: rules on readings, audit codes and statistics, delivered by webhook, MQTT, email, asset or setpoint"},
		NewNotification: func() edgeplugin.Notification { return newService() },
	}
}

// service is the engine behind the SDK's Notification.
type service struct {
	servicemain.Stateless
	engine *servicemain.Slot[*notify.Engine]
}

func newService() *service {
	return &service{engine: &servicemain.Slot[*notify.Engine]{Service: "notification"}}
}

// Start makes the engine, calling the gateway back through host, and runs
// its timers until the engine is closed. A second Start (the gateway
// reconnected) replaces the engine, closing the old one, which ends its
// timers: its instances come again with the next SetInstances.
func (s *service) Start(_ context.Context, _ edgeplugin.Start, host edgeplugin.Host) error {
	e := notify.New(notify.Options{Host: gateway{servicemain.Gateway{Host: host}}, Logger: servicemain.Logger()})
	// The timers run beyond Start's call, until Close ends Run.
	go func() { _ = e.Run(context.Background()) }() //nolint:gosec // not the call's context: Close ends it
	if old, had := s.engine.Swap(e); had {
		old.Close()
	}
	return nil
}

// close closes the engine, if any (the end of a test's process).
func (s *service) close() {
	if e, err := s.engine.Get(); err == nil {
		e.Close()
	}
}

// Reconfigure accepts any configuration: the service has no items.
func (s *service) Reconfigure(context.Context, edgeplugin.Config) error { return nil }

// Plugins lists the engine's rule and delivery plugins.
func (s *service) Plugins(context.Context) (edgeplugin.NotificationPlugins, error) {
	rules, deliveries := notify.Plugins()
	return edgeplugin.NotificationPlugins{Rules: plugins(rules), Deliveries: plugins(deliveries)}, nil
}

func plugins(in []notify.PluginInfo) []edgeplugin.NotificationPlugin {
	out := make([]edgeplugin.NotificationPlugin, len(in))
	for i, p := range in {
		items := make(map[string]edgeplugin.Item, len(p.Items))
		for n, it := range p.Items {
			items[n] = edgeplugin.Item{Description: it.Description, Type: it.Type, Default: it.Default, DisplayName: it.DisplayName,
				Order: it.Order, Options: it.Options, Minimum: it.Minimum, Maximum: it.Maximum, Mandatory: it.Mandatory}
		}
		out[i] = edgeplugin.NotificationPlugin{Name: p.Name, Version: p.Version, Description: p.Description, Items: items}
	}
	return out
}

// Validate checks an instance; what is wrong is CodeInvalid.
func (s *service) Validate(_ context.Context, in edgeplugin.NotificationInstance) error {
	if err := notify.ValidateInstance(in); err != nil {
		return edgeplugin.Errorf(edgeplugin.CodeInvalid, "%w", err)
	}
	return nil
}

// SetInstances replaces the engine's instances; an invalid one is
// CodeInvalid and changes nothing.
func (s *service) SetInstances(ctx context.Context, set []edgeplugin.NotificationInstance) error {
	e, err := s.engine.Get()
	if err != nil {
		return err
	}
	if err := e.SetInstances(ctx, set); err != nil {
		return edgeplugin.Errorf(edgeplugin.CodeInvalid, "%w", err)
	}
	return nil
}

// Readings evaluates readings against the rules.
func (s *service) Readings(ctx context.Context, rs []edgeplugin.Reading) error {
	e, err := s.engine.Get()
	if err != nil {
		return err
	}
	in := make([]notify.Reading, len(rs))
	for i, r := range rs {
		values, err := notify.DecodeValues(r.Values)
		if err != nil {
			return edgeplugin.Errorf(edgeplugin.CodeInvalid, "reading %d of %q: %w", i, r.Asset, err)
		}
		in[i] = notify.Reading{Asset: r.Asset, Timestamp: r.Timestamp, Values: values}
	}
	e.Readings(ctx, in)
	return nil
}

// Audited evaluates an audit code against the rules.
func (s *service) Audited(ctx context.Context, code string, at time.Time) error {
	e, err := s.engine.Get()
	if err != nil {
		return err
	}
	e.Audit(ctx, code, at)
	return nil
}

// Statistics evaluates the statistics against the rules.
func (s *service) Statistics(ctx context.Context, at time.Time, counters map[string]int64) error {
	e, err := s.engine.Get()
	if err != nil {
		return err
	}
	e.Statistics(ctx, at, counters)
	return nil
}

// gateway is the gateway as the engine calls it.
type gateway struct{ g servicemain.Gateway }

func (g gateway) Audit(ctx context.Context, source, severity string, details any) error {
	return g.g.Audit(ctx, source, severity, details)
}

func (g gateway) Ingest(ctx context.Context, rs []notify.Reading) error {
	out := make([]edgeplugin.Reading, len(rs))
	for i, r := range rs {
		values, err := json.Marshal(r.Values)
		if err != nil {
			return fmt.Errorf("the reading of %q: %w", r.Asset, err)
		}
		out[i] = edgeplugin.Reading{Asset: r.Asset, Timestamp: r.Timestamp, Values: values}
	}
	return g.g.Ingest(ctx, out)
}

func (g gateway) Dispatch(ctx context.Context, w notify.Write) error {
	_, err := g.g.Dispatch(ctx, edgeplugin.ControlRequest{Destination: w.Destination, Name: w.Name, Values: w.Values})
	return err
}
