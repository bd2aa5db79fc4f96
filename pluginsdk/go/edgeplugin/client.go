package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"

	"github.com/hashicorp/go-hclog"
	hplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/edged/edged/pluginsdk/go/pluginpb"
)

// Client is the gateway's end of the contract with one plugin process.
// Describe must be called first: it learns the plugin's kind, which the
// calls common to every kind are routed by. Its calls are safe for
// concurrent use once Describe and Start (StartService) have returned.
type Client struct {
	conn         *grpc.ClientConn
	plugin       pluginpb.PluginClient
	south        pluginpb.SouthClient
	north        pluginpb.NorthClient
	filter       pluginpb.FilterClient
	notification pluginpb.NotificationClient
	dispatcher   pluginpb.DispatcherClient
	kind         string
	// broker serves a Service's Host; done ends when the process exited.
	broker *hplugin.GRPCBroker
	done   context.Context

	mu   sync.Mutex
	host *hostServing // the Host of the last StartService
}

func newClient(done context.Context, broker *hplugin.GRPCBroker, conn *grpc.ClientConn) *Client {
	return &Client{conn: conn, plugin: pluginpb.NewPluginClient(conn), south: pluginpb.NewSouthClient(conn),
		north: pluginpb.NewNorthClient(conn), filter: pluginpb.NewFilterClient(conn),
		notification: pluginpb.NewNotificationClient(conn), dispatcher: pluginpb.NewDispatcherClient(conn),
		broker: broker, done: done}
}

// callError turns an error of a call into one whose text is the plugin's
// message after the call's name, with the code the plugin sent (CodeOf).
func callError(call string, err error) error {
	if err == nil {
		return nil
	}
	st := status.Convert(err)
	return fromStatus(context.Background(), "plugin "+call+": ", st.Err())
}

// Done is closed when the plugin process has exited (never for a
// connection of TestConnect).
func (c *Client) Done() <-chan struct{} { return c.done.Done() }

// exited adds to err, a failed call's, that the process is gone when it
// is: the call failed for that, not for anything the plugin said.
func (c *Client) exited(err error) error {
	if err == nil || c.done.Err() == nil {
		return err
	}
	return &codeError{code: CodeUnavailable, err: fmt.Errorf("the plugin process has exited: %w", err)}
}

// Describe returns the plugin's Info.
func (c *Client) Describe(ctx context.Context) (Info, error) {
	d, err := c.plugin.Describe(ctx, &pluginpb.DescribeRequest{})
	if err != nil {
		return Info{}, callError("Describe", err)
	}
	in := infoFromPB(d)
	switch in.Kind {
	case KindSouth, KindNorth, KindFilter, KindNotification, KindDispatcher:
	default:
		return Info{}, fmt.Errorf("plugin %q is of unknown kind %q", in.Name, in.Kind)
	}
	if in.Name == "" || in.Version == "" {
		return Info{}, errors.New("the plugin describes itself without a name or version")
	}
	c.kind = in.Kind
	return in, nil
}

// Start starts the plugin with its configuration and state; a service
// (notification, dispatcher) is started by StartService instead.
func (c *Client) Start(ctx context.Context, s Start) error {
	req := &pluginpb.StartRequest{Service: s.Service, Config: s.Config, State: s.State}
	var err error
	switch c.kind {
	case KindSouth:
		_, err = c.south.Start(ctx, req)
	case KindNorth:
		_, err = c.north.Start(ctx, req)
	case KindFilter:
		_, err = c.filter.Start(ctx, req)
	case KindNotification, KindDispatcher:
		return errors.New("edgeplugin: a service is started by StartService")
	default:
		return errors.New("edgeplugin: Start before Describe")
	}
	return c.exited(callError("Start", err))
}

// StartService starts a notification or dispatcher service with its
// configuration and state, and serves host to it, through go-plugin's
// broker, for as long as the process runs: the service may call it from
// Start on, from any goroutine. An error has the code the service sent.
// A second StartService stops serving the first one's host.
func (c *Client) StartService(ctx context.Context, s Start, host Host) error {
	switch {
	case !isService(c.kind):
		return fmt.Errorf("edgeplugin: StartService for a plugin of kind %q", c.kind)
	case host == nil:
		return errors.New("edgeplugin: StartService without a Host")
	}
	var start func(context.Context, *pluginpb.ServiceStartRequest, ...grpc.CallOption) (*pluginpb.StartReply, error)
	if c.kind == KindNotification {
		start = c.notification.Start
	} else {
		start = c.dispatcher.Start
	}
	id := c.broker.NextId()
	srv := &hostServing{}
	go c.broker.AcceptAndServe(id, func(opts []grpc.ServerOption) *grpc.Server {
		s := grpc.NewServer(opts...)
		pluginpb.RegisterHostServer(s, &hostServer{impl: host})
		srv.set(s)
		return s
	})
	_, err := start(ctx, &pluginpb.ServiceStartRequest{Service: s.Service, Config: s.Config, State: s.State, Host: id})
	if err != nil {
		srv.stop()
		return c.exited(fromStatus(ctx, "plugin Start: ", err))
	}
	c.mu.Lock()
	old := c.host
	c.host = srv
	c.mu.Unlock()
	if old != nil {
		old.stop()
	}
	return nil
}

// hostServing is the gRPC server of one StartService's Host, which
// go-plugin's broker creates asynchronously.
type hostServing struct {
	mu      sync.Mutex
	s       *grpc.Server
	stopped bool
}

func (h *hostServing) set(s *grpc.Server) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.s = s
	if h.stopped {
		s.Stop() // Serve then returns at once, ending AcceptAndServe
	}
}

func (h *hostServing) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopped = true
	if h.s != nil {
		h.s.Stop()
	}
}

// Notification returns the calls of a notification service; it must
// have been described as one.
func (c *Client) Notification() NotificationClient { return NotificationClient{c} }

// Dispatcher returns the calls of a dispatcher service; it must have been
// described as one.
func (c *Client) Dispatcher() DispatcherClient { return DispatcherClient{c} }

// Reconfigure hands the plugin a changed configuration; ErrRestart means
// it wants a new instance.
func (c *Client) Reconfigure(ctx context.Context, cfg Config) error {
	req := &pluginpb.ReconfigureRequest{Config: cfg}
	var (
		reply *pluginpb.ReconfigureReply
		err   error
	)
	switch c.kind {
	case KindSouth:
		reply, err = c.south.Reconfigure(ctx, req)
	case KindNorth:
		reply, err = c.north.Reconfigure(ctx, req)
	case KindFilter:
		reply, err = c.filter.Reconfigure(ctx, req)
	case KindNotification:
		reply, err = c.notification.Reconfigure(ctx, req)
	case KindDispatcher:
		reply, err = c.dispatcher.Reconfigure(ctx, req)
	default:
		return errors.New("edgeplugin: Reconfigure before Describe")
	}
	if err != nil {
		// a plugin that did not answer in time is unavailable
		return c.exited(fromStatus(ctx, "plugin Reconfigure: ", err))
	}
	if reply.GetRestart() {
		return ErrRestart
	}
	return nil
}

// State returns the plugin's state to persist (nil when it has none).
func (c *Client) State(ctx context.Context) (json.RawMessage, error) {
	var (
		reply *pluginpb.StateReply
		err   error
	)
	switch c.kind {
	case KindSouth:
		reply, err = c.south.State(ctx, &pluginpb.StateRequest{})
	case KindNorth:
		reply, err = c.north.State(ctx, &pluginpb.StateRequest{})
	case KindFilter:
		reply, err = c.filter.State(ctx, &pluginpb.StateRequest{})
	case KindNotification:
		reply, err = c.notification.State(ctx, &pluginpb.StateRequest{})
	case KindDispatcher:
		reply, err = c.dispatcher.State(ctx, &pluginpb.StateRequest{})
	default:
		return nil, errors.New("edgeplugin: State before Describe")
	}
	if err != nil {
		return nil, c.exited(callError("State", err))
	}
	if len(reply.GetState()) == 0 {
		return nil, nil
	}
	if !json.Valid(reply.GetState()) {
		return nil, errors.New("plugin State: not a JSON document")
	}
	return reply.GetState(), nil
}

// Run receives the readings of a south plugin and hands each batch to
// deliver until ctx ends (nil) or the plugin fails or dies (an error).
func (c *Client) Run(ctx context.Context, deliver func([]Reading)) error {
	stream, err := c.south.Run(ctx, &pluginpb.RunRequest{})
	if err != nil {
		return callError("Run", err)
	}
	for {
		b, err := stream.Recv()
		switch {
		case ctx.Err() != nil:
			return nil //nolint:nilerr // the gateway ended the run: not a failure
		case errors.Is(err, io.EOF):
			return errors.New("plugin Run: the plugin stopped producing readings")
		case status.Code(err) == codes.ResourceExhausted:
			return fmt.Errorf("plugin Run: the plugin sent a message larger than the %d bytes a plugin may send at once: %w",
				MaxMessageBytes, callError("Run", err))
		case err != nil:
			return callError("Run", err)
		}
		rs, err := fromPB(b.GetReadings())
		if err != nil {
			return fmt.Errorf("plugin Run: %w", err)
		}
		deliver(rs)
	}
}

// ErrCannotWrite is returned by Write for a plugin that cannot write.
var ErrCannotWrite = errors.New("the plugin cannot write to its device")

// ErrCannotOperate is returned by Operate for a plugin that cannot run
// operations.
var ErrCannotOperate = errors.New("the plugin cannot run operations on its device")

// Write sets datapoints of asset ("": whichever asset has them) on a south
// plugin's device (Writer), sending the values both with their JSON types
// and as text. A plugin that cannot write fails with ErrCannotWrite; its
// refusals wrap ErrNotWritable, and every error carries the plugin's Code:
// CodeInvalid for its refusals, CodeFailed for its device's failure.
func (c *Client) Write(ctx context.Context, asset string, values map[string]any) error {
	raw, text, err := controlWire(values)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNotWritable, err)
	}
	_, err = c.south.Write(ctx, &pluginpb.WriteRequest{Asset: asset, ValuesJson: raw, Values: text})
	switch status.Code(err) {
	case codes.Unimplemented:
		return ErrCannotWrite
	case codes.InvalidArgument:
		return fmt.Errorf("%w: %w", ErrNotWritable, callError("Write", err))
	}
	return c.exited(callError("Write", err))
}

// Operate runs operation with params on a south plugin's device (Operator);
// errors as for Write, ErrCannotOperate for a plugin that cannot.
func (c *Client) Operate(ctx context.Context, operation string, params map[string]any) error {
	raw, text, err := controlWire(params)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadParameters, err)
	}
	_, err = c.south.Operate(ctx, &pluginpb.OperateRequest{Operation: operation, Parameters: text, ParametersJson: raw})
	if status.Code(err) == codes.Unimplemented {
		return ErrCannotOperate
	}
	return c.exited(callError("Operate", err))
}

// controlWire is values as the contract carries them: a JSON object with
// their JSON types, and each as text (a string as it is, anything else as
// JSON: 21.5, true) for plugins that read only the text.
func controlWire(values map[string]any) ([]byte, map[string]string, error) {
	if values == nil {
		values = map[string]any{} // an object, not null
	}
	raw, err := json.Marshal(values)
	if err != nil {
		return nil, nil, err
	}
	text := make(map[string]string, len(values))
	for k, v := range values {
		if s, ok := v.(string); ok {
			text[k] = s
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, nil, err
		}
		text[k] = string(b)
	}
	return raw, text, nil
}

// Send hands a north plugin a block of readings and returns how many it
// accepted, with an error when not all.
func (c *Client) Send(ctx context.Context, rs []Reading) (int, error) {
	reply, err := c.north.Send(ctx, &pluginpb.SendRequest{Readings: toPB(rs)})
	if err != nil {
		return 0, callError("Send", err)
	}
	n := int(min(max(reply.GetAccepted(), 0), int64(len(rs))))
	if reply.GetError() != "" {
		return n, errors.New(reply.GetError())
	}
	if n < len(rs) {
		return n, fmt.Errorf("the plugin accepted %d of %d readings", n, len(rs))
	}
	return n, nil
}

// Ingest passes readings through a filter plugin.
func (c *Client) Ingest(ctx context.Context, rs []Reading) ([]Reading, error) {
	reply, err := c.filter.Ingest(ctx, &pluginpb.IngestRequest{Readings: toPB(rs)})
	if err != nil {
		return nil, callError("Ingest", err)
	}
	out, err := fromPB(reply.GetReadings())
	if err != nil {
		return nil, fmt.Errorf("plugin Ingest: %w", err)
	}
	return out, nil
}

// gatewayVersions are the protocol versions the gateway speaks: every
// one from 1, whose south, north and filter calls are still those of
// ProtocolVersion.
func gatewayVersions() map[int]hplugin.PluginSet {
	out := map[int]hplugin.PluginSet{}
	for v := 1; v <= ProtocolVersion; v++ {
		out[v] = hplugin.PluginSet{PluginName: &grpcPlugin{}}
	}
	return out
}

// Process is a plugin executable the gateway started.
type Process struct {
	*Client
	Info Info
	// Version is the protocol version the process and the gateway agreed
	// on in the handshake.
	Version int
	hc      *hplugin.Client
	rpc     hplugin.ClientProtocol
	tail    *stderrTail
}

// Launch starts the plugin executable path with this process's
// environment, handshakes and describes it. log receives what the plugin
// writes to stderr, line by line. The caller must Kill the process. The
// gateway starts its plugins with LaunchWith, which gives them only the
// environment it chooses.
func Launch(ctx context.Context, path string, log io.Writer) (*Process, error) {
	return LaunchWith(ctx, path, LaunchOptions{Log: log, Env: os.Environ()})
}

// LaunchWith starts the plugin executable path as o says, handshakes and
// describes it. A failure to start, handshake or describe is an error
// that ends with the last lines the process wrote to stderr (StderrTail).
// The caller must Kill the process.
func LaunchWith(ctx context.Context, path string, o LaunchOptions) (*Process, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	tail := newStderrTail(o.Log)
	cmd := exec.Command(path) //nolint:noctx,gosec // the process outlives this call (Kill ends it); path is an installed plugin or, in tests, the test binary
	// go-plugin appends its handshake variables to cmd.Env and, with
	// SkipHostEnv, nothing of the gateway's own environment.
	cmd.Env = append([]string{}, o.Env...)
	hc := hplugin.NewClient(&hplugin.ClientConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: gatewayVersions(),
		Cmd:              cmd,
		SkipHostEnv:      true,
		AllowedProtocols: []hplugin.Protocol{hplugin.ProtocolGRPC},
		// go-plugin lets a plugin send messages of up to 2 GiB; a
		// plugin may send MaxMessageBytes at once (its SDK refuses
		// more), so a larger message fails its call instead of taking
		// the gateway's memory.
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxMessageBytes))},
		Stderr:          tail.source(true),
		SyncStderr:      tail.source(false),
		Logger:          hclog.New(&hclog.LoggerOptions{Name: "plugin", Output: o.Log, Level: hclog.Info}),
	})
	p := &Process{hc: hc, tail: tail}
	fail := func(format string, err error) (*Process, error) {
		hc.Kill() // waits until the process's stderr is read to its end
		return nil, tail.annotate(fmt.Errorf(format, path, err))
	}
	rpc, err := hc.Client()
	if err != nil {
		return fail("start plugin %s: %w", handshakeError(err))
	}
	p.rpc = rpc
	raw, err := rpc.Dispense(PluginName)
	if err != nil {
		return fail("plugin %s: %w", err)
	}
	p.Client = raw.(*Client)
	if p.Info, err = p.Describe(ctx); err != nil {
		return fail("plugin %s: %w", err)
	}
	p.Version = hc.NegotiatedVersion()
	if isService(p.Info.Kind) && p.Version < ServiceProtocolVersion {
		return fail("plugin %s: %w", fmt.Errorf("a %s service speaks protocol version %d; it needs %d or later: rebuild it with a newer SDK",
			p.Info.Kind, p.Version, ServiceProtocolVersion))
	}
	return p, nil
}

// Ping checks the plugin's health (go-plugin's health service).
func (p *Process) Ping() error { return p.rpc.Ping() }

// Exited tells whether the process has ended.
func (p *Process) Exited() bool { return p.hc.Exited() }

// Pid returns the process id of the plugin process.
func (p *Process) Pid() int {
	if rc := p.hc.ReattachConfig(); rc != nil {
		return rc.Pid
	}
	return 0
}

// Kill stops the process: gracefully, then by force.
func (p *Process) Kill() { p.hc.Kill() }
