// Command edged-notification is the gateway's notification service: a
// service package the gateway runs as a plugin process of kind
// notification. It wraps the notification engine (internal/notify) in the
// SDK's Service; the gateway hands it instances, committed readings, audit
// codes and statistics, and it answers through the gateway's Host.
//
// Gateway → service (Service.Call; JSON bodies; errors with their codes):
//
//	method      request                                                answer
//	plugins     (none)                                                 {"rules": [plugin…], "delivery": [plugin…]}
//	validate    instance                                               {}; CodeInvalid when the instance is not valid
//	instances   [instance…], the full set                              {}; CodeInvalid (and nothing changes)
//	readings    [{"asset", "timestamp" (RFC 3339 nano), "readings": {…}}…]  {}
//	audit       {"code", "timestamp"}                                  {}
//	statistics  {"timestamp", "counters": {key: integer…}}             {}
//	(other)                                                            CodeUnsupported
//
// A plugin is {"name", "description", "version", "type": "rule"|"delivery",
// "config": {item: {"description", "type", "default", "displayName",
// "order", "options", "minimum", "maximum", "mandatory"}}}. An instance is
// {"name", "description", "rule", "ruleConfig": {item: value}, "channels":
// [{"name", "plugin", "config": {item: value}}…], "type": "one shot" |
// "retriggered" | "toggled", "enabled", "retriggerTime": seconds}. A bad
// body is CodeInvalid; a call before Start is CodeUnavailable.
//
// Service → gateway (Host.Call):
//
//	method    request                                                  when
//	audit     {"source": "NTFSN"|"NTFCL", "severity": "INFORMATION"|"FAILURE", "details": {…}}
//	                                                                   each send (NTFSN), a toggled clear (NTFCL)
//	ingest    [{"asset", "timestamp", "readings": {…}}…]              the asset delivery
//	dispatch  {"destination": "service"|"asset", "name", "values": {…}}  the setpoint delivery
//
// Start runs the engine's timers until the process ends. The service has
// no configuration items and keeps no state: the gateway sends the full
// set of instances after every start.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"sync"

	"github.com/edged/edged/internal/notify"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Version is the service's version, set when its package is built
// (make packages).
var Version = notify.Version

func main() {
	edgeplugin.Serve(edgeplugin.Plugin{
		Info: edgeplugin.Info{Name: "notification", Version: Version, Kind: edgeplugin.KindNotification,
			Description: "Notifications: rules on readings, audit codes and statistics, delivered by webhook, MQTT, email, asset or setpoint"},
		NewService: func() edgeplugin.Service { return &service{} },
	})
}

// service is the engine behind the SDK's Service.
type service struct {
	mu     sync.Mutex // guards engine
	engine *notify.Engine
}

// Start makes the engine, calling the gateway back through host, and runs
// its timers in the background for as long as the process lives. A second
// Start (the gateway reconnected) replaces the engine: its instances come
// again with the next "instances" call.
func (s *service) Start(ctx context.Context, _ edgeplugin.Start, host edgeplugin.Host) error {
	// go-plugin passes the process's stderr to the gateway's log.
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	e := notify.New(notify.Options{Host: notify.CallHost(host.Call), Logger: logger})
	// The timers run beyond Start's call, until the process ends.
	go func() { _ = e.Run(context.WithoutCancel(ctx)) }()
	s.mu.Lock()
	old := s.engine
	s.engine = e
	s.mu.Unlock()
	if old != nil {
		old.Close()
	}
	return nil
}

// Call runs a method of the table in the package doc.
func (s *service) Call(ctx context.Context, method string, body []byte) ([]byte, error) {
	s.mu.Lock()
	e := s.engine
	s.mu.Unlock()
	if e == nil {
		return nil, edgeplugin.Errorf(edgeplugin.CodeUnavailable, "the notification service is not started")
	}
	out, err := e.Call(ctx, method, body)
	var invalid *notify.InvalidError
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &invalid):
		return nil, edgeplugin.Errorf(edgeplugin.CodeInvalid, "%s: %w", method, err)
	case errors.Is(err, notify.ErrUnknownMethod):
		return nil, edgeplugin.Errorf(edgeplugin.CodeUnsupported, "%w", err)
	}
	return nil, edgeplugin.Errorf(edgeplugin.CodeInternal, "%s: %w", method, err)
}

// Reconfigure accepts any configuration: the service has no items.
func (s *service) Reconfigure(context.Context, edgeplugin.Config) error { return nil }

// State is none: instances come from the gateway, and a notification's
// trigger state starts afresh with the process.
func (s *service) State(context.Context) (json.RawMessage, error) { return nil, nil }
