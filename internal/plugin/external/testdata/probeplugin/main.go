// Command probeplugin is a south plugin the tests of the gateway run in
// its own process to observe how the gateway runs plugin processes. Its
// description is its environment (a JSON array of "NAME=value"); its item
// mode says what it does:
//
//	env    (default) Run emits a reading of asset "env" whose value "env"
//	       is its environment, then waits
//	hang   Start never returns (until the gateway gives up on it)
//	panic  Start panics, which ends the process
//	big    Run submits a batch of 200 MiB, which the SDK refuses, and fails
//	       with that refusal
//
// It writes to its "device" (Writer): a write of asset "pump" whose value
// "speed" is an integer succeeds; any other is not writable.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

type probe struct{ mode string }

func (p *probe) Start(ctx context.Context, s edgeplugin.Start) error {
	p.mode = s.Config["mode"]
	switch p.mode {
	case "hang":
		<-ctx.Done()
		return ctx.Err()
	case "panic":
		done := make(chan struct{})
		go func() {
			defer close(done)
			panic("the probe's device is gone")
		}()
		<-done
	}
	return nil
}

func (p *probe) Reconfigure(edgeplugin.Config) error { return edgeplugin.ErrRestart }

// The probe implements the gateway's plugin interfaces.
var (
	_ edgeplugin.South   = (*probe)(nil)
	_ edgeplugin.Starter = (*probe)(nil)
	_ edgeplugin.Writer  = (*probe)(nil)
)

func (p *probe) Write(_ context.Context, asset string, values map[string]any) error {
	if _, ok := values["speed"].(int64); asset != "pump" || !ok || len(values) != 1 {
		return fmt.Errorf("%w: asset %q values %v", edgeplugin.ErrNotWritable, asset, values)
	}
	return nil
}

func (p *probe) Run(ctx context.Context, sink edgeplugin.Sink) error {
	switch p.mode {
	case "big":
		v := append(append([]byte(`{"x":"`), bytes.Repeat([]byte("a"), 1<<20)...), `"}`...)
		rs := make([]edgeplugin.Reading, 200)
		for i := range rs {
			rs[i] = edgeplugin.Reading{Asset: "big", Timestamp: time.Now(), Values: v}
		}
		if _, err := sink.Submit(rs); err != nil {
			return err
		}
	default:
		r, err := edgeplugin.NewReading("env", time.Now(), map[string]any{"env": os.Environ()})
		if err != nil {
			return err
		}
		sink.Put([]edgeplugin.Reading{r})
	}
	<-ctx.Done()
	return nil
}

func main() {
	env, _ := json.Marshal(os.Environ())
	edgeplugin.Serve(edgeplugin.Plugin{
		Info: edgeplugin.Info{Name: "probe", Version: "1.0.0", Kind: edgeplugin.KindSouth, Description: string(env),
			Items: map[string]edgeplugin.Item{"mode": {Description: "What the probe does", Type: "string", Default: "env"}}},
		South: &probe{},
	})
}
