package edgeplugin

import (
	"encoding/json"
	"math"
	"testing"
)

// TestEncodeValuesMatchesEncodingJSON checks the fast encoder against
// encoding/json, and the decoder's round trip.
func TestEncodeValuesMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name   string
		values map[string]any
	}{
		{name: "numbers", values: map[string]any{"i": int64(-42), "f": 0.1, "big": 1e21, "small": 1e-7, "neg": -2.5e-9, "zero": 0.0, "max": int64(math.MaxInt64)}},
		{name: "other types", values: map[string]any{"s": "a<b>&\"c\"\u00e9", "b": true, "n": nil, "o": map[string]any{"k": []any{int64(1), "x"}}}},
		{name: "keys needing escapes", values: map[string]any{"a\"b": int64(1), "<k>": 2.5, "": "empty"}},
		{name: "empty", values: map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.values)
			if err != nil {
				t.Fatal(err)
			}
			got, err := encodeValues(tt.values, nil)
			if err != nil || string(got) != string(want) {
				t.Fatalf("encodeValues = %s, %v\nwant            %s", got, err, want)
			}
			back, err := encodeValues(DecodeValues(got), nil)
			if err != nil || string(back) != string(want) {
				t.Errorf("round trip = %s, %v; want %s", back, err, want)
			}
		})
	}
	if got, _ := encodeValues(map[string]any{"x": math.NaN(), "y": math.Inf(1), "z": int64(1)}, nil); string(got) != `{"z":1}` {
		t.Errorf("non-finite values not left out: %s", got)
	}
	if v := DecodeValues(json.RawMessage(`[1]`)); len(v) != 0 {
		t.Errorf("a non-object decoded to %v", v)
	}
}

// TestDecodeFlat checks the fast decoder against encoding/json.
func TestDecodeFlat(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		fast bool // the fast path takes it
	}{
		{name: "flat", raw: ` { "a" : 1, "b":-2.5e3,"c":"x y","d":true,"e":false,"f":null, "g": 0.1 } `, fast: true},
		{name: "empty", raw: `{}`, fast: true},
		{name: "big integer", raw: `{"a":123456789012345678901234}`, fast: true},
		{name: "duplicate key, last wins", raw: `{"a":1,"a":2}`, fast: true},
		{name: "escape", raw: `{"a":"x\"y"}`},
		{name: "unicode", raw: `{"a":"été"}`},
		{name: "nested", raw: `{"a":{"b":1}}`},
		{name: "array", raw: `{"a":[1,2]}`},
		{name: "not an object", raw: `[1]`},
		{name: "trailing data", raw: `{"a":1} x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := decodeFlat([]byte(tt.raw))
			if ok != tt.fast {
				t.Errorf("decodeFlat took it: %v, want %v", ok, tt.fast)
			}
			got, _ := encodeValues(DecodeValues([]byte(tt.raw)), nil)
			want, _ := encodeValues(decodeSlow([]byte(tt.raw)), nil)
			if string(got) != string(want) {
				t.Errorf("DecodeValues = %s, encoding/json gives %s", got, want)
			}
		})
	}
}
