package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/edged/edged/internal/tlsclient"
)

func init() {
	registerDelivery(DeliveryMQTT, "Publishes the notification as a JSON document to an MQTT 3.1.1 broker",
		map[string]Item{
			"broker":   {Description: "The broker: tcp://host:1883, or ssl://host:8883 for TLS", Type: typeString, Default: "tcp://127.0.0.1:1883", DisplayName: "Broker", Order: "1", Mandatory: "true"},
			"topic":    {Description: "The topic published to", Type: typeString, Default: "edged/notifications", DisplayName: "Topic", Order: "2", Mandatory: "true"},
			"qos":      {Description: "Quality of service", Type: typeEnum, Options: []string{"0", "1", "2"}, Default: "1", DisplayName: "QoS", Order: "3"},
			"retain":   {Description: "Whether the broker keeps the last notification for new subscribers", Type: typeBoolean, Default: "false", DisplayName: "Retain", Order: "4"},
			"clientId": {Description: "MQTT client identifier; empty: edged-notification-<notification>-<channel>", Type: typeString, DisplayName: "Client id", Order: "5"},
			"username": {Description: "User name; empty: none", Type: typeString, DisplayName: "User name", Order: "6"},
			"password": {Description: "Password", Type: typePassword, DisplayName: "Password", Order: "7"},
			"caFile":   {Description: "File of the PEM certificate(s) of the authority the broker's TLS certificate must chain to; empty: the system's", Type: typeString, DisplayName: "CA file", Order: "8"},
			"timeout":  {Description: "Seconds a connection attempt or a publication may take", Type: typeInteger, Default: "10", DisplayName: "Timeout (s)", Order: "9", Minimum: "1", Maximum: "300"},
		}, newMQTT)
}

// mqttDelivery publishes events, connecting on its first one and
// reconnecting by itself after.
type mqttDelivery struct {
	opts    *paho.ClientOptions
	caFile  string
	topic   string
	qos     byte
	retain  bool
	timeout time.Duration
	client  paho.Client // nil until the first Deliver
}

func newMQTT(c config, _ deps) (delivery, error) {
	u, err := url.Parse(c["broker"])
	if err != nil || u.Host == "" || u.Port() == "" {
		return nil, fmt.Errorf("item %q = %q is not a tcp://host:port or ssl://host:port URL", "broker", c["broker"])
	}
	qos := c["qos"][0] - '0' // one of "0", "1", "2", as resolve checked
	m := &mqttDelivery{topic: c["topic"], qos: qos, retain: c.bool("retain"), timeout: c.seconds("timeout"), caFile: c["caFile"]}
	id := c["clientId"]
	if id == "" {
		// Unique per process and channel: two clients with one id would
		// throw each other off the broker.
		id = fmt.Sprintf("edged-notification-%d-%p", os.Getpid(), m)
	}
	// Like the gateway's MQTT plugins: 3.1.1, automatic reconnection,
	// bounded waits.
	m.opts = paho.NewClientOptions().AddBroker(c["broker"]).SetClientID(id).SetProtocolVersion(4).
		SetConnectTimeout(m.timeout).SetWriteTimeout(m.timeout).SetKeepAlive(30 * time.Second).
		SetAutoReconnect(true).SetMaxReconnectInterval(30 * time.Second).SetCleanSession(true)
	if c["username"] != "" {
		m.opts.SetUsername(c["username"]).SetPassword(c["password"])
	}
	switch u.Scheme {
	case "tcp", "mqtt":
		if m.caFile != "" {
			return nil, fmt.Errorf("item %q is set but the broker %q is not ssl://", "caFile", c["broker"])
		}
	case "ssl", "tls", "mqtts":
		cfg, _ := tlsclient.Config(u.Hostname(), nil) // no CA yet: it is read at connect
		m.opts.SetTLSConfig(cfg)
	default:
		return nil, fmt.Errorf("item %q = %q: scheme %q is not tcp or ssl", "broker", c["broker"], u.Scheme)
	}
	return m, nil
}

// connect makes the client; the CA file is read now, not when validating,
// so that a file put in place later is found.
func (m *mqttDelivery) connect() error {
	if m.client != nil {
		return nil
	}
	if m.caFile != "" {
		cfg, err := tlsclient.ConfigFile("", m.caFile)
		if err != nil {
			return err
		}
		m.opts.TLSConfig.RootCAs = cfg.RootCAs
	}
	c := paho.NewClient(m.opts)
	tok := c.Connect()
	if !tok.WaitTimeout(m.timeout) {
		c.Disconnect(0)
		return fmt.Errorf("connecting to the broker: no answer within %s", m.timeout)
	}
	if err := tok.Error(); err != nil {
		return fmt.Errorf("connecting to the broker: %w", err)
	}
	m.client = c
	return nil
}

func (m *mqttDelivery) Deliver(ctx context.Context, ev Event) error {
	if err := m.connect(); err != nil {
		return err
	}
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	tok := m.client.Publish(m.topic, m.qos, m.retain, body)
	select {
	case <-tok.Done():
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(m.timeout):
		return fmt.Errorf("publishing to %s: no acknowledgement within %s", m.topic, m.timeout)
	}
	if err := tok.Error(); err != nil {
		return fmt.Errorf("publishing to %s: %w", m.topic, err)
	}
	return nil
}

func (m *mqttDelivery) Close() {
	if m.client != nil {
		m.client.Disconnect(250)
	}
}
