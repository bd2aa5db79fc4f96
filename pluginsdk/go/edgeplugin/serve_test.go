package edgeplugin

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// north accepts readings until its capacity is used.
type north struct{ capacity int }

func (n *north) Start(context.Context, Start) error { return nil }
func (n *north) Reconfigure(Config) error           { return ErrRestart }
func (n *north) Send(_ context.Context, rs []Reading) (int, error) {
	if len(rs) > n.capacity {
		return n.capacity, errors.New("destination full")
	}
	return len(rs), nil
}

func TestNorthAcceptedCount(t *testing.T) {
	c, info, err := testConnect(t, Plugin{Info: Info{Name: "n", Version: "1", Kind: KindNorth}, North: &north{capacity: 2}})
	if err != nil || info.Kind != KindNorth {
		t.Fatalf("connect: %+v, %v", info, err)
	}
	must := func(r Reading, err error) Reading {
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ts := time.Unix(1700000000, 5).UTC()
	rs := []Reading{must(NewReading("a", ts, map[string]any{"v": 1})), must(NewReading("a", ts, map[string]any{"v": 2})),
		must(NewReading("a", ts, map[string]any{"v": 3}))}
	if n, err := c.Send(t.Context(), rs[:2]); n != 2 || err != nil {
		t.Errorf("Send of 2 = %d, %v", n, err)
	}
	if n, err := c.Send(t.Context(), rs); n != 2 || err == nil || err.Error() != "destination full" {
		t.Errorf("Send of 3 = %d, %v; want 2 and the plugin's error", n, err)
	}
	if err := c.Reconfigure(t.Context(), Config{}); !errors.Is(err, ErrRestart) {
		t.Errorf("Reconfigure = %v, want ErrRestart", err)
	}
	if st, err := c.State(t.Context()); st != nil || err != nil {
		t.Errorf("State of a plugin that does not persist = %s, %v", st, err)
	}
}

func TestServeRefusesMismatchedKind(t *testing.T) {
	p := Plugin{Info: Info{Name: "n", Version: "1", Kind: KindSouth}, North: &north{}}
	if err := p.check(); err == nil {
		t.Error("check of a north implementation described as south = nil")
	}
}

func TestReadingsAreChecked(t *testing.T) {
	bad := []Reading{{Asset: "", Values: json.RawMessage(`{}`)}}
	if _, err := fromPB(toPB(bad)); err == nil {
		t.Error("a reading without asset passed")
	}
	bad = []Reading{{Asset: "a", Values: json.RawMessage(`[1]`)}}
	if _, err := fromPB(toPB(bad)); err == nil {
		t.Error("a reading whose values are no object passed")
	}
}
