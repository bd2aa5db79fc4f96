// Command hangnorth is a north plugin the tests of package external run
// in its own process: it accepts every reading, except that a Send whose
// first reading's asset is "hang" never returns, and its Reconfigure never
// returns when item "hang" is set, as a plugin stuck on its destination.
package main

import (
	"context"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

type north struct{}

func (north) Start(context.Context, edgeplugin.Start) error { return nil }

func (north) Send(_ context.Context, rs []edgeplugin.Reading) (int, error) {
	if len(rs) > 0 && rs[0].Asset == "hang" {
		select {}
	}
	return len(rs), nil
}

func (north) Reconfigure(cfg edgeplugin.Config) error {
	if cfg["hang"] != "" {
		select {}
	}
	return nil
}

func main() {
	edgeplugin.Serve(edgeplugin.Plugin{
		Info: edgeplugin.Info{Name: "hang_north", Version: "0.1.0", Kind: edgeplugin.KindNorth,
			Description: "a north plugin whose Reconfigure can hang"},
		North: north{},
	})
}
