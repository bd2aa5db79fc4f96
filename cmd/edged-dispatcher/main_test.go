package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/edged/edged/internal/dispatch"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// gateway is the gateway's Host in memory: south services, devices that
// record what reaches them, and the audit trail.
type gateway struct {
	mu      sync.Mutex
	devices []string
	audits  []string
}

func (g *gateway) Call(_ context.Context, method string, body []byte) ([]byte, error) {
	switch method {
	case dispatch.HostServices:
		return json.Marshal([]dispatch.Target{
			{Name: "modbus1", Plugin: "modbus", Running: true, Writes: true, Assets: []string{"pump"}},
			{Name: "opcua1", Plugin: "opcua", Running: true, Writes: true, Operates: true, Assets: []string{"Plant"}},
			{Name: "broken", Plugin: "modbus", Running: true, Writes: true, Assets: []string{"valve"}},
			{Name: "old", Plugin: "opcua", Writes: true, Operates: true},
		})
	case dispatch.HostWrite:
		var r dispatch.HostWriteRequest
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, edgeplugin.Errorf(edgeplugin.CodeInvalid, "write: %v", err)
		}
		if r.Service == "broken" {
			return nil, edgeplugin.Errorf(edgeplugin.CodeFailed, "service %q: modbus: connection refused", r.Service)
		}
		g.record(&g.devices, fmt.Sprintf("write %s %s %v", r.Service, r.Asset, r.Values))
	case dispatch.HostOperate:
		var r dispatch.HostOperateRequest
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, edgeplugin.Errorf(edgeplugin.CodeInvalid, "operate: %v", err)
		}
		if r.Operation == "Explode" {
			return nil, edgeplugin.Errorf(edgeplugin.CodeInvalid, "service %q has no operation %q", r.Service, r.Operation)
		}
		g.record(&g.devices, fmt.Sprintf("operate %s %s %v", r.Service, r.Operation, r.Parameters))
	case dispatch.HostAudit:
		var r dispatch.HostAuditRequest
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, edgeplugin.Errorf(edgeplugin.CodeInvalid, "audit: %v", err)
		}
		d, _ := json.Marshal(r.Details)
		g.record(&g.audits, r.Source+" "+r.Severity+" "+string(d))
	default:
		return nil, edgeplugin.Errorf(edgeplugin.CodeUnsupported, "the gateway has no method %q", method)
	}
	return []byte(`{}`), nil
}

func (g *gateway) record(to *[]string, s string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	*to = append(*to, s)
}

// TestThroughTheContract serves the dispatcher over gRPC in this process,
// starts it with a gateway Host, and calls it as the gateway does.
func TestThroughTheContract(t *testing.T) {
	c, info, err := edgeplugin.TestConnect(t, edgeplugin.Plugin{Info: Info(), NewService: func() edgeplugin.Service { return &service{} }})
	if err != nil {
		t.Fatal(err)
	}
	if info.Kind != edgeplugin.KindDispatcher || info.Name != "dispatcher" {
		t.Fatalf("described as %+v", info)
	}
	if _, err := c.Call(t.Context(), "write", []byte(`{"destination":"broadcast","values":{"x":1}}`)); edgeplugin.CodeOf(err) != edgeplugin.CodeUnavailable {
		t.Errorf("a call before Start = %v, want CodeUnavailable", err)
	}
	g := &gateway{}
	if err := c.StartService(t.Context(), edgeplugin.Start{Service: "dispatcher", Config: edgeplugin.Config{dispatch.ItemTimeout: "0"}}, g); edgeplugin.CodeOf(err) != edgeplugin.CodeInvalid {
		t.Errorf("Start with a bad item = %v, want CodeInvalid", err)
	}
	if err := c.StartService(t.Context(), edgeplugin.Start{Service: "dispatcher", Config: edgeplugin.Config{dispatch.ItemTimeout: "10", dispatch.ItemQueueLength: "4"}}, g); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		method string
		body   string
		want   string          // the answer, or with code a part of the message
		code   edgeplugin.Code // 0: success
	}{
		{name: "write to an asset", method: "write", body: `{"destination":"asset","name":"pump","values":{"speed":1200},"caller":"pat"}`,
			want: `{"results":[{"service":"modbus1","asset":"pump"}]}`},
		{name: "operation on a service", method: "operation", body: `{"destination":"service","name":"opcua1","operation":"Reset","parameters":{"counter":3},"caller":"pat"}`,
			want: `{"results":[{"service":"opcua1"}]}`},
		{name: "broadcast with a failing device", method: "write", body: `{"destination":"broadcast","values":{"x":true}}`,
			want: `{"results":[{"service":"broken","error":"service \"broken\": modbus: connection refused"},{"service":"modbus1"},{"service":"opcua1"}]}`},
		{name: "malformed", method: "write", body: `{"destination":"service","name":"pump","values":{"a":{"b":1}}}`,
			code: edgeplugin.CodeInvalid, want: `datapoint "a" is not a number, string or boolean`},
		{name: "plugin without operations", method: "operation", body: `{"destination":"service","name":"modbus1","operation":"Reset"}`,
			code: edgeplugin.CodeInvalid, want: `service "modbus1"'s plugin "modbus" does not support control operations`},
		{name: "unknown service", method: "write", body: `{"destination":"service","name":"nope","values":{"x":1}}`,
			code: edgeplugin.CodeNotFound, want: `there is no south service "nope"`},
		{name: "service not running", method: "write", body: `{"destination":"service","name":"old","values":{"x":1}}`,
			code: edgeplugin.CodeConflict, want: `south service "old" is not running`},
		{name: "device failure", method: "write", body: `{"destination":"asset","name":"valve","values":{"open":true}}`,
			code: edgeplugin.CodeFailed, want: `service "broken": modbus: connection refused`},
		{name: "the gateway refuses the operation", method: "operation", body: `{"destination":"asset","name":"Plant","operation":"Explode"}`,
			code: edgeplugin.CodeInvalid, want: `service "opcua1" has no operation "Explode"`},
		{name: "unknown method", method: "restart", body: `{}`, code: edgeplugin.CodeUnsupported, want: `no method "restart"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Call(t.Context(), tt.method, []byte(tt.body))
			if tt.code != 0 {
				if edgeplugin.CodeOf(err) != tt.code || !strings.Contains(fmt.Sprint(err), tt.want) {
					t.Errorf("Call = %s, %v (%v); want %v saying %q", got, err, edgeplugin.CodeOf(err), tt.code, tt.want)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("Call = %s, %v; want %s", got, err, tt.want)
			}
		})
	}

	g.mu.Lock()
	defer g.mu.Unlock()
	wantDevices := []string{"write modbus1 pump map[speed:1200]", "operate opcua1 Reset map[counter:3]"}
	for i, w := range wantDevices {
		if i >= len(g.devices) || g.devices[i] != w {
			t.Errorf("devices saw %q, want %q first", g.devices, wantDevices)
			break
		}
	}
	if len(g.audits) != len(tests)-1 { // the unknown method is no request
		t.Errorf("%d audit entries, want %d: %q", len(g.audits), len(tests)-1, g.audits)
	}
	if len(g.audits) > 0 && g.audits[0] != `CTLWR INFORMATION {"caller":"pat","destination":"asset","name":"pump","outcome":"done","results":[{"asset":"pump","service":"modbus1"}],"values":{"speed":1200}}` {
		t.Errorf("first audit entry %s", g.audits[0])
	}

	if err := c.Reconfigure(t.Context(), edgeplugin.Config{dispatch.ItemQueueLength: "x"}); err == nil {
		t.Error("Reconfigure with a bad item succeeded")
	}
	if err := c.Reconfigure(t.Context(), edgeplugin.Config{dispatch.ItemQueueLength: "8"}); err != nil {
		t.Errorf("Reconfigure = %v", err)
	}
}

func TestCodes(t *testing.T) {
	tests := []struct {
		name string
		err  error
		code edgeplugin.Code
	}{
		{name: "invalid", err: fault.New(fault.Invalid, "m"), code: edgeplugin.CodeInvalid},
		{name: "not found", err: fault.New(fault.NotFound, "m"), code: edgeplugin.CodeNotFound},
		{name: "conflict", err: fault.New(fault.Conflict, "m"), code: edgeplugin.CodeConflict},
		{name: "queue full", err: fault.New(fault.TooMany, "m"), code: edgeplugin.CodeBusy},
		{name: "waited too long", err: fault.New(fault.Unavailable, "m"), code: edgeplugin.CodeUnavailable},
		{name: "device", err: fault.New(fault.BadGateway, "m"), code: edgeplugin.CodeFailed},
		{name: "unknown method", err: fault.New(fault.NotImplemented, "m"), code: edgeplugin.CodeUnsupported},
		{name: "caller gone", err: context.Canceled, code: edgeplugin.CodeUnavailable},
		{name: "a bug", err: errors.New("m"), code: edgeplugin.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := edgeplugin.CodeOf(codeOf(tt.err)); got != tt.code {
				t.Errorf("code = %v, want %v", got, tt.code)
			}
		})
	}
	// the fault's private cause stays in the process
	if err := codeOf(fault.Wrap(fault.BadGateway, errors.New("secret"), "public")); err.Error() != "public" {
		t.Errorf("message = %q, want the public one", err)
	}
	back := map[edgeplugin.Code]*fault.Kind{
		edgeplugin.CodeInvalid: fault.Invalid, edgeplugin.CodeUnsupported: fault.Invalid, edgeplugin.CodeNotFound: fault.NotFound,
		edgeplugin.CodeConflict: fault.Conflict, edgeplugin.CodeUnavailable: fault.Unavailable, edgeplugin.CodeFailed: fault.BadGateway,
		edgeplugin.CodeBusy: fault.TooMany, edgeplugin.CodeInternal: nil,
	}
	for code, kind := range back {
		if got := kindOf(edgeplugin.Errorf(code, "m")); got != kind {
			t.Errorf("kindOf(%v) = %v, want %v", code, got, kind)
		}
	}
	if got := kindOf(errors.New("plain")); got != nil {
		t.Errorf("kindOf(plain) = %v, want none", got)
	}
}
