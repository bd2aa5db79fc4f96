package opcua

import (
	"testing"

	"github.com/gopcua/opcua/ua"
)

// TestToVariantNumbers: a write converts any Go number (plugin.Number),
// but a boolean is no number to an OPC UA number node.
func TestToVariantNumbers(t *testing.T) {
	tests := []struct {
		name    string
		in      any
		kind    ua.TypeID
		wantErr bool
	}{
		{"float64 to Double", 2.5, ua.TypeIDDouble, false},
		{"uint16 to Int32", uint16(3), ua.TypeIDInt32, false},
		{"int8 to Double", int8(-1), ua.TypeIDDouble, false},
		{"true to Double", true, ua.TypeIDDouble, true},
		{"false to Int32", false, ua.TypeIDInt32, true},
		{"true to Boolean", true, ua.TypeIDBoolean, false},
		{"fraction to Int16", 1.5, ua.TypeIDInt16, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := toVariant(tt.in, tt.kind)
			if (err != nil) != tt.wantErr {
				t.Errorf("toVariant(%#v, %v) error = %v, want error %v", tt.in, tt.kind, err, tt.wantErr)
			}
		})
	}
}
