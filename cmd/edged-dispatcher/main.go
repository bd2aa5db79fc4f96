// Command edged-dispatcher is the gateway's dispatcher service: it carries
// control requests — writes of setpoints and operations — to the south
// services whose devices do them. The gateway installs it as a package and
// runs it as a plugin process of kind dispatcher (go-plugin over gRPC);
// the engine is package internal/dispatch.
//
// The gateway calls the service's Write and Operate, the Dispatcher
// service of the plugin contract (proto/edged/plugin/v1), with a
// ControlRequest: destination "service", "asset" or "broadcast"; name the
// service or asset (a broadcast write may name an asset every service is
// given, a broadcast operation names nothing); values datapoint name to
// number, string or boolean; parameters the operation's, by name; caller
// the user, for the audit trail. The answer is a result per service, whose
// error is set for a service that failed in a broadcast, which succeeds
// when one service did. Errors carry the codes of their fault kinds
// (internal/plugin/faultcode):
//
//	CodeInvalid      malformed request, or a service whose plugin cannot do it
//	CodeNotFound     unknown service or asset, or no south service to broadcast to
//	CodeConflict     service not running, asset of several services, no running service can do it
//	CodeBusy         the service's queue is full
//	CodeUnavailable  the request waited too long in the queue
//	CodeFailed       the device or its transport failed, or did not answer in time
//
// The service calls the gateway's Host: Services (the south services,
// with whether each runs, whether its plugin supports control writes and
// operations, and the assets it ingests), Write and Operate (which answer
// once the device did), Audit. The gateway's errors come back as the
// fault kinds of their codes; any other error of Write or Operate is the
// device's or transport's. Audit entries are CTLWR (write) and CTLOP
// (operation), INFORMATION when the request succeeded and FAILURE when it
// was refused or failed, with details {caller, destination, name, values
// | operation, parameters, outcome, results, error}.
//
// Requests to one service run one at a time in arrival order; the items
// requestTimeout (seconds, from arrival to the device's answer) and
// queueLength (requests waiting per service) bound them.
package main

import (
	"context"

	"github.com/edged/edged/internal/dispatch"
	"github.com/edged/edged/internal/plugin/servicemain"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Version is the service's version, set when its package is built.
var Version = "1.0.0"

func main() {
	edgeplugin.Serve(plugin())
}

// plugin is the service as the SDK serves it.
func plugin() edgeplugin.Plugin {
	return edgeplugin.Plugin{Info: Info(), NewDispatcher: func() edgeplugin.Dispatcher { return newService() }}
}

// Info describes the service.
func Info() edgeplugin.Info {
	return edgeplugin.Info{
		Name: "dispatcher", Version: Version, Kind: edgeplugin.KindDispatcher,
		Description: "Carries control writes and operations to the south services whose devices do them",
		Items: map[string]edgeplugin.Item{
			dispatch.ItemTimeout: {Description: "Seconds a control request may take, from its arrival to the device's answer, waiting for earlier requests included",
				Type: "integer", Default: "30", Minimum: "1", Maximum: "3600", DisplayName: "Request timeout (s)", Order: "1"},
			dispatch.ItemQueueLength: {Description: "Control requests that may wait for one service behind the one it runs; more are refused until it catches up",
				Type: "integer", Default: "16", Minimum: "1", Maximum: "10000", DisplayName: "Queue length", Order: "2"},
		},
	}
}

// service is the dispatcher inside its process. It keeps nothing between
// runs: a request in flight when it stops is answered as failed by the
// gateway.
type service struct {
	servicemain.Stateless
	d *servicemain.Slot[*dispatch.Dispatcher]
}

func newService() *service {
	return &service{d: &servicemain.Slot[*dispatch.Dispatcher]{Service: "dispatcher"}}
}

func (s *service) Start(_ context.Context, st edgeplugin.Start, host edgeplugin.Host) error {
	timeout, queue, err := dispatch.Limits(st.Config)
	if err != nil {
		return edgeplugin.Errorf(edgeplugin.CodeInvalid, "%w", err)
	}
	s.d.Swap(dispatch.New(dispatch.Options{Host: servicemain.Gateway{Host: host}, Timeout: timeout, QueueLength: queue,
		Log: servicemain.Logger()}))
	return nil
}

// Write runs a control write.
func (s *service) Write(ctx context.Context, req edgeplugin.ControlRequest) ([]edgeplugin.ControlResult, error) {
	return s.run(ctx, req, (*dispatch.Dispatcher).Write)
}

// Operate runs a control operation.
func (s *service) Operate(ctx context.Context, req edgeplugin.ControlRequest) ([]edgeplugin.ControlResult, error) {
	return s.run(ctx, req, (*dispatch.Dispatcher).Operate)
}

func (s *service) run(ctx context.Context, req edgeplugin.ControlRequest,
	do func(*dispatch.Dispatcher, context.Context, dispatch.Request) ([]dispatch.Result, error)) ([]edgeplugin.ControlResult, error) {
	d, err := s.d.Get()
	if err != nil {
		return nil, err
	}
	out, err := do(d, ctx, req)
	if err != nil {
		return nil, servicemain.Reply(err)
	}
	if out == nil {
		out = []dispatch.Result{}
	}
	return out, nil
}

func (s *service) Reconfigure(_ context.Context, cfg edgeplugin.Config) error {
	timeout, queue, err := dispatch.Limits(cfg)
	if err != nil {
		return edgeplugin.Errorf(edgeplugin.CodeInvalid, "%w", err)
	}
	if d, err := s.d.Get(); err == nil {
		d.SetLimits(timeout, queue)
	}
	return nil
}
