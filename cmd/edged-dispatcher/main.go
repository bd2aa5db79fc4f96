// Command edged-dispatcher is the gateway's dispatcher service: it carries
// control requests — writes of setpoints and operations — to the south
// services whose devices do them. The gateway installs it as a package and
// runs it as a plugin process of kind dispatcher (go-plugin over gRPC);
// the engine is package internal/dispatch.
//
// The gateway calls the service (Service.Call), a JSON body each way:
//
//	method     request                                             answer
//	write      {destination, name, values, caller}                 {results: [{service, asset, error}]}
//	operation  {destination, name, operation, parameters, caller}  {results: [{service, asset, error}]}
//
// destination is "service", "asset" or "broadcast"; name the service or
// asset (a broadcast write may name an asset every service is given, a
// broadcast operation names nothing); values datapoint name to number,
// string or boolean; parameters the operation's, by name; caller the user,
// for the audit trail. A result's error is set for a service that failed
// in a broadcast, which succeeds when one service did. Errors carry these
// codes:
//
//	CodeInvalid      malformed request, unknown method body field, or a service whose plugin cannot do it
//	CodeNotFound     unknown service or asset, or no south service to broadcast to
//	CodeConflict     service not running, asset of several services, no running service can do it
//	CodeUnavailable  the service's queue is full, or the request waited too long in it
//	CodeFailed       the device or its transport failed, or did not answer in time
//	CodeUnsupported  a method the dispatcher does not have
//
// The service calls the gateway (Host.Call):
//
//	method    request                                    answer
//	services  (none)                                     [{name, plugin, running, writes, operates, assets}]
//	write     {service, asset, values}                   {} once the device acknowledged
//	operate   {service, operation, parameters}           {} once the device reported it done
//	audit     {source, severity, details}                {}
//
// services lists the south services (running false for one configured but
// not running; writes and operates whether its plugin supports control
// writes and operations; assets those it ingests). The gateway's error
// codes come back as: CodeInvalid and CodeUnsupported as an invalid
// request, CodeNotFound, CodeConflict and CodeUnavailable as themselves,
// CodeFailed as the device's failure; any other error of write or operate
// is the device's or transport's too. Audit entries are CTLWR (write) and
// CTLOP (operation), INFORMATION when the request succeeded and FAILURE
// when it was refused or failed, with details {caller, destination, name,
// values | operation, parameters, outcome, results, error}.
//
// Requests to one service run one at a time in arrival order; the items
// requestTimeout (seconds, from arrival to the device's answer) and
// queueLength (requests waiting per service) bound them.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"sync"

	"github.com/edged/edged/internal/dispatch"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Version is the service's version, set when its package is built.
var Version = "1.0.0"

func main() {
	edgeplugin.Serve(edgeplugin.Plugin{Info: Info(), NewService: func() edgeplugin.Service { return &service{} }})
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

// service is the dispatcher inside its process.
type service struct {
	mu sync.Mutex // guards d
	d  *dispatch.Dispatcher
}

func (s *service) Start(_ context.Context, st edgeplugin.Start, host edgeplugin.Host) error {
	timeout, queue, err := dispatch.Limits(st.Config)
	if err != nil {
		return edgeplugin.Errorf(edgeplugin.CodeInvalid, "%w", err)
	}
	d := dispatch.New(dispatch.Options{Host: dispatch.NewJSONHost(host, kindOf), Timeout: timeout, QueueLength: queue,
		Log: slog.New(slog.NewTextHandler(os.Stderr, nil))}) // the gateway logs what the process writes
	s.mu.Lock()
	s.d = d
	s.mu.Unlock()
	return nil
}

func (s *service) Call(ctx context.Context, method string, body []byte) ([]byte, error) {
	s.mu.Lock()
	d := s.d
	s.mu.Unlock()
	if d == nil {
		return nil, edgeplugin.Errorf(edgeplugin.CodeUnavailable, "the dispatcher has not started")
	}
	out, err := d.Call(ctx, method, body)
	if err != nil {
		return nil, codeOf(err)
	}
	return out, nil
}

func (s *service) Reconfigure(_ context.Context, cfg edgeplugin.Config) error {
	timeout, queue, err := dispatch.Limits(cfg)
	if err != nil {
		return edgeplugin.Errorf(edgeplugin.CodeInvalid, "%w", err)
	}
	s.mu.Lock()
	d := s.d
	s.mu.Unlock()
	if d != nil {
		d.SetLimits(timeout, queue)
	}
	return nil
}

// State: the dispatcher keeps nothing between runs; a request in flight
// when it stops is answered as failed by the gateway.
func (s *service) State(context.Context) (json.RawMessage, error) { return nil, nil }

// codes maps the engine's fault kinds to the contract's codes, one row
// per kind it returns.
var codes = []struct {
	kind *fault.Kind
	code edgeplugin.Code
}{
	{fault.Invalid, edgeplugin.CodeInvalid},
	{fault.NotFound, edgeplugin.CodeNotFound},
	{fault.Conflict, edgeplugin.CodeConflict},
	{fault.TooMany, edgeplugin.CodeBusy},
	{fault.Unavailable, edgeplugin.CodeUnavailable},
	{fault.BadGateway, edgeplugin.CodeFailed},
	{fault.NotImplemented, edgeplugin.CodeUnsupported},
}

// codeOf gives err, returned by the engine, its code; the message is the
// fault's public one (its cause stays here).
func codeOf(err error) error {
	f, ok := fault.As(err)
	if !ok {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return edgeplugin.Errorf(edgeplugin.CodeUnavailable, "%s", err)
		}
		return edgeplugin.Errorf(edgeplugin.CodeInternal, "%s", err)
	}
	for _, r := range codes {
		if r.kind == f.Kind {
			return edgeplugin.Errorf(r.code, "%s", f.Message)
		}
	}
	return edgeplugin.Errorf(edgeplugin.CodeInternal, "%s", f.Message)
}

// kindOf maps the gateway's codes to fault kinds; nil for an error without
// a known code, which the engine treats as the device's or transport's.
func kindOf(err error) *fault.Kind {
	switch edgeplugin.CodeOf(err) {
	case edgeplugin.CodeInvalid, edgeplugin.CodeUnsupported:
		return fault.Invalid
	case edgeplugin.CodeNotFound:
		return fault.NotFound
	case edgeplugin.CodeConflict:
		return fault.Conflict
	case edgeplugin.CodeUnavailable:
		return fault.Unavailable
	case edgeplugin.CodeBusy:
		return fault.TooMany
	case edgeplugin.CodeFailed:
		return fault.BadGateway
	}
	return nil
}
