package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// The methods of Engine.Call, with their JSON request and answer bodies
// (the notification service's side of the gateway's generic call):
//
//	plugins     (none)                                        → {"rules": [PluginInfo…], "delivery": [PluginInfo…]}
//	validate    Instance                                      → {}, or an InvalidError
//	instances   [Instance…], the full set                     → {}, or an InvalidError
//	readings    [{"asset", "timestamp" (RFC 3339), "readings": {…}}…] → {}
//	audit       {"code", "timestamp"}                         → {}
//	statistics  {"timestamp", "counters": {key: integer…}}    → {}
//
// An Instance is {"name", "description", "rule", "ruleConfig": {item:
// value}, "channels": [{"name", "plugin", "config": {item: value}}],
// "type": "one shot"|"retriggered"|"toggled", "enabled", "retriggerTime":
// seconds}.
const (
	MethodPlugins    = "plugins"
	MethodValidate   = "validate"
	MethodInstances  = "instances"
	MethodReadings   = "readings"
	MethodAudit      = "audit"
	MethodStatistics = "statistics"
)

// The methods CallHost's Host calls on the gateway:
//
//	audit     {"source", "severity", "details"}               → anything
//	ingest    [{"asset", "timestamp", "readings": {…}}…]      → anything
//	dispatch  {"destination": "service"|"asset", "name", "values": {…}} → anything
const (
	HostAudit    = "audit"
	HostIngest   = "ingest"
	HostDispatch = "dispatch"
)

// InvalidError is the error of a call whose request is wrong: a body that
// does not decode, an invalid instance. The gateway answers it as a bad
// request.
type InvalidError struct{ Err error }

func (e *InvalidError) Error() string { return e.Err.Error() }
func (e *InvalidError) Unwrap() error { return e.Err }

// ErrUnknownMethod is the error of a call of a method Call does not have.
var ErrUnknownMethod = errors.New("unknown method")

// Call runs method with a JSON request body and returns its JSON answer;
// see the method table above. Errors are an *InvalidError (the request),
// ErrUnknownMethod wrapped, or another error (the engine's fault). It is
// safe for concurrent use.
func (e *Engine) Call(ctx context.Context, method string, body []byte) ([]byte, error) {
	empty := []byte("{}")
	switch method {
	case MethodPlugins:
		rules, deliveries := Plugins()
		return json.Marshal(struct {
			Rules    []PluginInfo `json:"rules"`
			Delivery []PluginInfo `json:"delivery"`
		}{rules, deliveries})
	case MethodValidate:
		var in Instance
		if err := decode(body, &in); err != nil {
			return nil, err
		}
		if err := ValidateInstance(in); err != nil {
			return nil, &InvalidError{err}
		}
		return empty, nil
	case MethodInstances:
		var set []Instance
		if err := decode(body, &set); err != nil {
			return nil, err
		}
		if err := e.SetInstances(ctx, set); err != nil {
			return nil, &InvalidError{err}
		}
		return empty, nil
	case MethodReadings:
		rs, err := decodeReadings(body)
		if err != nil {
			return nil, &InvalidError{fmt.Errorf("request body: %w", err)}
		}
		e.Readings(ctx, rs)
		return empty, nil
	case MethodAudit:
		var req struct {
			Code      string    `json:"code"`
			Timestamp time.Time `json:"timestamp"`
		}
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		if req.Code == "" {
			return nil, &InvalidError{errors.New("audit: no code")}
		}
		e.Audit(ctx, req.Code, req.Timestamp)
		return empty, nil
	case MethodStatistics:
		var req struct {
			Timestamp time.Time        `json:"timestamp"`
			Counters  map[string]int64 `json:"counters"`
		}
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		if req.Timestamp.IsZero() {
			return nil, &InvalidError{errors.New("statistics: no timestamp")}
		}
		e.Statistics(ctx, req.Timestamp, req.Counters)
		return empty, nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownMethod, method)
}

func decode(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return &InvalidError{fmt.Errorf("request body: %w", err)}
	}
	return nil
}

// instanceJSON is Instance on the wire: the retrigger time in seconds.
type instanceJSON struct {
	Name          string            `json:"name"`
	Description   string            `json:"description"`
	Rule          string            `json:"rule"`
	RuleConfig    map[string]string `json:"ruleConfig"`
	Channels      []Channel         `json:"channels"`
	Type          string            `json:"type"`
	Enabled       bool              `json:"enabled"`
	RetriggerTime float64           `json:"retriggerTime"`
}

// MarshalJSON writes the retrigger time in seconds.
func (in Instance) MarshalJSON() ([]byte, error) {
	return json.Marshal(instanceJSON{in.Name, in.Description, in.Rule, in.RuleConfig, in.Channels, in.Type, in.Enabled,
		in.RetriggerTime.Seconds()})
}

// UnmarshalJSON reads the retrigger time in seconds.
func (in *Instance) UnmarshalJSON(b []byte) error {
	var w instanceJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.RetriggerTime < 0 || w.RetriggerTime > math.MaxInt64/float64(time.Second) || math.IsNaN(w.RetriggerTime) {
		return fmt.Errorf("retriggerTime %g is not a number of seconds", w.RetriggerTime)
	}
	*in = Instance{Name: w.Name, Description: w.Description, Rule: w.Rule, RuleConfig: w.RuleConfig, Channels: w.Channels,
		Type: w.Type, Enabled: w.Enabled, RetriggerTime: time.Duration(w.RetriggerTime * float64(time.Second))}
	return nil
}

// HostCaller calls a method of the gateway with a JSON body and returns
// its JSON answer.
type HostCaller func(ctx context.Context, method string, body []byte) ([]byte, error)

// CallHost returns the Host that calls the gateway through call with the
// methods in the table above; it is as safe for concurrent use as call.
func CallHost(call HostCaller) Host { return callHost{call} }

type callHost struct{ call HostCaller }

func (h callHost) do(ctx context.Context, method string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if _, err := h.call(ctx, method, body); err != nil {
		return fmt.Errorf("the gateway's %s: %w", method, err)
	}
	return nil
}

func (h callHost) Audit(ctx context.Context, source, severity string, details any) error {
	return h.do(ctx, HostAudit, map[string]any{"source": source, "severity": severity, "details": details})
}

func (h callHost) Ingest(ctx context.Context, readings []Reading) error {
	return h.do(ctx, HostIngest, readings)
}

func (h callHost) Dispatch(ctx context.Context, w Write) error { return h.do(ctx, HostDispatch, w) }
