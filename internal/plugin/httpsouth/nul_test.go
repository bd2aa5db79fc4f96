package httpsouth

import (
	"strings"
	"testing"
)

func TestHasEscapedNUL(t *testing.T) {
	tests := []struct {
		name string
		json string
		want bool
	}{
		{name: "plain", json: `{"a":1,"b":"text"}`, want: false},
		{name: "NUL in a value", json: `{"a":"x\u0000y"}`, want: true},
		{name: "NUL in a key", json: `{"\u0000":1}`, want: true},
		{name: "escaped backslash then u0000", json: `{"a":"\\u0000"}`, want: false},
		{name: "escaped backslash then a real NUL", json: `{"a":"\\\u0000"}`, want: true},
		{name: "other escape", json: `{"a":"\u0001"}`, want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := hasEscapedNUL([]byte(tc.json)); got != tc.want {
				t.Fatalf("hasEscapedNUL(%s) = %v, want %v", tc.json, got, tc.want)
			}
		})
	}
}

func TestDecodeRefusesNUL(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{name: "asset", body: `[{"timestamp":"2026-01-01 00:00:00","asset":"a\u0000b","readings":{"i":1}}]`},
		{name: "reading key", body: `[{"timestamp":"2026-01-01 00:00:00","asset":"a","readings":{"k\u0000":1}}]`},
		{name: "reading value", body: `[{"timestamp":"2026-01-01 00:00:00","asset":"a","readings":{"k":"v\u0000"}}]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, status, err := decode(strings.NewReader(tc.body), "", -1)
			if status != 400 || err == nil || !strings.Contains(err.Error(), "NUL") {
				t.Fatalf("decode = %d, %v; want 400 naming the NUL", status, err)
			}
		})
	}
}
