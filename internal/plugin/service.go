package plugin

import (
	"context"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Kinds of the service plugins: processes the gateway calls through their
// typed contract (proto/edged/plugin/v1: Notification, Dispatcher) and
// which call it back (ServiceHost). They run in their own process
// (internal/plugin/external).
const (
	KindNotification = "notification"
	KindDispatcher   = "dispatcher"
)

// ServiceHost is the gateway's side of the callbacks a service process
// makes (the contract's Host). An error that is a *fault.Fault reaches the
// process with the code of its kind (internal/plugin/faultcode); any other
// error reaches it as an internal error. It is called concurrently, from
// the start of the service until its Run returned.
type ServiceHost = edgeplugin.Host

// ServiceEnv is what the runtime gives a service instance besides its
// configuration.
type ServiceEnv struct {
	Env
	// Host answers the service's calls to the gateway.
	Host ServiceHost
}

// Service is a running notification or dispatcher service process; an
// instance of a notification service is also a NotificationService, one
// of a dispatcher a DispatcherService.
//
// The runtime calls, in order: Restore (if the plugin is a Persister and
// has data), Open (if it is an Opener), Run, then State (if a Persister)
// after Run returned. The kind's calls and Reconfigure may be called
// concurrently with Run, once Open returned. Their errors are *fault.Fault
// when the service said what went wrong (invalid request, not found,
// conflict, unavailable, failed at the device), plain errors otherwise; a
// service that does not run answers fault.Unavailable.
type Service interface {
	// Run blocks until ctx ends (nil: the process was stopped cleanly) or
	// the process dies (an error: the runtime restarts the service with
	// backoff).
	Run(ctx context.Context) error
	// Reconfigure applies a changed configuration: ErrRestart when the
	// change needs a new instance, an error when cfg is unusable (the old
	// configuration stays in force).
	Reconfigure(ctx context.Context, cfg Config) error
}

// NotificationService is an instance of a notification service.
type NotificationService interface {
	Service
	edgeplugin.NotificationCalls
}

// DispatcherService is an instance of a dispatcher service.
type DispatcherService interface {
	Service
	edgeplugin.DispatcherCalls
}
