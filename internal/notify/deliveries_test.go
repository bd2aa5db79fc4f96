package notify

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/simtest"
)

var testEvent = Event{Notification: "hot", Rule: RuleThreshold, Asset: "boiler", Reason: "boiler.temp = 81 > 80",
	State: StateTriggered, Time: t0, Reading: map[string]any{"temp": 81.0}, Message: "hot triggered: boiler.temp = 81 > 80"}

// deliveryFor builds the delivery plugin with cfg, failing t on an error.
func deliveryFor(t *testing.T, plugin string, cfg map[string]string, host Host) delivery {
	t.Helper()
	d, err := newDelivery(Channel{Name: "c", Plugin: plugin, Config: cfg}, deps{host: host})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

func TestWebhook(t *testing.T) {
	tests := []struct {
		name      string
		statuses  []int         // answered in turn; the last one from then on
		delay     time.Duration // before each answer
		cfg       map[string]string
		wantCalls int
		wantErr   string
	}{
		{name: "delivered at once", statuses: []int{204}, wantCalls: 1},
		{name: "retried after 503 and 429", statuses: []int{503, 429, 200}, cfg: map[string]string{"retries": "3"}, wantCalls: 3},
		{name: "gives up after the retries", statuses: []int{500}, cfg: map[string]string{"retries": "2"}, wantCalls: 3, wantErr: "after 3 attempts"},
		{name: "a client error is not retried", statuses: []int{404}, cfg: map[string]string{"retries": "5"}, wantCalls: 1, wantErr: "404"},
		{name: "a slow answer times out and is retried", statuses: []int{200}, delay: 1500 * time.Millisecond,
			cfg: map[string]string{"timeout": "1", "retries": "1"}, wantCalls: 2, wantErr: "deadline exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var calls int
			var bodies []Event
			var headers []http.Header
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				status := tt.statuses[min(calls, len(tt.statuses)-1)]
				calls++
				var ev Event
				b, _ := io.ReadAll(r.Body)
				if err := json.Unmarshal(b, &ev); err != nil {
					t.Errorf("body %q: %v", b, err)
				}
				bodies = append(bodies, ev)
				headers = append(headers, r.Header.Clone())
				mu.Unlock()
				select {
				case <-time.After(tt.delay):
				case <-r.Context().Done():
				}
				w.WriteHeader(status)
			}))
			defer srv.Close()
			cfg := map[string]string{"url": srv.URL + "/hook", "backoff": "1", "headers": `{"Authorization": "Bearer t0k"}`}
			for k, v := range tt.cfg {
				cfg[k] = v
			}
			err := deliveryFor(t, DeliveryWebhook, cfg, nil).Deliver(t.Context(), testEvent)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Deliver = %v, want error %q", err, tt.wantErr)
			}
			mu.Lock()
			defer mu.Unlock()
			if calls != tt.wantCalls {
				t.Errorf("%d calls, want %d", calls, tt.wantCalls)
			}
			for i, ev := range bodies {
				if ev.Notification != "hot" || ev.State != StateTriggered || ev.Asset != "boiler" || !ev.Time.Equal(t0) || ev.Reading["temp"] != 81.0 || ev.Reason == "" {
					t.Errorf("call %d: document %+v", i, ev)
				}
				if headers[i].Get("Authorization") != "Bearer t0k" || headers[i].Get("Content-Type") != "application/json" {
					t.Errorf("call %d: headers %v", i, headers[i])
				}
			}
		})
	}
}

// The time from Readings to the webhook's arrival, over a run of
// notifications, stays well under a second at the 95th percentile.
func TestWebhookLatency(t *testing.T) {
	arrived := make(chan time.Time, 1000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		arrived <- time.Now()
	}))
	defer srv.Close()
	h := &fakeHost{}
	e := New(Options{Host: h})
	defer e.Close()
	err := e.SetInstances(t.Context(), []Instance{{Name: "flip", Rule: RuleThreshold, Type: TypeToggled, Enabled: true,
		RuleConfig: map[string]string{"asset": "a", "datapoint": "v", "value": "0"},
		Channels:   []Channel{{Name: "hook", Plugin: DeliveryWebhook, Config: map[string]string{"url": srv.URL}}}}})
	if err != nil {
		t.Fatal(err)
	}
	// Plenty of other readings around each notification, as under load.
	noise := benchReadings()
	const n = 200
	var lat []time.Duration
	for i := range n {
		sign := float64(1 - 2*(i%2))
		e.Readings(t.Context(), noise)
		sent := time.Now()
		e.Readings(t.Context(), []Reading{{Asset: "a", Timestamp: t0, Values: map[string]any{"v": sign}}})
		select {
		case at := <-arrived:
			lat = append(lat, at.Sub(sent))
		case <-time.After(10 * time.Second):
			t.Fatalf("notification %d did not arrive", i)
		}
	}
	slices.Sort(lat)
	p95 := lat[n*95/100]
	t.Logf("webhook latency: median %s, p95 %s, max %s", lat[n/2], p95, lat[n-1])
	if p95 > time.Second {
		t.Errorf("p95 latency %s, want at most 1 s", p95)
	}
}

func TestMQTT(t *testing.T) {
	broker := simtest.Mosquitto(t)
	got := subscribe(t, broker.URL, nil, "", "", "notes/#")
	d := deliveryFor(t, DeliveryMQTT, map[string]string{"broker": broker.URL, "topic": "notes/hot", "qos": "1", "timeout": "5"}, nil)
	for _, state := range []string{StateTriggered, StateCleared} {
		ev := testEvent
		ev.State = state
		if err := d.Deliver(t.Context(), ev); err != nil {
			t.Fatal(err)
		}
		select {
		case m := <-got:
			var ev Event
			if err := json.Unmarshal(m.Payload(), &ev); err != nil || m.Topic() != "notes/hot" || ev.State != state || ev.Notification != "hot" {
				t.Errorf("message on %s: %s (%v)", m.Topic(), m.Payload(), err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s message within 10 s", state)
		}
	}
}

func TestMQTTTLSAndPassword(t *testing.T) {
	cert := simtest.NewServerTLS(t)
	// Started as root (as in CI), mosquitto would drop to its own user and
	// could not read the test's private key and password file.
	broker := simtest.Mosquitto(t, "allow_anonymous false", "user root",
		"password_file "+simtest.MosquittoPasswordFile(t, "edge", "s3cret"),
		"certfile "+cert.CertFile, "keyfile "+cert.KeyFile)
	url := "ssl://127.0.0.1:" + strconv.Itoa(broker.Port)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, []byte(cert.CAPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	got := subscribe(t, url, []byte(cert.CAPEM), "edge", "s3cret", "secure/#")
	otherCA := filepath.Join(t.TempDir(), "other.pem")
	if err := os.WriteFile(otherCA, []byte(simtest.NewServerTLS(t).CAPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, password, ca string
		wantErr            bool
	}{
		{name: "right password and authority", password: "s3cret", ca: caFile},
		{name: "wrong password", password: "nope", ca: caFile, wantErr: true},
		{name: "unknown authority", password: "s3cret", ca: otherCA, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := deliveryFor(t, DeliveryMQTT, map[string]string{"broker": url, "topic": "secure/n", "username": "edge",
				"password": tt.password, "caFile": tt.ca, "timeout": "3"}, nil)
			err := d.Deliver(t.Context(), testEvent)
			if tt.wantErr {
				if err == nil {
					t.Fatal("Deliver succeeded")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			select {
			case m := <-got:
				if !strings.Contains(string(m.Payload()), `"notification":"hot"`) {
					t.Errorf("payload %s", m.Payload())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no message within 10 s")
			}
		})
	}
}

// subscribe connects a test client to url and returns the messages on
// filter.
func subscribe(t *testing.T, url string, caPEM []byte, user, password, filter string) <-chan paho.Message {
	t.Helper()
	o := paho.NewClientOptions().AddBroker(url).SetClientID("test-sub-" + strconv.Itoa(os.Getpid())).SetCleanSession(true)
	if user != "" {
		o.SetUsername(user).SetPassword(password)
	}
	if caPEM != nil {
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(caPEM)
		o.SetTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12, RootCAs: pool})
	}
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("test client connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	got := make(chan paho.Message, 100)
	if tok := c.Subscribe(filter, 1, func(_ paho.Client, m paho.Message) { got <- m }); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	return got
}

// smtpMessage is a line the SMTP sink prints per message.
type smtpMessage struct {
	From string   `json:"from"`
	To   []string `json:"to"`
	Data string   `json:"data"`
	TLS  bool     `json:"tls"`
	User *string  `json:"user"`
}

func TestEmail(t *testing.T) {
	cert := simtest.NewServerTLS(t)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, []byte(cert.CAPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	tlsArgs := []string{"--cert", cert.CertFile, "--key", cert.KeyFile}
	authArgs := []string{"--user", "edge", "--password", "s3cret"}
	tests := []struct {
		name     string
		server   []string // the sink's options
		cfg      map[string]string
		wantTLS  bool
		wantUser string
		wantErr  string
	}{
		{name: "STARTTLS required and AUTH", server: append(slices.Clone(tlsArgs), authArgs...),
			cfg:     map[string]string{"starttls": "required", "username": "edge", "password": "s3cret", "caFile": caFile},
			wantTLS: true, wantUser: "edge"},
		{name: "STARTTLS opportunistic, offered", server: tlsArgs, cfg: map[string]string{"starttls": "opportunistic", "caFile": caFile}, wantTLS: true},
		{name: "STARTTLS opportunistic, not offered", cfg: map[string]string{"starttls": "opportunistic"}},
		{name: "STARTTLS required, not offered", cfg: map[string]string{"starttls": "required"}, wantErr: "does not offer STARTTLS"},
		{name: "STARTTLS none, AUTH on loopback", server: authArgs,
			cfg: map[string]string{"starttls": "none", "username": "edge", "password": "s3cret"}, wantUser: "edge"},
		{name: "wrong password", server: append(slices.Clone(tlsArgs), authArgs...),
			cfg: map[string]string{"username": "edge", "password": "guess", "caFile": caFile}, wantErr: "AUTH"},
		{name: "unknown authority", server: tlsArgs, cfg: map[string]string{"starttls": "required"}, wantErr: "STARTTLS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			port := simtest.FreePort(t)
			sink := simtest.Simulator(t, "smtp_server.py", append([]string{strconv.Itoa(port)}, tt.server...)...)
			cfg := map[string]string{"host": "127.0.0.1", "port": strconv.Itoa(port), "from": "Edge <edge@example.com>",
				"to": "ops@example.com, Night Shift <night@example.com>", "timeout": "10"}
			for k, v := range tt.cfg {
				cfg[k] = v
			}
			err := deliveryFor(t, DeliveryEmail, cfg, nil).Deliver(t.Context(), testEvent)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Deliver = %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Deliver: %v\n%s", err, sink.Output())
			}
			line := simtest.WaitLine(t, sink, 10*time.Second, "the message", func(s string) bool { return strings.HasPrefix(s, "MESSAGE ") })
			var m smtpMessage
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "MESSAGE ")), &m); err != nil {
				t.Fatal(err)
			}
			user := ""
			if m.User != nil {
				user = *m.User
			}
			if m.From != "edge@example.com" || !slices.Equal(m.To, []string{"ops@example.com", "night@example.com"}) || m.TLS != tt.wantTLS || user != tt.wantUser {
				t.Errorf("message from %q to %q, TLS %v, user %q", m.From, m.To, m.TLS, user)
			}
			for _, want := range []string{"Subject: [edged] hot triggered\r\n", "Reason: boiler.temp = 81 > 80\r\n", "Asset: boiler\r\n"} {
				if !strings.Contains(m.Data, want) {
					t.Errorf("message lacks %q:\n%s", want, m.Data)
				}
			}
		})
	}
}

// The engine's channels deliver through a real webhook when Readings
// triggers, and audit each send.
func TestEngineWebhookEndToEnd(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv.Close()
	e, h, _ := newTestEngine(t, Instance{Name: "hot", Rule: RuleThreshold, Type: TypeToggled, Enabled: true,
		RuleConfig: map[string]string{"asset": "boiler", "datapoint": "temp", "value": "80"},
		Channels:   []Channel{{Name: "hook", Plugin: DeliveryWebhook, Config: map[string]string{"url": srv.URL}}}})
	e.Readings(context.Background(), []Reading{{Asset: "boiler", Timestamp: t0, Values: v(90)}, {Asset: "boiler", Timestamp: t0, Values: v(10)}})
	drain(t, e)
	if calls.Load() != 2 {
		t.Errorf("%d webhook calls, want 2", calls.Load())
	}
	var sent int
	for _, a := range h.auditLog() {
		if a.source == AuditSent && a.severity == auditcode.Information && a.details["channel"] == "hook" {
			sent++
		}
	}
	if sent != 2 {
		t.Errorf("%d NTFSN entries, want 2: %+v", sent, h.auditLog())
	}
}
