package plugin

import "context"

// Kinds of service plugin.
const (
	KindNotification = "notification"
	KindDispatcher   = "dispatcher"
)

// ServiceHost is the gateway's side of the callbacks a service process makes.
type ServiceHost interface {
	Call(ctx context.Context, method string, body []byte) ([]byte, error)
}

// ServiceEnv is what a service instance gets from the runtime.
type ServiceEnv struct {
	Env
	Host ServiceHost
}

// Service is a running notification or dispatcher service process.
type Service interface {
	Run(ctx context.Context) error
	Call(ctx context.Context, method string, body []byte) ([]byte, error)
	Reconfigure(ctx context.Context, cfg Config) error
}
