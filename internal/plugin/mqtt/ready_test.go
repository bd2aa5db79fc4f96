package mqtt

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
	"github.com/edged/edged/internal/simtest"
)

// onlyV311Broker is a broker that speaks MQTT 3.1.1 only: it answers a
// CONNECT of another protocol level with CONNACK "unacceptable protocol
// version" and closes the connection, as such brokers do.
func onlyV311Broker(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer func() { _ = c.Close() }()
				// fixed header (2 bytes for a short CONNECT), then
				// protocol name "MQTT" (6 bytes), then the level.
				head := make([]byte, 9)
				if _, err := io.ReadFull(c, head); err != nil {
					return
				}
				if head[8] != 4 {
					_, _ = c.Write([]byte{0x20, 0x02, 0x00, 0x01})
					return
				}
				_, _ = c.Write([]byte{0x20, 0x02, 0x00, 0x00})
				_, _ = io.Copy(io.Discard, c)
			}()
		}
	}()
	return "tcp://" + ln.Addr().String()
}

// startSouth runs a south instance on broker with protocol version and
// returns it.
func startSouth(t *testing.T, broker, version string) *South {
	t.Helper()
	cfg := plugintest.Defaults(SouthDefinition())
	cfg[ItemBroker] = broker
	cfg[ItemTopics] = `["plant/+/data"]`
	cfg[ItemClientID] = "edged-test-ready"
	cfg[ItemProtocol] = version
	p, err := NewSouth(plugin.Env{Service: "mq"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, plugintest.NewSink(100)) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
	return p
}

// TestSouthReadyOnceConnected: the plugin is ready (its service running)
// only once connected and subscribed; against a broker that refuses its
// protocol version it is not, and says why.
func TestSouthReadyOnceConnected(t *testing.T) {
	t.Run("MQTT 5 against a 3.1.1-only broker", func(t *testing.T) {
		p := startSouth(t, onlyV311Broker(t), "5")
		deadline := time.Now().Add(20 * time.Second)
		for why := p.NotReady(); !strings.Contains(why, "a broker that speaks only MQTT 3.1.1") || strings.HasSuffix(why, " yet"); why = p.NotReady() {
			if time.Now().After(deadline) {
				t.Fatalf("20 s later NotReady = %q, want the refusal", why)
			}
			time.Sleep(20 * time.Millisecond) // polling the client's connection attempts
		}
		select {
		case <-p.Ready():
			t.Fatal("ready although the broker refused the connection")
		default:
		}
		t.Log(p.NotReady())
	})
	for _, v := range []string{"3.1.1", "5"} {
		t.Run(fmt.Sprintf("MQTT %s against mosquitto", v), func(t *testing.T) {
			broker := simtest.Mosquitto(t)
			p := startSouth(t, broker.URL, v)
			select {
			case <-p.Ready():
			case <-time.After(20 * time.Second):
				t.Fatalf("not ready 20 s after the start: %s", p.NotReady())
			}
		})
	}
}
