package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"

	"github.com/hashicorp/go-hclog"
	hplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/edged/edged/pluginsdk/go/pluginpb"
)

// Client is the gateway's end of the contract with one plugin process.
// Describe must be called first: it learns the plugin's kind, which the
// calls common to every kind are routed by.
type Client struct {
	conn   *grpc.ClientConn
	plugin pluginpb.PluginClient
	south  pluginpb.SouthClient
	north  pluginpb.NorthClient
	filter pluginpb.FilterClient
	kind   string
}

func newClient(conn *grpc.ClientConn) *Client {
	return &Client{conn: conn, plugin: pluginpb.NewPluginClient(conn), south: pluginpb.NewSouthClient(conn),
		north: pluginpb.NewNorthClient(conn), filter: pluginpb.NewFilterClient(conn)}
}

// callError turns an error of a call into one whose text is the plugin's
// message.
func callError(call string, err error) error {
	if err == nil {
		return nil
	}
	st := status.Convert(err)
	return fmt.Errorf("plugin %s: %s", call, st.Message())
}

// Describe returns the plugin's Info.
func (c *Client) Describe(ctx context.Context) (Info, error) {
	d, err := c.plugin.Describe(ctx, &pluginpb.DescribeRequest{})
	if err != nil {
		return Info{}, callError("Describe", err)
	}
	in := infoFromPB(d)
	switch in.Kind {
	case KindSouth, KindNorth, KindFilter:
	default:
		return Info{}, fmt.Errorf("plugin %q is of unknown kind %q", in.Name, in.Kind)
	}
	if in.Name == "" || in.Version == "" {
		return Info{}, errors.New("the plugin describes itself without a name or version")
	}
	c.kind = in.Kind
	return in, nil
}

// Start starts the plugin with its configuration and state.
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
	default:
		return errors.New("edgeplugin: Start before Describe")
	}
	return callError("Start", err)
}

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
	default:
		return errors.New("edgeplugin: Reconfigure before Describe")
	}
	if err != nil {
		return callError("Reconfigure", err)
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
	default:
		return nil, errors.New("edgeplugin: State before Describe")
	}
	if err != nil {
		return nil, callError("State", err)
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

// Write sets values on a south plugin's device.
func (c *Client) Write(ctx context.Context, values map[string]string) error {
	_, err := c.south.Write(ctx, &pluginpb.WriteRequest{Values: values})
	if status.Code(err) == codes.Unimplemented {
		return ErrCannotWrite
	}
	return callError("Write", err)
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

// Process is a plugin executable the gateway started.
type Process struct {
	*Client
	Info Info
	hc   *hplugin.Client
	rpc  hplugin.ClientProtocol
}

// Launch starts the plugin executable path, handshakes and describes it.
// stderr receives what the plugin writes there, line by line as go-plugin
// logs it. The caller must Kill the process.
func Launch(ctx context.Context, path string, log io.Writer) (*Process, error) {
	hc := hplugin.NewClient(&hplugin.ClientConfig{
		HandshakeConfig:  Handshake,
		Plugins:          hplugin.PluginSet{pluginName: &grpcPlugin{}},
		Cmd:              exec.Command(path), //nolint:noctx // the process outlives this call; Kill ends it
		AllowedProtocols: []hplugin.Protocol{hplugin.ProtocolGRPC},
		Logger:           hclog.New(&hclog.LoggerOptions{Name: "plugin", Output: log, Level: hclog.Info}),
	})
	p := &Process{hc: hc}
	rpc, err := hc.Client()
	if err != nil {
		hc.Kill()
		return nil, fmt.Errorf("start plugin %s: %w", path, err)
	}
	p.rpc = rpc
	raw, err := rpc.Dispense(pluginName)
	if err != nil {
		hc.Kill()
		return nil, fmt.Errorf("plugin %s: %w", path, err)
	}
	p.Client = raw.(*Client)
	if p.Info, err = p.Describe(ctx); err != nil {
		hc.Kill()
		return nil, fmt.Errorf("plugin %s: %w", path, err)
	}
	return p, nil
}

// Ping checks the plugin's health (go-plugin's health service).
func (p *Process) Ping() error { return p.rpc.Ping() }

// Exited tells whether the process has ended.
func (p *Process) Exited() bool { return p.hc.Exited() }

// Kill stops the process: gracefully, then by force.
func (p *Process) Kill() { p.hc.Kill() }
