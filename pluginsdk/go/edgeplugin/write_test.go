package edgeplugin

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// valve is a south plugin that writes: it records what it was asked to
// write and refuses datapoints other than "open".
type valve struct {
	mu     sync.Mutex
	asset  string
	values map[string]any
}

func (v *valve) Reconfigure(Config) error { return nil }
func (v *valve) Run(ctx context.Context, _ Sink) error {
	<-ctx.Done()
	return nil
}

func (v *valve) Write(_ context.Context, asset string, values map[string]any) error {
	if _, ok := values["open"]; !ok || len(values) != 1 {
		return fmt.Errorf("%w: only open", ErrNotWritable)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.asset, v.values = asset, values
	return nil
}

// TestWriteOverTheContract: a South that is a Writer takes setpoints of an
// asset with their JSON types, the same Writer the gateway's built-in
// plugins implement; its refusals reach the gateway as ErrNotWritable. A
// South that does not write says so when described (Info.Writes).
func TestWriteOverTheContract(t *testing.T) {
	v := &valve{}
	c, info, err := testConnect(t, Plugin{Info: Info{Name: "valve", Version: "1", Kind: KindSouth}, South: v})
	if err != nil {
		t.Fatal(err)
	}
	if !info.Writes || info.Operates {
		t.Fatalf("described Writes, Operates = %v, %v; want true, false", info.Writes, info.Operates)
	}
	if err := c.Write(t.Context(), "pump", map[string]any{"open": true}); err != nil {
		t.Fatal(err)
	}
	v.mu.Lock()
	if v.asset != "pump" || !reflect.DeepEqual(v.values, map[string]any{"open": true}) {
		t.Errorf("wrote %q %#v", v.asset, v.values)
	}
	v.mu.Unlock()
	if err := c.Write(t.Context(), "pump", map[string]any{"speed": 3}); !errors.Is(err, ErrNotWritable) {
		t.Errorf("Write of an unknown datapoint = %v, want ErrNotWritable", err)
	}
	if err := c.Write(t.Context(), "pump", map[string]any{"open": 2.5}); err != nil {
		t.Errorf("Write of a number = %v", err)
	}
	v.mu.Lock()
	if v.values["open"] != 2.5 {
		t.Errorf("a number arrived as %#v", v.values["open"])
	}
	v.mu.Unlock()

	nc, ninfo, err := testConnect(t, Plugin{Info: Info{Name: "n", Version: "1", Kind: KindSouth}, South: bigSouth{}})
	if err != nil {
		t.Fatal(err)
	}
	if ninfo.Writes {
		t.Errorf("a plugin that does not write is described as writing")
	}
	if err := nc.Write(t.Context(), "a", map[string]any{"x": 1}); !errors.Is(err, ErrCannotWrite) {
		t.Errorf("Write to a plugin that does not write = %v, want ErrCannotWrite", err)
	}
}
