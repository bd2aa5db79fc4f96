package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	hplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/edged/edged/pluginsdk/go/pluginpb"
)

// ProtocolVersion is the application protocol version of the contract
// this SDK speaks (proto/edged/plugin/v1/plugin.proto says what each
// version holds). The gateway offers every version it speaks and the
// plugin picks the highest it speaks too (go-plugin's VersionedPlugins).
// Compatibility rule: a change that keeps every call and message of a
// version working (a new field, a new call a plugin may leave
// unimplemented) keeps the version; any other change is a new version,
// and the gateway keeps speaking the old one for as long as plugins of it
// may be installed.
const ProtocolVersion = 2

// ServiceProtocolVersion is the first version with the typed service
// contracts (Notification, Dispatcher, Host): a notification or
// dispatcher service must speak it. South, north and filter plugins speak
// the same in every version from 1 on.
const ServiceProtocolVersion = 2

// Handshake is the go-plugin handshake between the gateway and its
// plugins: a plugin started by anything else (by hand, say) says so and
// exits instead of waiting for a connection. The versions come from
// VersionedPlugins; ProtocolVersion here is only the newest.
var Handshake = hplugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   "EDGED_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "4c0e1d6c9a3b4f5e8d7a2b1c0f9e8d7c",
}

// PluginName is the one go-plugin plugin a plugin process serves.
const PluginName = "edged"

// versions are the protocol versions a plugin of kind speaks, each with
// its go-plugin plugin set: every version from 1 for south, north and
// filter plugins (their calls have not changed), from
// ServiceProtocolVersion for the services.
func versions(kind string, impl *Plugin) map[int]hplugin.PluginSet {
	set := hplugin.PluginSet{PluginName: &grpcPlugin{impl: impl}}
	first := 1
	if isService(kind) {
		first = ServiceProtocolVersion
	}
	out := map[int]hplugin.PluginSet{}
	for v := first; v <= ProtocolVersion; v++ {
		out[v] = set
	}
	return out
}

// GRPCPlugin returns the go-plugin plugin that serves p (the plugin's
// end, under PluginName) or, for a zero Plugin, the gateway's end, whose
// Dispense gives a *Client. Package plugintest connects the two in one
// process.
func GRPCPlugin(p Plugin) (hplugin.Plugin, error) {
	if p.Info.Kind == "" {
		return &grpcPlugin{}, nil
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &grpcPlugin{impl: &p}, nil
}

// Plugin is what a plugin executable serves: its Info and the
// implementation of its kind: South, North or Filter, NewNotification or
// NewDispatcher; exactly one of them.
type Plugin struct {
	Info   Info
	South  South
	North  North
	Filter Filter
	// NewNotification and NewDispatcher return the service the process
	// serves (KindNotification, KindDispatcher); called once per
	// connection of the gateway.
	NewNotification func() Notification
	NewDispatcher   func() Dispatcher
}

// check tells whether p is servable.
func (p *Plugin) check() error {
	impls := 0
	for _, set := range []bool{p.South != nil, p.North != nil, p.Filter != nil, p.NewNotification != nil, p.NewDispatcher != nil} {
		if set {
			impls++
		}
	}
	want := map[string]bool{KindSouth: p.South != nil, KindNorth: p.North != nil, KindFilter: p.Filter != nil,
		KindNotification: p.NewNotification != nil, KindDispatcher: p.NewDispatcher != nil}
	switch {
	case p.Info.Name == "" || p.Info.Version == "":
		return errors.New("the plugin's Info lacks a name or version")
	case impls != 1 || !want[p.Info.Kind]:
		return fmt.Errorf("Info.Kind is %q: set exactly the implementation of that kind", p.Info.Kind)
	}
	return nil
}

// Serve serves p to the gateway that started this process and returns
// when the gateway is done with it. It exits the process when p is not
// servable or when the process was not started by a gateway.
func Serve(p Plugin) {
	if err := p.check(); err != nil {
		panic("edgeplugin: " + err.Error())
	}
	hplugin.Serve(&hplugin.ServeConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: versions(p.Info.Kind, &p),
		GRPCServer:       hplugin.DefaultGRPCServer,
	})
}

// grpcPlugin binds the contract to go-plugin on both ends: the plugin's
// (GRPCServer, with impl set) and the gateway's (GRPCClient).
type grpcPlugin struct {
	hplugin.NetRPCUnsupportedPlugin
	impl *Plugin
}

func (g *grpcPlugin) GRPCServer(broker *hplugin.GRPCBroker, s *grpc.Server) error {
	p := g.impl
	info := p.Info
	if p.South != nil {
		_, info.Writes = p.South.(Writer)
		_, info.Operates = p.South.(Operator)
	}
	pluginpb.RegisterPluginServer(s, &describeServer{info: info})
	switch {
	case p.NewNotification != nil:
		impl := p.NewNotification()
		if impl == nil {
			return errors.New("edgeplugin: NewNotification returned no Notification")
		}
		pluginpb.RegisterNotificationServer(s, &notificationServer{serviceServer: serviceServer{broker: broker, life: impl}, impl: impl})
		return nil
	case p.NewDispatcher != nil:
		impl := p.NewDispatcher()
		if impl == nil {
			return errors.New("edgeplugin: NewDispatcher returned no Dispatcher")
		}
		pluginpb.RegisterDispatcherServer(s, &dispatcherServer{serviceServer: serviceServer{broker: broker, life: impl}, impl: impl})
		return nil
	}
	c := &common{}
	switch {
	case p.South != nil:
		c.impl, c.reconfigure = p.South, p.South.Reconfigure
		pluginpb.RegisterSouthServer(s, &southServer{common: c, impl: p.South})
	case p.North != nil:
		c.impl, c.reconfigure = p.North, p.North.Reconfigure
		pluginpb.RegisterNorthServer(s, &northServer{common: c, impl: p.North})
	case p.Filter != nil:
		c.impl, c.reconfigure = p.Filter, p.Filter.Reconfigure
		pluginpb.RegisterFilterServer(s, &filterServer{common: c, impl: p.Filter})
	}
	return nil
}

// GRPCClient keeps the broker, which a Service's Host is served through,
// and done, which ends when the plugin process has exited.
func (g *grpcPlugin) GRPCClient(done context.Context, broker *hplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return newClient(done, broker, conn), nil
}

type describeServer struct {
	pluginpb.UnimplementedPluginServer
	info Info
}

func (d *describeServer) Describe(context.Context, *pluginpb.DescribeRequest) (*pluginpb.Description, error) {
	return infoToPB(d.info), nil
}

// common are the calls every kind has, on impl: the plugin's South, North
// or Filter.
type common struct {
	impl        any
	reconfigure func(Config) error
}

// Start hands the plugin its state (Persister.Restore) and configuration
// (Starter.Start), then lets it acquire its resources (Opener.Open), as
// the gateway does for a built-in plugin.
func (c *common) Start(ctx context.Context, req *pluginpb.StartRequest) (*pluginpb.StartReply, error) {
	s := Start{Service: req.GetService(), Config: Config(req.GetConfig())}
	if len(req.GetState()) > 0 {
		s.State = req.GetState()
		if p, ok := c.impl.(Persister); ok {
			if err := p.Restore(s.State); err != nil {
				// as for a built-in plugin: logged, and it starts afresh
				fmt.Fprintf(os.Stderr, "the persisted state was not restored: %v\n", err)
			}
		}
	}
	if st, ok := c.impl.(Starter); ok {
		if err := st.Start(ctx, s); err != nil {
			return nil, status.Error(codes.FailedPrecondition, err.Error())
		}
	}
	if o, ok := c.impl.(Opener); ok {
		if err := o.Open(ctx); err != nil {
			return nil, status.Error(codes.FailedPrecondition, err.Error())
		}
	}
	return &pluginpb.StartReply{}, nil
}

func (c *common) Reconfigure(_ context.Context, req *pluginpb.ReconfigureRequest) (*pluginpb.ReconfigureReply, error) {
	switch err := c.reconfigure(Config(req.GetConfig())); {
	case errors.Is(err, ErrRestart):
		return &pluginpb.ReconfigureReply{Restart: true}, nil
	case err != nil:
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	return &pluginpb.ReconfigureReply{}, nil
}

func (c *common) State(context.Context, *pluginpb.StateRequest) (*pluginpb.StateReply, error) {
	p, ok := c.impl.(Persister)
	if !ok {
		return &pluginpb.StateReply{}, nil
	}
	st, err := p.State()
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &pluginpb.StateReply{State: st}, nil
}

type southServer struct {
	pluginpb.UnimplementedSouthServer
	*common
	impl South
}

func (s *southServer) Start(ctx context.Context, req *pluginpb.StartRequest) (*pluginpb.StartReply, error) {
	return s.common.Start(ctx, req)
}

func (s *southServer) Reconfigure(ctx context.Context, req *pluginpb.ReconfigureRequest) (*pluginpb.ReconfigureReply, error) {
	return s.common.Reconfigure(ctx, req)
}

func (s *southServer) State(ctx context.Context, req *pluginpb.StateRequest) (*pluginpb.StateReply, error) {
	return s.common.State(ctx, req)
}

func (s *southServer) Run(_ *pluginpb.RunRequest, stream grpc.ServerStreamingServer[pluginpb.Batch]) error {
	err := s.impl.Run(stream.Context(), &streamSink{stream: stream})
	if err != nil && stream.Context().Err() == nil {
		return status.Error(codes.Aborted, err.Error())
	}
	return nil
}

// streamSink is the Sink of a south plugin in its own process: each batch
// is a message of the Run stream to the gateway, which hands it to its
// ingest buffer.
type streamSink struct {
	mu     sync.Mutex // a Sink may be called from several goroutines
	stream grpc.ServerStreamingServer[pluginpb.Batch]
}

func (s *streamSink) send(rs []Reading) error {
	if len(rs) == 0 {
		return nil
	}
	b := &pluginpb.Batch{Readings: toPB(rs)}
	if n := proto.Size(b); n > MaxMessageBytes {
		return fmt.Errorf("%w: %d readings are %d bytes, more than the %d a plugin may send at once: send smaller batches",
			ErrTooLarge, len(rs), n, MaxMessageBytes)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stream.Context().Err() != nil {
		return ErrStopped
	}
	if err := s.stream.Send(b); err != nil {
		return fmt.Errorf("%w: %w", ErrStopped, err)
	}
	return nil
}

// Put sends readings; those that cannot be sent are dropped, and said so
// on stderr (the gateway's log).
func (s *streamSink) Put(rs []Reading) {
	if err := s.send(rs); err != nil && !errors.Is(err, ErrStopped) {
		fmt.Fprintf(os.Stderr, "%d readings dropped: %v\n", len(rs), err)
	}
}

// Submit sends readings; its Receipt is done at once: the gateway has
// them once the stream took them.
func (s *streamSink) Submit(rs []Reading) (Receipt, error) {
	if err := s.send(rs); err != nil {
		return nil, err
	}
	return received{}, nil
}

// received is the Receipt of readings the gateway received.
type received struct{}

func (received) Wait(context.Context) error { return nil }

func (s *southServer) Write(ctx context.Context, req *pluginpb.WriteRequest) (*pluginpb.WriteReply, error) {
	w, ok := s.impl.(Writer)
	if !ok {
		return nil, status.Error(codes.Unimplemented, "the plugin cannot write to its device")
	}
	values, err := controlValues(req.GetValuesJson(), req.GetValues())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, "the values are not a JSON object")
	}
	if err := w.Write(ctx, req.GetAsset(), values); err != nil {
		return nil, controlStatus(err)
	}
	return &pluginpb.WriteReply{}, nil
}

func (s *southServer) Operate(ctx context.Context, req *pluginpb.OperateRequest) (*pluginpb.OperateReply, error) {
	o, ok := s.impl.(Operator)
	if !ok {
		return nil, status.Error(codes.Unimplemented, "the plugin cannot run operations on its device")
	}
	params, err := controlValues(req.GetParametersJson(), req.GetParameters())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, "the parameters are not a JSON object")
	}
	if err := o.Operate(ctx, req.GetOperation(), params); err != nil {
		return nil, controlStatus(err)
	}
	return &pluginpb.OperateReply{}, nil
}

// controlValues are the values of a write or the parameters of an
// operation with their JSON types: from raw, the JSON object a gateway
// sends, when set; otherwise each of text as a string (a gateway that
// sends only the text form).
func controlValues(raw []byte, text map[string]string) (map[string]any, error) {
	if len(raw) > 0 {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil || obj == nil {
			return nil, errors.New("not a JSON object")
		}
		return DecodeValues(raw), nil
	}
	values := make(map[string]any, len(text))
	for k, v := range text {
		values[k] = v
	}
	return values, nil
}

// controlStatus is the status of a Writer's or Operator's error: its
// refusals (ErrNotWritable, ErrNoOperation, ErrBadParameters) are
// INVALID_ARGUMENT, an error made with Errorf keeps its code, and any other
// error is the device's failure (CodeFailed).
func controlStatus(err error) error {
	var ce *codeError
	switch {
	case errors.Is(err, ErrNotWritable), errors.Is(err, ErrNoOperation), errors.Is(err, ErrBadParameters):
		return status.Error(codes.InvalidArgument, err.Error())
	case errors.As(err, &ce):
		return toStatus(err)
	}
	return status.Error(codes.Aborted, err.Error())
}

type northServer struct {
	pluginpb.UnimplementedNorthServer
	*common
	impl North
}

func (s *northServer) Start(ctx context.Context, req *pluginpb.StartRequest) (*pluginpb.StartReply, error) {
	return s.common.Start(ctx, req)
}

func (s *northServer) Reconfigure(ctx context.Context, req *pluginpb.ReconfigureRequest) (*pluginpb.ReconfigureReply, error) {
	return s.common.Reconfigure(ctx, req)
}

func (s *northServer) State(ctx context.Context, req *pluginpb.StateRequest) (*pluginpb.StateReply, error) {
	return s.common.State(ctx, req)
}

func (s *northServer) Send(ctx context.Context, req *pluginpb.SendRequest) (*pluginpb.SendReply, error) {
	rs, err := fromPB(req.GetReadings())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	n, err := s.impl.Send(ctx, rs)
	n = min(max(n, 0), len(rs))
	reply := &pluginpb.SendReply{Accepted: int64(n)}
	if err != nil {
		reply.Error = err.Error()
	} else if n < len(rs) {
		reply.Error = fmt.Sprintf("the plugin accepted %d of %d readings", n, len(rs))
	}
	return reply, nil
}

type filterServer struct {
	pluginpb.UnimplementedFilterServer
	*common
	impl Filter
}

func (s *filterServer) Start(ctx context.Context, req *pluginpb.StartRequest) (*pluginpb.StartReply, error) {
	return s.common.Start(ctx, req)
}

func (s *filterServer) Reconfigure(ctx context.Context, req *pluginpb.ReconfigureRequest) (*pluginpb.ReconfigureReply, error) {
	return s.common.Reconfigure(ctx, req)
}

func (s *filterServer) State(ctx context.Context, req *pluginpb.StateRequest) (*pluginpb.StateReply, error) {
	return s.common.State(ctx, req)
}

func (s *filterServer) Ingest(ctx context.Context, req *pluginpb.IngestRequest) (*pluginpb.IngestReply, error) {
	rs, err := fromPB(req.GetReadings())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	out, err := s.impl.Process(ctx, Points(rs))
	if err != nil {
		return nil, status.Error(codes.Aborted, err.Error())
	}
	back, err := Readings(out)
	if err != nil {
		return nil, status.Error(codes.Aborted, err.Error())
	}
	return &pluginpb.IngestReply{Readings: toPB(back)}, nil
}
