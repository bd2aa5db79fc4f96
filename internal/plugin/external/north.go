package external

import (
	"context"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// north is an instance of an external north plugin: one process from its
// creation to Close.
type north struct {
	proc *edgeplugin.Process
}

func newNorth(ctx context.Context, l *launcher, env plugin.Env, cfg plugin.Config) (*north, error) {
	p, err := l.start(ctx, env.Service, cfg, nil)
	if err != nil {
		return nil, err
	}
	return &north{proc: p}, nil
}

// Send hands the block to the plugin and returns how many it accepted. A
// caller's ctx without a deadline gets sendWait: a plugin stuck on its
// destination fails the block, which the north runtime sends again,
// instead of holding the service until it stops.
func (n *north) Send(ctx context.Context, readings []plugin.Reading) (int, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, sendWait)
		defer cancel()
	}
	return n.proc.Send(ctx, readings)
}

// Reconfigure hands the plugin its new configuration; a plugin that does
// not answer within callWait fails it.
func (n *north) Reconfigure(cfg plugin.Config) error {
	ctx, cancel := context.WithTimeout(context.Background(), callWait)
	defer cancel()
	return reconfigureError(n.proc.Reconfigure(ctx, cfg))
}

// Close kills the process.
func (n *north) Close() error {
	n.proc.Kill()
	return nil
}
