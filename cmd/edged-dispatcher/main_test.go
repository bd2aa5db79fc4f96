package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/edged/edged/internal/dispatch"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
	"github.com/edged/edged/pluginsdk/go/plugintest"
)

// gateway is the gateway's Host in memory: south services, devices that
// record what reaches them, and the audit trail.
type gateway struct {
	edgeplugin.UnsupportedHost
	mu      sync.Mutex
	devices []string
	audits  []string
}

func (g *gateway) Services(context.Context) ([]edgeplugin.ControlTarget, error) {
	return []dispatch.Target{
		{Name: "modbus1", Plugin: "modbus", Running: true, Writes: true, Assets: []string{"pump"}},
		{Name: "opcua1", Plugin: "opcua", Running: true, Writes: true, Operates: true, Assets: []string{"Plant"}},
		{Name: "broken", Plugin: "modbus", Running: true, Writes: true, Assets: []string{"valve"}},
		{Name: "old", Plugin: "opcua", Writes: true, Operates: true},
	}, nil
}

func (g *gateway) Write(_ context.Context, service, asset string, values map[string]any) error {
	if service == "broken" {
		return edgeplugin.Errorf(edgeplugin.CodeFailed, "service %q: modbus: connection refused", service)
	}
	g.record(&g.devices, fmt.Sprintf("write %s %s %v", service, asset, values))
	return nil
}

func (g *gateway) Operate(_ context.Context, service, operation string, params map[string]any) error {
	if operation == "Explode" {
		return edgeplugin.Errorf(edgeplugin.CodeInvalid, "service %q has no operation %q", service, operation)
	}
	g.record(&g.devices, fmt.Sprintf("operate %s %s %v", service, operation, params))
	return nil
}

func (g *gateway) Audit(_ context.Context, e edgeplugin.AuditEntry) error {
	g.record(&g.audits, e.Source+" "+e.Severity+" "+string(e.Details))
	return nil
}

func (g *gateway) record(to *[]string, s string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	*to = append(*to, s)
}

// TestThroughTheContract serves the dispatcher over gRPC in this process,
// starts it with a gateway Host, and calls it as the gateway does.
func TestThroughTheContract(t *testing.T) {
	c, info, err := plugintest.Connect(t, plugin())
	if err != nil {
		t.Fatal(err)
	}
	if info.Kind != edgeplugin.KindDispatcher || info.Name != "dispatcher" {
		t.Fatalf("described as %+v", info)
	}
	d := c.Dispatcher()
	if _, err := d.Write(t.Context(), edgeplugin.ControlRequest{Destination: "broadcast", Values: map[string]any{"x": 1}}); edgeplugin.CodeOf(err) != edgeplugin.CodeUnavailable {
		t.Errorf("a call before Start = %v, want CodeUnavailable", err)
	}
	g := &gateway{}
	if err := c.StartService(t.Context(), edgeplugin.Start{Service: "dispatcher", Config: edgeplugin.Config{dispatch.ItemTimeout: "0"}}, g); edgeplugin.CodeOf(err) != edgeplugin.CodeInvalid {
		t.Errorf("Start with a bad item = %v, want CodeInvalid", err)
	}
	if err := c.StartService(t.Context(), edgeplugin.Start{Service: "dispatcher", Config: edgeplugin.Config{dispatch.ItemTimeout: "10", dispatch.ItemQueueLength: "4"}}, g); err != nil {
		t.Fatal(err)
	}

	num := func(n string) json.Number { return json.Number(n) }
	tests := []struct {
		name      string
		operation bool
		req       edgeplugin.ControlRequest
		want      string          // the results, or with code a part of the message
		code      edgeplugin.Code // 0: success
	}{
		{name: "write to an asset", req: edgeplugin.ControlRequest{Destination: "asset", Name: "pump", Values: map[string]any{"speed": num("1200")}, Caller: "pat"},
			want: `[{"service":"modbus1","asset":"pump"}]`},
		{name: "operation on a service", operation: true, req: edgeplugin.ControlRequest{Destination: "service", Name: "opcua1", Operation: "Reset",
			Parameters: map[string]any{"counter": num("3")}, Caller: "pat"}, want: `[{"service":"opcua1"}]`},
		{name: "broadcast with a failing device", req: edgeplugin.ControlRequest{Destination: "broadcast", Values: map[string]any{"x": true}},
			want: `[{"service":"broken","error":"service \"broken\": modbus: connection refused"},{"service":"modbus1"},{"service":"opcua1"}]`},
		{name: "malformed", req: edgeplugin.ControlRequest{Destination: "service", Name: "pump", Values: map[string]any{"a": map[string]any{"b": 1}}},
			code: edgeplugin.CodeInvalid, want: `value "a": map[string]interface {} is not a number, string or boolean`},
		{name: "no values", req: edgeplugin.ControlRequest{Destination: "service", Name: "modbus1"},
			code: edgeplugin.CodeInvalid, want: `values`},
		{name: "plugin without operations", operation: true, req: edgeplugin.ControlRequest{Destination: "service", Name: "modbus1", Operation: "Reset"},
			code: edgeplugin.CodeInvalid, want: `service "modbus1"'s plugin "modbus" does not support control operations`},
		{name: "unknown service", req: edgeplugin.ControlRequest{Destination: "service", Name: "nope", Values: map[string]any{"x": 1}},
			code: edgeplugin.CodeNotFound, want: `there is no south service "nope"`},
		{name: "service not running", req: edgeplugin.ControlRequest{Destination: "service", Name: "old", Values: map[string]any{"x": 1}},
			code: edgeplugin.CodeConflict, want: `south service "old" is not running`},
		{name: "device failure", req: edgeplugin.ControlRequest{Destination: "asset", Name: "valve", Values: map[string]any{"open": true}},
			code: edgeplugin.CodeFailed, want: `service "broken": modbus: connection refused`},
		{name: "the gateway refuses the operation", operation: true, req: edgeplugin.ControlRequest{Destination: "asset", Name: "Plant", Operation: "Explode"},
			code: edgeplugin.CodeInvalid, want: `service "opcua1" has no operation "Explode"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call := d.Write
			if tt.operation {
				call = d.Operate
			}
			got, err := call(t.Context(), tt.req)
			if tt.code != 0 {
				if edgeplugin.CodeOf(err) != tt.code || !strings.Contains(fmt.Sprint(err), tt.want) {
					t.Errorf("call = %+v, %v (%v); want %v saying %q", got, err, edgeplugin.CodeOf(err), tt.code, tt.want)
				}
				return
			}
			b, _ := json.Marshal(got)
			if err != nil || string(b) != tt.want {
				t.Errorf("call = %s, %v; want %s", b, err, tt.want)
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
	if len(g.audits) != len(tests)-1 { // the malformed request never left the gateway
		t.Errorf("%d audit entries, want %d: %q", len(g.audits), len(tests)-1, g.audits)
	}
	if len(g.audits) > 0 && g.audits[0] != `CTLWR INFORMATION {"caller":"pat","destination":"asset","name":"pump","values":{"speed":1200},"outcome":"done","results":[{"service":"modbus1","asset":"pump"}]}` {
		t.Errorf("first audit entry %s", g.audits[0])
	}

	if err := c.Reconfigure(t.Context(), edgeplugin.Config{dispatch.ItemQueueLength: "x"}); err == nil {
		t.Error("Reconfigure with a bad item succeeded")
	}
	if err := c.Reconfigure(t.Context(), edgeplugin.Config{dispatch.ItemQueueLength: "8"}); err != nil {
		t.Errorf("Reconfigure = %v", err)
	}
}
