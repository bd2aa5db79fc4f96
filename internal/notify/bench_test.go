package notify

import (
	jsonv1 "encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/edged/edged/internal/clock"
)

// benchReadings are batches of 100 readings of 100 assets (asset0 …
// asset99), each with three datapoints, none of which triggers a rule:
// the steady state the cost target is about.
func benchReadings() []Reading {
	rs := make([]Reading, 100)
	for i := range rs {
		rs[i] = Reading{Asset: "asset" + strconv.Itoa(i), Timestamp: t0,
			Values: map[string]any{"temp": 20.5 + float64(i%7), "pressure": 1.01, "state": "running"}}
	}
	return rs
}

func benchEngine(b *testing.B, rules int, sameAsset bool, evaluation string) (*Engine, *clock.Fake) {
	b.Helper()
	clk := clock.NewFake(t0)
	e := New(Options{Host: &fakeHost{}, Clock: clk})
	b.Cleanup(e.Close)
	var set []Instance
	for i := range rules {
		asset := "asset" + strconv.Itoa(i%100)
		if sameAsset {
			asset = "asset0"
		}
		set = append(set, Instance{Name: fmt.Sprintf("n%d", i), Rule: RuleThreshold, Type: TypeToggled, Enabled: true,
			RuleConfig: map[string]string{"asset": asset, "datapoint": "temp", "condition": ">", "value": strconv.Itoa(100 + i),
				"evaluation": evaluation, "window": "10", "aggregate": "average"},
			Channels: []Channel{{Name: "hook", Plugin: DeliveryWebhook, Config: map[string]string{"url": "http://127.0.0.1:9/"}}}})
	}
	if err := e.SetInstances(b.Context(), set); err != nil {
		b.Fatal(err)
	}
	return e, clk
}

func benchmarkReadings(b *testing.B, rules int, sameAsset bool, evaluation string) {
	e, clk := benchEngine(b, rules, sameAsset, evaluation)
	rs := benchReadings()
	ctx := b.Context()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if evaluation == "window" {
			// 100 readings a millisecond, 100 k/s: each asset's 10 s
			// window fills to 10,000 values, then slides.
			clk.Advance(time.Millisecond)
		}
		e.Readings(ctx, rs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rs)), "ns/reading")
}

// BenchmarkReadings0Rules is the baseline: no instance at all.
func BenchmarkReadings0Rules(b *testing.B) { benchmarkReadings(b, 0, false, "single") }

// BenchmarkReadings100Rules: 100 threshold rules, one per asset; every
// reading is evaluated by one rule.
func BenchmarkReadings100Rules(b *testing.B) { benchmarkReadings(b, 100, false, "single") }

// BenchmarkReadings100RulesOneAsset: the 100 rules all watch asset0.temp;
// a reading of asset0 is evaluated by all of them (1 in 100 readings).
func BenchmarkReadings100RulesOneAsset(b *testing.B) { benchmarkReadings(b, 100, true, "single") }

// BenchmarkReadings100RulesWindow: as BenchmarkReadings100Rules with a
// 10 s average window on each rule, the clock moving 1 ms a batch. Its
// one allocation per batch is the fake clock's Advance, not the engine's.
func BenchmarkReadings100RulesWindow(b *testing.B) { benchmarkReadings(b, 100, false, "window") }

// BenchmarkReadingsTriggering measures a reading that sends: a toggled
// rule flipping on every reading, queued to a channel (delivery itself is
// on the channel's goroutine and not measured).
func BenchmarkReadingsTriggering(b *testing.B) {
	e := New(Options{Host: &fakeHost{}, Clock: clock.NewFake(t0), QueueLength: 1 << 20})
	b.Cleanup(e.Close)
	err := e.SetInstances(b.Context(), []Instance{{Name: "flip", Rule: RuleThreshold, Type: TypeToggled, Enabled: true,
		RuleConfig: map[string]string{"asset": "a", "datapoint": "v", "value": "0"},
		Channels:   []Channel{{Name: "sink", Plugin: DeliveryAsset, Config: map[string]string{"asset": "out"}}}}})
	if err != nil {
		b.Fatal(err)
	}
	rs := []Reading{{Asset: "a", Timestamp: t0, Values: map[string]any{"v": 1.0}}, {Asset: "a", Timestamp: t0, Values: map[string]any{"v": -1.0}}}
	b.ReportAllocs()
	for b.Loop() {
		e.Readings(b.Context(), rs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rs)), "ns/reading")
}

// BenchmarkDecodeValues decodes the values of 400 readings of two
// datapoints (a batch of the feed at full-rate ingest) with
// encoding/json, with JSON v2's Unmarshal, and with DecodeValues, which
// the notification service uses.
func BenchmarkDecodeValues(b *testing.B) {
	bodies := make([][]byte, 400)
	for i := range bodies {
		bodies[i] = fmt.Appendf(nil, `{"sinusoid":%.4f,"seq":%d}`, float64(i%360)/360, i)
	}
	for _, c := range []struct {
		name   string
		decode func([]byte) (map[string]any, error)
	}{
		{"encoding-json", func(b []byte) (v map[string]any, err error) { return v, jsonv1.Unmarshal(b, &v) }},
		{"json-v2", func(b []byte) (v map[string]any, err error) { return v, jsonv2.Unmarshal(b, &v) }},
		{"DecodeValues", DecodeValues},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, body := range bodies {
					if v, err := c.decode(body); err != nil || len(v) != 2 {
						b.Fatal(v, err)
					}
				}
			}
		})
	}
}
