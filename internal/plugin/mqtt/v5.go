package mqtt

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	paho5 "github.com/eclipse/paho.golang/paho"

	"github.com/edged/edged/internal/plugin"
)

// sessionExpiry is how long the broker keeps an MQTT 5 session of
// mqtt_south while the gateway is away: the messages it queues meanwhile
// are delivered when it comes back.
const sessionExpiry = 7 * 24 * time.Hour

// config5 returns the MQTT 5 client configuration of c; persistent makes
// the session outlive the connection.
func (c connection) config5(persistent bool) autopaho.ClientConfig {
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{c.url},
		TlsCfg:                        c.tls,
		KeepAlive:                     30,
		CleanStartOnInitialConnection: !persistent,
		ConnectTimeout:                c.timeout,
		ReconnectBackoff: func(attempt int) time.Duration {
			return min(time.Duration(1<<min(attempt, 5))*250*time.Millisecond, 30*time.Second)
		},
		ClientConfig: paho5.ClientConfig{ClientID: c.clientID, PacketTimeout: c.timeout},
	}
	if persistent {
		cfg.SessionExpiryInterval = uint32(sessionExpiry / time.Second)
	}
	if c.username != "" {
		cfg.ConnectUsername, cfg.ConnectPassword = c.username, []byte(c.password)
	}
	return cfg
}

// run5 is Run over MQTT 5: the same persistent session, in-order handling
// and acknowledgement after commit, with paho.golang's manual
// acknowledgements.
func (p *South) run5(ctx context.Context, sink plugin.Sink, acks chan<- pending) error {
	cfg := p.s.conn.config5(true)
	cfg.EnableManualAcknowledgment = true
	cfg.OnPublishReceived = []func(paho5.PublishReceived) (bool, error){func(r paho5.PublishReceived) (bool, error) {
		pb, client := r.Packet, r.Client
		p.handle(ctx, sink, message{topic: pb.Topic, payload: pb.Payload, qos: pb.QoS, ack: func() {
			if pb.QoS > 0 {
				if err := client.Ack(pb); err != nil && ctx.Err() == nil {
					p.log.Warn("mqtt acknowledgement not sent; the broker will deliver the message again", "topic", pb.Topic, "error", err)
				}
			}
		}}, acks)
		return true, nil
	}}
	cfg.OnConnectionUp = func(cm *autopaho.ConnectionManager, _ *paho5.Connack) {
		subs := make([]paho5.SubscribeOptions, len(p.s.topics))
		for i, f := range p.s.topics {
			subs[i] = paho5.SubscribeOptions{Topic: f, QoS: p.s.qos}
		}
		go func() { // OnConnectionUp must not block
			sctx, cancel := context.WithTimeout(ctx, p.s.conn.timeout)
			defer cancel()
			if _, err := cm.Subscribe(sctx, &paho5.Subscribe{Subscriptions: subs}); err != nil {
				p.log.Error("mqtt subscription failed; retrying at the next connection", "broker", p.s.conn.broker, "error", err)
				return
			}
			p.log.Info("mqtt connected and subscribed", "broker", p.s.conn.broker, "topics", p.s.topics, "protocol", 5)
			p.connected()
		}()
	}
	cfg.OnConnectError = func(err error) {
		p.connectFailed(err)
		p.log.Warn("mqtt connection attempt failed; retrying", "broker", p.s.conn.broker, "error", err)
	}
	cm, err := autopaho.NewConnection(ctx, cfg)
	if err != nil {
		return fmt.Errorf("mqtt: %w", err)
	}
	<-ctx.Done()
	dctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = cm.Disconnect(dctx) // stopping either way
	<-cm.Done()
	return nil
}

// north5 is an MQTT 5 connection of mqtt_north.
type north5 struct {
	cm *autopaho.ConnectionManager
}

// connect5 opens the MQTT 5 connection if needed and waits for it.
func (n *North) connect5(ctx context.Context, s northSettings) error {
	if n.v5 == nil {
		cm, err := autopaho.NewConnection(context.WithoutCancel(ctx), s.conn.config5(false))
		if err != nil {
			return fmt.Errorf("mqtt: %w", err)
		}
		n.v5 = &north5{cm: cm}
	}
	wctx, cancel := context.WithTimeout(ctx, s.conn.timeout)
	defer cancel()
	if err := n.v5.cm.AwaitConnection(wctx); err != nil {
		return fmt.Errorf("connect to %s: %w", s.conn.broker, err)
	}
	return nil
}

// publish5 publishes readings one after the other with QoS 1 and returns
// how many, from the first, the broker acknowledged.
func (n *North) publish5(ctx context.Context, s northSettings, readings []plugin.Reading) (int, error) {
	for i, r := range readings {
		topic, payload, err := s.render(n.env.Service, r)
		if err != nil {
			return i, templateError{err}
		}
		pctx, cancel := context.WithTimeout(ctx, s.conn.timeout)
		res, err := n.v5.cm.Publish(pctx, &paho5.Publish{QoS: 1, Topic: topic, Payload: payload, Retain: s.retain})
		cancel()
		if err == nil && res != nil && res.ReasonCode >= 0x80 {
			err = fmt.Errorf("the broker refused the publication: reason code %#x", res.ReasonCode)
		}
		if err != nil {
			return i, err
		}
	}
	return len(readings), nil
}

// close5 ends the MQTT 5 connection.
func (n *North) close5() {
	if n.v5 == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := n.v5.cm.Disconnect(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		n.log.Debug("mqtt disconnect", "error", err)
	}
	n.v5 = nil
}
