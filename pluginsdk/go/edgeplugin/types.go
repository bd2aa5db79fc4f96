// Package edgeplugin is the Go SDK for plugins of the edged gateway that
// run in their own process. A plugin is a main package that calls Serve
// with its Info and an implementation of South, North or Filter, or a
// constructor of a Service (a notification or dispatcher service); the
// gateway starts the executable, handshakes over HashiCorp go-plugin (gRPC)
// and calls it through the contract in proto/edged/plugin/v1. A Service
// also calls the gateway back through the Host it is started with.
//
// The package also holds the gateway's side of the contract (Client,
// Launch), which the gateway and the test harness in package plugintest
// use, so both ends speak through the same code.
package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/edged/edged/pluginsdk/go/pluginpb"
)

// Kinds of plugin.
const (
	KindSouth  = "south"
	KindNorth  = "north"
	KindFilter = "filter"
	// KindNotification and KindDispatcher are services (Service): the
	// gateway calls them with JSON requests and they call it back (Host).
	KindNotification = "notification"
	KindDispatcher   = "dispatcher"
)

// isService tells whether kind is one of the kinds a Service implements.
func isService(kind string) bool { return kind == KindNotification || kind == KindDispatcher }

// Reading is one reading: an asset code, the sensor's time and the values
// by reading key.
type Reading struct {
	Asset     string
	Timestamp time.Time
	// Values is a JSON object of reading key to value.
	Values json.RawMessage
}

// NewReading returns a reading of values, which must marshal to a JSON
// object.
func NewReading(asset string, ts time.Time, values map[string]any) (Reading, error) {
	b, err := json.Marshal(values)
	if err != nil {
		return Reading{}, fmt.Errorf("reading of %q: %w", asset, err)
	}
	return Reading{Asset: asset, Timestamp: ts.UTC(), Values: b}, nil
}

// Config is every configuration item's value by name.
type Config map[string]string

// Int returns item name as an integer.
func (c Config) Int(name string) (int, error) {
	v, err := strconv.Atoi(c[name])
	if err != nil {
		return 0, fmt.Errorf("item %q = %q is not an integer", name, c[name])
	}
	return v, nil
}

// Float returns item name as a floating-point number.
func (c Config) Float(name string) (float64, error) {
	v, err := strconv.ParseFloat(c[name], 64)
	if err != nil {
		return 0, fmt.Errorf("item %q = %q is not a number", name, c[name])
	}
	return v, nil
}

// Item is a configuration item (see the gateway's configuration
// categories); values are strings whatever the type.
type Item struct {
	Description string
	Type        string // string, integer, float, boolean, enumeration, password, JSON …
	Default     string
	DisplayName string
	Order       string
	Options     []string
	Minimum     string
	Maximum     string
	Length      string
	Readonly    string
	Mandatory   string
	Validity    string
}

// Info describes a plugin.
type Info struct {
	Name        string
	Version     string
	Kind        string // KindSouth, KindNorth, KindFilter, KindNotification or KindDispatcher
	Description string
	Items       map[string]Item
	// Persists is true when the plugin implements Persister, or for a
	// Service when the gateway is to keep what its State returns.
	Persists bool
	// Writes and Operates tell whether a south plugin implements Writer
	// (or AssetWriter) and Operator. Serve sets them from the
	// implementation: an author leaves them unset.
	Writes, Operates bool
}

// Start is what a plugin gets when its service starts.
type Start struct {
	Service string // the service's name
	Config  Config
	// State is what Persister.State returned at the end of the previous
	// run, nil when there is none.
	State json.RawMessage
}

// ErrRestart is returned by Reconfigure when the change needs a new
// instance of the plugin: the gateway then stops this process and starts
// another with the new configuration.
var ErrRestart = errors.New("the change needs a restart of the plugin")

// ErrBatchTooLarge is emit's refusal of a batch whose message would be
// larger than MaxMessageBytes.
var ErrBatchTooLarge = errors.New("the batch is too large")

// South is a data source.
type South interface {
	// Start takes the configuration and acquires resources.
	Start(ctx context.Context, s Start) error
	// Run delivers readings through emit until ctx ends, then returns nil.
	// An error marks the service failed; the gateway restarts the plugin.
	// emit refuses a batch larger than MaxMessageBytes (ErrBatchTooLarge).
	Run(ctx context.Context, emit func([]Reading) error) error
	// Reconfigure applies a changed configuration (ErrRestart: start anew).
	Reconfigure(cfg Config) error
}

// Writer is implemented by south plugins that can set values on their
// device (setpoints). values are keyed by datapoint name, as the plugin's
// readings name them, each a string: a string value as it is, a number or
// boolean as JSON ("21.5", "true"). Return an error wrapping
// ErrNotWritable for a datapoint the plugin does not know or cannot write,
// or a value it cannot convert; any other error is the device's failure.
type Writer interface {
	Write(ctx context.Context, values map[string]string) error
}

// AssetWriter is Writer for a plugin whose datapoints belong to several
// assets: asset names the asset written ("": whichever has the
// datapoints). A plugin implementing it is called through it, not Write.
type AssetWriter interface {
	WriteAsset(ctx context.Context, asset string, values map[string]string) error
}

// Operator is implemented by south plugins that can run named operations
// on their device (a method call, a reset), with params by name as
// strings as for Writer. Return an error wrapping ErrNoOperation for an
// operation the plugin does not offer, ErrBadParameters for parameters it
// does not take; any other error is the device's failure.
type Operator interface {
	Operate(ctx context.Context, operation string, params map[string]string) error
}

// The refusals of Writer and Operator: the gateway answers them as a bad
// request (400), other errors as the device's failure (502).
var (
	ErrNotWritable   = errors.New("datapoint not writable")
	ErrNoOperation   = errors.New("operation not supported")
	ErrBadParameters = errors.New("operation parameters not accepted")
)

// North is a destination.
type North interface {
	Start(ctx context.Context, s Start) error
	// Send delivers readings in order and returns how many of them,
	// counted from the first, the destination accepted for good, with an
	// error when not all were.
	Send(ctx context.Context, readings []Reading) (int, error)
	Reconfigure(cfg Config) error
}

// Filter is a processing step.
type Filter interface {
	Start(ctx context.Context, s Start) error
	// Ingest returns the readings that go on in place of readings.
	Ingest(ctx context.Context, readings []Reading) ([]Reading, error)
	Reconfigure(cfg Config) error
}

// Host is the gateway as a service process sees it. Call runs method of
// the gateway with a JSON request body (nil for none) and returns its JSON
// answer; an error has a Code (CodeOf) and the gateway's message. A call
// whose ctx ends fails with CodeUnavailable. Host is safe for concurrent
// use, from Service.Start on, for as long as the process runs.
type Host interface {
	Call(ctx context.Context, method string, body []byte) ([]byte, error)
}

// Service is a notification or dispatcher service inside its process.
// The gateway calls Start once, first; Call, Reconfigure and State may
// then come concurrently, so an implementation guards its own state.
type Service interface {
	// Start takes the configuration, the state persisted by the previous
	// run (nil when none) and the Host to call the gateway through, which
	// the service may keep and use from any goroutine. An error fails the
	// service's start.
	Start(ctx context.Context, s Start, host Host) error
	// Call runs method with a JSON request body (nil for none) and
	// returns a JSON answer (nil for none). An error made by Errorf
	// reaches the gateway with its code and message; any other error is
	// CodeInternal. A method the service does not have is CodeUnsupported.
	Call(ctx context.Context, method string, body []byte) ([]byte, error)
	// Reconfigure applies a changed configuration; ErrRestart asks for a
	// new process with it, another error keeps the old configuration.
	Reconfigure(ctx context.Context, cfg Config) error
	// State returns the state to persist, a JSON document (nil for none);
	// the gateway asks when the service stops if Info.Persists.
	State(ctx context.Context) (json.RawMessage, error)
}

// Persister is implemented by plugins that keep state between runs.
type Persister interface {
	// State returns the state to persist, a JSON document.
	State() (json.RawMessage, error)
}

func toPB(rs []Reading) []*pluginpb.Reading {
	out := make([]*pluginpb.Reading, len(rs))
	for i, r := range rs {
		out[i] = &pluginpb.Reading{Asset: r.Asset, TimestampUnixNano: r.Timestamp.UnixNano(), ValuesJson: r.Values}
	}
	return out
}

// fromPB converts readings of the wire, checking each carries an asset and
// a JSON object of values.
func fromPB(rs []*pluginpb.Reading) ([]Reading, error) {
	out := make([]Reading, len(rs))
	for i, r := range rs {
		if r.GetAsset() == "" {
			return nil, fmt.Errorf("reading %d has no asset code", i)
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(r.GetValuesJson(), &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("reading %d of %q: values are not a JSON object", i, r.GetAsset())
		}
		out[i] = Reading{Asset: r.GetAsset(), Timestamp: time.Unix(0, r.GetTimestampUnixNano()).UTC(), Values: r.GetValuesJson()}
	}
	return out, nil
}

func infoToPB(in Info) *pluginpb.Description {
	d := &pluginpb.Description{Name: in.Name, Version: in.Version, Kind: in.Kind, Description: in.Description,
		Persists: in.Persists, Writes: in.Writes, Operates: in.Operates, Items: map[string]*pluginpb.Item{}}
	for n, it := range in.Items {
		d.Items[n] = &pluginpb.Item{Description: it.Description, Type: it.Type, Default: it.Default,
			DisplayName: it.DisplayName, Order: it.Order, Options: it.Options, Minimum: it.Minimum,
			Maximum: it.Maximum, Length: it.Length, Readonly: it.Readonly, Mandatory: it.Mandatory, Validity: it.Validity}
	}
	return d
}

func infoFromPB(d *pluginpb.Description) Info {
	in := Info{Name: d.GetName(), Version: d.GetVersion(), Kind: d.GetKind(), Description: d.GetDescription(),
		Persists: d.GetPersists(), Writes: d.GetWrites(), Operates: d.GetOperates(), Items: map[string]Item{}}
	for n, it := range d.GetItems() {
		in.Items[n] = Item{Description: it.GetDescription(), Type: it.GetType(), Default: it.GetDefault(),
			DisplayName: it.GetDisplayName(), Order: it.GetOrder(), Options: it.GetOptions(), Minimum: it.GetMinimum(),
			Maximum: it.GetMaximum(), Length: it.GetLength(), Readonly: it.GetReadonly(), Mandatory: it.GetMandatory(),
			Validity: it.GetValidity()}
	}
	return in
}
