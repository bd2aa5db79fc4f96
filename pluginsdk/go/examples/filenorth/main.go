// Command filenorth is a north plugin of the edged gateway that appends
// readings to a file, one JSON object a line. It syncs the file before it
// reports readings accepted, so the gateway's stream position never runs
// ahead of what is on disk; a file over maxBytes accepts no more.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

func main() {
	edgeplugin.Serve(edgeplugin.Plugin{Info: Info(), North: &File{}})
}

// Version is the plugin's version.
var Version = "1.0.0"

// Info describes the plugin.
func Info() edgeplugin.Info {
	return edgeplugin.Info{
		Name: "file_north", Version: Version, Kind: edgeplugin.KindNorth,
		Description: "Appends readings to a file, one JSON object a line",
		Items:       edgeplugin.MustItemsOf(Config{}),
	}
}

// Config is the plugin's configuration: Info's items are derived from its
// tags, and Reconfigure gets it filled.
type Config struct {
	File     string `item:"file" desc:"Path of the file readings are appended to" display:"File" default:"readings.jsonl"`
	MaxBytes int64  `item:"maxBytes" desc:"Size beyond which the file accepts no more readings" display:"Maximum Size" default:"104857600" min:"1"`
}

// File is the plugin.
type File struct {
	mu   sync.Mutex
	path string
	max  int64
}

type line struct {
	Asset     string          `json:"asset"`
	Timestamp string          `json:"timestamp"`
	Values    json.RawMessage `json:"readings"`
}

// Start takes the configuration.
func (f *File) Start(_ context.Context, s edgeplugin.Start) error { return f.Reconfigure(s.Config) }

// Reconfigure applies a new file or limit at once.
func (f *File) Reconfigure(cfg edgeplugin.Config) error {
	var c Config
	if err := edgeplugin.Decode(cfg, &c); err != nil {
		return err
	}
	if c.MaxBytes < 1 {
		return fmt.Errorf("maxBytes must be a positive integer, not %d", c.MaxBytes)
	}
	if c.File == "" {
		return errors.New("file is required")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.path, f.max = c.File, c.MaxBytes
	return nil
}

// Send appends the readings that fit and reports how many are on disk.
func (f *File) Send(_ context.Context, readings []edgeplugin.Reading) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out, err := os.OpenFile(f.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600) //nolint:gosec // the file the service is configured to write
	if err != nil {
		return 0, err
	}
	defer func() { _ = out.Close() }()
	fi, err := out.Stat()
	if err != nil {
		return 0, err
	}
	size, n := fi.Size(), 0
	var sendErr error
	for _, r := range readings {
		b, err := json.Marshal(line{Asset: r.Asset, Timestamp: r.Timestamp.Format(time.RFC3339Nano), Values: r.Values})
		if err != nil {
			sendErr = err
			break
		}
		b = append(b, '\n')
		if size+int64(len(b)) > f.max {
			sendErr = fmt.Errorf("%s is full (%d bytes)", f.path, f.max)
			break
		}
		if _, err := out.Write(b); err != nil {
			sendErr = err
			break
		}
		size += int64(len(b))
		n++
	}
	if err := out.Sync(); err != nil {
		return 0, err
	}
	return n, sendErr
}
