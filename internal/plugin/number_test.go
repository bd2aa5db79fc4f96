package plugin

import (
	"encoding/json"
	"testing"
)

// TestNumber covers the union of the numbers the former copies accepted
// (the notification rules', Modbus's, OPC UA's and the filters'): every Go
// numeric type and json.Number; a boolean is no number.
func TestNumber(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want float64
		ok   bool
	}{
		{"float64", 2.5, 2.5, true},
		{"float32", float32(0.5), 0.5, true},
		{"int", 7, 7, true},
		{"int8", int8(-8), -8, true},
		{"int16", int16(16), 16, true},
		{"int32", int32(-32), -32, true},
		{"int64", int64(1) << 40, 1 << 40, true},
		{"uint", uint(3), 3, true},
		{"uint8", uint8(255), 255, true},
		{"uint16", uint16(65535), 65535, true},
		{"uint32", uint32(1) << 31, 1 << 31, true},
		{"uint64", uint64(1) << 50, 1 << 50, true},
		{"json.Number", json.Number("21.7"), 21.7, true},
		{"json.Number not a number", json.Number("x"), 0, false},
		{"true", true, 0, false},
		{"false", false, 0, false},
		{"string", "1", 0, false},
		{"nil", nil, 0, false},
		{"object", map[string]any{"a": 1}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Number(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Number(%#v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestNumberOrBool(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want float64
		ok   bool
	}{
		{"true", true, 1, true},
		{"false", false, 0, true},
		{"uint16", uint16(7), 7, true},
		{"json.Number", json.Number("-2"), -2, true},
		{"string", "true", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := NumberOrBool(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("NumberOrBool(%#v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}
