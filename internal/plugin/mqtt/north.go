package mqtt

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/format"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// NorthName is the north plugin's name.
const NorthName = "mqtt_north"

// Items of the north plugin besides the connection's.
const (
	ItemTopic   = "topic"
	ItemPayload = "payload"
	ItemRetain  = "retain"
)

// NorthDefinition describes the north plugin.
func NorthDefinition() plugin.Definition {
	return plugin.Definition{
		Name: NorthName, Version: "1.0.0", Kind: plugin.KindNorth,
		Description: "Publishes readings to an MQTT broker with QoS 1; a reading counts as sent once the broker acknowledged it",
		Items:       plugin.ItemsOf(NorthConfig{}),
		NewNorth:    func(env plugin.NorthEnv, cfg plugin.Config) (plugin.North, error) { return NewNorth(env, cfg) },
	}
}

type northSettings struct {
	conn    connection
	topic   *format.Template
	payload *format.Template
	retain  bool
}

func parseNorth(cfg plugin.Config, service string) (northSettings, error) {
	var s northSettings
	var c NorthConfig
	if err := plugin.Decode(cfg, &c); err != nil {
		return s, err
	}
	var err error
	if s.conn, err = parseConnection(c.connectionConfig, service); err != nil {
		return s, err
	}
	if s.topic, err = format.Parse("topic", c.Topic); err != nil {
		return s, fmt.Errorf("item %q: %w", ItemTopic, err)
	}
	if s.payload, err = format.Parse("payload", c.Payload); err != nil {
		return s, fmt.Errorf("item %q: %w", ItemPayload, err)
	}
	s.retain = c.Retain
	return s, nil
}

// North is a running instance of the north plugin.
type North struct {
	env plugin.NorthEnv
	log *slog.Logger
	clk clock.Clock

	mu     sync.Mutex // guards s
	s      northSettings
	client paho.Client // MQTT 3.1.1: connected by the first Send; used by Send only
	v5     *north5     // MQTT 5: likewise
	down   bool        // NHDWN written, NHAVL not yet
}

var _ plugin.North = (*North)(nil)

// NewNorth returns an instance for cfg; it connects at the first Send.
func NewNorth(env plugin.NorthEnv, cfg plugin.Config) (*North, error) {
	s, err := parseNorth(cfg, env.Service)
	if err != nil {
		return nil, err
	}
	n := &North{env: env, log: env.Log(), clk: env.Time(), s: s}
	return n, nil
}

// Reconfigure takes new templates at once; a new connection asks for a
// new instance.
func (n *North) Reconfigure(cfg plugin.Config) error {
	s, err := parseNorth(cfg, n.env.Service)
	if err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if s.conn.broker != n.s.conn.broker || s.conn.v5 != n.s.conn.v5 || s.conn.clientID != n.s.conn.clientID || s.conn.username != n.s.conn.username ||
		s.conn.password != n.s.conn.password || (s.conn.tls == nil) != (n.s.conn.tls == nil) || s.conn.timeout != n.s.conn.timeout {
		return plugin.ErrRestart
	}
	n.s = s
	return nil
}

func (n *North) settings() northSettings {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.s
}

// render makes the topic and payload of r.
func (s northSettings) render(service string, r plugin.Reading) (string, []byte, error) {
	topic, err := s.topic.Render(service, r)
	if err != nil {
		return "", nil, err
	}
	payload, err := s.payload.Render(service, r)
	if err != nil {
		return "", nil, err
	}
	return string(topic), payload, nil
}

// connect opens the connection if needed.
func (n *North) connect(s northSettings) error {
	if n.client != nil && n.client.IsConnectionOpen() {
		return nil
	}
	if n.client == nil {
		opts := s.conn.options().SetCleanSession(true).SetConnectRetry(false)
		n.client = paho.NewClient(opts)
	}
	tok := n.client.Connect()
	if !tok.WaitTimeout(s.conn.timeout) {
		return fmt.Errorf("connect to %s: no answer within %v", s.conn.broker, s.conn.timeout)
	}
	return tok.Error()
}

// close disconnects; Send uses it when it gives up.
func (n *North) close() {
	n.close5()
	if n.client != nil {
		n.client.Disconnect(250)
		n.client = nil
	}
}

// Close disconnects from the broker (plugin.Closer). The runtime calls it
// after the last Send.
func (n *North) Close() error {
	n.close()
	return nil
}

// Send publishes readings with QoS 1, in order, and counts a reading sent
// once the broker acknowledged it. While the broker is unreachable it
// retries with a growing wait (NHDWN once when lost, NHAVL once when
// back). A template that fails for a reading ends Send with an error:
// retrying cannot help.
func (n *North) Send(ctx context.Context, readings []plugin.Reading) (int, error) {
	sent, attempt := 0, 0
	for sent < len(readings) {
		s := n.settings()
		var err error
		if s.conn.v5 {
			err = n.connect5(ctx, s)
		} else {
			err = n.connect(s)
		}
		if err == nil {
			var k int
			if s.conn.v5 {
				k, err = n.publish5(ctx, s, readings[sent:])
			} else {
				k, err = n.publish(ctx, s, readings[sent:])
			}
			sent += k
			if err == nil {
				if n.down {
					n.down = false
					n.log.Info("mqtt broker available again", "broker", s.conn.broker)
					n.env.Record(ctx, auditcode.NorthAvailable, auditcode.Information, map[string]any{"service": n.env.Service, "broker": s.conn.broker})
				}
				continue
			}
			if k > 0 {
				attempt = 0
			}
		}
		if _, fatal := err.(templateError); fatal { //nolint:errorlint // publish returns it unwrapped
			return sent, err
		}
		if ctx.Err() != nil {
			n.close()
			return sent, ctx.Err()
		}
		if !n.down {
			n.down = true
			n.log.Warn("mqtt broker unreachable; retrying", "broker", s.conn.broker, "error", err)
			n.env.Record(ctx, auditcode.NorthDown, auditcode.Warning, map[string]any{"service": n.env.Service, "broker": s.conn.broker, "error": err.Error()})
		}
		t := n.clk.NewTimer(min(time.Duration(1<<min(attempt, 5))*250*time.Millisecond, 5*time.Second))
		attempt++
		select {
		case <-ctx.Done():
			t.Stop()
			n.close()
			return sent, ctx.Err()
		case <-t.C():
		}
	}
	return sent, nil
}

// templateError is a reading the templates cannot render.
type templateError struct{ error }

// window is the most publications awaiting the broker's acknowledgement.
const window = 100

// publish publishes readings in windows and returns how many, from the
// first, the broker acknowledged.
func (n *North) publish(ctx context.Context, s northSettings, readings []plugin.Reading) (int, error) {
	done := 0
	for done < len(readings) {
		batch := readings[done:min(done+window, len(readings))]
		toks := make([]paho.Token, 0, len(batch))
		for _, r := range batch {
			topic, payload, err := s.render(n.env.Service, r)
			if err != nil {
				return done + n.await(s, toks), templateError{err}
			}
			toks = append(toks, n.client.Publish(topic, 1, s.retain, payload))
		}
		k := n.await(s, toks)
		done += k
		if k < len(toks) {
			return done, fmt.Errorf("the broker did not acknowledge a publication within %v", s.conn.timeout)
		}
		if ctx.Err() != nil {
			return done, ctx.Err()
		}
	}
	return done, nil
}

// await waits for tokens in order and returns how many, from the first,
// completed without error.
func (n *North) await(s northSettings, toks []paho.Token) int {
	for i, t := range toks {
		if !t.WaitTimeout(s.conn.timeout) || t.Error() != nil {
			return i
		}
	}
	return len(toks)
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.North  = (*North)(nil)
	_ edgeplugin.Closer = (*North)(nil)
)
