package filter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/edged/edged/internal/plugin"
)

// decode turns readings into points; Origin is each reading's index. A
// reading whose values are not a JSON object gets empty values (storage
// holds only objects, and south plugins produce only objects).
func decode(readings []plugin.Reading) []plugin.Point {
	out := make([]plugin.Point, len(readings))
	for i, r := range readings {
		out[i] = plugin.Point{Asset: r.Asset, Timestamp: r.Timestamp, Values: DecodeValues(r.Values), Origin: i}
	}
	return out
}

// DecodeValues decodes a JSON object of reading values: integers that fit
// become int64, other numbers float64. Anything but an object gives an
// empty map.
func DecodeValues(raw json.RawMessage) map[string]any {
	values := map[string]any{}
	if len(raw) == 0 {
		return values
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&values); err != nil {
		return map[string]any{}
	}
	for k, v := range values {
		values[k] = normalise(v)
	}
	return values
}

// normalise replaces json.Number by int64 or float64, recursively.
func normalise(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = normalise(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalise(e)
		}
	}
	return v
}

// encode turns points back into readings. Values that JSON cannot hold (a
// NaN or an infinity a computation produced) are left out.
func encode(points []plugin.Point) ([]plugin.Reading, error) {
	out := make([]plugin.Reading, len(points))
	for i, p := range points {
		for k, v := range p.Values {
			if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
				delete(p.Values, k)
			}
		}
		raw, err := json.Marshal(p.Values)
		if err != nil {
			return nil, fmt.Errorf("filter: encode reading of asset %q: %w", p.Asset, err)
		}
		out[i] = plugin.Reading{Asset: p.Asset, Timestamp: p.Timestamp, Values: raw}
	}
	return out, nil
}

// Number returns v as a float64 when it is a number.
func Number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case int:
		return float64(x), true
	}
	return 0, false
}
