package edgeplugin

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/edged/edged/pluginsdk/go/pluginpb"
)

// This file is the typed contract of the service kinds (proto services
// Notification, Dispatcher and Host): their Go types, the interfaces a
// service implements and the conversions to and from the wire.

// NotificationInstance is a notification instance: a rule, a notification
// type and its delivery channels.
type NotificationInstance struct {
	Name        string
	Description string
	Rule        string            // a rule plugin's name
	RuleConfig  map[string]string // the rule's items' values
	// Channels are where notifications go: the instance's own first.
	Channels []NotificationChannel
	// Type is "one shot", "retriggered" or "toggled".
	Type    string
	Enabled bool
	// RetriggerTime is the least time between two sends of a retriggered
	// notification.
	RetriggerTime time.Duration
}

// NotificationChannel is a delivery channel of an instance.
type NotificationChannel struct {
	Name   string
	Plugin string            // a delivery plugin's name
	Config map[string]string // its items' values
}

// NotificationPlugin is a rule or delivery plugin of the notification
// service.
type NotificationPlugin struct {
	Name        string
	Version     string
	Description string
	Items       map[string]Item
}

// NotificationPlugins are the notification service's plugins.
type NotificationPlugins struct {
	Rules      []NotificationPlugin
	Deliveries []NotificationPlugin
}

// ControlRequest is a control request: a write of values or an operation.
type ControlRequest struct {
	// Destination is "service", "asset" or "broadcast".
	Destination string `json:"destination"`
	// Name is the service or asset; a broadcast write may name an asset,
	// a broadcast operation names nothing.
	Name string `json:"name,omitempty"`
	// Values (a write) are datapoint name to a number (json.Number, or
	// any Go number), a string or a boolean.
	Values map[string]any `json:"values,omitempty"`
	// Operation and Parameters (an operation), parameters as Values.
	Operation  string         `json:"operation,omitempty"`
	Parameters map[string]any `json:"parameters,omitempty"`
	// Caller is who asked, for the audit trail.
	Caller string `json:"caller,omitempty"`
}

// ControlResult is what one service did with a control request.
type ControlResult struct {
	Service string `json:"service"`
	Asset   string `json:"asset,omitempty"`
	// Error is the failure's message; empty when the service did it.
	Error string `json:"error,omitempty"`
}

// ControlTarget is a south service as the dispatcher sees it.
type ControlTarget struct {
	Name   string `json:"name"`
	Plugin string `json:"plugin"`
	// Running is false for a service configured but not running now.
	Running bool `json:"running"`
	// Writes and Operates tell whether its plugin supports control
	// writes and operations.
	Writes   bool `json:"writes"`
	Operates bool `json:"operates"`
	// Assets are the assets it ingests.
	Assets []string `json:"assets"`
}

// AuditEntry is an audit entry a service writes through its Host.
type AuditEntry struct {
	Source   string
	Severity string // SUCCESS, FAILURE, WARNING or INFORMATION
	// Details is a JSON object.
	Details json.RawMessage
}

// NotificationCalls are the gateway's calls of a running notification
// service. An error made by Errorf reaches the other end with its code
// and message; any other error is CodeInternal.
type NotificationCalls interface {
	// Plugins lists the rule and delivery plugins.
	Plugins(ctx context.Context) (NotificationPlugins, error)
	// Validate checks an instance without applying it (CodeInvalid says
	// what is wrong).
	Validate(ctx context.Context, in NotificationInstance) error
	// SetInstances replaces the whole set; an invalid instance fails the
	// call (CodeInvalid) and changes nothing.
	SetInstances(ctx context.Context, set []NotificationInstance) error
	// Readings hands over committed readings of the watched assets.
	Readings(ctx context.Context, readings []Reading) error
	// Audited tells that an audit entry of code was written at at.
	Audited(ctx context.Context, code string, at time.Time) error
	// Statistics hands over the statistics' totals at at.
	Statistics(ctx context.Context, at time.Time, counters map[string]int64) error
}

// DispatcherCalls are the gateway's calls of a running dispatcher service.
type DispatcherCalls interface {
	// Write sets values on the devices the request names.
	Write(ctx context.Context, req ControlRequest) ([]ControlResult, error)
	// Operate runs an operation on the devices the request names.
	Operate(ctx context.Context, req ControlRequest) ([]ControlResult, error)
}

// serviceLife are the calls every service kind has besides its own.
type serviceLife interface {
	// Start takes the configuration, the state persisted by the previous
	// run (nil when none) and the Host to call the gateway through, which
	// the service may keep and use from any goroutine. An error fails the
	// service's start.
	Start(ctx context.Context, s Start, host Host) error
	// Reconfigure applies a changed configuration; ErrRestart asks for a
	// new process with it, another error keeps the old configuration.
	Reconfigure(ctx context.Context, cfg Config) error
	// State returns the state to persist, a JSON document (nil for none);
	// the gateway asks when the service stops if Info.Persists.
	State(ctx context.Context) (json.RawMessage, error)
}

// Notification is a notification service inside its process. The gateway
// calls Start once, first; the other calls may then come concurrently.
type Notification interface {
	serviceLife
	NotificationCalls
}

// Dispatcher is a dispatcher service inside its process, called as a
// Notification is.
type Dispatcher interface {
	serviceLife
	DispatcherCalls
}

// Host is the gateway as a service process sees it. Each service kind may
// call its own methods (notification: Audit, Ingest, Dispatch; dispatcher:
// Audit, Services, Write, Operate); another answers CodeInvalid. An error
// has a Code (CodeOf) and the gateway's message; a call whose ctx ends
// fails with CodeUnavailable. Host is safe for concurrent use, from Start
// on, for as long as the process runs.
type Host interface {
	// Audit writes an audit entry of a source the service's kind owns.
	Audit(ctx context.Context, e AuditEntry) error
	// Ingest stores readings and returns once they are committed.
	Ingest(ctx context.Context, readings []Reading) error
	// Dispatch hands a control write to the dispatcher service.
	Dispatch(ctx context.Context, req ControlRequest) ([]ControlResult, error)
	// Services lists the south services.
	Services(ctx context.Context) ([]ControlTarget, error)
	// Write sets values on service's device (asset may be empty) and
	// returns once the device acknowledged.
	Write(ctx context.Context, service, asset string, values map[string]any) error
	// Operate runs operation on service's device and returns once the
	// device reported it done.
	Operate(ctx context.Context, service, operation string, params map[string]any) error
}

// UnsupportedHost answers every Host call with CodeUnsupported; a test's
// fake gateway embeds it and implements the calls its service makes.
type UnsupportedHost struct{}

func unsupported(call string) error {
	return Errorf(CodeUnsupported, "the host does not serve %s", call)
}

// Audit implements Host.
func (UnsupportedHost) Audit(context.Context, AuditEntry) error { return unsupported("Audit") }

// Ingest implements Host.
func (UnsupportedHost) Ingest(context.Context, []Reading) error { return unsupported("Ingest") }

// Dispatch implements Host.
func (UnsupportedHost) Dispatch(context.Context, ControlRequest) ([]ControlResult, error) {
	return nil, unsupported("Dispatch")
}

// Services implements Host.
func (UnsupportedHost) Services(context.Context) ([]ControlTarget, error) {
	return nil, unsupported("Services")
}

// Write implements Host.
func (UnsupportedHost) Write(context.Context, string, string, map[string]any) error {
	return unsupported("Write")
}

// Operate implements Host.
func (UnsupportedHost) Operate(context.Context, string, string, map[string]any) error {
	return unsupported("Operate")
}

// valuesToPB converts control values: numbers (json.Number or a Go
// number), strings and booleans.
func valuesToPB(what string, in map[string]any) (map[string]*pluginpb.Value, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]*pluginpb.Value, len(in))
	for k, v := range in {
		var pv pluginpb.Value
		switch x := v.(type) {
		case json.Number:
			if !isNumber(string(x)) {
				return nil, Errorf(CodeInvalid, "%s %q: %q is not a number", what, k, string(x))
			}
			pv.Kind = &pluginpb.Value_Number{Number: string(x)}
		case string:
			pv.Kind = &pluginpb.Value_Text{Text: x}
		case bool:
			pv.Kind = &pluginpb.Value_Boolean{Boolean: x}
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, Errorf(CodeInvalid, "%s %q: %v is not a number", what, k, x)
			}
			pv.Kind = &pluginpb.Value_Number{Number: strconv.FormatFloat(x, 'g', -1, 64)}
		case float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
			pv.Kind = &pluginpb.Value_Number{Number: fmt.Sprint(x)}
		default:
			return nil, Errorf(CodeInvalid, "%s %q: %T is not a number, string or boolean", what, k, v)
		}
		out[k] = &pv
	}
	return out, nil
}

// valuesFromPB converts control values of the wire: numbers become
// json.Number, keeping every digit.
func valuesFromPB(what string, in map[string]*pluginpb.Value) (map[string]any, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]any, len(in))
	for k, v := range in {
		switch x := v.GetKind().(type) {
		case *pluginpb.Value_Number:
			if !isNumber(x.Number) {
				return nil, Errorf(CodeInvalid, "%s %q: %q is not a number", what, k, x.Number)
			}
			out[k] = json.Number(x.Number)
		case *pluginpb.Value_Text:
			out[k] = x.Text
		case *pluginpb.Value_Boolean:
			out[k] = x.Boolean
		default:
			return nil, Errorf(CodeInvalid, "%s %q has no value", what, k)
		}
	}
	return out, nil
}

// isNumber tells whether s is a number in JSON's syntax.
func isNumber(s string) bool {
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return false
	}
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil
}

func controlToPB(r ControlRequest) (*pluginpb.ControlRequest, error) {
	values, err := valuesToPB("value", r.Values)
	if err != nil {
		return nil, err
	}
	params, err := valuesToPB("parameter", r.Parameters)
	if err != nil {
		return nil, err
	}
	return &pluginpb.ControlRequest{Destination: r.Destination, Name: r.Name, Values: values, Operation: r.Operation,
		Parameters: params, Caller: r.Caller}, nil
}

func controlFromPB(r *pluginpb.ControlRequest) (ControlRequest, error) {
	values, err := valuesFromPB("value", r.GetValues())
	if err != nil {
		return ControlRequest{}, err
	}
	params, err := valuesFromPB("parameter", r.GetParameters())
	if err != nil {
		return ControlRequest{}, err
	}
	return ControlRequest{Destination: r.GetDestination(), Name: r.GetName(), Values: values, Operation: r.GetOperation(),
		Parameters: params, Caller: r.GetCaller()}, nil
}

func resultsToPB(rs []ControlResult) *pluginpb.ControlReply {
	out := &pluginpb.ControlReply{Results: make([]*pluginpb.ControlResult, len(rs))}
	for i, r := range rs {
		out.Results[i] = &pluginpb.ControlResult{Service: r.Service, Asset: r.Asset, Error: r.Error}
	}
	return out
}

func resultsFromPB(reply *pluginpb.ControlReply) []ControlResult {
	out := make([]ControlResult, len(reply.GetResults()))
	for i, r := range reply.GetResults() {
		out[i] = ControlResult{Service: r.GetService(), Asset: r.GetAsset(), Error: r.GetError()}
	}
	return out
}

func targetsToPB(ts []ControlTarget) *pluginpb.ServicesReply {
	out := &pluginpb.ServicesReply{Services: make([]*pluginpb.ControlTarget, len(ts))}
	for i, t := range ts {
		out.Services[i] = &pluginpb.ControlTarget{Name: t.Name, Plugin: t.Plugin, Running: t.Running, Writes: t.Writes,
			Operates: t.Operates, Assets: t.Assets}
	}
	return out
}

func targetsFromPB(reply *pluginpb.ServicesReply) []ControlTarget {
	out := make([]ControlTarget, len(reply.GetServices()))
	for i, t := range reply.GetServices() {
		out[i] = ControlTarget{Name: t.GetName(), Plugin: t.GetPlugin(), Running: t.GetRunning(), Writes: t.GetWrites(),
			Operates: t.GetOperates(), Assets: append([]string{}, t.GetAssets()...)}
	}
	return out
}

// maxRetriggerSeconds is the longest retrigger time a time.Duration holds.
const maxRetriggerSeconds = math.MaxInt64 / float64(time.Second)

func instanceToPB(in NotificationInstance) *pluginpb.NotificationInstance {
	out := &pluginpb.NotificationInstance{Name: in.Name, Description: in.Description, Rule: in.Rule, RuleConfig: in.RuleConfig,
		Type: in.Type, Enabled: in.Enabled, RetriggerSeconds: in.RetriggerTime.Seconds()}
	for _, ch := range in.Channels {
		out.Channels = append(out.Channels, &pluginpb.NotificationChannel{Name: ch.Name, Plugin: ch.Plugin, Config: ch.Config})
	}
	return out
}

func instanceFromPB(in *pluginpb.NotificationInstance) (NotificationInstance, error) {
	s := in.GetRetriggerSeconds()
	if s < 0 || s > maxRetriggerSeconds || math.IsNaN(s) {
		return NotificationInstance{}, Errorf(CodeInvalid, "instance %q: retrigger time %g is not a number of seconds", in.GetName(), s)
	}
	out := NotificationInstance{Name: in.GetName(), Description: in.GetDescription(), Rule: in.GetRule(),
		RuleConfig: in.GetRuleConfig(), Type: in.GetType(), Enabled: in.GetEnabled(),
		RetriggerTime: time.Duration(s * float64(time.Second))}
	for _, ch := range in.GetChannels() {
		out.Channels = append(out.Channels, NotificationChannel{Name: ch.GetName(), Plugin: ch.GetPlugin(), Config: ch.GetConfig()})
	}
	return out, nil
}

func notificationPluginsToPB(ps []NotificationPlugin) []*pluginpb.NotificationPlugin {
	out := make([]*pluginpb.NotificationPlugin, len(ps))
	for i, p := range ps {
		d := infoToPB(Info{Items: p.Items})
		out[i] = &pluginpb.NotificationPlugin{Name: p.Name, Version: p.Version, Description: p.Description, Items: d.GetItems()}
	}
	return out
}

func notificationPluginsFromPB(ps []*pluginpb.NotificationPlugin) []NotificationPlugin {
	out := make([]NotificationPlugin, len(ps))
	for i, p := range ps {
		in := infoFromPB(&pluginpb.Description{Items: p.GetItems()})
		out[i] = NotificationPlugin{Name: p.GetName(), Version: p.GetVersion(), Description: p.GetDescription(), Items: in.Items}
	}
	return out
}

// unixNano is t in nanoseconds since the epoch; zero for the zero time.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromUnixNano is the inverse of unixNano.
func fromUnixNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}
