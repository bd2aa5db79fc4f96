package db_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// denseReadings returns n readings of code in the minute starting at
// start, numbered from k0, with values that vary so min, max and mean
// all depend on which readings are left.
func denseReadings(code string, start time.Time, k0, n int) []db.Reading {
	rs := make([]db.Reading, n)
	for i := range rs {
		k := k0 + i
		rs[i] = db.Reading{AssetCode: code, UserTS: start.Add(time.Duration(k%60000) * time.Millisecond),
			Reading: json.RawMessage(fmt.Sprintf(`{"v": %d, "w": %g}`, (k*7919)%1000, float64(k)/3))}
	}
	return rs
}

// TestPurgeAssetRanges purges assets whose minutes hold many more readings
// than a step, while readings of the same asset and minutes keep arriving,
// and checks that the rollups are exact afterwards, that the minutes
// emptied over several steps are no longer listed for a rebuild, and that
// a purge stopped part way (its caller gone) leaves exact rollups too.
func TestPurgeAssetRanges(t *testing.T) {
	cases := []struct {
		name   string
		block  int
		cancel bool // stop the purge once arrivals have begun
	}{
		{name: "dense minutes, small steps", block: 37},
		{name: "dense minutes, steps of whole minutes", block: 2500},
		{name: "stopped part way", block: 29, cancel: true},
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				ctx := t.Context()
				code := "dense-" + fmt.Sprint(c.block)
				// Three dense minutes and a sparse one, and another asset
				// sharing the minutes.
				for m := range 3 {
					insertReadings(t, d, denseReadings(code, t0.Add(time.Duration(m)*time.Minute), m*1000, 1200)...)
				}
				insertReadings(t, d, denseReadings(code, t0.Add(10*time.Minute), 0, 3)...)
				insertReadings(t, d, denseReadings("other", t0, 0, 500)...)

				pctx, cancel := context.WithCancel(ctx)
				defer cancel()
				var wg sync.WaitGroup
				arrived := make(chan struct{})
				stop := make(chan struct{})
				wg.Go(func() {
					for i := range 40 { // a bounded trickle: the purge yields to inserts
						// Late readings of the same asset, in the minutes
						// being emptied.
						rs := denseReadings(code, t0.Add(time.Duration(i%3)*time.Minute), 5000+i*10, 10)
						if err := d.InsertReadings(ctx, rs); err != nil {
							t.Errorf("insert during the purge: %v", err)
							return
						}
						if i == 3 {
							close(arrived)
							if c.cancel {
								cancel()
							}
						}
						select {
						case <-stop:
							return
						default:
						}
					}
				})
				defer func() {
					select {
					case <-stop:
					default:
						close(stop)
					}
				}()
				<-arrived
				_, err := d.PurgeAssetReadingsInBlocks(pctx, code, c.block)
				wg.Wait()
				if err != nil && !c.cancel {
					t.Fatalf("purge: %v", err)
				}
				wantRollupsExact(t, d, db.Window{}, db.Window{From: t0, To: t0.Add(2*time.Minute + 30*time.Second)})
				wantAssetsExact(t, d, countedAssets(t, d))
				var pending []int
				if err := d.SelectSQL(ctx, &pending, `SELECT 1 FROM rollup_rebuilds`); err != nil {
					t.Fatal(err)
				}
				if len(pending) != 0 {
					t.Errorf("%d minutes still listed for a rebuild after the purge", pending)
				}
				if _, err := d.PurgeAllReadings(ctx); err != nil {
					t.Fatal(err)
				}
				wantRollupsExact(t, d)
				wantAssetsExact(t, d, nil)
			})
		}
	})
}
