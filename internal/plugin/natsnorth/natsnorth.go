// Package natsnorth is the north plugin that publishes readings to NATS
// JetStream: one message per reading, on the subject a template names, to
// a stream the subject is bound to. A reading counts as sent once JetStream
// acknowledged it (stored it with the stream's replication), so the
// runtime's stream position never passes a reading the stream may lack.
// The client follows the cluster: it reconnects to any server of the list
// (and those the cluster announces) when one goes away.
package natsnorth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/format"
	"github.com/edged/edged/internal/tlsclient"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Name is the plugin's name.
const Name = "nats_north"

// Configuration items.
const (
	ItemServers     = "servers"
	ItemSubject     = "subject"
	ItemPayload     = "payload"
	ItemCredentials = "credentialsFile"
	ItemToken       = "token"
	ItemUsername    = "username"
	ItemPassword    = "password"
	ItemCA          = "caCertificate"
	ItemTimeout     = "timeout"
)

// window is the most publications awaiting JetStream's acknowledgement.
const window = 256

// Definition describes the plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Name: Name, Version: "1.0.0", Kind: plugin.KindNorth,
		Description: "Publishes readings to NATS JetStream; a reading counts as sent once the stream acknowledged it",
		Items:       plugin.ItemsOf(Config{}),
		NewNorth:    func(env plugin.NorthEnv, cfg plugin.Config) (plugin.North, error) { return New(env, cfg) },
	}
}

// settings is a checked configuration.
type settings struct {
	servers  string
	subject  *format.Template
	payload  *format.Template
	options  []nats.Option
	timeout  time.Duration
	identity string // everything the connection depends on, to tell a restart is needed
}

func parse(cfg plugin.Config) (settings, error) {
	var s settings
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return s, err
	}
	var servers []string
	for _, u := range strings.Split(c.Servers, ",") {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		if !strings.Contains(u, "://") {
			return s, fmt.Errorf("item %q: %q is not a nats:// or tls:// URL", ItemServers, u)
		}
		servers = append(servers, u)
	}
	if len(servers) == 0 {
		return s, fmt.Errorf("item %q names no server", ItemServers)
	}
	s.servers = strings.Join(servers, ",")
	var err error
	if s.subject, err = format.Parse("subject", c.Subject); err != nil {
		return s, err
	}
	if s.payload, err = format.Parse("payload", c.Payload); err != nil {
		return s, err
	}
	if c.Timeout < 1 {
		return s, fmt.Errorf("item %q must be a positive integer", ItemTimeout)
	}
	s.timeout = time.Duration(c.Timeout) * time.Second
	s.options = []nats.Option{nats.Timeout(s.timeout), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true)}
	if f := c.CredentialsFile; f != "" {
		s.options = append(s.options, nats.UserCredentials(f))
	}
	if tok := c.Token; tok != "" {
		s.options = append(s.options, nats.Token(tok))
	}
	if u := c.Username; u != "" {
		s.options = append(s.options, nats.UserInfo(u, c.Password))
	}
	if pem := c.CACertificate; pem != "" {
		tc, err := tlsclient.Config("", []byte(pem))
		if err != nil {
			return s, fmt.Errorf("item %q %w", ItemCA, err)
		}
		s.options = append(s.options, nats.Secure(tc))
	}
	s.identity = strings.Join([]string{s.servers, c.CredentialsFile, c.Token, c.Username,
		c.Password, c.CACertificate, strconv.Itoa(c.Timeout)}, "\x00")
	return s, nil
}

// NATS is a running instance.
type NATS struct {
	env plugin.NorthEnv
	log *slog.Logger
	clk clock.Clock

	mu sync.Mutex // guards s
	s  settings

	// Only Send (never concurrent) and Close use these.
	conn *nats.Conn
	js   jetstream.JetStream
	down bool // NHDWN written, NHAVL not yet
}

var (
	_ plugin.North  = (*NATS)(nil)
	_ plugin.Closer = (*NATS)(nil)
)

// New returns an instance for cfg; it connects at the first Send.
func New(env plugin.NorthEnv, cfg plugin.Config) (*NATS, error) {
	s, err := parse(cfg)
	if err != nil {
		return nil, err
	}
	n := &NATS{env: env, log: env.Log(), clk: env.Time(), s: s}
	return n, nil
}

// Reconfigure takes new templates at once; other changes ask for a new
// instance (a new connection).
func (n *NATS) Reconfigure(cfg plugin.Config) error {
	s, err := parse(cfg)
	if err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if s.identity != n.s.identity {
		return plugin.ErrRestart
	}
	n.s = s
	return nil
}

func (n *NATS) settings() settings {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.s
}

// Close closes the connection (plugin.Closer).
func (n *NATS) Close() error {
	if n.conn != nil {
		n.conn.Close()
		n.conn, n.js = nil, nil
	}
	return nil
}

// connect opens the connection if needed.
func (n *NATS) connect(s settings) error {
	if n.conn != nil {
		return nil
	}
	opts := append([]nats.Option{nats.Name("edged " + n.env.Service)}, s.options...)
	conn, err := nats.Connect(s.servers, opts...)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", s.servers, err)
	}
	js, err := jetstream.New(conn, jetstream.WithPublishAsyncMaxPending(window))
	if err != nil {
		conn.Close()
		return fmt.Errorf("jetstream: %w", err)
	}
	n.conn, n.js = conn, js
	return nil
}

// errTemplate marks a reading the templates cannot render.
var errTemplate = errors.New("template")

// Send publishes readings in order and returns how many, from the first,
// JetStream acknowledged. While no server acknowledges it retries with a
// growing wait (NHDWN once when lost, NHAVL once when back); it returns
// early only when ctx ends or a template cannot render a reading.
func (n *NATS) Send(ctx context.Context, readings []plugin.Reading) (int, error) {
	sent, attempt := 0, 0
	for sent < len(readings) {
		s := n.settings()
		err := n.connect(s)
		if err == nil {
			var k int
			k, err = n.publish(ctx, s, readings[sent:])
			sent += k
			if k > 0 {
				attempt = 0
			}
			if err == nil {
				if n.down {
					n.down = false
					n.log.Info("NATS JetStream available again", "servers", s.servers)
					n.env.Record(ctx, auditcode.NorthAvailable, auditcode.Information, map[string]any{"service": n.env.Service, "servers": s.servers})
				}
				continue
			}
		}
		if errors.Is(err, errTemplate) {
			return sent, err
		}
		if ctx.Err() != nil {
			return sent, ctx.Err()
		}
		if !n.down {
			n.down = true
			n.log.Warn("NATS JetStream not acknowledging; retrying", "servers", s.servers, "error", err)
			n.env.Record(ctx, auditcode.NorthDown, auditcode.Warning, map[string]any{"service": n.env.Service, "servers": s.servers, "error": err.Error()})
		}
		t := n.clk.NewTimer(min(time.Duration(1<<min(attempt, 5))*100*time.Millisecond, 3*time.Second))
		attempt++
		select {
		case <-ctx.Done():
			t.Stop()
			return sent, ctx.Err()
		case <-t.C():
		}
	}
	return sent, nil
}

// publish publishes readings in windows, asynchronously, and returns how
// many, from the first, were acknowledged before the first failure.
func (n *NATS) publish(ctx context.Context, s settings, readings []plugin.Reading) (int, error) {
	done := 0
	for done < len(readings) {
		batch := readings[done:min(done+window, len(readings))]
		futures := make([]jetstream.PubAckFuture, 0, len(batch))
		var pubErr error
		for _, r := range batch {
			subject, err := s.subject.Render(n.env.Service, r)
			if err != nil {
				pubErr = fmt.Errorf("%w: %w", errTemplate, err)
				break
			}
			payload, err := s.payload.Render(n.env.Service, r)
			if err != nil {
				pubErr = fmt.Errorf("%w: %w", errTemplate, err)
				break
			}
			f, err := n.js.PublishAsync(string(subject), payload)
			if err != nil {
				pubErr = err
				break
			}
			futures = append(futures, f)
		}
		k, err := n.await(ctx, s, futures)
		done += k
		switch {
		case err != nil:
			n.js.CleanupPublisher() // late acks of this window must not count
			return done, err
		case pubErr != nil:
			return done, pubErr
		}
	}
	return done, nil
}

// await waits for futures in order and returns how many, from the first,
// were acknowledged, with the first failure.
func (n *NATS) await(ctx context.Context, s settings, futures []jetstream.PubAckFuture) (int, error) {
	t := n.clk.NewTimer(s.timeout)
	defer t.Stop()
	for i, f := range futures {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return i, err
		case <-t.C():
			return i, fmt.Errorf("no acknowledgement within %v", s.timeout)
		case <-ctx.Done():
			return i, ctx.Err()
		}
	}
	return len(futures), nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.North  = (*NATS)(nil)
	_ edgeplugin.Closer = (*NATS)(nil)
)
