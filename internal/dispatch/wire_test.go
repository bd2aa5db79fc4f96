package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/fault"
)

func TestCall(t *testing.T) {
	tests := []struct {
		name   string
		method string
		body   string
		want   string // the answer, or with kind a part of the error's message
		kind   *fault.Kind
		ran    string // what reached the device
	}{
		{name: "write", method: "write", body: `{"destination":"asset","name":"pump","values":{"setpoint":21.5},"caller":"pat"}`,
			want: `{"results":[{"service":"modbus1","asset":"pump"}]}`, ran: "modbus1 pump map[setpoint:21.5]"},
		{name: "big integers stay exact", method: "write", body: `{"destination":"service","name":"modbus1","values":{"count":9007199254740993}}`,
			want: `{"results":[{"service":"modbus1"}]}`, ran: "modbus1  map[count:9007199254740993]"},
		{name: "operation", method: "operation", body: `{"destination":"service","name":"opcua1","operation":"Reset","parameters":{"counter":3}}`,
			want: `{"results":[{"service":"opcua1"}]}`, ran: "opcua1 Reset map[counter:3]"},
		{name: "unknown method", method: "purge", body: `{}`, kind: fault.NotImplemented, want: `the dispatcher has no method "purge"`},
		{name: "not JSON", method: "write", body: `{"destination":`, kind: fault.Invalid, want: "the write request is not a control request"},
		{name: "empty body", method: "write", body: ``, kind: fault.Invalid, want: "the body is empty"},
		{name: "two documents", method: "write", body: `{} {}`, kind: fault.Invalid, want: "more than one JSON value"},
		{name: "unknown field", method: "operation", body: `{"destination":"broadcast","operation":"Stop","force":true}`,
			kind: fault.Invalid, want: `unknown field "force"`},
		{name: "values not an object", method: "write", body: `{"destination":"broadcast","values":[1]}`,
			kind: fault.Invalid, want: "not a control request"},
		{name: "the engine refuses", method: "write", body: `{"destination":"service","name":"sine","values":{"x":1}}`,
			kind: fault.Invalid, want: `does not support control writes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &fakeHost{targets: plant}
			d := New(Options{Host: h})
			got, err := d.Call(t.Context(), tt.method, []byte(tt.body))
			if tt.kind != nil {
				if f, ok := fault.As(err); !ok || f.Kind != tt.kind || !strings.Contains(f.Message, tt.want) {
					t.Errorf("Call = %s, %v; want a %v fault saying %q", got, err, tt.kind, tt.want)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("Call = %s, %v; want %s", got, err, tt.want)
			}
			if ran := h.ran(); len(ran) != 1 || ran[0] != tt.ran {
				t.Errorf("reached the device: %q, want %q", ran, tt.ran)
			}
		})
	}
}

// recorder is a Caller that records the calls and answers from a table.
type recorder struct {
	calls   []string
	answers map[string]string
	errs    map[string]error
}

func (r *recorder) Call(_ context.Context, method string, body []byte) ([]byte, error) {
	r.calls = append(r.calls, method+" "+string(body))
	if err := r.errs[method]; err != nil {
		return nil, err
	}
	return []byte(r.answers[method]), nil
}

// codeError stands for an error of the transport with a code.
type codeError struct{ code, msg string }

func (e *codeError) Error() string { return e.msg }

func kindOf(err error) *fault.Kind {
	var ce *codeError
	if !errors.As(err, &ce) {
		return nil
	}
	return map[string]*fault.Kind{"invalid": fault.Invalid, "failed": fault.BadGateway}[ce.code]
}

func TestJSONHost(t *testing.T) {
	rec := &recorder{answers: map[string]string{
		HostServices: `[{"name":"opcua1","plugin":"opcua","running":true,"writes":true,"operates":true,"assets":["Plant"]}]`,
		HostWrite:    `{}`, HostAudit: `{}`,
	}, errs: map[string]error{HostOperate: &codeError{"failed", `service "opcua1": BadInvalidState`}}}
	h := NewJSONHost(rec, kindOf)
	ctx := t.Context()

	ts, err := h.Services(ctx)
	if err != nil || len(ts) != 1 || fmt.Sprintf("%+v", ts[0]) != "{Name:opcua1 Plugin:opcua Running:true Writes:true Operates:true Assets:[Plant]}" {
		t.Errorf("Services = %+v, %v", ts, err)
	}
	if err := h.Write(ctx, "opcua1", "Plant", map[string]any{"Setpoint": json.Number("12.5")}); err != nil {
		t.Errorf("Write = %v", err)
	}
	err = h.Operate(ctx, "opcua1", "Halt", nil)
	if f, ok := fault.As(err); !ok || f.Kind != fault.BadGateway || f.Message != `service "opcua1": BadInvalidState` {
		t.Errorf("Operate = %#v, want a BadGateway fault with the gateway's message", err)
	}
	if err := h.Audit(ctx, AuditOperation, SeverityFailure, map[string]any{"caller": "pat"}); err != nil {
		t.Errorf("Audit = %v", err)
	}
	want := []string{
		"services ",
		`write {"service":"opcua1","asset":"Plant","values":{"Setpoint":12.5}}`,
		`operate {"service":"opcua1","operation":"Halt"}`,
		`audit {"source":"CTLOP","severity":"FAILURE","details":{"caller":"pat"}}`,
	}
	if strings.Join(rec.calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant\n%s", strings.Join(rec.calls, "\n"), strings.Join(want, "\n"))
	}

	// An error without a kind passes as it is, and the engine answers it
	// as the device's; an answer that is not a list is an error.
	plain := errors.New("connection closed")
	rec.errs = map[string]error{HostWrite: plain}
	if err := h.Write(ctx, "opcua1", "Plant", map[string]any{"x": 1}); !errors.Is(err, plain) {
		t.Errorf("Write = %v, want the caller's error", err)
	}
	rec.answers[HostServices] = `{"services":[]}`
	if _, err := h.Services(ctx); err == nil || !strings.Contains(err.Error(), "no list of services") {
		t.Errorf("Services of an object = %v, want an error", err)
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name    string
		cfg     map[string]string
		timeout time.Duration
		queue   int
		bad     string // the item an error names
	}{
		{name: "defaults", cfg: nil, timeout: DefaultTimeout, queue: DefaultQueueLength},
		{name: "set", cfg: map[string]string{ItemTimeout: "5", ItemQueueLength: "2"}, timeout: 5 * time.Second, queue: 2},
		{name: "timeout not a number", cfg: map[string]string{ItemTimeout: "5s"}, bad: ItemTimeout},
		{name: "timeout zero", cfg: map[string]string{ItemTimeout: "0"}, bad: ItemTimeout},
		{name: "queue zero", cfg: map[string]string{ItemQueueLength: "0"}, bad: ItemQueueLength},
		{name: "queue huge", cfg: map[string]string{ItemQueueLength: "1000000"}, bad: ItemQueueLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timeout, queue, err := Limits(tt.cfg)
			if tt.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tt.bad) {
					t.Errorf("Limits = %v, want an error naming %s", err, tt.bad)
				}
				return
			}
			if err != nil || timeout != tt.timeout || queue != tt.queue {
				t.Errorf("Limits = %v, %d, %v; want %v, %d", timeout, queue, err, tt.timeout, tt.queue)
			}
		})
	}
}
