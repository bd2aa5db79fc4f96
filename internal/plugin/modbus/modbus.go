// Package modbus is the south plugin that polls Modbus devices (Modbus TCP,
// or RTU over a serial line) at a configured rate: a map of coils, discrete
// inputs, holding and input registers, each decoded (int16, uint16, int32,
// uint32, float32, float64 with a word order), scaled and offset, becomes a
// named datapoint of a named asset; the datapoints of one asset read in one
// poll form one reading. A lost connection is reopened with a growing wait.
// Coils and holding registers of the map can be written through
// plugin.Writer.
package modbus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/simonvetter/modbus"

	"github.com/edged/edged/internal/backoff"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Name is the plugin's name.
const Name = "modbus"

// Configuration items.
const (
	ItemURL          = "url"
	ItemMap          = "map"
	ItemPollInterval = "pollInterval"
	ItemTimeout      = "timeout"
	ItemBaudRate     = "baudRate"
	ItemParity       = "parity"
	ItemStopBits     = "stopBits"
	ItemReconnectMax = "reconnectMaxInterval"
)

// Register kinds of a map entry.
const (
	KindCoil     = "coil"
	KindDiscrete = "discrete"
	KindHolding  = "holding"
	KindInput    = "input"
)

// Formats of register values.
const (
	FormatInt16   = "int16"
	FormatUint16  = "uint16"
	FormatInt32   = "int32"
	FormatUint32  = "uint32"
	FormatFloat32 = "float32"
	FormatFloat64 = "float64"
)

// words is the number of registers of each format.
var words = map[string]int{FormatInt16: 1, FormatUint16: 1, FormatInt32: 2, FormatUint32: 2, FormatFloat32: 2, FormatFloat64: 4}

// Definition describes the plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Name: Name, Version: "1.0.0", Kind: plugin.KindSouth,
		Description: "Polls Modbus TCP or RTU devices: coils, discrete inputs, holding and input registers mapped to datapoints of assets",
		Items:       plugin.ItemsOf(Config{}),
		New:         func(env plugin.Env, cfg plugin.Config) (plugin.South, error) { return New(env, cfg) },
	}
}

// Point is one entry of the register map.
type Point struct {
	Asset     string   `json:"asset"`
	Datapoint string   `json:"datapoint"`
	Slave     *int     `json:"slave"`
	Type      string   `json:"type"`
	Address   *int     `json:"address"`
	Format    string   `json:"format"`
	WordOrder string   `json:"wordOrder"`
	Scale     *float64 `json:"scale"`
	Offset    float64  `json:"offset"`
}

// point is a checked map entry.
type point struct {
	asset, datapoint string
	slave            uint8
	kind             string
	address          uint16
	format           string
	lowWordFirst     bool
	scale, offset    float64
}

// settings is a checked configuration.
type settings struct {
	client   modbus.ClientConfiguration
	points   []point
	interval time.Duration
	retry    backoff.Policy
}

// parse checks a configuration.
func parse(cfg plugin.Config) (settings, error) {
	var s settings
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return s, err
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "tcp" && u.Scheme != "rtu") {
		return s, fmt.Errorf("item %q = %q is not a tcp://host:port or rtu:///device URL", ItemURL, c.URL)
	}
	if u.Scheme == "tcp" && u.Port() == "" {
		return s, fmt.Errorf("item %q = %q has no port", ItemURL, c.URL)
	}
	if c.PollInterval < 1 || c.Timeout < 1 || c.ReconnectMaxInterval < 1 {
		return s, fmt.Errorf("items %q, %q and %q must be positive", ItemPollInterval, ItemTimeout, ItemReconnectMax)
	}
	s.client = modbus.ClientConfiguration{URL: c.URL, Timeout: time.Duration(c.Timeout) * time.Millisecond,
		Speed: uint(max(c.BaudRate, 0)), DataBits: 8, StopBits: uint(max(c.StopBits, 0))}
	switch c.Parity {
	case "none":
		s.client.Parity = modbus.PARITY_NONE
	case "odd":
		s.client.Parity = modbus.PARITY_ODD
	default:
		s.client.Parity = modbus.PARITY_EVEN
	}
	s.interval = time.Duration(c.PollInterval) * time.Millisecond
	s.retry = backoff.Policy{Initial: 500 * time.Millisecond, Max: time.Duration(c.ReconnectMaxInterval) * time.Second}.WithDefaults()
	if s.points, err = parseMap(c.Map); err != nil {
		return s, err
	}
	return s, nil
}

// parseMap checks the register map.
func parseMap(raw string) ([]point, error) {
	d := json.NewDecoder(strings.NewReader(raw))
	d.DisallowUnknownFields()
	var entries []Point
	if err := d.Decode(&entries); err != nil {
		return nil, fmt.Errorf("item %q: %w", ItemMap, err)
	}
	seen := map[[2]string]bool{}
	out := make([]point, 0, len(entries))
	for i, e := range entries {
		where := fmt.Sprintf("item %q entry %d", ItemMap, i+1)
		p := point{asset: e.Asset, datapoint: e.Datapoint, kind: e.Type, format: e.Format, scale: 1, offset: e.Offset}
		switch {
		case e.Asset == "" || e.Datapoint == "":
			return nil, fmt.Errorf("%s needs an asset and a datapoint", where)
		case seen[[2]string{e.Asset, e.Datapoint}]:
			return nil, fmt.Errorf("%s maps datapoint %q of asset %q a second time", where, e.Datapoint, e.Asset)
		case e.Address == nil || *e.Address < 0 || *e.Address > math.MaxUint16:
			return nil, fmt.Errorf("%s needs an address from 0 to 65535", where)
		}
		seen[[2]string{e.Asset, e.Datapoint}] = true
		p.address = uint16(*e.Address)
		p.slave = 1
		if e.Slave != nil {
			if *e.Slave < 0 || *e.Slave > 255 {
				return nil, fmt.Errorf("%s: slave %d is not from 0 to 255", where, *e.Slave)
			}
			p.slave = uint8(*e.Slave)
		}
		switch e.Type {
		case KindCoil, KindDiscrete:
			if e.Format != "" {
				return nil, fmt.Errorf("%s: a %s has no format", where, e.Type)
			}
		case KindHolding, KindInput:
			if p.format == "" {
				p.format = FormatUint16
			}
			n, ok := words[p.format]
			if !ok {
				return nil, fmt.Errorf("%s: format %q is not one of int16, uint16, int32, uint32, float32, float64", where, e.Format)
			}
			if int(p.address)+n-1 > math.MaxUint16 {
				return nil, fmt.Errorf("%s: a %s at %d runs past address 65535", where, p.format, p.address)
			}
		default:
			return nil, fmt.Errorf("%s: type %q is not one of coil, discrete, holding, input", where, e.Type)
		}
		switch e.WordOrder {
		case "", "high":
		case "low":
			p.lowWordFirst = true
		default:
			return nil, fmt.Errorf("%s: wordOrder %q is neither high nor low", where, e.WordOrder)
		}
		if e.Scale != nil {
			if *e.Scale == 0 || math.IsNaN(*e.Scale) || math.IsInf(*e.Scale, 0) {
				return nil, fmt.Errorf("%s: scale must be a non-zero number", where)
			}
			p.scale = *e.Scale
		}
		out = append(out, p)
	}
	return out, nil
}

// Modbus is a running instance.
type Modbus struct {
	env plugin.Env
	log *slog.Logger
	clk clock.Clock
	s   settings

	mu     sync.Mutex // guards client and failing: polls and writes share the connection
	client *modbus.ModbusClient
	// failing holds the map entries whose last read failed, so a
	// persistent device error is logged once, not every poll.
	failing map[int]bool
}

var (
	_ plugin.South  = (*Modbus)(nil)
	_ plugin.Writer = (*Modbus)(nil)
)

// New returns an instance for cfg; the connection opens when it runs.
func New(env plugin.Env, cfg plugin.Config) (*Modbus, error) {
	s, err := parse(cfg)
	if err != nil {
		return nil, err
	}
	m := &Modbus{env: env, log: env.Log(), clk: env.Time(), s: s, failing: map[int]bool{}}
	return m, nil
}

// Reconfigure asks for a new instance: a new map or device needs a new
// connection and poll loop.
func (m *Modbus) Reconfigure(cfg plugin.Config) error {
	if _, err := parse(cfg); err != nil {
		return err
	}
	return plugin.ErrRestart
}

// errConnection is a failure that closes the connection.
type errConnection struct{ err error }

func (e errConnection) Error() string { return e.err.Error() }
func (e errConnection) Unwrap() error { return e.err }

// deviceError reports whether err is the device's answer (an exception
// response), after which the connection is still good.
func deviceError(err error) bool {
	for _, e := range []error{modbus.ErrIllegalFunction, modbus.ErrIllegalDataAddress, modbus.ErrIllegalDataValue,
		modbus.ErrServerDeviceFailure, modbus.ErrAcknowledge, modbus.ErrServerDeviceBusy, modbus.ErrMemoryParityError,
		modbus.ErrGWPathUnavailable, modbus.ErrGWTargetFailedToRespond} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// connect opens the connection if it is not open; m.mu is held.
func (m *Modbus) connect() error {
	if m.client != nil {
		return nil
	}
	conf := m.s.client
	c, err := modbus.NewClient(&conf)
	if err != nil {
		return fmt.Errorf("modbus: %w", err)
	}
	if err := c.Open(); err != nil {
		return errConnection{fmt.Errorf("modbus: open %s: %w", conf.URL, err)}
	}
	if err := c.SetEncoding(modbus.BIG_ENDIAN, modbus.HIGH_WORD_FIRST); err != nil {
		_ = c.Close()
		return fmt.Errorf("modbus: %w", err)
	}
	m.client = c
	return nil
}

// disconnect closes the connection; m.mu is held.
func (m *Modbus) disconnect() {
	if m.client != nil {
		_ = m.client.Close() // the connection is being dropped; nothing to do about a failure
		m.client = nil
	}
}

// Run polls until ctx ends. While the device is unreachable it retries
// with a growing wait, logging the outage once and the recovery once.
func (m *Modbus) Run(ctx context.Context, sink plugin.Sink) error {
	defer func() {
		m.mu.Lock()
		m.disconnect()
		m.mu.Unlock()
	}()
	attempt := 0
	down := false
	next := m.clk.Now()
	for {
		wait := next.Sub(m.clk.Now())
		if attempt > 0 {
			wait = m.s.retry.Delay(attempt - 1)
		}
		if wait > 0 {
			t := m.clk.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-t.C():
			}
		} else if ctx.Err() != nil {
			return nil
		}
		next = next.Add(m.s.interval)
		if now := m.clk.Now(); next.Before(now) {
			next = now // a slow device: poll again at once, without a backlog of polls
		}
		readings, err := m.poll()
		if err != nil {
			if !down {
				down = true
				m.log.Warn("modbus device unreachable; retrying", "url", m.s.client.URL, "error", err)
			}
			attempt++
			continue
		}
		if down {
			down = false
			m.log.Info("modbus device reachable again", "url", m.s.client.URL)
		}
		attempt = 0
		if len(readings) > 0 {
			sink.Put(readings)
		}
	}
}

// poll reads the whole map once and returns one reading per asset. A
// device error on one entry skips that entry; a transport error ends the
// poll and closes the connection.
func (m *Modbus) poll() ([]plugin.Reading, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.connect(); err != nil {
		return nil, err
	}
	at := m.clk.Now().UTC().Truncate(time.Microsecond)
	values := map[string]map[string]any{}
	var order []string
	for i, p := range m.s.points {
		v, err := m.read(p)
		if err != nil {
			if !deviceError(err) {
				m.disconnect()
				return nil, err
			}
			if !m.failing[i] {
				m.failing[i] = true
				m.log.Warn("modbus datapoint not readable; skipped until it is", "asset", p.asset, "datapoint", p.datapoint,
					"type", p.kind, "address", p.address, "slave", p.slave, "error", err)
			}
			continue
		}
		delete(m.failing, i)
		if values[p.asset] == nil {
			values[p.asset] = map[string]any{}
			order = append(order, p.asset)
		}
		values[p.asset][p.datapoint] = v
	}
	out := make([]plugin.Reading, 0, len(order))
	for _, a := range order {
		raw, err := json.Marshal(values[a])
		if err != nil {
			return nil, fmt.Errorf("modbus: encode reading of %q: %w", a, err)
		}
		out = append(out, plugin.Reading{Asset: a, Timestamp: at, Values: raw})
	}
	return out, nil
}

// read reads one map entry; m.mu is held.
func (m *Modbus) read(p point) (any, error) {
	c := m.client
	if err := c.SetUnitId(p.slave); err != nil {
		return nil, err
	}
	switch p.kind {
	case KindCoil, KindDiscrete:
		read := c.ReadCoil
		if p.kind == KindDiscrete {
			read = c.ReadDiscreteInput
		}
		b, err := read(p.address)
		if err != nil {
			return nil, err
		}
		if b {
			return p.apply(int64(1)), nil
		}
		return p.apply(int64(0)), nil
	}
	rt := modbus.HOLDING_REGISTER
	if p.kind == KindInput {
		rt = modbus.INPUT_REGISTER
	}
	regs, err := c.ReadRegisters(p.address, uint16(words[p.format]), rt) //nolint:gosec // 1 to 4 registers
	if err != nil {
		return nil, err
	}
	return p.apply(Decode(regs, p.format, p.lowWordFirst)), nil
}

// apply scales and offsets a raw value; an unscaled value keeps its type.
func (p point) apply(v any) any {
	if p.scale == 1 && p.offset == 0 {
		return v
	}
	switch x := v.(type) {
	case int64:
		return plugin.Tidy(float64(x)*p.scale + p.offset)
	case float64:
		return plugin.Tidy(x*p.scale + p.offset)
	}
	return v
}

// Decode turns registers (as read, each big-endian) into a value of
// format: int64 for the integer formats, float64 for the floating ones (a
// float32 is given its shortest decimal form, so 21.5 stays 21.5 and 0.1
// does not become 0.10000000149). lowWordFirst says the device sends the
// least significant word first.
func Decode(regs []uint16, format string, lowWordFirst bool) any {
	ordered := regs
	if lowWordFirst {
		ordered = make([]uint16, len(regs))
		for i, r := range regs {
			ordered[len(regs)-1-i] = r
		}
	}
	var u uint64
	for _, r := range ordered {
		u = u<<16 | uint64(r)
	}
	switch format {
	case FormatInt16:
		return int64(int16(uint16(u)))
	case FormatUint16:
		return int64(uint16(u))
	case FormatInt32:
		return int64(int32(uint32(u)))
	case FormatUint32:
		return int64(uint32(u))
	case FormatFloat32:
		f := math.Float32frombits(uint32(u))
		v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
		return v
	default:
		return math.Float64frombits(u)
	}
}

// Encode turns a value into the registers of format, the inverse of
// Decode. An integer format refuses a fraction or a value out of its range.
func Encode(v float64, format string, lowWordFirst bool) ([]uint16, error) {
	var u uint64
	n := words[format]
	integer := func(lo, hi float64) (uint64, error) {
		r := math.Round(v)
		if math.Abs(r-v) > 1e-9 || r < lo || r > hi {
			return 0, fmt.Errorf("%w: %v does not fit a %s", plugin.ErrNotWritable, v, format)
		}
		return uint64(int64(r)), nil //nolint:gosec // two's complement on purpose: the register holds the bit pattern
	}
	var err error
	switch format {
	case FormatInt16:
		u, err = integer(math.MinInt16, math.MaxInt16)
		u &= 0xffff
	case FormatUint16:
		u, err = integer(0, math.MaxUint16)
	case FormatInt32:
		u, err = integer(math.MinInt32, math.MaxInt32)
		u &= 0xffffffff
	case FormatUint32:
		u, err = integer(0, math.MaxUint32)
	case FormatFloat32:
		if math.Abs(v) > math.MaxFloat32 {
			return nil, fmt.Errorf("%w: %v does not fit a float32", plugin.ErrNotWritable, v)
		}
		u = uint64(math.Float32bits(float32(v)))
	case FormatFloat64:
		u = math.Float64bits(v)
	default:
		return nil, fmt.Errorf("%w: format %q", plugin.ErrNotWritable, format)
	}
	if err != nil {
		return nil, err
	}
	regs := make([]uint16, n)
	for i := range n {
		regs[n-1-i] = uint16(u >> (16 * i)) //nolint:gosec // one 16-bit word of u on purpose
	}
	if lowWordFirst {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			regs[i], regs[j] = regs[j], regs[i]
		}
	}
	return regs, nil
}

// Write sets coils and holding registers of the map: values are keyed by
// datapoint and given as the readings show them (scale and offset are
// undone). A coil takes a boolean, or 0 or 1.
func (m *Modbus) Write(ctx context.Context, asset string, values map[string]any) error {
	type write struct {
		p    point
		regs []uint16
		bit  bool
	}
	var writes []write
	for dp, v := range values {
		var p *point
		for i := range m.s.points {
			if (asset == "" || m.s.points[i].asset == asset) && m.s.points[i].datapoint == dp {
				if p != nil && p.asset != m.s.points[i].asset {
					return fmt.Errorf("%w: datapoint %q is in assets %q and %q: name the asset", plugin.ErrNotWritable, dp, p.asset, m.s.points[i].asset)
				}
				p = &m.s.points[i]
			}
		}
		if p == nil {
			return fmt.Errorf("%w: asset %q has no datapoint %q in the register map", plugin.ErrNotWritable, asset, dp)
		}
		if p.kind != KindCoil && p.kind != KindHolding {
			return fmt.Errorf("%w: datapoint %q of asset %q is a read-only %s", plugin.ErrNotWritable, dp, asset, p.kind)
		}
		x, ok := plugin.NumberOrBool(v)
		if !ok {
			return fmt.Errorf("%w: value %v of datapoint %q is not a number or boolean", plugin.ErrNotWritable, v, dp)
		}
		raw := (x - p.offset) / p.scale
		w := write{p: *p}
		if p.kind == KindCoil {
			if raw != 0 && raw != 1 {
				return fmt.Errorf("%w: coil %q takes 0 or 1, not %v", plugin.ErrNotWritable, dp, v)
			}
			w.bit = raw == 1
		} else {
			regs, err := Encode(raw, p.format, p.lowWordFirst)
			if err != nil {
				return fmt.Errorf("datapoint %q: %w", dp, err)
			}
			w.regs = regs
		}
		writes = append(writes, w)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, w := range writes {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := m.connect(); err != nil {
			return err
		}
		err := m.client.SetUnitId(w.p.slave)
		if err == nil {
			if w.p.kind == KindCoil {
				err = m.client.WriteCoil(w.p.address, w.bit)
			} else {
				err = m.client.WriteRegisters(w.p.address, w.regs)
			}
		}
		if err != nil {
			if !deviceError(err) {
				m.disconnect()
			}
			return fmt.Errorf("modbus: write %q of asset %q: %w", w.p.datapoint, asset, err)
		}
	}
	return nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.South  = (*Modbus)(nil)
	_ edgeplugin.Writer = (*Modbus)(nil)
)
