// Package systeminfo is the south plugin that reads the host's own
// figures every poll interval: CPU time shares (/proc/stat), memory
// (/proc/meminfo), load (/proc/loadavg), network counters (/proc/net/dev)
// and the disk holding a path (statfs). Each is one asset under a
// configurable prefix: <prefix>cpu, memory, load, network and disk.
package systeminfo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Name is the plugin's name.
const Name = "systeminfo"

// Configuration items.
const (
	ItemPrefix   = "assetNamePrefix"
	ItemInterval = "pollInterval"
	ItemDiskPath = "diskPath"
)

// Definition describes the plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Name: Name, Version: "1.0.0", Kind: plugin.KindSouth,
		Description: "The host's CPU, memory, load, network and disk figures",
		Items:       plugin.ItemsOf(Config{}),
		New: func(env plugin.Env, cfg plugin.Config) (plugin.South, error) {
			return New(env, cfg, "/proc", statfs)
		},
	}
}

// DiskUsage is what statfs reports, in bytes.
type DiskUsage struct {
	Total, Free, Available uint64
}

// SystemInfo is a running instance.
type SystemInfo struct {
	env      plugin.Env
	log      *slog.Logger
	procRoot string
	statfs   func(path string) (DiskUsage, error)

	mu       sync.Mutex // guards the fields below
	prefix   string
	interval time.Duration
	diskPath string
	lastCPU  []uint64 // the previous /proc/stat totals, for deltas
	failed   map[string]bool
}

// New returns an instance reading procfs under procRoot and disks with
// statfs; tests point both at fixtures.
func New(env plugin.Env, cfg plugin.Config, procRoot string, statfs func(string) (DiskUsage, error)) (*SystemInfo, error) {
	log := env.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &SystemInfo{env: env, log: log, procRoot: procRoot, statfs: statfs, failed: map[string]bool{}}
	if err := s.Reconfigure(cfg); err != nil {
		return nil, err
	}
	return s, nil
}

// Reconfigure applies the new settings from the next poll on.
func (s *SystemInfo) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	if c.PollInterval < 1 {
		return fmt.Errorf("%s must be at least 1 second", ItemInterval)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prefix, s.interval, s.diskPath = c.AssetNamePrefix, time.Duration(c.PollInterval)*time.Second, c.DiskPath
	return nil
}

// Run polls every interval until ctx ends.
func (s *SystemInfo) Run(ctx context.Context, sink plugin.Sink) error {
	for {
		s.mu.Lock()
		interval := s.interval
		s.mu.Unlock()
		t := s.env.Clock.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case now := <-t.C():
			if rs := s.Poll(now); len(rs) > 0 {
				sink.Put(rs)
			}
		}
	}
}

// Poll reads every figure once and returns one reading per asset it could
// read, stamped now. A figure that cannot be read is logged (once until it
// can be read again) and left out.
func (s *SystemInfo) Poll(now time.Time) []plugin.Reading {
	s.mu.Lock()
	prefix, diskPath := s.prefix, s.diskPath
	s.mu.Unlock()
	ts := now.UTC().Truncate(time.Microsecond)
	var out []plugin.Reading
	for _, c := range []struct {
		asset string
		read  func() (map[string]any, error)
	}{
		{"cpu", s.cpu},
		{"memory", s.memory},
		{"load", s.load},
		{"network", s.network},
		{"disk", func() (map[string]any, error) { return s.disk(diskPath) }},
	} {
		values, err := c.read()
		s.mu.Lock()
		wasFailing := s.failed[c.asset]
		s.failed[c.asset] = err != nil
		s.mu.Unlock()
		if err != nil {
			if !wasFailing {
				s.log.Warn("systeminfo: figure not readable", "asset", c.asset, "error", err)
			}
			continue
		}
		b, err := json.Marshal(values)
		if err != nil {
			continue
		}
		out = append(out, plugin.Reading{Asset: prefix + c.asset, Timestamp: ts, Values: b})
	}
	return out
}

func (s *SystemInfo) readProc(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(s.procRoot, name)) //nolint:gosec // a fixed procfs file under the root the code chose
}

// cpuFields names the columns of the cpu line of /proc/stat.
var cpuFields = []string{"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"}

// cpu returns the share (percent) of CPU time spent in each state since
// the previous poll (since boot at the first).
func (s *SystemInfo) cpu() (map[string]any, error) {
	b, err := s.readProc("stat")
	if err != nil {
		return nil, err
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 5 || f[0] != "cpu" {
		return nil, errors.New("/proc/stat does not start with a cpu line")
	}
	cur := make([]uint64, len(cpuFields))
	for i := range cpuFields {
		if i+1 >= len(f) {
			break
		}
		v, err := strconv.ParseUint(f[i+1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("/proc/stat cpu column %d: %w", i+1, err)
		}
		cur[i] = v
	}
	s.mu.Lock()
	prev := s.lastCPU
	s.lastCPU = cur
	s.mu.Unlock()
	delta := make([]uint64, len(cur))
	var total uint64
	for i := range cur {
		delta[i] = cur[i]
		if prev != nil && cur[i] >= prev[i] {
			delta[i] = cur[i] - prev[i]
		}
		total += delta[i]
	}
	out := map[string]any{}
	if total == 0 {
		return nil, errors.New("no CPU time elapsed since the previous poll")
	}
	for i, name := range cpuFields {
		out[name] = round2(100 * float64(delta[i]) / float64(total))
	}
	busy := total - delta[3] - delta[4]
	out["usage"] = round2(100 * float64(busy) / float64(total))
	return out, nil
}

// memory returns /proc/meminfo's main figures in kB and the share in use.
func (s *SystemInfo) memory() (map[string]any, error) {
	b, err := s.readProc("meminfo")
	if err != nil {
		return nil, err
	}
	want := map[string]string{"MemTotal": "total", "MemFree": "free", "MemAvailable": "available",
		"Buffers": "buffers", "Cached": "cached", "SwapTotal": "swapTotal", "SwapFree": "swapFree"}
	out := map[string]any{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), ":")
		name, wanted := want[key]
		if !ok || !wanted {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		v, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("/proc/meminfo %s: %w", key, err)
		}
		out[name] = v
	}
	total, ok := out["total"].(uint64)
	if !ok || total == 0 {
		return nil, errors.New("/proc/meminfo has no MemTotal")
	}
	if avail, ok := out["available"].(uint64); ok {
		out["usedPercent"] = round2(100 * float64(total-min(avail, total)) / float64(total))
	}
	return out, nil
}

// load returns the 1, 5 and 15 minute load averages.
func (s *SystemInfo) load() (map[string]any, error) {
	b, err := s.readProc("loadavg")
	if err != nil {
		return nil, err
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return nil, errors.New("/proc/loadavg has fewer than 3 fields")
	}
	out := map[string]any{}
	for i, name := range []string{"load1", "load5", "load15"} {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return nil, fmt.Errorf("/proc/loadavg %s: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}

// network returns the byte, packet and error counters of every interface
// but loopback, summed.
func (s *SystemInfo) network() (map[string]any, error) {
	b, err := s.readProc("net/dev")
	if err != nil {
		return nil, err
	}
	// Columns after "iface:": rx bytes packets errs drop fifo frame
	// compressed multicast, then tx bytes packets errs drop ...
	cols := map[int]string{0: "rxBytes", 1: "rxPackets", 2: "rxErrors", 8: "txBytes", 9: "txPackets", 10: "txErrors"}
	sums := map[string]uint64{}
	interfaces := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		name = strings.TrimSpace(name)
		if !ok || name == "lo" || strings.Contains(name, "|") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 16 {
			return nil, fmt.Errorf("/proc/net/dev line of %s has %d fields, want 16", name, len(f))
		}
		for i, col := range cols {
			v, err := strconv.ParseUint(f[i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("/proc/net/dev %s %s: %w", name, col, err)
			}
			sums[col] += v
		}
		interfaces++
	}
	out := map[string]any{"interfaces": interfaces}
	for _, col := range cols {
		out[col] = sums[col]
	}
	return out, nil
}

// disk returns the size and free space of the filesystem holding path.
func (s *SystemInfo) disk(path string) (map[string]any, error) {
	u, err := s.statfs(path)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"path": path, "total": u.Total, "free": u.Free, "available": u.Available}
	if u.Total > 0 {
		out["usedPercent"] = round2(100 * float64(u.Total-min(u.Free, u.Total)) / float64(u.Total))
	}
	return out, nil
}

// round2 rounds to two decimals.
func round2(v float64) float64 {
	return float64(int64(v*100+0.5)) / 100
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.South = (*SystemInfo)(nil)
)
