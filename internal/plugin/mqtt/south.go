package mqtt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// SouthName is the south plugin's name.
const SouthName = "mqtt_south"

// Items of the south plugin besides the connection's.
const (
	ItemTopics         = "topics"
	ItemQoS            = "qos"
	ItemAssetLevel     = "assetTopicLevel"
	ItemAssetField     = "assetField"
	ItemTimestampField = "timestampField"
	ItemValueName      = "valueName"
)

// SouthDefinition describes the south plugin.
func SouthDefinition() plugin.Definition {
	return plugin.Definition{
		Name: SouthName, Version: "1.0.0", Kind: plugin.KindSouth,
		Description: "Subscribes to MQTT topics and turns JSON or numeric messages into readings",
		Items:       plugin.ItemsOf(SouthConfig{}),
		New:         func(env plugin.Env, cfg plugin.Config) (plugin.South, error) { return NewSouth(env, cfg) },
	}
}

// southSettings is a checked configuration.
type southSettings struct {
	conn           connection
	topics         []string
	qos            byte
	assetLevel     int
	assetField     string
	timestampField string
	valueName      string
}

func parseSouth(cfg plugin.Config, service string) (southSettings, error) {
	var s southSettings
	var c SouthConfig
	if err := plugin.Decode(cfg, &c); err != nil {
		return s, err
	}
	var err error
	if s.conn, err = parseConnection(c.connectionConfig, service); err != nil {
		return s, err
	}
	if s.topics = c.Topics; len(s.topics) == 0 {
		return s, fmt.Errorf("item %q must be a non-empty JSON array of topic filters", ItemTopics)
	}
	for _, f := range s.topics {
		if f == "" || strings.ContainsRune(f, 0) {
			return s, fmt.Errorf("item %q holds an empty topic filter", ItemTopics)
		}
	}
	switch c.QoS {
	case "0":
		s.qos = 0
	case "1":
		s.qos = 1
	default:
		return s, fmt.Errorf("item %q must be 0 or 1", ItemQoS)
	}
	if s.assetLevel = c.AssetTopicLevel; s.assetLevel < -1 {
		return s, fmt.Errorf("item %q must be -1 or more", ItemAssetLevel)
	}
	s.assetField, s.timestampField, s.valueName = c.AssetField, c.TimestampField, c.ValueName
	if s.valueName == "" {
		return s, fmt.Errorf("item %q is empty", ItemValueName)
	}
	return s, nil
}

// South is a running instance of the south plugin.
type South struct {
	env plugin.Env
	log *slog.Logger
	clk clock.Clock
	s   southSettings

	ready     chan struct{} // closed once connected and subscribed
	readyOnce sync.Once

	mu       sync.Mutex // guards refused and notReady
	refused  bool       // a message was refused as malformed since the last accepted one
	notReady string     // why the last connection attempt failed
}

var (
	_ plugin.South   = (*South)(nil)
	_ plugin.Readier = (*South)(nil)
)

// Ready is closed once the plugin is connected to the broker and
// subscribed: its service is running from then on.
func (p *South) Ready() <-chan struct{} { return p.ready }

// NotReady says why it is not connected yet.
func (p *South) NotReady() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.notReady != "" {
		return fmt.Sprintf("not connected to the MQTT broker %s: %s", p.s.conn.broker, p.notReady)
	}
	return fmt.Sprintf("not connected to the MQTT broker %s yet", p.s.conn.broker)
}

// connected marks the plugin ready: connected and subscribed.
func (p *South) connected() { p.readyOnce.Do(func() { close(p.ready) }) }

// connectFailed records why a connection attempt failed.
func (p *South) connectFailed(err error) {
	why := err.Error()
	if p.s.conn.v5 && errors.Is(err, io.EOF) {
		why += " (the broker closed the connection: a broker that speaks only MQTT 3.1.1 does so to an MQTT 5 client; see item protocolVersion)"
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.notReady = why
}

// NewSouth returns an instance for cfg; it connects when it runs.
func NewSouth(env plugin.Env, cfg plugin.Config) (*South, error) {
	s, err := parseSouth(cfg, env.Service)
	if err != nil {
		return nil, err
	}
	p := &South{env: env, log: env.Log(), clk: env.Time(), s: s, ready: make(chan struct{})}
	return p, nil
}

// Reconfigure asks for a new instance: a new broker, topic or mapping
// needs a new session.
func (p *South) Reconfigure(cfg plugin.Config) error {
	if _, err := parseSouth(cfg, p.env.Service); err != nil {
		return err
	}
	return plugin.ErrRestart
}

// message is a received message, whichever the protocol version.
type message struct {
	topic   string
	payload []byte
	qos     byte
	ack     func() // acknowledges it to the broker (QoS 1)
}

// pending is a QoS 1 message whose readings were submitted: it is
// acknowledged to the broker once they are committed.
type pending struct {
	receipt plugin.Receipt
	msg     message
}

// acker acknowledges submitted messages in order, each once its readings
// are committed, until acks is closed.
func (p *South) acker(ctx context.Context, acks <-chan pending, done chan<- struct{}) {
	defer close(done)
	for a := range acks {
		if err := a.receipt.Wait(ctx); err != nil {
			// Not acknowledged: the broker delivers it again at the next
			// connection.
			if ctx.Err() == nil {
				p.log.Error("mqtt message not stored; not acknowledged", "topic", a.msg.topic, "error", err)
			}
			continue
		}
		a.msg.ack()
	}
}

// Run subscribes and ingests until ctx ends. The broker keeps the session
// (clean session off): QoS 1 messages not acknowledged when the gateway
// stops or dies are delivered again at the next connection. Messages are
// handled in the order they arrive; while the ingest buffer is full the
// handler waits, so the broker stops sending once its in-flight window is
// used up, and nothing is acknowledged that is not stored.
func (p *South) Run(ctx context.Context, sink plugin.Sink) error {
	acks := make(chan pending, 1024)
	ackerDone := make(chan struct{})
	go p.acker(ctx, acks, ackerDone)
	if p.s.conn.v5 {
		err := p.run5(ctx, sink, acks)
		close(acks)
		<-ackerDone
		return err
	}
	handle := func(_ paho.Client, msg paho.Message) {
		p.handle(ctx, sink, message{topic: msg.Topic(), payload: msg.Payload(), qos: msg.Qos(), ack: msg.Ack}, acks)
	}
	opts := p.s.conn.options().SetCleanSession(false).SetAutoAckDisabled(true).SetOrderMatters(true).
		SetResumeSubs(true).SetDefaultPublishHandler(handle)
	opts.SetOnConnectHandler(func(c paho.Client) {
		filters := map[string]byte{}
		for _, f := range p.s.topics {
			filters[f] = p.s.qos
		}
		tok := c.SubscribeMultiple(filters, handle)
		if !tok.WaitTimeout(p.s.conn.timeout) || tok.Error() != nil {
			p.log.Error("mqtt subscription failed; retrying at the next connection", "broker", p.s.conn.broker, "error", tok.Error())
			c.Disconnect(0) // reconnecting subscribes again
			return
		}
		p.log.Info("mqtt connected and subscribed", "broker", p.s.conn.broker, "topics", p.s.topics)
		p.connected()
	})
	opts.SetConnectionNotificationHandler(func(_ paho.Client, n paho.ConnectionNotification) {
		if f, ok := n.(paho.ConnectionNotificationFailed); ok && f.Reason != nil {
			p.connectFailed(f.Reason)
		}
	})
	opts.SetConnectionLostHandler(func(_ paho.Client, err error) {
		p.log.Warn("mqtt connection lost; reconnecting", "broker", p.s.conn.broker, "error", err)
	})
	client := paho.NewClient(opts)
	client.Connect() // retried in the background until it succeeds
	<-ctx.Done()
	client.Disconnect(250)
	close(acks)
	<-ackerDone
	return nil
}

// handle turns one message into readings and hands them over. A QoS 0
// message is Put; a QoS 1 message is submitted, waiting while the buffer
// is full, and acknowledged by the acker once committed. A malformed
// message is logged and acknowledged: resending it cannot help.
func (p *South) handle(ctx context.Context, sink plugin.Sink, msg message, acks chan<- pending) {
	readings, err := p.decode(msg.topic, msg.payload, p.clk.Now())
	if err != nil {
		p.mu.Lock()
		first := !p.refused
		p.refused = true
		p.mu.Unlock()
		if first {
			p.log.Warn("mqtt message not understood; dropped (logged once until a message is accepted)", "topic", msg.topic, "error", err)
		}
		msg.ack()
		return
	}
	p.mu.Lock()
	p.refused = false
	p.mu.Unlock()
	if msg.qos == 0 {
		sink.Put(readings)
		return
	}
	wait := 10 * time.Millisecond
	for {
		r, err := sink.Submit(readings)
		switch {
		case err == nil:
			select {
			case acks <- pending{receipt: r, msg: msg}:
			case <-ctx.Done():
			}
			return
		case errors.Is(err, plugin.ErrBufferFull):
			t := p.clk.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return // not acknowledged: delivered again at the next connection
			case <-t.C():
			}
			wait = min(2*wait, time.Second)
		case errors.Is(err, plugin.ErrStopped):
			return
		case errors.Is(err, plugin.ErrAssetCode):
			// a topic making a code longer than the gateway takes: the
			// buffer logs it (at most once a minute); resending cannot help
			msg.ack()
			return
		default:
			p.log.Error("mqtt message refused by the buffer; dropped", "topic", msg.topic, "error", err)
			msg.ack()
			return
		}
	}
}

// decode turns a message into readings: a plain number is one datapoint
// (valueName); a JSON object is one reading, a JSON array of objects one
// reading per element.
func (p *South) decode(topic string, payload []byte, now time.Time) ([]plugin.Reading, error) {
	now = now.UTC().Truncate(time.Microsecond)
	trimmed := bytes.TrimSpace(payload)
	if n, ok := plainNumber(trimmed); ok {
		asset, err := p.topicAsset(topic)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(map[string]any{p.s.valueName: n})
		if err != nil {
			return nil, err
		}
		return []plugin.Reading{{Asset: asset, Timestamp: now, Values: raw}}, nil
	}
	d := json.NewDecoder(bytes.NewReader(trimmed))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return nil, fmt.Errorf("payload is neither a number nor a JSON object or array")
	}
	var objects []map[string]any
	switch x := v.(type) {
	case map[string]any:
		objects = []map[string]any{x}
	case []any:
		for _, e := range x {
			o, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("a JSON array payload must hold objects only")
			}
			objects = append(objects, o)
		}
	default:
		return nil, fmt.Errorf("payload is neither a number nor a JSON object or array")
	}
	out := make([]plugin.Reading, 0, len(objects))
	for _, o := range objects {
		r, err := p.reading(topic, o, now)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// reading makes one reading of a JSON object.
func (p *South) reading(topic string, o map[string]any, now time.Time) (plugin.Reading, error) {
	r := plugin.Reading{Timestamp: now}
	if f := p.s.assetField; f != "" {
		a, ok := o[f].(string)
		if !ok || a == "" {
			return r, fmt.Errorf("field %q naming the asset is missing or not a non-empty string", f)
		}
		r.Asset = a
		delete(o, f)
	} else {
		a, err := p.topicAsset(topic)
		if err != nil {
			return r, err
		}
		r.Asset = a
	}
	if f := p.s.timestampField; f != "" {
		if v, ok := o[f]; ok {
			ts, err := timestamp(v)
			if err != nil {
				return r, fmt.Errorf("field %q: %w", f, err)
			}
			r.Timestamp = ts
			delete(o, f)
		}
	}
	if len(o) == 0 {
		return r, fmt.Errorf("the message has no datapoints")
	}
	raw, err := json.Marshal(o)
	if err != nil {
		return r, err
	}
	r.Values = raw
	return r, nil
}

// topicAsset names the asset after the configured level of topic.
func (p *South) topicAsset(topic string) (string, error) {
	if p.s.assetLevel < 0 {
		return topic, nil
	}
	levels := strings.Split(topic, "/")
	if p.s.assetLevel >= len(levels) || levels[p.s.assetLevel] == "" {
		return "", fmt.Errorf("topic %q has no level %d to name the asset", topic, p.s.assetLevel)
	}
	return levels[p.s.assetLevel], nil
}

// plainNumber parses a payload that is just a number: an integer stays an
// integer.
func plainNumber(b []byte) (any, bool) {
	s := string(b)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "nNiI") {
		return f, true
	}
	return nil, false
}

// timestamp reads a timestamp field: a string in the forms ingest accepts,
// or seconds since 1970.
func timestamp(v any) (time.Time, error) {
	switch x := v.(type) {
	case string:
		return plugin.ParseTimestamp(x)
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return time.Time{}, fmt.Errorf("%q is not a number of seconds", x)
		}
		sec := int64(f)
		return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC().Truncate(time.Microsecond), nil
	}
	return time.Time{}, fmt.Errorf("%v is neither a timestamp string nor seconds since 1970", v)
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.South   = (*South)(nil)
	_ edgeplugin.Readier = (*South)(nil)
)
