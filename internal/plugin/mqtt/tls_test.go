package mqtt

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
	"github.com/edged/edged/internal/simtest"
)

// TestTLSAndPassword runs the south and north plugins, MQTT 3.1.1 and 5,
// against a mosquitto that takes only TLS connections with a user name and
// password: with the right identity and the broker's authority readings
// flow both ways; with a wrong password or an unknown authority the north
// plugin delivers nothing (Send retries until its context ends).
func TestTLSAndPassword(t *testing.T) {
	cert := simtest.NewServerTLS(t)
	// Started as root (as in CI), mosquitto would drop to its own user and
	// could not read the test's private key and password file.
	broker := simtest.Mosquitto(t, "allow_anonymous false", "user root",
		"password_file "+simtest.MosquittoPasswordFile(t, "edge", "s3cret"),
		"certfile "+cert.CertFile, "keyfile "+cert.KeyFile)
	url := "ssl://127.0.0.1:" + strconv.Itoa(broker.Port)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM([]byte(cert.CAPEM))
	client := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID("test-tls").SetCleanSession(true).
		SetUsername("edge").SetPassword("s3cret").SetTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12, RootCAs: pool}))
	if tok := client.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("test client connect: %v", tok.Error())
	}
	t.Cleanup(func() { client.Disconnect(100) })
	got := make(chan paho.Message, 100)
	if tok := client.Subscribe("tls/out/#", 1, func(_ paho.Client, m paho.Message) { got <- m }); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	identity := func(cfg plugin.Config, password, ca string) {
		cfg[ItemBroker] = url
		cfg[ItemUsername] = "edge"
		cfg[ItemPassword] = password
		cfg[ItemCA] = ca
		cfg[ItemTimeout] = "2"
	}
	reading := []plugin.Reading{{Asset: "pump", Timestamp: now, Values: json.RawMessage(`{"i":7}`)}}

	for _, version := range []string{"3.1.1", "5"} {
		t.Run("MQTT "+version, func(t *testing.T) {
			cfg := plugintest.Defaults(SouthDefinition())
			identity(cfg, "s3cret", cert.CAPEM)
			cfg[ItemTopics] = `["tls/in/+"]`
			cfg[ItemAssetLevel] = "2"
			cfg[ItemClientID] = "edged-tls-" + version
			cfg[ItemProtocol] = version
			sink := plugintest.NewSink(1000)
			run(t, cfg, sink)
			arrived := false
			for deadline := time.Now().Add(30 * time.Second); !arrived && time.Now().Before(deadline); {
				client.Publish("tls/in/probe", 1, false, `{"i":1}`).Wait()
				select {
				case rs := <-sink.Calls:
					arrived = len(rs) == 1 && rs[0].Asset == "probe"
				case <-time.After(200 * time.Millisecond): // the subscription may not be in place yet
				}
			}
			if !arrived {
				t.Fatal("no message reached the south plugin over TLS within 30 s")
			}

			ncfg := plugintest.Defaults(NorthDefinition())
			identity(ncfg, "s3cret", cert.CAPEM)
			ncfg[ItemTopic] = `tls/out/{{.Asset}}`
			ncfg[ItemProtocol] = version
			n, err := NewNorth(plugin.NorthEnv{Env: plugin.Env{Service: "up"}}, ncfg)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = n.Close() }()
			if k, err := n.Send(t.Context(), reading); k != 1 || err != nil {
				t.Fatalf("Send = %d, %v", k, err)
			}
			select {
			case m := <-got:
				if m.Topic() != "tls/out/pump" {
					t.Errorf("message on %s", m.Topic())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the north plugin's message did not arrive")
			}
		})
	}

	for _, tc := range []struct{ name, password, ca string }{
		{name: "wrong password", password: "guess", ca: cert.CAPEM},
		{name: "unknown authority", password: "s3cret", ca: simtest.NewServerTLS(t).CAPEM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := plugintest.Defaults(NorthDefinition())
			identity(cfg, tc.password, tc.ca)
			cfg[ItemTopic] = `tls/out/{{.Asset}}`
			n, err := NewNorth(plugin.NorthEnv{Env: plugin.Env{Service: "refused"}}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = n.Close() }()
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			if k, err := n.Send(ctx, reading); k != 0 || err == nil {
				t.Errorf("Send = %d, %v; want 0 and an error", k, err)
			}
			select {
			case m := <-got:
				t.Errorf("a message arrived on %s", m.Topic())
			case <-time.After(500 * time.Millisecond):
			}
		})
	}
}
