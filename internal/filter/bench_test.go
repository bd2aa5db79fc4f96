package filter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/plugin"
)

// BenchmarkPipelineIngest measures readings/s submitted in batches of 100
// by 4 concurrent producers into a real ingest buffer (statistics, asset
// tracking, the default limits) and committed to storage, without a
// pipeline and through scale → expression → delta (which passes every
// reading here: seq always moves). One op is one batch. The ratio of the
// two is in docs/benchmarks.md.
func BenchmarkPipelineIngest(b *testing.B) {
	for _, store := range []struct {
		name string
		open func(testing.TB) *db.DB
	}{{"sqlite", dbtest.SQLite}, {"postgres", dbtest.Postgres}} {
		b.Run(store.name+"/none", func(b *testing.B) { benchPipeline(b, store.open(b), nil) })
		b.Run(store.name+"/scale-expression-delta", func(b *testing.B) {
			benchPipeline(b, store.open(b), []string{"scale", "expression", "delta"})
		})
	}
}

// benchConfig configures the benchmark's filter instances.
var benchConfig = map[string]map[string]string{
	"scale":      {"rules": `[{"datapoint":"sinusoid","factor":100,"offset":5}]`},
	"expression": {"expressions": `[{"name":"double","expression":"sinusoid * 2"}]`},
	"delta":      {"tolerance": "0"},
}

func benchPipeline(b *testing.B, d *db.DB, filters []string) {
	ctx := context.Background()
	clk := clock.Real{}
	cfg := configmgr.New(d, audit.New(d, nil), nil)
	counters := ingest.NewCounters(d, nil)
	tracker := ingest.NewTracker(d, func(context.Context) (string, error) { return "bench", nil }, clk)
	m, err := filter.New(filter.Options{Store: d, Config: cfg, Plugins: registry(b), Counters: counters, Tracker: tracker})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.CreateService(ctx, db.Service{Name: "bench", Type: db.ServiceSouth, Plugin: "bench"},
		db.Schedule{ID: "00000000-0000-4000-8000-000000000009", Name: "bench", ProcessName: "south_c", Type: db.ScheduleStartup}); err != nil {
		b.Fatal(err)
	}
	if _, err := cfg.Create(ctx, configmgr.CategoryInput{Key: "bench", Description: "bench", Items: map[string]configmgr.Item{}}); err != nil {
		b.Fatal(err)
	}
	for _, f := range filters {
		if _, err := m.Create(ctx, "bench-"+f, f, benchConfig[f]); err != nil {
			b.Fatal(err)
		}
	}
	names := make([]string, len(filters))
	for i, f := range filters {
		names[i] = "bench-" + f
	}
	if _, err := m.SetPipeline(ctx, "bench", names, false); err != nil {
		b.Fatal(err)
	}
	pipe, err := m.Open(ctx, "bench", filter.South)
	if err != nil {
		b.Fatal(err)
	}
	buf := ingest.New(ingest.Options{Service: "bench", Plugin: "bench", Store: d, Counters: counters, Tracker: tracker,
		Clock: clk, Limits: ingest.DefaultLimits})
	sink := pipe.Sink(buf)
	b.Cleanup(func() {
		pipe.Close(ctx)
		_ = buf.Close(ctx)
	})

	const producers, batch, assets = 4, 100, 10
	t0 := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for range producers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				rs := make([]plugin.Reading, batch)
				asset := "bench-" + strconv.FormatInt(i%assets, 10)
				base := t0.Add(time.Duration(i/assets*batch) * time.Millisecond)
				for k := range batch {
					rs[k] = plugin.Reading{Asset: asset, Timestamp: base.Add(time.Duration(k) * time.Millisecond),
						Values: json.RawMessage(fmt.Sprintf(`{"sinusoid":%.4f,"seq":%d}`, float64(k%360)/360, i*batch+int64(k)))}
				}
				for {
					r, err := sink.Submit(rs)
					if err == plugin.ErrBufferFull { //nolint:errorlint // the sentinel itself
						time.Sleep(time.Millisecond) // the buffer's writer catches up
						continue
					}
					if err != nil {
						b.Error(err)
						return
					}
					if err := r.Wait(ctx); err != nil {
						b.Error(err)
					}
					break
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "readings/s")
}

// BenchmarkPipelineCPU measures the pipeline alone (scale → expression →
// delta, batches of 100 readings), without storage: its CPU cost per
// reading.
func BenchmarkPipelineCPU(b *testing.B) {
	d := dbtest.SQLite(b)
	ctx := context.Background()
	cfg := configmgr.New(d, audit.New(d, nil), nil)
	m, err := filter.New(filter.Options{Store: d, Config: cfg, Plugins: registry(b), Counters: &counter{n: map[string]int64{}}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.CreateService(ctx, db.Service{Name: "cpu", Type: db.ServiceSouth, Plugin: "x"},
		db.Schedule{ID: "00000000-0000-4000-8000-000000000008", Name: "cpu", ProcessName: "south_c", Type: db.ScheduleStartup}); err != nil {
		b.Fatal(err)
	}
	var names []string
	for _, f := range []string{"scale", "expression", "delta"} {
		if _, err := m.Create(ctx, "cpu-"+f, f, benchConfig[f]); err != nil {
			b.Fatal(err)
		}
		names = append(names, "cpu-"+f)
	}
	if _, err := m.SetPipeline(ctx, "cpu", names, false); err != nil {
		b.Fatal(err)
	}
	pipe, err := m.Open(ctx, "cpu", filter.South)
	if err != nil {
		b.Fatal(err)
	}
	defer pipe.Close(ctx)
	sink := pipe.Sink(discard{})
	t0 := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	batches := make([][]plugin.Reading, 64)
	for i := range batches {
		batches[i] = make([]plugin.Reading, 100)
		for k := range 100 {
			batches[i][k] = plugin.Reading{Asset: "a" + strconv.Itoa(k%10), Timestamp: t0.Add(time.Duration(i*100+k) * time.Millisecond),
				Values: json.RawMessage(fmt.Sprintf(`{"sinusoid":%.4f,"seq":%d}`, float64(k%360)/360, i*100+k))}
		}
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := sink.Submit(batches[i%len(batches)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100), "ns/reading")
}

// discard takes everything.
type discard struct{}

func (discard) Put([]plugin.Reading) {}
func (discard) Submit([]plugin.Reading) (plugin.Receipt, error) {
	return done{}, nil
}

type done struct{}

func (done) Wait(context.Context) error { return nil }
