package notify

import (
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
)

// TestDecodeValues checks that the tokenizer's decoding of a reading's
// values gives what JSON v2's Unmarshal into a map gives, and refuses what
// it refuses.
func TestDecodeValues(t *testing.T) {
	for _, c := range []struct {
		name, body string
		bad        bool
	}{
		{name: "numbers", body: `{"level":0.75,"seq":3}`},
		{name: "strings and booleans", body: `{"open":true,"state":"running","off":false}`},
		{name: "nested values", body: `{"xyz":{"x":1,"y":[1,"two",null]},"list":[1.5e3]}`},
		{name: "null value", body: `{"missing":null}`},
		{name: "null", body: `null`},
		{name: "escaped names and strings", body: `{"temp\"C":"\u00b0"}`},
		{name: "empty object", body: `{}`},
		{name: "white space", body: " { \"v\" : -2 } \n"},
		{name: "not an object", body: `[1]`, bad: true},
		{name: "a number", body: `1`, bad: true},
		{name: "duplicate name", body: `{"v":1,"v":2}`, bad: true},
		{name: "invalid UTF-8", body: "{\"\xff\":1}", bad: true},
		{name: "trailing document", body: `{} {}`, bad: true},
		{name: "truncated", body: `{"v":1`, bad: true},
		{name: "empty", body: ``, bad: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeValues([]byte(c.body))
			var want map[string]any
			wantErr := jsonv2.Unmarshal([]byte(c.body), &want)
			if c.bad != (wantErr != nil) {
				t.Fatalf("case expects bad=%v but JSON v2 says %v", c.bad, wantErr)
			}
			if c.bad {
				if err == nil {
					t.Errorf("DecodeValues = %+v, nil; want an error like JSON v2's %v", got, wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeValues: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("DecodeValues = %#v\nJSON v2 gives   %#v", got, want)
			}
		})
	}
}
