package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Version is the plugin's version; `make packages` packages it under it.
var Version = "1.0.0"

// Info describes the plugin.
func Info() edgeplugin.Info {
	return edgeplugin.Info{
		Name: "csv_south", Version: Version, Kind: edgeplugin.KindSouth, Persists: true,
		Description: "Reads the rows of a CSV file as readings at a configured rate",
		Items:       edgeplugin.MustItemsOf(Config{}),
	}
}

// Config is the plugin's configuration: Info's items are derived from its
// tags, and Reconfigure gets it filled.
type Config struct {
	File  string `item:"file" desc:"Path of the CSV file; its header row names the reading keys" display:"File"`
	Asset string `item:"asset" desc:"Asset code of the readings" display:"Asset" default:"csv" mandatory:"true"`
	Rate  int    `item:"rate" desc:"Rows read per second" display:"Rate" default:"1" min:"1" max:"10000"`
	Loop  bool   `item:"loop" desc:"Start over at the end of the file" display:"Loop" default:"true"`
}

// CSV is the plugin. It offers one operation, "rewind": read the file
// again from its first row.
type CSV struct {
	mu   sync.Mutex
	cfg  *Config // nil until configured
	rate int
	row  int // rows of data read so far (the position that persists)
	// rewinds asks Run to start over at the first row.
	rewinds chan struct{}
}

// Operate runs operation "rewind", which takes no parameters.
func (c *CSV) Operate(ctx context.Context, operation string, params map[string]any) error {
	if operation != "rewind" {
		return fmt.Errorf("%w: %q (the CSV plugin offers rewind)", edgeplugin.ErrNoOperation, operation)
	}
	if len(params) > 0 {
		return fmt.Errorf("%w: rewind takes none", edgeplugin.ErrBadParameters)
	}
	select {
	case c.rewindRequests() <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	default: // a rewind is pending already
	}
	return nil
}

func (c *CSV) rewindRequests() chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rewinds == nil {
		c.rewinds = make(chan struct{}, 1)
	}
	return c.rewinds
}

type state struct {
	Row int `json:"row"`
}

// The plugin implements the gateway's plugin interfaces: a south plugin
// that starts with its configuration and keeps its position.
var (
	_ edgeplugin.South     = (*CSV)(nil)
	_ edgeplugin.Starter   = (*CSV)(nil)
	_ edgeplugin.Persister = (*CSV)(nil)
)

// Start takes the configuration.
func (c *CSV) Start(_ context.Context, s edgeplugin.Start) error {
	if err := c.Reconfigure(s.Config); err != nil {
		return err
	}
	if _, err := os.Stat(c.cfg.File); err != nil {
		return fmt.Errorf("csv file: %w", err)
	}
	return nil
}

// Restore takes the position persisted by the previous run.
func (c *CSV) Restore(raw json.RawMessage) error {
	var st state
	if err := json.Unmarshal(raw, &st); err != nil || st.Row < 0 {
		return fmt.Errorf("persisted position %s: not a row", raw)
	}
	c.setPosition(st.Row)
	return nil
}

// Reconfigure changes the rate and asset at once; another file restarts.
func (c *CSV) Reconfigure(cfg edgeplugin.Config) error {
	var conf Config
	if err := edgeplugin.Decode(cfg, &conf); err != nil {
		return err
	}
	if conf.Rate < 1 {
		return fmt.Errorf("rate must be a positive integer, not %d", conf.Rate)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cfg != nil && c.cfg.File != conf.File {
		return edgeplugin.ErrRestart
	}
	c.cfg, c.rate = &conf, conf.Rate
	return nil
}

// State is the position in the file.
func (c *CSV) State() (json.RawMessage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return json.Marshal(state{Row: c.row})
}

// Run reads rows at the rate until ctx ends.
func (c *CSV) Run(ctx context.Context, sink edgeplugin.Sink) error {
	c.mu.Lock()
	path := c.cfg.File
	c.mu.Unlock()
	f, err := os.Open(path) //nolint:gosec // the file the service is configured to read
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	r, header, err := openCSV(f)
	if err != nil {
		return err
	}
	// Skip to the persisted position.
	for i := 0; i < c.position(); i++ {
		if _, err := r.Read(); errors.Is(err, io.EOF) {
			if r, header, err = rewind(f); err != nil {
				return err
			}
			c.setPosition(0)
			break
		}
	}
	rewinds := c.rewindRequests()
	for {
		c.mu.Lock()
		interval, asset, loop := time.Second/time.Duration(c.rate), c.cfg.Asset, c.cfg.Loop
		c.mu.Unlock()
		select {
		case <-rewinds:
			if r, header, err = rewind(f); err != nil {
				return err
			}
			c.setPosition(0)
		default:
		}
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			if !loop {
				select {
				case <-ctx.Done():
					return nil
				case <-rewinds:
				}
				if r, header, err = rewind(f); err != nil {
					return err
				}
				c.setPosition(0)
				continue
			}
			if c.position() == 0 { // a file without rows: look again later
				select {
				case <-ctx.Done():
					return nil
				case <-time.After(interval):
				}
			}
			if r, header, err = rewind(f); err != nil {
				return err
			}
			c.setPosition(0)
			continue
		}
		if err != nil {
			return fmt.Errorf("csv row %d: %w", c.position()+1, err)
		}
		reading, err := edgeplugin.NewReading(asset, time.Now(), values(header, rec))
		if err != nil {
			return err
		}
		receipt, err := sink.Submit([]edgeplugin.Reading{reading})
		if errors.Is(err, edgeplugin.ErrStopped) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := receipt.Wait(ctx); err != nil && ctx.Err() == nil {
			return err
		}
		c.setPosition(c.position() + 1)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}

func (c *CSV) position() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.row
}

func (c *CSV) setPosition(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.row = n
}

func openCSV(f io.Reader) (*csv.Reader, []string, error) {
	r := csv.NewReader(f)
	r.FieldsPerRecord = 0 // every row as long as the header
	header, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("csv header: %w", err)
	}
	return r, header, nil
}

func rewind(f *os.File) (*csv.Reader, []string, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	return openCSV(f)
}

// values maps the header to the row's cells, numbers as numbers.
func values(header, rec []string) map[string]any {
	v := make(map[string]any, len(header))
	for i, k := range header {
		if n, err := strconv.ParseFloat(rec[i], 64); err == nil {
			v[k] = n
		} else {
			v[k] = rec[i]
		}
	}
	return v
}
