package notify

import (
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
)

// TestDecodeReadings checks that the tokenizer's decoding of a "readings"
// body gives what JSON v2's Unmarshal into []Reading gives, and refuses
// what it refuses.
func TestDecodeReadings(t *testing.T) {
	for _, c := range []struct {
		name, body string
		bad        bool
	}{
		{name: "feed batch", body: `[{"asset":"pump","timestamp":"2026-11-26T17:00:00.123456Z","readings":{"level":0.75,"seq":3}},` +
			`{"asset":"valve","timestamp":"2026-11-26T17:00:01Z","readings":{"open":true,"state":"running","off":false}}]`},
		{name: "nested values", body: `[{"asset":"a","timestamp":"2026-11-26T17:00:00+01:00","readings":{"xyz":{"x":1,"y":[1,"two",null]},"list":[1.5e3]}}]`},
		{name: "null value", body: `[{"asset":"a","timestamp":"2026-11-26T17:00:00Z","readings":{"missing":null}}]`},
		{name: "null readings", body: `[{"asset":"a","timestamp":"2026-11-26T17:00:00Z","readings":null}]`},
		{name: "members in another order, unknown ones ignored", body: `[{"readings":{"v":-2},"extra":{"deep":[1]},"timestamp":"2026-11-26T17:00:00Z","asset":"a"}]`},
		{name: "escaped names and strings", body: `[{"asset":"p\u00fcmp","timestamp":"2026-11-26T17:00:00Z","readings":{"temp\"C":"\u00b0"}}]`},
		{name: "empty array", body: `[]`},
		{name: "null", body: `null`},
		{name: "white space", body: " [ { \"asset\" : \"a\" , \"timestamp\" : \"2026-11-26T17:00:00Z\" , \"readings\" : { } } ] \n"},
		{name: "not an array", body: `{"asset":"a"}`, bad: true},
		{name: "element not an object", body: `[1]`, bad: true},
		{name: "asset not a string", body: `[{"asset":1}]`, bad: true},
		{name: "timestamp not a time", body: `[{"asset":"a","timestamp":"yesterday"}]`, bad: true},
		{name: "readings not an object", body: `[{"asset":"a","readings":[1]}]`, bad: true},
		{name: "duplicate name", body: `[{"asset":"a","readings":{"v":1,"v":2}}]`, bad: true},
		{name: "invalid UTF-8", body: "[{\"asset\":\"\xff\"}]", bad: true},
		{name: "trailing document", body: `[] []`, bad: true},
		{name: "truncated", body: `[{"asset":"a"`, bad: true},
		{name: "empty", body: ``, bad: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeReadings([]byte(c.body))
			var want []Reading
			wantErr := jsonv2.Unmarshal([]byte(c.body), &want)
			if c.bad != (wantErr != nil) {
				t.Fatalf("case expects bad=%v but JSON v2 says %v", c.bad, wantErr)
			}
			if c.bad {
				if err == nil {
					t.Errorf("decodeReadings = %+v, nil; want an error like JSON v2's %v", got, wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("decodeReadings: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decodeReadings = %#v\nJSON v2 gives   %#v", got, want)
			}
		})
	}
}
