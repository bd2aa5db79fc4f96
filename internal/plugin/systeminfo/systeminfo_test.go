package systeminfo

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
)

const meminfo = `MemTotal:        1000000 kB
MemFree:          200000 kB
MemAvailable:     250000 kB
Buffers:           10000 kB
Cached:           300000 kB
SwapCached:            0 kB
SwapTotal:        500000 kB
SwapFree:         500000 kB
`

const netdev = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo: 9999 99 0 0 0 0 0 0 9999 99 0 0 0 0 0 0
  eth0: 1000 10 1 0 0 0 0 0 2000 20 2 0 0 0 0 0
  wlan0: 500 5 0 0 0 0 0 0 700 7 0 0 0 0 0 0
`

// procFixture writes a fake /proc and returns its root.
func procFixture(t *testing.T, stat string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{"stat": stat, "meminfo": meminfo, "loadavg": "0.50 1.25 2.00 1/123 4567\n", "net/dev": netdev}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func fakeStatfs(path string) (DiskUsage, error) {
	if path != "/data" {
		return DiskUsage{}, errors.New("no such path")
	}
	return DiskUsage{Total: 1000, Free: 400, Available: 300}, nil
}

func values(t *testing.T, rs []plugin.Reading) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, r := range rs {
		var v map[string]any
		if err := json.Unmarshal(r.Values, &v); err != nil {
			t.Fatalf("reading %s: %v", r.Asset, err)
		}
		out[r.Asset] = v
	}
	return out
}

func TestDefinitionIsValid(t *testing.T) {
	if _, err := configmgr.CheckValues("sys", Definition().Items, nil); err != nil {
		t.Fatalf("items are not valid configuration: %v", err)
	}
}

func TestPoll(t *testing.T) {
	root := procFixture(t, "cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 2 3\n")
	cfg := plugin.Config{ItemPrefix: "host/", ItemInterval: "5", ItemDiskPath: "/data"}
	s, err := New(plugin.Env{Clock: clock.NewFake(time.Unix(0, 0))}, cfg, root, fakeStatfs)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	got := values(t, s.Poll(now))
	want := map[string]map[string]any{
		"host/cpu": {"user": 10.0, "nice": 0.0, "system": 10.0, "idle": 70.0, "iowait": 10.0, "irq": 0.0,
			"softirq": 0.0, "steal": 0.0, "usage": 20.0},
		"host/memory": {"total": 1e6, "free": 2e5, "available": 2.5e5, "buffers": 1e4, "cached": 3e5,
			"swapTotal": 5e5, "swapFree": 5e5, "usedPercent": 75.0},
		"host/load":    {"load1": 0.5, "load5": 1.25, "load15": 2.0},
		"host/network": {"interfaces": 2.0, "rxBytes": 1500.0, "rxPackets": 15.0, "rxErrors": 1.0, "txBytes": 2700.0, "txPackets": 27.0, "txErrors": 2.0},
		"host/disk":    {"path": "/data", "total": 1000.0, "free": 400.0, "available": 300.0, "usedPercent": 60.0},
	}
	for asset, w := range want {
		if !reflect.DeepEqual(got[asset], w) {
			t.Errorf("%s = %v, want %v", asset, got[asset], w)
		}
	}

	// The second poll reports the CPU shares since the first.
	if err := os.WriteFile(filepath.Join(root, "stat"), []byte("cpu  150 0 100 750 100 0 0 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got = values(t, s.Poll(now.Add(5*time.Second)))
	if cpu := got["host/cpu"]; cpu["user"] != 50.0 || cpu["idle"] != 50.0 || cpu["usage"] != 50.0 {
		t.Errorf("cpu since the previous poll = %v, want user 50, idle 50, usage 50", cpu)
	}
}

func TestPollLeavesOutUnreadableFigures(t *testing.T) {
	root := procFixture(t, "garbage\n")
	if err := os.Remove(filepath.Join(root, "loadavg")); err != nil {
		t.Fatal(err)
	}
	cfg := plugin.Config{ItemPrefix: "", ItemInterval: "1", ItemDiskPath: "/elsewhere"}
	s, err := New(plugin.Env{Clock: clock.NewFake(time.Unix(0, 0))}, cfg, root, fakeStatfs)
	if err != nil {
		t.Fatal(err)
	}
	got := values(t, s.Poll(time.Unix(0, 0)))
	if len(got) != 2 || got["memory"] == nil || got["network"] == nil {
		t.Errorf("assets = %v, want only memory and network", got)
	}
}

func TestRunPollsAtTheInterval(t *testing.T) {
	root := procFixture(t, "cpu  1 0 1 8 0 0 0 0\n")
	clk := clock.NewFake(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC))
	cfg := plugin.Config{ItemPrefix: "s/", ItemInterval: "10", ItemDiskPath: "/data"}
	s, err := New(plugin.Env{Clock: clk}, cfg, root, fakeStatfs)
	if err != nil {
		t.Fatal(err)
	}
	sink := plugintest.NewSink(10)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, sink) }()
	clk.BlockUntil(1)
	clk.Advance(10 * time.Second)
	rs := <-sink.Calls
	if len(rs) != 5 || !rs[0].Timestamp.Equal(clk.Now()) {
		t.Errorf("poll delivered %d readings at %v", len(rs), rs[0].Timestamp)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}
	if err := s.Reconfigure(plugin.Config{ItemInterval: "0"}); err == nil {
		t.Error("Reconfigure with a zero interval = nil")
	}
}

func TestThisHost(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("systeminfo reads Linux's /proc")
	}
	s, err := New(plugin.Env{Clock: clock.Real{}}, plugintest.Defaults(Definition()), "/proc", statfs)
	if err != nil {
		t.Fatal(err)
	}
	got := values(t, s.Poll(time.Now()))
	for _, asset := range []string{"system/cpu", "system/memory", "system/load", "system/network", "system/disk"} {
		if got[asset] == nil {
			t.Errorf("no %s reading from this host", asset)
		}
	}
	if total, _ := got["system/disk"]["total"].(float64); total <= 0 {
		t.Errorf("disk total = %v", got["system/disk"]["total"])
	}
}
