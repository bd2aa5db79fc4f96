// Package servicemain is what the gateway's service executables
// (cmd/edged-notification, cmd/edged-dispatcher) share: the engine a
// process runs once the gateway started it, the log the gateway reads, and
// the translation of errors at the process boundary (package faultcode).
package servicemain

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"sync"

	"github.com/edged/edged/internal/plugin/faultcode"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Logger returns the process's logger: go-plugin passes what the process
// writes to stderr to the gateway's log, at the level each line names.
func Logger() *slog.Logger { return slog.New(slog.NewTextHandler(os.Stderr, nil)) }

// Slot holds the engine of a service process: none until the gateway
// starts the service, then the one the last Start made. It is safe for
// concurrent use.
type Slot[E any] struct {
	// Service names the service in the error of a call before Start.
	Service string

	mu     sync.Mutex
	engine E
	set    bool
}

// Swap sets the engine and returns the one it replaces (had is false when
// there was none).
func (s *Slot[E]) Swap(e E) (old E, had bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, had = s.engine, s.set
	s.engine, s.set = e, true
	return old, had
}

// Get returns the engine, or CodeUnavailable before the service started.
func (s *Slot[E]) Get() (E, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.set {
		var zero E
		return zero, edgeplugin.Errorf(edgeplugin.CodeUnavailable, "the %s service is not started", s.Service)
	}
	return s.engine, nil
}

// Stateless is the State of a service that keeps nothing between runs:
// the gateway hands it what it needs at every start.
type Stateless struct{}

// State implements edgeplugin's service State: nothing to persist.
func (Stateless) State(context.Context) (json.RawMessage, error) { return nil, nil }

// Reply is the error a service returns to the gateway for err, an
// engine's: with the code of its fault kind (faultcode.Code).
func Reply(err error) error { return faultcode.Code(err) }

// Gateway is the gateway's Host as an engine calls it: each error comes
// back as the gateway's fault of its code (faultcode.Fault), so the
// engine decides by fault kind, as inside the gateway.
type Gateway struct{ Host edgeplugin.Host }

// Audit writes an audit entry; details marshal to a JSON object.
func (g Gateway) Audit(ctx context.Context, source, severity string, details any) error {
	b, err := json.Marshal(details)
	if err != nil {
		return err
	}
	return faultcode.Fault(g.Host.Audit(ctx, edgeplugin.AuditEntry{Source: source, Severity: severity, Details: b}))
}

// Ingest stores readings.
func (g Gateway) Ingest(ctx context.Context, rs []edgeplugin.Reading) error {
	return faultcode.Fault(g.Host.Ingest(ctx, rs))
}

// Dispatch hands a control write to the dispatcher service.
func (g Gateway) Dispatch(ctx context.Context, req edgeplugin.ControlRequest) ([]edgeplugin.ControlResult, error) {
	out, err := g.Host.Dispatch(ctx, req)
	return out, faultcode.Fault(err)
}

// Services lists the south services.
func (g Gateway) Services(ctx context.Context) ([]edgeplugin.ControlTarget, error) {
	out, err := g.Host.Services(ctx)
	return out, faultcode.Fault(err)
}

// Write sets values on a south service's device.
func (g Gateway) Write(ctx context.Context, service, asset string, values map[string]any) error {
	return faultcode.Fault(g.Host.Write(ctx, service, asset, values))
}

// Operate runs an operation on a south service's device.
func (g Gateway) Operate(ctx context.Context, service, operation string, params map[string]any) error {
	return faultcode.Fault(g.Host.Operate(ctx, service, operation, params))
}
