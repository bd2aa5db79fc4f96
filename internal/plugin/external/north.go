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

// Send hands the block to the plugin and returns how many it accepted.
func (n *north) Send(ctx context.Context, readings []plugin.Reading) (int, error) {
	return n.proc.Send(ctx, toSDK(readings))
}

// Reconfigure hands the plugin its new configuration.
func (n *north) Reconfigure(cfg plugin.Config) error {
	return reconfigureError(n.proc.Reconfigure(context.Background(), edgeplugin.Config(cfg)))
}

// Close kills the process.
func (n *north) Close() error {
	n.proc.Kill()
	return nil
}

// filter is an instance of an external filter plugin: one process from its
// creation to Close.
type filter struct {
	proc *edgeplugin.Process
}

func newFilter(ctx context.Context, l *launcher, env plugin.Env, cfg plugin.Config) (*filter, error) {
	p, err := l.start(ctx, env.Service, cfg, nil)
	if err != nil {
		return nil, err
	}
	return &filter{proc: p}, nil
}

// Ingest passes readings through the plugin.
func (f *filter) Ingest(ctx context.Context, readings []plugin.Reading) ([]plugin.Reading, error) {
	out, err := f.proc.Ingest(ctx, toSDK(readings))
	if err != nil {
		return nil, err
	}
	return fromSDK(out), nil
}

// Reconfigure hands the plugin its new configuration.
func (f *filter) Reconfigure(cfg plugin.Config) error {
	return reconfigureError(f.proc.Reconfigure(context.Background(), edgeplugin.Config(cfg)))
}

// Close kills the process.
func (f *filter) Close() error {
	f.proc.Kill()
	return nil
}
