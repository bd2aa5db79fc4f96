package httpsouth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/edged/edged/internal/plugin"
)

// BenchmarkDecode compares the one-pass decoder of a posted batch with the
// standard library (docs/dependencies.md): "jsontext" is decode, what
// http_south runs; "encoding-json" decodes the same batch with
// encoding/json as http_south did before, the array into raw elements,
// each element into a struct, its readings compacted, and it checks less
// (no float64 range, no duplicate names). Both parse timestamps alike, so
// the difference is the JSON work. The bodies are shaped like the load
// generator's (cmd/edged-load).
func BenchmarkDecode(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		body := batchBody(n)
		for _, c := range []struct {
			name string
			fn   func([]byte) ([]plugin.Reading, error)
		}{
			{name: "jsontext", fn: func(body []byte) ([]plugin.Reading, error) {
				rs, _, err := decode(bytes.NewReader(body), "", int64(len(body)))
				return rs, err
			}},
			{name: "encoding-json", fn: decodeStdlib},
		} {
			b.Run(fmt.Sprintf("%d/%s", n, c.name), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					if rs, err := c.fn(body); err != nil || len(rs) != n {
						b.Fatalf("%d readings, %v", len(rs), err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/reading")
			})
		}
	}
}

// batchBody returns n readings as the load generator posts them.
func batchBody(n int) []byte {
	return appendBatch(nil, 3, time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), n)
}

// decodeStdlib is the reference: encoding/json, two passes.
func decodeStdlib(raw []byte) ([]plugin.Reading, error) {
	var posts []json.RawMessage
	if err := json.Unmarshal(raw, &posts); err != nil {
		return nil, err
	}
	out := make([]plugin.Reading, 0, len(posts))
	for _, p := range posts {
		var e struct {
			Timestamp *string         `json:"timestamp"`
			Asset     *string         `json:"asset"`
			Readings  json.RawMessage `json:"readings"`
		}
		if err := json.Unmarshal(p, &e); err != nil {
			return nil, err
		}
		if e.Asset == nil || e.Timestamp == nil || e.Readings == nil {
			return nil, errors.New("missing field")
		}
		ts, err := plugin.ParseTimestamp(*e.Timestamp)
		if err != nil {
			return nil, err
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, e.Readings); err != nil {
			return nil, err
		}
		if hasEscapedNUL(compact.Bytes()) {
			return nil, errors.New("NUL")
		}
		out = append(out, plugin.Reading{Asset: *e.Asset, Timestamp: ts, Values: compact.Bytes()})
	}
	return out, nil
}
