package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/fault"
)

// entry is an audit entry the fake host received, details as JSON.
type entry struct {
	Source, Severity string
	Details          map[string]any
}

// fakeHost is the gateway in memory. Its write and operate hooks decide
// what a device does; it logs what reached a device, in order.
type fakeHost struct {
	targets     []Target
	servicesErr error
	write       func(ctx context.Context, service, asset string, values map[string]any) error
	operate     func(ctx context.Context, service, operation string, params map[string]any) error
	auditErr    error

	mu      sync.Mutex // guards the fields below
	devices []string   // "service asset values" / "service operation params", as run
	audits  []entry
}

func (h *fakeHost) Services(context.Context) ([]Target, error) {
	if h.servicesErr != nil {
		return nil, h.servicesErr
	}
	return slices.Clone(h.targets), nil
}

func (h *fakeHost) Write(ctx context.Context, service, asset string, values map[string]any) error {
	h.mu.Lock()
	h.devices = append(h.devices, fmt.Sprintf("%s %s %v", service, asset, values))
	h.mu.Unlock()
	if h.write != nil {
		return h.write(ctx, service, asset, values)
	}
	return nil
}

func (h *fakeHost) Operate(ctx context.Context, service, operation string, params map[string]any) error {
	h.mu.Lock()
	h.devices = append(h.devices, fmt.Sprintf("%s %s %v", service, operation, params))
	h.mu.Unlock()
	if h.operate != nil {
		return h.operate(ctx, service, operation, params)
	}
	return nil
}

func (h *fakeHost) Audit(_ context.Context, source, severity string, details any) error {
	raw, err := json.Marshal(details)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	h.mu.Lock()
	h.audits = append(h.audits, entry{source, severity, m})
	h.mu.Unlock()
	return h.auditErr
}

func (h *fakeHost) ran() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.devices)
}

func (h *fakeHost) entries() []entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.audits)
}

// plant is the gateway most cases run against.
var plant = []Target{
	{Name: "modbus1", Plugin: "modbus", Running: true, Writes: true, Assets: []string{"pump", "tank", "shared"}},
	{Name: "opcua1", Plugin: "opcua", Running: true, Writes: true, Operates: true, Assets: []string{"Plant", "shared"}},
	{Name: "old", Plugin: "opcua", Running: false, Writes: true, Operates: true, Assets: []string{"Old"}},
	{Name: "sine", Plugin: "sinusoid", Running: true, Assets: []string{"sinusoid"}},
}

var errDeviceDown = errors.New("modbus: connection refused by 10.0.0.5:502")

func TestRequests(t *testing.T) {
	v := map[string]any{"setpoint": 21.5}
	tests := []struct {
		name    string
		op      bool // Operate rather than Write
		req     Request
		targets []Target // nil: plant
		host    func(h *fakeHost)
		// want: results, or the error's kind and a part of its message
		want     []Result
		kind     *fault.Kind
		msg      string
		outcome  string
		reached  []string // what reached a device; nil: nothing
		severity string   // of the audit entry; "" by the outcome
	}{
		// refused before resolving
		{name: "no destination", req: Request{Name: "modbus1", Values: v},
			kind: fault.Invalid, msg: "needs a destination", outcome: OutcomeRefused},
		{name: "unknown destination", req: Request{Destination: "north", Name: "x", Values: v},
			kind: fault.Invalid, msg: `destination "north" is not service, asset or broadcast`, outcome: OutcomeRefused},
		{name: "service without a name", req: Request{Destination: "service", Values: v},
			kind: fault.Invalid, msg: "needs the service's name", outcome: OutcomeRefused},
		{name: "asset without a name", req: Request{Destination: "asset", Values: v},
			kind: fault.Invalid, msg: "needs the asset's name", outcome: OutcomeRefused},
		{name: "write without values", req: Request{Destination: "service", Name: "modbus1"},
			kind: fault.Invalid, msg: "needs values", outcome: OutcomeRefused},
		{name: "write with an empty object", req: Request{Destination: "service", Name: "modbus1", Values: map[string]any{}},
			kind: fault.Invalid, msg: "needs values", outcome: OutcomeRefused},
		{name: "write of an object", req: Request{Destination: "service", Name: "modbus1", Values: map[string]any{"a": map[string]any{"b": 1}}},
			kind: fault.Invalid, msg: `datapoint "a" is not a number, string or boolean`, outcome: OutcomeRefused},
		{name: "write of an array", req: Request{Destination: "service", Name: "modbus1", Values: map[string]any{"a": []any{1.0}}},
			kind: fault.Invalid, msg: `datapoint "a"`, outcome: OutcomeRefused},
		{name: "write of null", req: Request{Destination: "service", Name: "modbus1", Values: map[string]any{"a": nil}},
			kind: fault.Invalid, msg: `datapoint "a"`, outcome: OutcomeRefused},
		{name: "write to an empty datapoint name", req: Request{Destination: "service", Name: "modbus1", Values: map[string]any{"": 1.0}},
			kind: fault.Invalid, msg: "empty string", outcome: OutcomeRefused},
		{name: "write with an operation", req: Request{Destination: "service", Name: "modbus1", Values: v, Operation: "Reset"},
			kind: fault.Invalid, msg: "takes values, not an operation", outcome: OutcomeRefused},
		{name: "operation without a name", op: true, req: Request{Destination: "service", Name: "opcua1"},
			kind: fault.Invalid, msg: "needs the operation's name", outcome: OutcomeRefused},
		{name: "operation with values", op: true, req: Request{Destination: "service", Name: "opcua1", Operation: "Reset", Values: v},
			kind: fault.Invalid, msg: "not values", outcome: OutcomeRefused},
		{name: "broadcast operation with a name", op: true, req: Request{Destination: "broadcast", Name: "opcua1", Operation: "Reset"},
			kind: fault.Invalid, msg: "names no service or asset", outcome: OutcomeRefused},
		{name: "services unavailable", req: Request{Destination: "service", Name: "modbus1", Values: v},
			host: func(h *fakeHost) { h.servicesErr = errors.New("connection reset") },
			kind: fault.Unavailable, msg: "list of services is unavailable", outcome: OutcomeRefused},

		// resolution
		{name: "unknown service", req: Request{Destination: "service", Name: "nope", Values: v},
			kind: fault.NotFound, msg: `there is no south service "nope"`, outcome: OutcomeRefused},
		{name: "service not running", req: Request{Destination: "service", Name: "old", Values: v},
			kind: fault.Conflict, msg: `south service "old" is not running`, outcome: OutcomeRefused},
		{name: "plugin without writes", req: Request{Destination: "service", Name: "sine", Values: v},
			kind: fault.Invalid, msg: `service "sine"'s plugin "sinusoid" does not support control writes`, outcome: OutcomeRefused},
		{name: "plugin without operations", op: true, req: Request{Destination: "service", Name: "modbus1", Operation: "Reset"},
			kind: fault.Invalid, msg: `service "modbus1"'s plugin "modbus" does not support control operations`, outcome: OutcomeRefused},
		{name: "unknown asset", req: Request{Destination: "asset", Name: "nope", Values: v},
			kind: fault.NotFound, msg: `no south service ingests asset "nope"`, outcome: OutcomeRefused},
		{name: "asset of a service not running", req: Request{Destination: "asset", Name: "Old", Values: v},
			kind: fault.Conflict, msg: `asset "Old" is ingested by service "old", which is not running`, outcome: OutcomeRefused},
		{name: "asset of a plugin without writes", req: Request{Destination: "asset", Name: "sinusoid", Values: v},
			kind: fault.Invalid, msg: `plugin "sinusoid" does not support control writes`, outcome: OutcomeRefused},
		{name: "asset of two writing services", req: Request{Destination: "asset", Name: "shared", Values: v},
			kind: fault.Conflict, msg: `asset "shared" is ingested by services "modbus1", "opcua1": name the service instead`, outcome: OutcomeRefused},
		{name: "asset of two services, none operating", op: true, req: Request{Destination: "asset", Name: "both", Operation: "Reset"},
			targets: []Target{{Name: "a", Running: true, Assets: []string{"both"}}, {Name: "b", Running: true, Assets: []string{"both"}}},
			kind:    fault.Invalid, msg: `none of whose plugins supports control operations`, outcome: OutcomeRefused},
		{name: "broadcast without services", req: Request{Destination: "broadcast", Values: v}, targets: []Target{},
			kind: fault.NotFound, msg: "no south service to broadcast to", outcome: OutcomeRefused},
		{name: "broadcast without a writing service", req: Request{Destination: "broadcast", Values: v},
			targets: []Target{plant[2], plant[3]},
			kind:    fault.Conflict, msg: "no running south service's plugin supports control writes", outcome: OutcomeRefused},

		// execution
		{name: "write to a service", req: Request{Destination: "service", Name: "modbus1", Values: v},
			want: []Result{{Service: "modbus1"}}, outcome: OutcomeDone, reached: []string{"modbus1  map[setpoint:21.5]"}},
		{name: "write to an asset", req: Request{Destination: "asset", Name: "pump", Values: v},
			want: []Result{{Service: "modbus1", Asset: "pump"}}, outcome: OutcomeDone, reached: []string{"modbus1 pump map[setpoint:21.5]"}},
		{name: "operation on a service", op: true, req: Request{Destination: "service", Name: "opcua1", Operation: "Reset", Parameters: map[string]any{"counter": 3.0}},
			want: []Result{{Service: "opcua1"}}, outcome: OutcomeDone, reached: []string{"opcua1 Reset map[counter:3]"}},
		{name: "operation on an asset two services ingest, one operating", op: true, req: Request{Destination: "asset", Name: "shared", Operation: "Reset"},
			want: []Result{{Service: "opcua1", Asset: "shared"}}, outcome: OutcomeDone, reached: []string{"opcua1 Reset map[]"}},
		{name: "broadcast write, named asset", req: Request{Destination: "broadcast", Name: "line", Values: v},
			want: []Result{{Service: "modbus1", Asset: "line"}, {Service: "opcua1", Asset: "line"}}, outcome: OutcomeDone,
			reached: []string{"modbus1 line map[setpoint:21.5]", "opcua1 line map[setpoint:21.5]"}},
		{name: "broadcast operation", op: true, req: Request{Destination: "broadcast", Operation: "Stop"},
			want: []Result{{Service: "opcua1"}}, outcome: OutcomeDone, reached: []string{"opcua1 Stop map[]"}},
		{name: "device error", req: Request{Destination: "service", Name: "modbus1", Values: v},
			host: func(h *fakeHost) {
				h.write = func(context.Context, string, string, map[string]any) error { return errDeviceDown }
			},
			kind: fault.BadGateway, msg: `service "modbus1": modbus: connection refused by 10.0.0.5:502`, outcome: OutcomeFailed,
			reached: []string{"modbus1  map[setpoint:21.5]"}},
		{name: "the gateway refuses the value", req: Request{Destination: "asset", Name: "pump", Values: v},
			host: func(h *fakeHost) {
				h.write = func(context.Context, string, string, map[string]any) error {
					return fault.New(fault.Invalid, `datapoint "setpoint" of asset "pump" is not writable`)
				}
			},
			kind: fault.Invalid, msg: `datapoint "setpoint" of asset "pump" is not writable`, outcome: OutcomeFailed,
			reached: []string{"modbus1 pump map[setpoint:21.5]"}},
		{name: "broadcast, every service fails", req: Request{Destination: "broadcast", Values: v},
			host: func(h *fakeHost) {
				h.write = func(_ context.Context, s string, _ string, _ map[string]any) error { return errors.New(s + " down") }
			},
			kind: fault.BadGateway, msg: `service "modbus1": modbus1 down`, outcome: OutcomeFailed,
			reached: []string{"modbus1  map[setpoint:21.5]", "opcua1  map[setpoint:21.5]"}},
		{name: "the audit trail fails, the write stands", req: Request{Destination: "service", Name: "modbus1", Values: v},
			host: func(h *fakeHost) { h.auditErr = errors.New("database locked") },
			want: []Result{{Service: "modbus1"}}, outcome: OutcomeDone, reached: []string{"modbus1  map[setpoint:21.5]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &fakeHost{targets: plant}
			if tt.targets != nil {
				h.targets = tt.targets
			}
			if tt.host != nil {
				tt.host(h)
			}
			d := New(Options{Host: h})
			tt.req.Caller = "operator"
			do, source := d.Write, AuditWrite
			if tt.op {
				do, source = d.Operate, AuditOperation
			}
			got, err := do(t.Context(), tt.req)
			if tt.kind != nil {
				f, ok := fault.As(err)
				switch {
				case !ok || f.Kind != tt.kind:
					t.Fatalf("error = %v (%T), want a %v fault", err, err, tt.kind)
				case !strings.Contains(f.Message, tt.msg):
					t.Errorf("message = %q, want it to contain %q", f.Message, tt.msg)
				case got != nil:
					t.Errorf("results %v with the error", got)
				}
			} else if err != nil {
				t.Fatalf("error = %v", err)
			} else if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("results = %+v, want %+v", got, tt.want)
			}
			ran := h.ran()
			slices.Sort(ran) // a broadcast runs in parallel
			if !slices.Equal(ran, tt.reached) {
				t.Errorf("reached the devices: %q, want %q", ran, tt.reached)
			}
			es := h.entries()
			if len(es) != 1 {
				t.Fatalf("%d audit entries, want 1", len(es))
			}
			wantSev := auditcode.Information
			if tt.kind != nil {
				wantSev = auditcode.Failure
			}
			e := es[0]
			if e.Source != source || e.Severity != wantSev || e.Details["outcome"] != tt.outcome || e.Details["caller"] != "operator" {
				t.Errorf("audit entry %s %s %v, want %s %s with outcome %s and caller operator", e.Source, e.Severity, e.Details, source, wantSev, tt.outcome)
			}
			if tt.kind != nil && !strings.Contains(fmt.Sprint(e.Details["error"]), tt.msg) {
				t.Errorf("audit details' error = %v, want the message", e.Details["error"])
			}
		})
	}
}

func TestAuditDetails(t *testing.T) {
	h := &fakeHost{targets: plant, write: func(_ context.Context, s string, _ string, _ map[string]any) error {
		if s == "opcua1" {
			return errors.New("BadUserAccessDenied")
		}
		return nil
	}}
	d := New(Options{Host: h})
	if _, err := d.Write(t.Context(), Request{Destination: "broadcast", Name: "line", Values: map[string]any{"speed": 10.0, "mode": "auto"}, Caller: "pat"}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Operate(t.Context(), Request{Destination: "asset", Name: "Plant", Operation: "Reset", Parameters: map[string]any{"counter": 3.0}, Caller: "sam"}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Operate(t.Context(), Request{Destination: "service", Name: "nope", Operation: "Reset", Caller: "kim"}); err == nil {
		t.Fatal("an operation on an unknown service succeeded")
	}
	want := []string{
		`CTLWR INFORMATION {"caller":"pat","destination":"broadcast","name":"line","outcome":"partial",` +
			`"results":[{"asset":"line","service":"modbus1"},{"asset":"line","error":"service \"opcua1\": BadUserAccessDenied","service":"opcua1"}],` +
			`"values":{"mode":"auto","speed":10}}`,
		`CTLOP INFORMATION {"caller":"sam","destination":"asset","name":"Plant","operation":"Reset","outcome":"done",` +
			`"parameters":{"counter":3},"results":[{"asset":"Plant","service":"opcua1"}]}`,
		`CTLOP FAILURE {"caller":"kim","destination":"service","error":"there is no south service \"nope\"","name":"nope","operation":"Reset","outcome":"refused"}`,
	}
	es := h.entries()
	if len(es) != len(want) {
		t.Fatalf("%d audit entries, want %d", len(es), len(want))
	}
	for i, e := range es {
		raw, err := json.Marshal(e.Details) // map keys sorted
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Source + " " + e.Severity + " " + string(raw); got != want[i] {
			t.Errorf("entry %d:\n got %s\nwant %s", i, got, want[i])
		}
	}
}

func TestAuditCodesAreTheGateways(t *testing.T) {
	for _, c := range []string{AuditWrite, AuditOperation} {
		if !slices.Contains(audit.Sources, c) {
			t.Errorf("audit code %s is not in the gateway's table", c)
		}
	}
	for _, s := range []string{auditcode.Information, auditcode.Failure} {
		if !slices.ContainsFunc(audit.Severities, func(x audit.Severity) bool { return x.Name == s }) {
			t.Errorf("severity %s is not the gateway's", s)
		}
	}
}

// TestBroadcastRunsInParallel holds every service's write until all have
// started: a broadcast that ran them one after another would time out.
func TestBroadcastRunsInParallel(t *testing.T) {
	targets := []Target{
		{Name: "a", Running: true, Writes: true}, {Name: "b", Running: true, Writes: true}, {Name: "c", Running: true, Writes: true},
	}
	var arrived sync.WaitGroup
	arrived.Add(len(targets))
	all := make(chan struct{})
	go func() { arrived.Wait(); close(all) }()
	h := &fakeHost{targets: targets, write: func(ctx context.Context, s string, _ string, _ map[string]any) error {
		arrived.Done()
		select {
		case <-all:
		case <-ctx.Done():
			return ctx.Err()
		}
		if s == "b" {
			return errDeviceDown
		}
		return nil
	}}
	d := New(Options{Host: h, Timeout: 10 * time.Second})
	got, err := d.Write(t.Context(), Request{Destination: "broadcast", Values: map[string]any{"x": 1.0}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{{Service: "a"}, {Service: "b", Error: `service "b": ` + errDeviceDown.Error()}, {Service: "c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results = %+v, want %+v", got, want)
	}
}

// waiting returns how many requests wait for service.
func (d *Dispatcher) waiting(service string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if l := d.lanes[service]; l != nil {
		return len(l.jobs)
	}
	return 0
}

// awaitWaiting waits until n requests wait for service.
func awaitWaiting(t *testing.T, d *Dispatcher, service string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for d.waiting(service) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests wait for %s, want %d", d.waiting(service), service, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestQueue checks that the requests to one service run one at a time in
// the order they arrived, that another service is not held up by them, and
// that a full queue refuses more.
func TestQueue(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	running, most := 0, 0
	h := &fakeHost{targets: []Target{
		{Name: "slow", Running: true, Writes: true},
		{Name: "fast", Running: true, Writes: true},
	}}
	h.write = func(ctx context.Context, s string, _ string, values map[string]any) error {
		if s == "fast" {
			return nil
		}
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		defer func() {
			mu.Lock()
			running--
			mu.Unlock()
		}()
		if values["n"] == 0 {
			<-release // the first holds the service until the queue is full
		}
		return nil
	}
	const queue = 5
	d := New(Options{Host: h, QueueLength: queue, Timeout: 30 * time.Second})
	var wg sync.WaitGroup
	errs := make([]error, queue+1)
	for n := 0; n <= queue; n++ {
		wg.Go(func() {
			_, errs[n] = d.Write(t.Context(), Request{Destination: "service", Name: "slow", Values: map[string]any{"n": n}})
		})
		// the first reaches the device at once; the others wait in turn
		if n == 0 {
			awaitRan(t, h, 1)
		} else {
			awaitWaiting(t, d, "slow", n)
		}
	}

	if _, err := d.Write(t.Context(), Request{Destination: "service", Name: "fast", Values: map[string]any{"n": 0}}); err != nil {
		t.Errorf("a write to another service while slow is busy: %v", err)
	}
	_, err := d.Write(t.Context(), Request{Destination: "service", Name: "slow", Values: map[string]any{"n": 99}})
	if f, ok := fault.As(err); !ok || f.Kind != fault.TooMany || f.RetryAfterSeconds < 1 ||
		f.Message != `service "slow" has 5 control requests waiting: try again later` {
		t.Errorf("a write to a full queue = %#v, want a TooMany fault with Retry-After", err)
	}

	close(release)
	wg.Wait()
	for n, err := range errs {
		if err != nil {
			t.Errorf("write %d: %v", n, err)
		}
	}
	var order []string
	for _, r := range h.ran() {
		if strings.HasPrefix(r, "slow ") {
			order = append(order, r)
		}
	}
	want := []string{"slow  map[n:0]", "slow  map[n:1]", "slow  map[n:2]", "slow  map[n:3]", "slow  map[n:4]", "slow  map[n:5]"}
	if !slices.Equal(order, want) {
		t.Errorf("slow ran %q, want %q", order, want)
	}
	if most != 1 {
		t.Errorf("%d writes ran at slow at once, want 1", most)
	}
	if n := d.waiting("slow"); n != 0 {
		t.Errorf("%d requests still wait", n)
	}
	// the queue's worker is gone once it is empty
	awaitLanes(t, d, 0)
}

func awaitLanes(t *testing.T, d *Dispatcher, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		d.mu.Lock()
		got := len(d.lanes)
		d.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d queues, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTimeouts: a device that does not answer in time is a bad gateway; a
// request that waited behind it all the while is unavailable and never
// reaches the device; a caller that goes away gets its context's error.
func TestTimeouts(t *testing.T) {
	h := &fakeHost{targets: []Target{{Name: "mute", Running: true, Writes: true, Operates: true}}}
	hold := make(chan struct{})
	h.write = func(context.Context, string, string, map[string]any) error {
		<-hold // a device call that does not heed its context
		return errors.New("modbus: i/o timeout")
	}
	d := New(Options{Host: h, Timeout: 200 * time.Millisecond})
	var wg sync.WaitGroup
	var first error
	wg.Go(func() {
		_, first = d.Write(t.Context(), Request{Destination: "service", Name: "mute", Values: map[string]any{"n": 1}})
	})
	awaitRan(t, h, 1)
	_, second := d.Write(t.Context(), Request{Destination: "service", Name: "mute", Values: map[string]any{"n": 2}})
	wg.Wait()
	close(hold)
	awaitLanes(t, d, 0)
	if f, ok := fault.As(first); !ok || f.Kind != fault.BadGateway || f.Message != `service "mute": the device did not answer within 200ms` {
		t.Errorf("the request at the device = %v, want a BadGateway fault saying it did not answer", first)
	}
	if f, ok := fault.As(second); !ok || f.Kind != fault.Unavailable || !strings.Contains(f.Message, "busy with earlier control requests") {
		t.Errorf("the request waiting = %v, want an Unavailable fault saying the service was busy", second)
	}
	if ran := h.ran(); len(ran) != 1 {
		t.Errorf("reached the device: %q, want only the first", ran)
	}

	h.operate = func(ctx context.Context, _ string, _ string, _ map[string]any) error {
		<-ctx.Done()
		return ctx.Err()
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		awaitRan(t, h, 2)
		cancel()
	}()
	_, err := d.Operate(ctx, Request{Destination: "service", Name: "mute", Operation: "Stop"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a request whose caller went away = %v, want context.Canceled", err)
	}
	if es := h.entries(); len(es) != 3 || es[2].Severity != auditcode.Failure {
		t.Errorf("audit entries %v, want the cancelled one recorded as a failure", es)
	}
}

func awaitRan(t *testing.T, h *fakeHost, n int) {
	deadline := time.Now().Add(10 * time.Second)
	for len(h.ran()) < n {
		if time.Now().After(deadline) {
			t.Errorf("%d requests reached the device, want %d", len(h.ran()), n)
			return
		}
		time.Sleep(time.Millisecond)
	}
}
