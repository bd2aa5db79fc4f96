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
// It is also a device that can be written to and operated: each write and
// each operation is emitted as a reading of asset "control" whose values
// are {"call": "write" or the operation, "asset": the asset written,
// "values": the values or parameters, with their JSON types}. Writing
// datapoint "readonly" is refused (ErrNotWritable), and so is a write of
// asset "pump" other than of one integer "speed"; operation "jam" fails as
// a device would and any operation but "reset" and "jam" is unknown
// (ErrNoOperation).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

type probe struct {
	mode     string
	controls chan edgeplugin.Reading // what writes and operations emit
}

func (p *probe) control(ctx context.Context, call, asset string, values map[string]any) error {
	r, err := edgeplugin.NewReading("control", time.Now(), map[string]any{"call": call, "asset": asset, "values": values})
	if err != nil {
		return err
	}
	select {
	case p.controls <- r:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Write records a write.
func (p *probe) Write(ctx context.Context, asset string, values map[string]any) error {
	if _, ok := values["readonly"]; ok {
		return fmt.Errorf("%w: readonly", edgeplugin.ErrNotWritable)
	}
	if asset == "pump" {
		if _, ok := values["speed"].(int64); !ok || len(values) != 1 {
			return fmt.Errorf("%w: asset %q values %v", edgeplugin.ErrNotWritable, asset, values)
		}
	}
	return p.control(ctx, "write", asset, values)
}

// Operate records operation reset; jam fails as a device would.
func (p *probe) Operate(ctx context.Context, operation string, params map[string]any) error {
	switch operation {
	case "reset":
		return p.control(ctx, operation, "", params)
	case "jam":
		return errors.New("the probe's valve is jammed")
	}
	return fmt.Errorf("%w: %q", edgeplugin.ErrNoOperation, operation)
}

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
	_ edgeplugin.South    = (*probe)(nil)
	_ edgeplugin.Starter  = (*probe)(nil)
	_ edgeplugin.Writer   = (*probe)(nil)
	_ edgeplugin.Operator = (*probe)(nil)
)

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
	for {
		select {
		case r := <-p.controls:
			sink.Put([]edgeplugin.Reading{r})
		case <-ctx.Done():
			return nil
		}
	}
}

func main() {
	env, _ := json.Marshal(os.Environ())
	edgeplugin.Serve(edgeplugin.Plugin{
		Info: edgeplugin.Info{Name: "probe", Version: "1.0.0", Kind: edgeplugin.KindSouth, Description: string(env),
			Items: map[string]edgeplugin.Item{"mode": {Description: "What the probe does", Type: "string", Default: "env"}}},
		South: &probe{controls: make(chan edgeplugin.Reading, 16)},
	})
}
