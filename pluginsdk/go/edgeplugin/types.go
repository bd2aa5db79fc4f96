// Package edgeplugin is the Go SDK for plugins of the edged gateway, and
// the one definition of the plugin interfaces (South, North, Filter and
// the interfaces they may add) which the gateway's built-in plugins
// implement too. A plugin in its own process is a main package that calls
// Serve with its Info and an implementation of South, North or Filter
// (which also implements Starter), or a constructor of a Notification or
// Dispatcher service; the gateway starts the executable, handshakes over
// HashiCorp go-plugin (gRPC, application protocol ProtocolVersion) and
// calls it through the contract in proto/edged/plugin/v1. A service also
// calls the gateway back through the Host it is started with.
//
// The package also holds the gateway's side of the contract (Client,
// Launch), which the gateway and the test harness in package plugintest
// use, so both ends speak through the same code. Package plugintest is
// the test harness; this package does not import package testing.
package edgeplugin

import (
	"encoding/json"
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
	// KindNotification and KindDispatcher are services (Notification,
	// Dispatcher): the gateway calls their typed methods and they call it
	// back (Host).
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

// String returns the value of item name ("" when absent).
func (c Config) String(name string) string { return c[name] }

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
	// and Operator. Serve sets them from the
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

// ErrBatchTooLarge is the refusal of a batch whose message to the gateway
// would be larger than MaxMessageBytes; it is ErrTooLarge.
var ErrBatchTooLarge = ErrTooLarge

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
