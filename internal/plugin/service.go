package plugin

import "context"

// Kinds of the service plugins: processes the gateway calls with JSON
// requests and which call it back (ServiceHost). They run in their own
// process (internal/plugin/external).
const (
	KindNotification = "notification"
	KindDispatcher   = "dispatcher"
)

// ServiceHost is the gateway's side of the callbacks a service process
// makes: Call runs method with a JSON request body (nil for none) and
// returns a JSON answer (nil for none). An error that is a *fault.Fault
// reaches the process with the code of its kind; any other error reaches
// it as an internal error. Call is called concurrently, from the start of
// the service until its Run returned.
type ServiceHost interface {
	Call(ctx context.Context, method string, body []byte) ([]byte, error)
}

// ServiceEnv is what the runtime gives a service instance besides its
// configuration.
type ServiceEnv struct {
	Env
	// Host answers the service's calls to the gateway.
	Host ServiceHost
}

// Service is a running notification or dispatcher service process.
//
// The runtime calls, in order: Restore (if the plugin is a Persister and
// has data), Open (if it is an Opener), Run, then State (if a Persister)
// after Run returned. Call and Reconfigure may be called concurrently with
// Run, once Open returned.
type Service interface {
	// Run blocks until ctx ends (nil: the process was stopped cleanly) or
	// the process dies (an error: the runtime restarts the service with
	// backoff).
	Run(ctx context.Context) error
	// Call runs method of the service with a JSON request body (nil for
	// none) and returns its JSON answer (nil for none). Its errors are
	// *fault.Fault when the service said what went wrong (invalid request,
	// not found, conflict, unavailable, failed at the device), plain
	// errors otherwise; a service that does not run answers
	// fault.Unavailable.
	Call(ctx context.Context, method string, body []byte) ([]byte, error)
	// Reconfigure applies a changed configuration: ErrRestart when the
	// change needs a new instance, an error when cfg is unusable (the old
	// configuration stays in force).
	Reconfigure(ctx context.Context, cfg Config) error
}
