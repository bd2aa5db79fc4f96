package notify

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/clock"
)

var t0 = time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)

// fakeHost records what the engine asks of the gateway.
type fakeHost struct {
	mu         sync.Mutex
	audits     []auditCall
	ingests    []Reading
	dispatches []Write
	failIngest error
	block      chan struct{} // when set, Ingest waits for it to close
}

type auditCall struct {
	source, severity string
	details          map[string]any
}

func (h *fakeHost) Audit(_ context.Context, source, severity string, details any) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.audits = append(h.audits, auditCall{source, severity, details.(map[string]any)})
	return nil
}

func (h *fakeHost) Ingest(ctx context.Context, rs []Reading) error {
	if h.block != nil {
		select {
		case <-h.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.failIngest != nil {
		return h.failIngest
	}
	h.ingests = append(h.ingests, rs...)
	return nil
}

func (h *fakeHost) Dispatch(_ context.Context, w Write) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dispatches = append(h.dispatches, w)
	return nil
}

// states returns the states of the readings the asset delivery wrote
// since the last call.
func (h *fakeHost) states() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []string{}
	for _, r := range h.ingests {
		out = append(out, r.Values["state"].(string))
	}
	h.ingests = nil
	return out
}

func (h *fakeHost) auditLog() []auditCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]auditCall(nil), h.audits...)
}

// drain waits until every channel of e has delivered what it was given.
func drain(t *testing.T, e *Engine) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		e.mu.Lock()
		busy := int64(0)
		for _, in := range e.instances {
			for _, c := range in.channels {
				busy += c.pending.Load()
			}
		}
		e.mu.Unlock()
		if busy == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d notifications still undelivered after 10 s", busy)
		}
		time.Sleep(time.Millisecond)
	}
}

// alertChannel is the asset delivery the semantic tests observe.
var alertChannel = Channel{Name: "alerts", Plugin: DeliveryAsset, Config: map[string]string{"asset": "alerts"}}

func newTestEngine(t *testing.T, ins ...Instance) (*Engine, *fakeHost, *clock.Fake) {
	t.Helper()
	h := &fakeHost{}
	clk := clock.NewFake(t0)
	e := New(Options{Host: h, Clock: clk})
	t.Cleanup(e.Close)
	if err := e.SetInstances(t.Context(), ins); err != nil {
		t.Fatal(err)
	}
	return e, h, clk
}

// step is one input to the engine and the states it must send.
type step struct {
	adv    time.Duration    // the clock moves on first, and timers run
	asset  string           // a reading of asset (default "boiler") with values
	values map[string]any   //
	audit  string           // or an audit code
	stats  map[string]int64 // or a statistics snapshot
	want   []string         // the states sent on the alerts channel
}

func v(x any) map[string]any { return map[string]any{"temp": x} }

func runSteps(t *testing.T, e *Engine, h *fakeHost, clk *clock.Fake, steps []step) {
	t.Helper()
	for i, s := range steps {
		if s.adv > 0 {
			clk.Advance(s.adv)
			e.tick(clk.Now())
		}
		switch {
		case s.values != nil:
			asset := s.asset
			if asset == "" {
				asset = "boiler"
			}
			e.Readings(t.Context(), []Reading{{Asset: asset, Timestamp: clk.Now(), Values: s.values}})
		case s.audit != "":
			e.Audit(t.Context(), s.audit, clk.Now())
		case s.stats != nil:
			e.Statistics(t.Context(), clk.Now(), s.stats)
		}
		drain(t, e)
		got := h.states()
		want := s.want
		if want == nil {
			want = []string{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d (%+v): sent %q, want %q", i, s, got, want)
		}
	}
}

const (
	trig = StateTriggered
	clr  = StateCleared
)

func TestNotificationTypes(t *testing.T) {
	rule := map[string]string{"asset": "boiler", "datapoint": "temp", "condition": ">", "value": "80"}
	tests := []struct {
		name    string
		typ     string
		retrig  time.Duration
		steps   []step
		cleared int // NTFCL entries expected
	}{
		{name: "one shot sends once while true", typ: TypeOneShot, steps: []step{
			{values: v(70)}, {values: v(81), want: []string{trig}}, {values: v(90)}, {adv: time.Hour, values: v(95)},
		}},
		{name: "one shot sends again after false", typ: TypeOneShot, steps: []step{
			{values: v(81), want: []string{trig}}, {values: v(79)}, {values: v(85), want: []string{trig}},
		}},
		{name: "one shot never clears", typ: TypeOneShot, steps: []step{
			{values: v(81), want: []string{trig}}, {values: v(10)},
		}},
		{name: "toggled sends triggered then cleared", typ: TypeToggled, cleared: 2, steps: []step{
			{values: v(81), want: []string{trig}}, {values: v(82)}, {values: v(80), want: []string{clr}},
			{values: v(70)}, {values: v(99), want: []string{trig}}, {values: v(1), want: []string{clr}},
		}},
		{name: "toggled does not clear what never triggered", typ: TypeToggled, steps: []step{
			{values: v(10)}, {values: v(20)},
		}},
		{name: "retriggered respects the retrigger time", typ: TypeRetriggered, retrig: 10 * time.Second, steps: []step{
			{values: v(81), want: []string{trig}},
			{adv: 5 * time.Second, values: v(82)},
			{adv: 5 * time.Second, want: []string{trig}}, // the timer, with no new reading
			{adv: 3 * time.Second, values: v(83)},
			{adv: 7 * time.Second, values: v(84), want: []string{trig}},
			{values: v(10)},
			{adv: time.Second, values: v(90), want: []string{trig}}, // became true again: at once
			{values: v(10)},
			{adv: time.Minute}, // false: the timer does nothing
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, h, clk := newTestEngine(t, Instance{Name: "hot", Rule: RuleThreshold, RuleConfig: rule, Type: tt.typ,
				RetriggerTime: tt.retrig, Enabled: true, Channels: []Channel{alertChannel}})
			runSteps(t, e, h, clk, tt.steps)
			cleared := 0
			for _, a := range h.auditLog() {
				if a.source == AuditCleared {
					cleared++
					if a.details["name"] != "hot" || a.severity != auditcode.Information {
						t.Errorf("NTFCL entry %+v", a)
					}
				}
			}
			if cleared != tt.cleared {
				t.Errorf("%d NTFCL entries, want %d", cleared, tt.cleared)
			}
		})
	}
}

func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		rule  string
		cfg   map[string]string
		steps []step
	}{
		{name: "threshold single >=", rule: RuleThreshold,
			cfg:   map[string]string{"asset": "boiler", "datapoint": "temp", "condition": ">=", "value": "80"},
			steps: []step{{values: v(79.9)}, {values: v(80), want: []string{trig}}, {values: v(79), want: []string{clr}}}},
		{name: "threshold single == on an integer", rule: RuleThreshold,
			cfg:   map[string]string{"asset": "boiler", "datapoint": "temp", "condition": "==", "value": "3"},
			steps: []step{{values: v(int64(3)), want: []string{trig}}, {values: v(int64(4)), want: []string{clr}}}},
		{name: "threshold ignores other assets, datapoints and non-numbers", rule: RuleThreshold,
			cfg: map[string]string{"asset": "boiler", "datapoint": "temp", "condition": "<", "value": "0"},
			steps: []step{{asset: "pump", values: v(-5)}, {values: map[string]any{"rpm": -5}}, {values: v("cold")},
				{values: v(-1), want: []string{trig}}}},
		{name: "threshold window average", rule: RuleThreshold,
			cfg: map[string]string{"asset": "boiler", "datapoint": "temp", "condition": ">", "value": "50",
				"evaluation": "window", "aggregate": "average", "window": "10"},
			steps: []step{{values: v(100), want: []string{trig}},
				{adv: time.Second, values: v(0), want: []string{clr}},        // (100+0)/2 = 50: not above
				{adv: time.Second, values: v(0)},                             // 33
				{adv: 9 * time.Second, values: v(200), want: []string{trig}}, // 100 and 0 left: (0+200)/2
				{adv: 2 * time.Second, values: v(0)},                         // 0 left: (200+0)/2
				{adv: 8 * time.Second, want: []string{clr}},                  // 200 left: the window holds 0
				{adv: time.Hour}}}, // empty: still false
		{name: "threshold window max empties and clears", rule: RuleThreshold,
			cfg: map[string]string{"asset": "boiler", "datapoint": "temp", "condition": ">", "value": "50",
				"evaluation": "window", "aggregate": "max", "window": "5"},
			steps: []step{{values: v(60), want: []string{trig}}, {adv: 2 * time.Second, values: v(10)},
				{adv: 3 * time.Second, want: []string{clr}}, // 60 left, max is 10
				{adv: 5 * time.Second}}},                    // empty
		{name: "threshold window min", rule: RuleThreshold,
			cfg: map[string]string{"asset": "boiler", "datapoint": "temp", "condition": "<", "value": "5",
				"evaluation": "window", "aggregate": "min", "window": "5"},
			steps: []step{{values: v(10)}, {adv: time.Second, values: v(1), want: []string{trig}}, {adv: time.Second, values: v(10)},
				{adv: 4 * time.Second, want: []string{clr}}}},
		{name: "outofbound single", rule: RuleOutOfBound,
			cfg: map[string]string{"asset": "boiler", "datapoint": "temp", "low": "10", "high": "20"},
			steps: []step{{values: v(10)}, {values: v(20)}, {values: v(20.5), want: []string{trig}}, {values: v(15), want: []string{clr}},
				{values: v(9), want: []string{trig}}}},
		{name: "outofbound window average", rule: RuleOutOfBound,
			cfg: map[string]string{"asset": "boiler", "datapoint": "temp", "low": "10", "high": "20", "evaluation": "window", "window": "60"},
			steps: []step{{values: v(25), want: []string{trig}}, {values: v(10), want: []string{clr}}, {values: v(0)},
				{values: v(-100), want: []string{trig}}}},
		{name: "data availability seen asset", rule: RuleDataAvailability,
			cfg: map[string]string{"asset": "boiler", "mode": "seen", "within": "30"},
			steps: []step{{asset: "pump", values: v(1)}, {values: map[string]any{"x": "any"}, want: []string{trig}},
				{adv: 20 * time.Second, values: v(1)}, {adv: 29 * time.Second}, {adv: time.Second, want: []string{clr}},
				{adv: time.Hour, values: v(1), want: []string{trig}}}},
		{name: "data availability not seen asset", rule: RuleDataAvailability,
			cfg: map[string]string{"asset": "boiler", "mode": "notSeen", "within": "30"},
			steps: []step{{adv: 29 * time.Second}, {adv: time.Second, want: []string{trig}}, {values: v(1), want: []string{clr}},
				{adv: 20 * time.Second, values: v(1)}, {adv: 20 * time.Second}, {adv: 10 * time.Second, want: []string{trig}}}},
		{name: "data availability seen audit code", rule: RuleDataAvailability,
			cfg:   map[string]string{"auditCode": "SRVFL", "within": "10"},
			steps: []step{{audit: "SRVRG"}, {values: v(1)}, {audit: "SRVFL", want: []string{trig}}, {adv: 10 * time.Second, want: []string{clr}}}},
		{name: "data availability asset or audit code not seen", rule: RuleDataAvailability,
			cfg: map[string]string{"asset": "boiler", "auditCode": "SRVFL", "mode": "notSeen", "within": "10"},
			steps: []step{{adv: 9 * time.Second, audit: "SRVFL"}, {adv: 9 * time.Second, values: v(1)}, {adv: 10 * time.Second, want: []string{trig}},
				{audit: "SRVFL", want: []string{clr}}}},
		{name: "statistic rate per period", rule: RuleStatistic,
			cfg: map[string]string{"statistic": "READINGS", "period": "60", "condition": ">", "value": "600"},
			steps: []step{{stats: map[string]int64{"READINGS": 0}},
				{adv: 10 * time.Second, stats: map[string]int64{"READINGS": 100}},                         // 600/min: not above
				{adv: 10 * time.Second, stats: map[string]int64{"READINGS": 300}, want: []string{trig}},   // 900/min
				{adv: 10 * time.Second, stats: map[string]int64{"OTHER": 1}},                              // no READINGS: nothing
				{adv: 50 * time.Second, stats: map[string]int64{"READINGS": 310}, want: []string{clr}},    // 10 at -60s: 300 in 60 s
				{adv: 10 * time.Second, stats: map[string]int64{"READINGS": 5}},                           // reset: unknown
				{adv: 10 * time.Second, stats: map[string]int64{"READINGS": 500}, want: []string{trig}}}}, // 2970/min
		{name: "statistic rate below", rule: RuleStatistic,
			cfg:   map[string]string{"statistic": "READINGS", "period": "10", "condition": "<", "value": "1"},
			steps: []step{{stats: map[string]int64{"READINGS": 7}}, {adv: 5 * time.Second, stats: map[string]int64{"READINGS": 7}, want: []string{trig}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, h, clk := newTestEngine(t, Instance{Name: "n", Rule: tt.rule, RuleConfig: tt.cfg, Type: TypeToggled, Enabled: true,
				Channels: []Channel{alertChannel}})
			runSteps(t, e, h, clk, tt.steps)
		})
	}
}

func TestValidateInstance(t *testing.T) {
	ok := Instance{Name: "n", Rule: RuleThreshold, Type: TypeOneShot,
		RuleConfig: map[string]string{"asset": "a", "datapoint": "d", "value": "1"}, Channels: []Channel{alertChannel}}
	tests := []struct {
		name    string
		change  func(in *Instance)
		wantErr string // "" : valid
	}{
		{name: "valid", change: func(*Instance) {}},
		{name: "no name", change: func(in *Instance) { in.Name = " " }, wantErr: "needs a name"},
		{name: "unknown type", change: func(in *Instance) { in.Type = "twice" }, wantErr: `type "twice"`},
		{name: "retriggered without time", change: func(in *Instance) { in.Type = TypeRetriggered }, wantErr: "retrigger time"},
		{name: "unknown rule", change: func(in *Instance) { in.Rule = "magic" }, wantErr: `no rule plugin "magic"`},
		{name: "unknown rule item", change: func(in *Instance) {
			in.RuleConfig = map[string]string{"asset": "a", "datapoint": "d", "value": "1", "x": "1"}
		}, wantErr: `no item "x"`},
		{name: "missing mandatory item", change: func(in *Instance) { in.RuleConfig = map[string]string{"asset": "a", "value": "1"} }, wantErr: `"datapoint" needs a value`},
		{name: "bad condition", change: func(in *Instance) {
			in.RuleConfig = map[string]string{"asset": "a", "datapoint": "d", "value": "1", "condition": "=>"}
		}, wantErr: `"condition"`},
		{name: "bad number", change: func(in *Instance) { in.RuleConfig = map[string]string{"asset": "a", "datapoint": "d", "value": "hot"} }, wantErr: "not a number"},
		{name: "window below minimum", change: func(in *Instance) {
			in.RuleConfig = map[string]string{"asset": "a", "datapoint": "d", "value": "1", "evaluation": "window", "window": "0"}
		}, wantErr: "minimum"},
		{name: "outofbound low above high", change: func(in *Instance) {
			in.Rule, in.RuleConfig = RuleOutOfBound, map[string]string{"asset": "a", "datapoint": "d", "low": "5", "high": "1"}
		}, wantErr: "above high"},
		{name: "data availability with nothing to watch", change: func(in *Instance) {
			in.Rule, in.RuleConfig = RuleDataAvailability, map[string]string{}
		}, wantErr: "asset, an audit code"},
		{name: "no channel", change: func(in *Instance) { in.Channels = nil }, wantErr: "no delivery channel"},
		{name: "duplicate channel", change: func(in *Instance) { in.Channels = []Channel{alertChannel, alertChannel} }, wantErr: "given twice"},
		{name: "unknown delivery", change: func(in *Instance) { in.Channels = []Channel{{Name: "x", Plugin: "pigeon"}} }, wantErr: `no delivery plugin "pigeon"`},
		{name: "webhook bad url", change: func(in *Instance) {
			in.Channels = []Channel{{Name: "x", Plugin: DeliveryWebhook, Config: map[string]string{"url": "ftp://x"}}}
		}, wantErr: "not an http"},
		{name: "webhook headers not strings", change: func(in *Instance) {
			in.Channels = []Channel{{Name: "x", Plugin: DeliveryWebhook, Config: map[string]string{"url": "http://x", "headers": `{"a":1}`}}}
		}, wantErr: "headers"},
		{name: "mqtt bad broker", change: func(in *Instance) {
			in.Channels = []Channel{{Name: "x", Plugin: DeliveryMQTT, Config: map[string]string{"broker": "127.0.0.1"}}}
		}, wantErr: "broker"},
		{name: "email bad recipient", change: func(in *Instance) {
			in.Channels = []Channel{{Name: "x", Plugin: DeliveryEmail, Config: map[string]string{"host": "h", "from": "a@b.c", "to": "nobody"}}}
		}, wantErr: `"to"`},
		{name: "email bad subject template", change: func(in *Instance) {
			in.Channels = []Channel{{Name: "x", Plugin: DeliveryEmail, Config: map[string]string{"host": "h", "from": "a@b.c", "to": "d@e.f", "subject": "{{.Nope}}"}}}
		}, wantErr: `"subject"`},
		{name: "email password in clear over the network", change: func(in *Instance) {
			in.Channels = []Channel{{Name: "x", Plugin: DeliveryEmail, Config: map[string]string{"host": "smtp.example.com", "from": "a@b.c",
				"to": "d@e.f", "username": "u", "starttls": "none"}}}
		}, wantErr: "in clear"},
		{name: "setpoint values not an object", change: func(in *Instance) {
			in.Channels = []Channel{{Name: "x", Plugin: DeliverySetpoint, Config: map[string]string{"name": "s", "values": "[1]"}}}
		}, wantErr: "JSON object"},
		{name: "setpoint bad destination", change: func(in *Instance) {
			in.Channels = []Channel{{Name: "x", Plugin: DeliverySetpoint, Config: map[string]string{"name": "s", "values": `{"a":1}`, "destination": "north"}}}
		}, wantErr: `"destination"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := ok
			in.RuleConfig = ok.RuleConfig
			tt.change(&in)
			err := ValidateInstance(in)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("ValidateInstance = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("ValidateInstance = %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
}

func TestPlugins(t *testing.T) {
	rules, deliveries := Plugins()
	names := func(ps []PluginInfo, typ string) []string {
		var out []string
		for _, p := range ps {
			if p.Type != typ || p.Version == "" || p.Description == "" || len(p.Items) == 0 {
				t.Errorf("plugin %+v is incomplete", p)
			}
			out = append(out, p.Name)
		}
		return out
	}
	if got, want := names(rules, PluginRule), []string{"data_availability", "outofbound", "statistic", "threshold"}; !reflect.DeepEqual(got, want) {
		t.Errorf("rules %q, want %q", got, want)
	}
	if got, want := names(deliveries, PluginDelivery), []string{"asset", "email", "mqtt", "setpoint", "webhook"}; !reflect.DeepEqual(got, want) {
		t.Errorf("deliveries %q, want %q", got, want)
	}
	for _, p := range append(rules, deliveries...) {
		for name, it := range p.Items {
			if it.Description == "" || it.Type == "" || it.DisplayName == "" || it.Order == "" {
				t.Errorf("%s item %s is incomplete: %+v", p.Name, name, it)
			}
			if it.Type == typeEnum && len(it.Options) == 0 {
				t.Errorf("%s item %s has no options", p.Name, name)
			}
		}
	}
}

func TestSetInstancesKeepsState(t *testing.T) {
	rule := map[string]string{"asset": "boiler", "datapoint": "temp", "value": "80"}
	hot := Instance{Name: "hot", Rule: RuleThreshold, RuleConfig: rule, Type: TypeOneShot, Enabled: true, Channels: []Channel{alertChannel}}
	e, h, clk := newTestEngine(t, hot)
	runSteps(t, e, h, clk, []step{{values: v(90), want: []string{trig}}})

	// The same instance again, beside a new one: still triggered, no second send.
	other := hot
	other.Name = "other"
	if err := e.SetInstances(t.Context(), []Instance{hot, other}); err != nil {
		t.Fatal(err)
	}
	runSteps(t, e, h, clk, []step{{values: v(91), want: []string{trig}}}) // other's first

	// Another channel on hot alone keeps its rule's state.
	hot2 := hot
	hot2.Channels = []Channel{alertChannel, {Name: "valve", Plugin: DeliverySetpoint, Config: map[string]string{"name": "s1", "values": `{"v":"shut"}`}}}
	if err := e.SetInstances(t.Context(), []Instance{hot2, other}); err != nil {
		t.Fatal(err)
	}
	runSteps(t, e, h, clk, []step{{values: v(92)}, {values: v(1)}, {values: v(93), want: []string{trig, trig}}})
	if len(h.dispatches) != 1 {
		t.Errorf("dispatches %+v, want one", h.dispatches)
	}

	// A changed rule starts afresh; an invalid set changes nothing.
	hot3 := hot2
	hot3.RuleConfig = map[string]string{"asset": "boiler", "datapoint": "temp", "value": "85"}
	bad := other
	bad.Rule = "nope"
	if err := e.SetInstances(t.Context(), []Instance{hot3, bad}); err == nil {
		t.Fatal("SetInstances with an invalid instance succeeded")
	}
	if err := e.SetInstances(t.Context(), []Instance{hot3}); err != nil {
		t.Fatal(err)
	}
	runSteps(t, e, h, clk, []step{{values: v(94), want: []string{trig}}})

	// Disabled: not evaluated.
	hot3.Enabled = false
	if err := e.SetInstances(t.Context(), []Instance{hot3}); err != nil {
		t.Fatal(err)
	}
	runSteps(t, e, h, clk, []step{{values: v(1)}, {values: v(99)}})

	if err := e.SetInstances(t.Context(), []Instance{hot, hot}); err == nil {
		t.Error("SetInstances with a name twice succeeded")
	}
}

func TestAuditOfSends(t *testing.T) {
	e, h, clk := newTestEngine(t, Instance{Name: "hot", Rule: RuleThreshold, Type: TypeToggled, Enabled: true,
		RuleConfig: map[string]string{"asset": "boiler", "datapoint": "temp", "value": "80"},
		Channels: []Channel{alertChannel, {Name: "valve", Plugin: DeliverySetpoint,
			Config: map[string]string{"destination": "asset", "name": "boiler", "values": `{"valve":"shut"}`, "clearValues": `{"valve":"open"}`}}}})
	runSteps(t, e, h, clk, []step{{values: v(90), want: []string{trig}}})
	h.mu.Lock()
	h.failIngest = errors.New("buffer full")
	h.mu.Unlock()
	runSteps(t, e, h, clk, []step{{values: v(10)}})

	var got []string
	for _, a := range h.auditLog() {
		got = append(got, fmt.Sprintf("%s %s %v %v %v %v", a.source, a.severity, a.details["channel"], a.details["state"], a.details["error"], a.details["name"]))
	}
	// Channels run apart: compare each channel's entries in order.
	want := map[string][]string{
		"alerts": {"NTFSN INFORMATION alerts triggered <nil> hot", "NTFSN FAILURE alerts cleared buffer full hot"},
		"valve":  {"NTFSN INFORMATION valve triggered <nil> hot", "NTFSN INFORMATION valve cleared <nil> hot"},
		"":       {"NTFCL INFORMATION <nil> <nil> <nil> hot"},
	}
	for ch, w := range want {
		var g []string
		for _, s := range got {
			if strings.Split(s, " ")[2] == ch || (ch == "" && strings.HasPrefix(s, AuditCleared)) {
				g = append(g, s)
			}
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("channel %q audit %q, want %q (all: %q)", ch, g, w, got)
		}
	}
	wantWrites := []Write{{Destination: "asset", Name: "boiler", Values: map[string]any{"valve": "shut"}},
		{Destination: "asset", Name: "boiler", Values: map[string]any{"valve": "open"}}}
	if !reflect.DeepEqual(h.dispatches, wantWrites) {
		t.Errorf("dispatches %+v, want %+v", h.dispatches, wantWrites)
	}
}

func TestAssetDeliveryReading(t *testing.T) {
	e, h, _ := newTestEngine(t, Instance{Name: "hot", Description: "too hot", Rule: RuleThreshold, Type: TypeOneShot, Enabled: true,
		RuleConfig: map[string]string{"asset": "boiler", "datapoint": "temp", "value": "80"}, Channels: []Channel{alertChannel}})
	e.Readings(t.Context(), []Reading{{Asset: "boiler", Timestamp: t0, Values: v(81.5)}})
	drain(t, e)
	h.mu.Lock()
	defer h.mu.Unlock()
	want := []Reading{{Asset: "alerts", Timestamp: t0, Values: map[string]any{"notification": "hot", "rule": "threshold",
		"state": "triggered", "asset": "boiler", "reason": "boiler.temp = 81.5 > 80", "message": "hot triggered: boiler.temp = 81.5 > 80"}}}
	if !reflect.DeepEqual(h.ingests, want) {
		t.Errorf("ingested %+v, want %+v", h.ingests, want)
	}
}

// A channel whose destination hangs neither blocks Readings nor the other
// channels; what does not fit its queue is dropped and audited.
func TestSlowChannelDoesNotBlock(t *testing.T) {
	h := &fakeHost{block: make(chan struct{})}
	clk := clock.NewFake(t0)
	e := New(Options{Host: h, Clock: clk, QueueLength: 2})
	defer e.Close()
	err := e.SetInstances(t.Context(), []Instance{{Name: "hot", Rule: RuleThreshold, Type: TypeRetriggered, RetriggerTime: time.Nanosecond, Enabled: true,
		RuleConfig: map[string]string{"asset": "boiler", "datapoint": "temp", "value": "80"},
		Channels:   []Channel{alertChannel, {Name: "valve", Plugin: DeliverySetpoint, Config: map[string]string{"name": "s", "values": `{"v":1}`}}}}})
	if err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	valve := e.instances["hot"].channels[1]
	e.mu.Unlock()
	start := time.Now()
	for range 10 {
		clk.Advance(time.Second)
		e.Readings(t.Context(), []Reading{{Asset: "boiler", Timestamp: t0, Values: v(90)}})
		// The setpoint channel goes on while the asset channel hangs.
		for valve.pending.Load() > 0 {
			if time.Since(start) > 10*time.Second {
				t.Fatal("the setpoint channel stalled behind the hanging one")
			}
			time.Sleep(time.Millisecond)
		}
	}
	if len(h.dispatches) != 10 {
		t.Fatalf("the setpoint channel made %d writes, want 10", len(h.dispatches))
	}
	close(h.block)
	drain(t, e)
	ingested := len(h.states())
	dropped := 0
	for _, a := range h.auditLog() {
		var n int
		if s, _ := a.details["error"].(string); strings.Contains(s, "dropped") {
			if _, err := fmt.Sscanf(s, "%d notifications dropped", &n); err != nil {
				t.Errorf("audit %q: %v", s, err)
			}
			dropped += n
		}
	}
	// One in the hanging Ingest and two queued; the others dropped, and
	// reported with the next deliveries.
	if ingested != 3 || dropped != 7 {
		t.Errorf("ingested %d (want 3), dropped %d (want 7)", ingested, dropped)
	}
}

// Run fires the timers by itself.
func TestRun(t *testing.T) {
	e, h, clk := newTestEngine(t, Instance{Name: "quiet", Rule: RuleDataAvailability, Type: TypeOneShot, Enabled: true,
		RuleConfig: map[string]string{"asset": "boiler", "mode": "notSeen", "within": "60"}, Channels: []Channel{alertChannel}})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- e.Run(ctx) }()
	clk.BlockUntil(1)
	clk.Advance(time.Minute)
	deadline := time.Now().Add(10 * time.Second)
	for {
		drain(t, e)
		h.mu.Lock()
		n := len(h.ingests)
		h.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no notification one minute after the asset was last seen")
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// The window's aggregates match a brute-force computation over random
// values and times.
func TestWindowAggregates(t *testing.T) {
	for _, agg := range []string{aggMin, aggMax, aggAverage} {
		t.Run(agg, func(t *testing.T) {
			w := &window{span: 10 * time.Second, agg: agg}
			var all []sample
			now := t0
			seed := uint64(42)
			rnd := func(n uint64) uint64 { seed = seed*6364136223846793005 + 1442695040888963407; return (seed >> 33) % n }
			for i := range 5000 {
				now = now.Add(time.Duration(rnd(3000)) * time.Millisecond)
				x := float64(rnd(100)) - 50
				w.add(now, x)
				all = append(all, sample{now, x})
				lo, hi, sum, n := 1e300, -1e300, 0.0, 0
				for _, s := range all {
					if s.t.After(now.Add(-w.span)) {
						lo, hi, sum, n = min(lo, s.v), max(hi, s.v), sum+s.v, n+1
					}
				}
				want := map[string]float64{aggMin: lo, aggMax: hi, aggAverage: sum / float64(n)}[agg]
				if got := w.aggregate(); got < want-1e-9 || got > want+1e-9 {
					t.Fatalf("value %d: %s = %g, want %g", i, agg, got, want)
				}
			}
		})
	}
}

// TestCloseEndsRun restarts an engine ten times the way the notification
// service does (Run on a context that never ends, then Close) and checks
// no goroutine of theirs is left: Close ends Run.
func TestCloseEndsRun(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 10 {
		e := New(Options{Host: &fakeHost{}})
		if err := e.SetInstances(t.Context(), []Instance{{Name: "quiet", Rule: RuleDataAvailability, Type: TypeOneShot, Enabled: true,
			RuleConfig: map[string]string{"asset": "boiler", "mode": "notSeen", "within": "60"}, Channels: []Channel{alertChannel}}}); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- e.Run(context.WithoutCancel(t.Context())) }()
		e.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return after Close")
		}
	}
	waitGoroutines(t, before)
}

// waitGoroutines waits until no more than n goroutines run, failing the
// test with their stacks after a deadline.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines left, %d before:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
