package mqtt

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
	"github.com/edged/edged/internal/simtest"
)

var now = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		cfg     map[string]string
		topic   string
		payload string
		want    []string // asset|timestamp|values
		wantErr bool
	}{
		{name: "plain integer, asset from a topic level", cfg: map[string]string{ItemAssetLevel: "1"}, topic: "plant/boiler/temp",
			payload: " 42 ", want: []string{`boiler|2026-03-04T05:06:07Z|{"value":42}`}},
		{name: "plain float, whole topic", topic: "a/b", payload: "21.5", want: []string{`a/b|2026-03-04T05:06:07Z|{"value":21.5}`}},
		{name: "object with asset and timestamp fields", cfg: map[string]string{ItemAssetField: "id", ItemTimestampField: "ts"},
			topic: "x", payload: `{"id":"pump1","ts":"2024-01-02 03:04:05.123","rpm":1200,"on":true}`,
			want: []string{`pump1|2024-01-02T03:04:05.123Z|{"on":true,"rpm":1200}`}},
		{name: "epoch seconds", cfg: map[string]string{ItemTimestampField: "ts"}, topic: "x", payload: `{"ts":1700000000.5,"v":1}`,
			want: []string{`x|2023-11-14T22:13:20.5Z|{"v":1}`}},
		{name: "absent timestamp field takes arrival time", cfg: map[string]string{ItemTimestampField: "ts"}, topic: "x", payload: `{"v":1}`,
			want: []string{`x|2026-03-04T05:06:07Z|{"v":1}`}},
		{name: "array of objects", topic: "t", payload: `[{"a":1},{"a":2}]`,
			want: []string{`t|2026-03-04T05:06:07Z|{"a":1}`, `t|2026-03-04T05:06:07Z|{"a":2}`}},
		{name: "text", topic: "t", payload: "on", wantErr: true},
		{name: "NaN is not a number here", topic: "t", payload: "NaN", wantErr: true},
		{name: "empty object", topic: "t", payload: "{}", wantErr: true},
		{name: "missing asset field", cfg: map[string]string{ItemAssetField: "id"}, topic: "t", payload: `{"v":1}`, wantErr: true},
		{name: "topic too short", cfg: map[string]string{ItemAssetLevel: "3"}, topic: "a/b", payload: "1", wantErr: true},
		{name: "bad timestamp", cfg: map[string]string{ItemTimestampField: "ts"}, topic: "t", payload: `{"ts":"yesterday","v":1}`, wantErr: true},
		{name: "array with a number", topic: "t", payload: `[{"a":1},2]`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := plugintest.Defaults(SouthDefinition())
			for k, v := range tt.cfg {
				cfg[k] = v
			}
			p, err := NewSouth(plugin.Env{Service: "s"}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := p.decode(tt.topic, []byte(tt.payload), now)
			if tt.wantErr {
				if err == nil {
					t.Errorf("decode = %v, want an error", rs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, r := range rs {
				got = append(got, fmt.Sprintf("%s|%s|%s", r.Asset, r.Timestamp.Format(time.RFC3339Nano), r.Values))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decode = %q, want %q", got, tt.want)
			}
		})
	}
}

// publisher connects a test client to the broker.
func publisher(t *testing.T, url, id string) paho.Client {
	t.Helper()
	c := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID(id).SetCleanSession(true))
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("test client connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	return c
}

// countingSink refuses every submission while full is set, counting the
// refusals, and records what it takes.
type countingSink struct {
	*plugintest.Sink
	full    atomic.Bool
	refused atomic.Int64
}

func (s *countingSink) Submit(rs []plugin.Reading) (plugin.Receipt, error) {
	if s.full.Load() {
		s.refused.Add(1)
		return nil, plugin.ErrBufferFull
	}
	return s.Sink.Submit(rs)
}

// run runs a south instance until the returned stop is called.
func run(t *testing.T, cfg plugin.Config, sink plugin.Sink) (stop func()) {
	t.Helper()
	p, err := NewSouth(plugin.Env{Service: "mq"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, sink) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run = %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// values collects n readings' "i" values from sink.
func values(t *testing.T, sink *plugintest.Sink, n int) []int {
	t.Helper()
	var got []int
	deadline := time.After(30 * time.Second)
	for len(got) < n {
		select {
		case rs := <-sink.Calls:
			for _, r := range rs {
				var v struct{ I int }
				if err := json.Unmarshal(r.Values, &v); err != nil {
					t.Fatal(err)
				}
				if v.I >= 0 { // not a probe
					got = append(got, v.I)
				}
			}
		case <-deadline:
			t.Fatalf("%d of %d readings arrived within 30 s", len(got), n)
		}
	}
	sort.Ints(got)
	return got
}

// TestSouthBackPressure publishes QoS 1 messages to mosquitto while the
// buffer is full: nothing is acknowledged, so neither a wait nor a stop
// in that state loses a message.
func TestSouthBackPressure(t *testing.T) {
	for _, v := range []string{"3.1.1", "5"} {
		t.Run("MQTT "+v, func(t *testing.T) { southBackPressure(t, v) })
	}
}

func southBackPressure(t *testing.T, version string) {
	broker := simtest.Mosquitto(t)
	cfg := plugintest.Defaults(SouthDefinition())
	cfg[ItemBroker] = broker.URL
	cfg[ItemTopics] = `["plant/+/data"]`
	cfg[ItemAssetLevel] = "1"
	cfg[ItemClientID] = "edged-test-south"
	cfg[ItemProtocol] = version
	sink := &countingSink{Sink: plugintest.NewSink(1000)}
	sink.full.Store(true)
	stop := run(t, cfg, sink)

	pub := publisher(t, broker.URL, "test-pub")
	// The subscription is in place once a first message gets through.
	sink.full.Store(false)
	for !waitFirst(t, pub, sink) {
	}
	sink.full.Store(true)
	const n = 30
	for i := range n {
		tok := pub.Publish(fmt.Sprintf("plant/m%d/data", i%3), 1, false, fmt.Sprintf(`{"i":%d}`, i))
		if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("publish %d: %v", i, tok.Error())
		}
	}
	// The first message is refused again and again while the buffer is
	// full; then the instance stops without having stored anything.
	for sink.refused.Load() < 3 {
		time.Sleep(10 * time.Millisecond) // polling a counter the plugin's goroutine bumps
	}
	stop()
	select {
	case rs := <-sink.Calls:
		t.Fatalf("readings taken while the buffer was full: %v", rs)
	default:
	}

	// A new instance with the same client id gets every message again.
	sink2 := &countingSink{Sink: plugintest.NewSink(1000)}
	run(t, cfg, sink2)
	got := values(t, sink2.Sink, n)
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after the restart got %v, want 0..%d once each", got, n-1)
	}
}

// waitFirst publishes a probe and reports whether it arrived.
func waitFirst(t *testing.T, pub paho.Client, sink *countingSink) bool {
	t.Helper()
	pub.Publish("plant/probe/data", 1, false, `{"i":-1}`).Wait()
	select {
	case <-sink.Calls:
		return true
	case <-time.After(200 * time.Millisecond):
		return false
	}
}

// TestNorthPublishes sends readings through mosquitto to a subscriber,
// across a broker restart.
func TestNorthPublishes(t *testing.T) {
	for _, v := range []string{"3.1.1", "5"} {
		t.Run("MQTT "+v, func(t *testing.T) { northPublishes(t, v) })
	}
}

func northPublishes(t *testing.T, version string) {
	broker := simtest.Mosquitto(t)
	sub := publisher(t, broker.URL, "test-sub")
	got := make(chan paho.Message, 1000)
	if tok := sub.Subscribe("out/#", 1, func(_ paho.Client, m paho.Message) { got <- m }); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	cfg := plugintest.Defaults(NorthDefinition())
	cfg[ItemBroker] = broker.URL
	cfg[ItemTopic] = `out/{{.Asset}}/{{.Service}}`
	cfg[ItemProtocol] = version
	n, err := NewNorth(plugin.NorthEnv{Env: plugin.Env{Service: "up"}}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = n.Close() }() // it only disconnects
	var rs []plugin.Reading
	for i := range 20 {
		rs = append(rs, plugin.Reading{Asset: fmt.Sprintf("a%d", i%2), Timestamp: now.Add(time.Duration(i) * time.Millisecond),
			Values: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))})
	}
	if k, err := n.Send(t.Context(), rs); k != 20 || err != nil {
		t.Fatalf("Send = %d, %v", k, err)
	}
	for i := range 20 {
		select {
		case m := <-got:
			want := fmt.Sprintf(`{"asset": "a%d", "timestamp": %q, "readings": {"i":%d}}`, i%2,
				now.Add(time.Duration(i)*time.Millisecond).Format("2006-01-02 15:04:05.000000"), i)
			if m.Topic() != fmt.Sprintf("out/a%d/up", i%2) || string(m.Payload()) != want {
				t.Errorf("message %d: %s %s, want %s", i, m.Topic(), m.Payload(), want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("message %d not received", i)
		}
	}

	// Templates change at once.
	cfg[ItemPayload] = `{{index .Readings "i"}}`
	if err := n.Reconfigure(cfg); err != nil {
		t.Fatal(err)
	}
	if k, err := n.Send(t.Context(), rs[:1]); k != 1 || err != nil {
		t.Fatalf("Send = %d, %v", k, err)
	}
	if m := <-got; string(m.Payload()) != "0" {
		t.Errorf("payload with the new template = %s", m.Payload())
	}
	cfg[ItemPayload] = `{{.Nope}}`
	if err := n.Reconfigure(cfg); err != nil {
		t.Fatal(err)
	}
	if k, err := n.Send(t.Context(), rs[:1]); k != 0 || err == nil {
		t.Errorf("Send with a failing template = %d, %v; want 0 and an error", k, err)
	}
}
