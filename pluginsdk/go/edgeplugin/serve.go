package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"

	hplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/edged/edged/pluginsdk/go/pluginpb"
)

// Handshake is the go-plugin handshake between the gateway and its
// plugins: a plugin started by anything else (by hand, say) says so and
// exits instead of waiting for a connection.
var Handshake = hplugin.HandshakeConfig{
	ProtocolVersion:  1,
	MagicCookieKey:   "EDGED_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "4c0e1d6c9a3b4f5e8d7a2b1c0f9e8d7c",
}

// pluginName is the one go-plugin plugin a plugin process serves.
const pluginName = "edged"

// Plugin is what a plugin executable serves: its Info and the
// implementation of its kind: South, North or Filter, or for a
// notification or dispatcher service NewService; exactly one of them.
type Plugin struct {
	Info   Info
	South  South
	North  North
	Filter Filter
	// NewService returns the Service the process serves (KindNotification,
	// KindDispatcher); it is called once per connection of the gateway.
	NewService func() Service
}

// check tells whether p is servable.
func (p *Plugin) check() error {
	impls := 0
	for _, set := range []bool{p.South != nil, p.North != nil, p.Filter != nil, p.NewService != nil} {
		if set {
			impls++
		}
	}
	want := map[string]bool{KindSouth: p.South != nil, KindNorth: p.North != nil, KindFilter: p.Filter != nil,
		KindNotification: p.NewService != nil, KindDispatcher: p.NewService != nil}
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
		HandshakeConfig: Handshake,
		Plugins:         hplugin.PluginSet{pluginName: &grpcPlugin{impl: &p}},
		GRPCServer:      hplugin.DefaultGRPCServer,
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
	pluginpb.RegisterPluginServer(s, &describeServer{info: p.Info})
	if p.NewService != nil {
		impl := p.NewService()
		if impl == nil {
			return errors.New("edgeplugin: NewService returned no Service")
		}
		pluginpb.RegisterServiceServer(s, &serviceServer{broker: broker, impl: impl})
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
	if len(req.GetValues()) == 0 && len(req.GetValuesJson()) == 0 {
		return &pluginpb.WriteReply{}, nil // the gateway asks whether the plugin writes (Client.Writes)
	}
	values := map[string]any{}
	if raw := req.GetValuesJson(); len(raw) > 0 {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil || obj == nil {
			return nil, status.Error(codes.InvalidArgument, "the values are not a JSON object")
		}
		values = DecodeValues(raw)
	} else {
		for k, v := range req.GetValues() {
			values[k] = v
		}
	}
	if err := w.Write(ctx, req.GetAsset(), values); err != nil {
		code := codes.FailedPrecondition
		if errors.Is(err, ErrNotWritable) {
			code = codes.InvalidArgument
		}
		return nil, status.Error(code, err.Error())
	}
	return &pluginpb.WriteReply{}, nil
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

// serviceServer serves a Service. The connection to the gateway's Host
// lives from Start to the end of the process (or the next Start).
type serviceServer struct {
	pluginpb.UnimplementedServiceServer
	broker *hplugin.GRPCBroker
	impl   Service

	mu   sync.Mutex
	conn *grpc.ClientConn
}

func (s *serviceServer) Start(ctx context.Context, req *pluginpb.ServiceStartRequest) (*pluginpb.StartReply, error) {
	conn, err := s.broker.Dial(req.GetHost())
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "connect to the gateway's host service: %v", err)
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
	if err := s.impl.Start(ctx, st, &hostClient{client: pluginpb.NewHostClient(conn)}); err != nil {
		return nil, toStatus(err)
	}
	return &pluginpb.StartReply{}, nil
}

func (s *serviceServer) Call(ctx context.Context, req *pluginpb.CallRequest) (*pluginpb.CallReply, error) {
	if err := checkJSON("request body", req.GetBody()); err != nil {
		return nil, toStatus(err)
	}
	body, err := s.impl.Call(ctx, req.GetMethod(), req.GetBody())
	if err != nil {
		return nil, toStatus(err)
	}
	if err := checkJSON("answer of the service", body); err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &pluginpb.CallReply{Body: body}, nil
}

func (s *serviceServer) Reconfigure(ctx context.Context, req *pluginpb.ReconfigureRequest) (*pluginpb.ReconfigureReply, error) {
	switch err := s.impl.Reconfigure(ctx, Config(req.GetConfig())); {
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

func (s *serviceServer) State(ctx context.Context, _ *pluginpb.StateRequest) (*pluginpb.StateReply, error) {
	st, err := s.impl.State(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	return &pluginpb.StateReply{State: st}, nil
}

// hostClient is the gateway's Host as the process calls it.
type hostClient struct{ client pluginpb.HostClient }

func (h *hostClient) Call(ctx context.Context, method string, body []byte) ([]byte, error) {
	// The gateway checks that body is JSON (CodeInvalid otherwise), as a
	// service checks the gateway's calls.
	reply, err := h.client.Call(ctx, &pluginpb.CallRequest{Method: method, Body: body})
	if err != nil {
		return nil, fromStatus(ctx, "", err)
	}
	if err := checkJSON("answer of the gateway", reply.GetBody()); err != nil {
		return nil, &codeError{code: CodeInternal, err: err}
	}
	return reply.GetBody(), nil
}

// TestConnect serves p inside this process over a real gRPC connection and
// returns the gateway's end of it, described. It is for tests (package
// plugintest); the connection closes when t ends.
func TestConnect(t testing.TB, p Plugin) (*Client, Info, error) {
	if err := p.check(); err != nil {
		return nil, Info{}, err
	}
	client, _ := hplugin.TestPluginGRPCConn(t, false, hplugin.PluginSet{pluginName: &grpcPlugin{impl: &p}})
	t.Cleanup(func() { _ = client.Close() })
	raw, err := client.Dispense(pluginName)
	if err != nil {
		return nil, Info{}, err
	}
	c := raw.(*Client)
	info, err := c.Describe(t.Context())
	return c, info, err
}
