package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	hplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/edged/edged/pluginsdk/go/pluginpb"
)

// This file serves the service kinds on the plugin's end (Notification,
// Dispatcher) and the gateway's Host on the gateway's end, and calls them
// from the other end.

// serviceServer are the calls every service kind serves. The connection
// to the gateway's Host lives from Start to the end of the process (or
// the next Start).
type serviceServer struct {
	broker *hplugin.GRPCBroker
	life   serviceLife

	mu   sync.Mutex
	conn *grpc.ClientConn
}

func (s *serviceServer) start(ctx context.Context, req *pluginpb.ServiceStartRequest) (*pluginpb.StartReply, error) {
	conn, err := s.broker.Dial(req.GetHost())
	if err != nil {
		return nil, toStatus(Errorf(CodeUnavailable, "connect to the gateway's host service: %v", err))
	}
	s.mu.Lock()
	old := s.conn
	s.conn = conn
	s.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	st := Start{Service: req.GetService(), Config: Config(req.GetConfig())}
	if len(req.GetState()) > 0 {
		st.State = req.GetState()
	}
	if err := s.life.Start(ctx, st, &hostClient{client: pluginpb.NewHostClient(conn)}); err != nil {
		return nil, toStatus(err)
	}
	return &pluginpb.StartReply{}, nil
}

func (s *serviceServer) reconfigure(ctx context.Context, req *pluginpb.ReconfigureRequest) (*pluginpb.ReconfigureReply, error) {
	switch err := s.life.Reconfigure(ctx, Config(req.GetConfig())); {
	case errors.Is(err, ErrRestart):
		return &pluginpb.ReconfigureReply{Restart: true}, nil
	case err != nil:
		if CodeOf(err) == CodeInternal {
			// a configuration refused without a code is the caller's
			// mistake, as for the other kinds
			err = &codeError{code: CodeInvalid, err: err}
		}
		return nil, toStatus(err)
	}
	return &pluginpb.ReconfigureReply{}, nil
}

func (s *serviceServer) state(ctx context.Context) (*pluginpb.StateReply, error) {
	st, err := s.life.State(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	if len(st) > 0 && !json.Valid(st) {
		return nil, toStatus(Errorf(CodeInternal, "the state of the service is not a JSON document"))
	}
	return &pluginpb.StateReply{State: st}, nil
}

var ack = &pluginpb.Ack{}

// notificationServer serves a Notification.
type notificationServer struct {
	pluginpb.UnimplementedNotificationServer
	serviceServer
	impl Notification
}

func (s *notificationServer) Start(ctx context.Context, req *pluginpb.ServiceStartRequest) (*pluginpb.StartReply, error) {
	return s.start(ctx, req)
}

func (s *notificationServer) Reconfigure(ctx context.Context, req *pluginpb.ReconfigureRequest) (*pluginpb.ReconfigureReply, error) {
	return s.reconfigure(ctx, req)
}

func (s *notificationServer) State(ctx context.Context, _ *pluginpb.StateRequest) (*pluginpb.StateReply, error) {
	return s.state(ctx)
}

func (s *notificationServer) Plugins(ctx context.Context, _ *pluginpb.PluginsRequest) (*pluginpb.PluginsReply, error) {
	ps, err := s.impl.Plugins(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	return &pluginpb.PluginsReply{Rules: notificationPluginsToPB(ps.Rules), Deliveries: notificationPluginsToPB(ps.Deliveries)}, nil
}

func (s *notificationServer) Validate(ctx context.Context, req *pluginpb.NotificationInstance) (*pluginpb.Ack, error) {
	in, err := instanceFromPB(req)
	if err == nil {
		err = s.impl.Validate(ctx, in)
	}
	if err != nil {
		return nil, toStatus(err)
	}
	return ack, nil
}

func (s *notificationServer) SetInstances(ctx context.Context, req *pluginpb.SetInstancesRequest) (*pluginpb.Ack, error) {
	set := make([]NotificationInstance, 0, len(req.GetInstances()))
	for _, pb := range req.GetInstances() {
		in, err := instanceFromPB(pb)
		if err != nil {
			return nil, toStatus(err)
		}
		set = append(set, in)
	}
	if err := s.impl.SetInstances(ctx, set); err != nil {
		return nil, toStatus(err)
	}
	return ack, nil
}

func (s *notificationServer) Readings(ctx context.Context, req *pluginpb.ReadingsRequest) (*pluginpb.Ack, error) {
	rs, err := fromPB(req.GetReadings())
	if err != nil {
		return nil, toStatus(Errorf(CodeInvalid, "%w", err))
	}
	if err := s.impl.Readings(ctx, rs); err != nil {
		return nil, toStatus(err)
	}
	return ack, nil
}

func (s *notificationServer) Audited(ctx context.Context, req *pluginpb.AuditedRequest) (*pluginpb.Ack, error) {
	if req.GetCode() == "" {
		return nil, toStatus(Errorf(CodeInvalid, "an audit code is required"))
	}
	if err := s.impl.Audited(ctx, req.GetCode(), fromUnixNano(req.GetTimestampUnixNano())); err != nil {
		return nil, toStatus(err)
	}
	return ack, nil
}

func (s *notificationServer) Statistics(ctx context.Context, req *pluginpb.StatisticsRequest) (*pluginpb.Ack, error) {
	if req.GetTimestampUnixNano() == 0 {
		return nil, toStatus(Errorf(CodeInvalid, "the statistics' time is required"))
	}
	if err := s.impl.Statistics(ctx, fromUnixNano(req.GetTimestampUnixNano()), req.GetCounters()); err != nil {
		return nil, toStatus(err)
	}
	return ack, nil
}

// dispatcherServer serves a Dispatcher.
type dispatcherServer struct {
	pluginpb.UnimplementedDispatcherServer
	serviceServer
	impl Dispatcher
}

func (s *dispatcherServer) Start(ctx context.Context, req *pluginpb.ServiceStartRequest) (*pluginpb.StartReply, error) {
	return s.start(ctx, req)
}

func (s *dispatcherServer) Reconfigure(ctx context.Context, req *pluginpb.ReconfigureRequest) (*pluginpb.ReconfigureReply, error) {
	return s.reconfigure(ctx, req)
}

func (s *dispatcherServer) State(ctx context.Context, _ *pluginpb.StateRequest) (*pluginpb.StateReply, error) {
	return s.state(ctx)
}

func (s *dispatcherServer) Write(ctx context.Context, req *pluginpb.ControlRequest) (*pluginpb.ControlReply, error) {
	return s.control(ctx, req, s.impl.Write)
}

func (s *dispatcherServer) Operate(ctx context.Context, req *pluginpb.ControlRequest) (*pluginpb.ControlReply, error) {
	return s.control(ctx, req, s.impl.Operate)
}

func (s *dispatcherServer) control(ctx context.Context, req *pluginpb.ControlRequest,
	do func(context.Context, ControlRequest) ([]ControlResult, error)) (*pluginpb.ControlReply, error) {
	r, err := controlFromPB(req)
	if err != nil {
		return nil, toStatus(err)
	}
	results, err := do(ctx, r)
	if err != nil {
		return nil, toStatus(err)
	}
	return resultsToPB(results), nil
}

// hostClient is the gateway's Host as the process calls it.
type hostClient struct{ client pluginpb.HostClient }

func (h *hostClient) Audit(ctx context.Context, e AuditEntry) error {
	if len(e.Details) > 0 && !json.Valid(e.Details) {
		return Errorf(CodeInvalid, "the audit details are not a JSON document")
	}
	_, err := h.client.Audit(ctx, &pluginpb.AuditEntry{Source: e.Source, Severity: e.Severity, DetailsJson: e.Details})
	return fromStatus(ctx, "", err)
}

func (h *hostClient) Ingest(ctx context.Context, rs []Reading) error {
	_, err := h.client.Ingest(ctx, &pluginpb.HostIngestRequest{Readings: toPB(rs)})
	return fromStatus(ctx, "", err)
}

func (h *hostClient) Dispatch(ctx context.Context, req ControlRequest) ([]ControlResult, error) {
	pb, err := controlToPB(req)
	if err != nil {
		return nil, err
	}
	reply, err := h.client.Dispatch(ctx, pb)
	if err != nil {
		return nil, fromStatus(ctx, "", err)
	}
	return resultsFromPB(reply), nil
}

func (h *hostClient) Services(ctx context.Context) ([]ControlTarget, error) {
	reply, err := h.client.Services(ctx, &pluginpb.ServicesRequest{})
	if err != nil {
		return nil, fromStatus(ctx, "", err)
	}
	return targetsFromPB(reply), nil
}

func (h *hostClient) Write(ctx context.Context, service, asset string, values map[string]any) error {
	pv, err := valuesToPB("value", values)
	if err != nil {
		return err
	}
	_, err = h.client.Write(ctx, &pluginpb.HostWriteRequest{Service: service, Asset: asset, Values: pv})
	return fromStatus(ctx, "", err)
}

func (h *hostClient) Operate(ctx context.Context, service, operation string, params map[string]any) error {
	pv, err := valuesToPB("parameter", params)
	if err != nil {
		return err
	}
	_, err = h.client.Operate(ctx, &pluginpb.HostOperateRequest{Service: service, Operation: operation, Parameters: pv})
	return fromStatus(ctx, "", err)
}

// hostServer serves the gateway's Host to a service process.
type hostServer struct {
	pluginpb.UnimplementedHostServer
	impl Host
}

func (h *hostServer) Audit(ctx context.Context, req *pluginpb.AuditEntry) (*pluginpb.Ack, error) {
	if len(req.GetDetailsJson()) > 0 && !json.Valid(req.GetDetailsJson()) {
		return nil, toStatus(Errorf(CodeInvalid, "the audit details are not a JSON document"))
	}
	err := h.impl.Audit(ctx, AuditEntry{Source: req.GetSource(), Severity: req.GetSeverity(), Details: req.GetDetailsJson()})
	if err != nil {
		return nil, toStatus(err)
	}
	return ack, nil
}

func (h *hostServer) Ingest(ctx context.Context, req *pluginpb.HostIngestRequest) (*pluginpb.Ack, error) {
	rs, err := fromPB(req.GetReadings())
	if err != nil {
		return nil, toStatus(Errorf(CodeInvalid, "%w", err))
	}
	if err := h.impl.Ingest(ctx, rs); err != nil {
		return nil, toStatus(err)
	}
	return ack, nil
}

func (h *hostServer) Dispatch(ctx context.Context, req *pluginpb.ControlRequest) (*pluginpb.ControlReply, error) {
	r, err := controlFromPB(req)
	if err != nil {
		return nil, toStatus(err)
	}
	results, err := h.impl.Dispatch(ctx, r)
	if err != nil {
		return nil, toStatus(err)
	}
	return resultsToPB(results), nil
}

func (h *hostServer) Services(ctx context.Context, _ *pluginpb.ServicesRequest) (*pluginpb.ServicesReply, error) {
	ts, err := h.impl.Services(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	return targetsToPB(ts), nil
}

func (h *hostServer) Write(ctx context.Context, req *pluginpb.HostWriteRequest) (*pluginpb.Ack, error) {
	values, err := valuesFromPB("value", req.GetValues())
	if err == nil {
		err = h.impl.Write(ctx, req.GetService(), req.GetAsset(), values)
	}
	if err != nil {
		return nil, toStatus(err)
	}
	return ack, nil
}

func (h *hostServer) Operate(ctx context.Context, req *pluginpb.HostOperateRequest) (*pluginpb.Ack, error) {
	params, err := valuesFromPB("parameter", req.GetParameters())
	if err == nil {
		err = h.impl.Operate(ctx, req.GetService(), req.GetOperation(), params)
	}
	if err != nil {
		return nil, toStatus(err)
	}
	return ack, nil
}

// NotificationClient is the gateway's end of a notification service
// (Client.Notification). An error has the code and message the service
// returned (CodeOf); a call ctx ended, or one to a process that has
// exited, is CodeUnavailable.
type NotificationClient struct{ c *Client }

var _ NotificationCalls = NotificationClient{}

// Plugins implements NotificationCalls.
func (n NotificationClient) Plugins(ctx context.Context) (NotificationPlugins, error) {
	reply, err := n.c.notification.Plugins(ctx, &pluginpb.PluginsRequest{})
	if err != nil {
		return NotificationPlugins{}, n.c.exited(fromStatus(ctx, "", err))
	}
	return NotificationPlugins{Rules: notificationPluginsFromPB(reply.GetRules()),
		Deliveries: notificationPluginsFromPB(reply.GetDeliveries())}, nil
}

// Validate implements NotificationCalls.
func (n NotificationClient) Validate(ctx context.Context, in NotificationInstance) error {
	_, err := n.c.notification.Validate(ctx, instanceToPB(in))
	return n.c.exited(fromStatus(ctx, "", err))
}

// SetInstances implements NotificationCalls.
func (n NotificationClient) SetInstances(ctx context.Context, set []NotificationInstance) error {
	req := &pluginpb.SetInstancesRequest{Instances: make([]*pluginpb.NotificationInstance, len(set))}
	for i, in := range set {
		req.Instances[i] = instanceToPB(in)
	}
	_, err := n.c.notification.SetInstances(ctx, req)
	return n.c.exited(fromStatus(ctx, "", err))
}

// Readings implements NotificationCalls.
func (n NotificationClient) Readings(ctx context.Context, rs []Reading) error {
	_, err := n.c.notification.Readings(ctx, &pluginpb.ReadingsRequest{Readings: toPB(rs)})
	return n.c.exited(fromStatus(ctx, "", err))
}

// Audited implements NotificationCalls.
func (n NotificationClient) Audited(ctx context.Context, code string, at time.Time) error {
	_, err := n.c.notification.Audited(ctx, &pluginpb.AuditedRequest{Code: code, TimestampUnixNano: unixNano(at)})
	return n.c.exited(fromStatus(ctx, "", err))
}

// Statistics implements NotificationCalls.
func (n NotificationClient) Statistics(ctx context.Context, at time.Time, counters map[string]int64) error {
	_, err := n.c.notification.Statistics(ctx, &pluginpb.StatisticsRequest{TimestampUnixNano: unixNano(at), Counters: counters})
	return n.c.exited(fromStatus(ctx, "", err))
}

// DispatcherClient is the gateway's end of a dispatcher service
// (Client.Dispatcher), with errors as NotificationClient's.
type DispatcherClient struct{ c *Client }

var _ DispatcherCalls = DispatcherClient{}

// Write implements DispatcherCalls.
func (d DispatcherClient) Write(ctx context.Context, req ControlRequest) ([]ControlResult, error) {
	return d.control(ctx, req, d.c.dispatcher.Write)
}

// Operate implements DispatcherCalls.
func (d DispatcherClient) Operate(ctx context.Context, req ControlRequest) ([]ControlResult, error) {
	return d.control(ctx, req, d.c.dispatcher.Operate)
}

func (d DispatcherClient) control(ctx context.Context, req ControlRequest,
	call func(context.Context, *pluginpb.ControlRequest, ...grpc.CallOption) (*pluginpb.ControlReply, error)) ([]ControlResult, error) {
	pb, err := controlToPB(req)
	if err != nil {
		return nil, err
	}
	reply, err := call(ctx, pb)
	if err != nil {
		return nil, d.c.exited(fromStatus(ctx, "", err))
	}
	return resultsFromPB(reply), nil
}
