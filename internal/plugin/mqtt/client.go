// Package mqtt holds the MQTT plugins: the south plugin `mqtt_south`,
// which subscribes to topic filters and turns messages into readings, and
// the north plugin `mqtt_north`, which publishes readings with QoS 1. Both
// speak MQTT 3.1.1 (github.com/eclipse/paho.mqtt.golang) or MQTT 5
// (github.com/eclipse/paho.golang, v5.go), over TCP or TLS, with an
// optional user name and password.
package mqtt

import (
	"crypto/tls"
	"fmt"
	"net/url"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/edged/edged/internal/tlsclient"
)

// Connection items, shared by both plugins.
const (
	ItemBroker   = "broker"
	ItemClientID = "clientId"
	ItemUsername = "username"
	ItemPassword = "password"
	ItemCA       = "caCertificate"
	ItemTimeout  = "timeout"
	ItemProtocol = "protocolVersion"
)

// connection is a checked connection configuration.
type connection struct {
	broker   string
	clientID string
	username string
	password string
	tls      *tls.Config
	timeout  time.Duration
	v5       bool     // MQTT 5 (github.com/eclipse/paho.golang) instead of 3.1.1
	url      *url.URL // the broker, as MQTT 5's client takes it
}

// parseConnection checks the connection items; service names the default
// client id.
func parseConnection(cc connectionConfig, service string) (connection, error) {
	c := connection{broker: cc.Broker, clientID: cc.ClientID, username: cc.Username, password: cc.Password}
	u, err := url.Parse(c.broker)
	if err != nil || u.Host == "" || u.Port() == "" {
		return c, fmt.Errorf("item %q = %q is not a tcp://host:port or ssl://host:port URL", ItemBroker, c.broker)
	}
	c.v5 = cc.ProtocolVersion == "5"
	c.url = &url.URL{Scheme: "mqtt", Host: u.Host}
	switch u.Scheme {
	case "tcp", "mqtt":
	case "ssl", "tls", "mqtts":
		c.url.Scheme = "tls"
		if c.tls, err = tlsclient.Config(u.Hostname(), []byte(cc.CACertificate)); err != nil {
			return c, fmt.Errorf("item %q %w", ItemCA, err)
		}
	default:
		return c, fmt.Errorf("item %q = %q: scheme %q is not tcp or ssl", ItemBroker, c.broker, u.Scheme)
	}
	if c.clientID == "" {
		c.clientID = "edged-" + service
	}
	if cc.Timeout < 1 {
		return c, fmt.Errorf("item %q must be a positive integer", ItemTimeout)
	}
	c.timeout = time.Duration(cc.Timeout) * time.Second
	return c, nil
}

// options returns the client options of c; the caller adds its handlers.
func (c connection) options() *paho.ClientOptions {
	o := paho.NewClientOptions().AddBroker(c.broker).SetClientID(c.clientID).
		SetProtocolVersion(4). // MQTT 3.1.1
		SetConnectTimeout(c.timeout).SetWriteTimeout(c.timeout).SetKeepAlive(30 * time.Second).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(time.Second).
		SetMaxReconnectInterval(30 * time.Second)
	if c.username != "" {
		o.SetUsername(c.username).SetPassword(c.password)
	}
	if c.tls != nil {
		o.SetTLSConfig(c.tls)
	}
	return o
}
