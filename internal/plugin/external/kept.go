package external

import (
	"encoding/json"
	"errors"
	"sync"
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
