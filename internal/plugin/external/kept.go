package external

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// keptState is the persisted state of a plugin instance across its
// processes: restored before the first starts, taken from each as it ends,
// handed to the next. It is safe for concurrent use.
type keptState struct {
	mu    sync.Mutex
	state json.RawMessage
}

func (k *keptState) get() json.RawMessage {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.state
}

func (k *keptState) set(state json.RawMessage) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.state = state
}

// Restore keeps state for the next process.
func (k *keptState) Restore(state json.RawMessage) error {
	k.set(state)
	return nil
}

// State is the state the last process reported when it ended.
func (k *keptState) State() (json.RawMessage, error) {
	if st := k.get(); st != nil {
		return st, nil
	}
	return nil, errors.New("the plugin reported no state")
}

// takeFrom keeps the state of process p, which is ending, when its plugin
// persists and it still runs; what cannot be taken is logged, and the
// state kept before stays.
func (k *keptState) takeFrom(p *edgeplugin.Process, log *slog.Logger, plugin string) {
	if !p.Info.Persists || p.Exited() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopWait)
	defer cancel()
	st, err := p.State(ctx)
	if err != nil {
		log.Warn("plugin state not taken", "plugin", plugin, "error", err)
		return
	}
	k.set(st)
}
