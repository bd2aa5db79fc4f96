package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/edged/edged/internal/fault"
)

// This file is the dispatcher service's side of its JSON calls with the
// gateway: the methods the gateway calls (Dispatcher.Call) and a Host that
// calls the gateway's methods (NewJSONHost). The method table is in the
// doc comment of cmd/edged-dispatcher.

// Methods of the dispatcher service (Dispatcher.Call).
const (
	MethodWrite     = "write"
	MethodOperation = "operation"
)

// Methods of the gateway the dispatcher calls (NewJSONHost).
const (
	HostServices = "services"
	HostWrite    = "write"
	HostOperate  = "operate"
	HostAudit    = "audit"
)

// Answer is the JSON answer of MethodWrite and MethodOperation.
type Answer struct {
	Results []Result `json:"results"`
}

// Call runs method with a JSON Request body and returns the JSON Answer.
// Errors are those of Write and Operate, plus fault.Invalid for a body
// that is not a Request (unknown fields included) and
// fault.NotImplemented for an unknown method.
func (d *Dispatcher) Call(ctx context.Context, method string, body []byte) ([]byte, error) {
	var do func(context.Context, Request) ([]Result, error)
	switch method {
	case MethodWrite:
		do = d.Write
	case MethodOperation:
		do = d.Operate
	default:
		return nil, fault.New(fault.NotImplemented, "the dispatcher has no method %q", method)
	}
	var r Request
	if err := decode(body, &r); err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "the %s request is not a control request: %s", method, err)
	}
	results, err := do(ctx, r)
	if err != nil {
		return nil, err
	}
	if results == nil {
		results = []Result{}
	}
	return json.Marshal(Answer{Results: results})
}

// decode reads one JSON object into v, refusing unknown fields and
// keeping numbers as written (json.Number), so an integer setpoint beyond
// 2^53 reaches the device unrounded.
func decode(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("the body is empty")
		}
		return err
	}
	if dec.More() {
		return errors.New("the body holds more than one JSON value")
	}
	return nil
}

// Caller calls a method of the gateway with a JSON body and returns its
// JSON answer; edgeplugin.Host is one.
type Caller interface {
	Call(ctx context.Context, method string, body []byte) ([]byte, error)
}

// KindOf returns the fault kind an error of Caller stands for, or nil
// when it stands for none (the error is then passed on as it is).
type KindOf func(error) *fault.Kind

// NewJSONHost returns the Host that calls the gateway through c: each
// Host method is one call (HostServices, HostWrite, HostOperate,
// HostAudit) with the JSON bodies documented in cmd/edged-dispatcher. An
// error of c becomes a *fault.Fault of the kind kindOf gives, with the
// gateway's message. Safe for concurrent use if c is.
func NewJSONHost(c Caller, kindOf KindOf) Host {
	return &jsonHost{c: c, kindOf: kindOf}
}

type jsonHost struct {
	c      Caller
	kindOf KindOf
}

// HostWriteRequest is the body of HostWrite.
type HostWriteRequest struct {
	Service string         `json:"service"`
	Asset   string         `json:"asset,omitempty"`
	Values  map[string]any `json:"values"`
}

// HostOperateRequest is the body of HostOperate.
type HostOperateRequest struct {
	Service    string         `json:"service"`
	Operation  string         `json:"operation"`
	Parameters map[string]any `json:"parameters,omitempty"`
}

// HostAuditRequest is the body of HostAudit.
type HostAuditRequest struct {
	Source   string `json:"source"`
	Severity string `json:"severity"`
	Details  any    `json:"details"`
}

func (h *jsonHost) call(ctx context.Context, method string, req any) ([]byte, error) {
	var body []byte
	if req != nil {
		var err error
		if body, err = json.Marshal(req); err != nil {
			return nil, fmt.Errorf("gateway method %s: %w", method, err)
		}
	}
	out, err := h.c.Call(ctx, method, body)
	if err != nil {
		if k := h.kindOf(err); k != nil {
			return nil, &fault.Fault{Kind: k, Message: err.Error()}
		}
		return nil, err
	}
	return out, nil
}

func (h *jsonHost) Services(ctx context.Context) ([]Target, error) {
	out, err := h.call(ctx, HostServices, nil)
	if err != nil {
		return nil, err
	}
	var ts []Target
	if err := json.Unmarshal(out, &ts); err != nil {
		return nil, fmt.Errorf("gateway method %s answered no list of services: %w", HostServices, err)
	}
	return ts, nil
}

func (h *jsonHost) Write(ctx context.Context, service, asset string, values map[string]any) error {
	_, err := h.call(ctx, HostWrite, HostWriteRequest{Service: service, Asset: asset, Values: values})
	return err
}

func (h *jsonHost) Operate(ctx context.Context, service, operation string, params map[string]any) error {
	_, err := h.call(ctx, HostOperate, HostOperateRequest{Service: service, Operation: operation, Parameters: params})
	return err
}

func (h *jsonHost) Audit(ctx context.Context, source, severity string, details any) error {
	_, err := h.call(ctx, HostAudit, HostAuditRequest{Source: source, Severity: severity, Details: details})
	return err
}

// Configuration items of the dispatcher service.
const (
	ItemTimeout     = "requestTimeout"
	ItemQueueLength = "queueLength"
)

// Limits reads the dispatcher's items from cfg (item name to value; a
// missing item takes its default) and returns the timeout and queue
// length, or an error naming a bad item.
func Limits(cfg map[string]string) (time.Duration, int, error) {
	timeout, queue := DefaultTimeout, DefaultQueueLength
	if v, ok := cfg[ItemTimeout]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 3600 {
			return 0, 0, fmt.Errorf("item %q = %q is not a number of seconds from 1 to 3600", ItemTimeout, v)
		}
		timeout = time.Duration(n) * time.Second
	}
	if v, ok := cfg[ItemQueueLength]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return 0, 0, fmt.Errorf("item %q = %q is not an integer from 1 to 10000", ItemQueueLength, v)
		}
		queue = n
	}
	return timeout, queue, nil
}
