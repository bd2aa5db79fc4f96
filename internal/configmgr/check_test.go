package configmgr

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/edged/edged/internal/fault"
)

func TestCheckValues(t *testing.T) {
	defs := map[string]Item{
		"port":    {Description: "port", Type: "integer", Default: "6683", Minimum: "1", Maximum: "65535"},
		"enabled": {Description: "on", Type: "boolean", Default: "true"},
		"plugin":  {Description: "plugin", Type: "string", Default: "http_south", Readonly: "true"},
		"prefix":  {Description: "prefix", Type: "string"},
	}
	cases := []struct {
		name    string
		key     string
		defs    map[string]Item
		values  map[string]string
		want    map[string]string
		wantErr string // substring of the fault message; "" means success
	}{
		{name: "no values", key: "svc", defs: defs, want: map[string]string{}},
		{name: "normalised", key: "svc", defs: defs, values: map[string]string{"port": "0080", "enabled": "TRUE", "prefix": "x/"},
			want: map[string]string{"port": "80", "enabled": "true", "prefix": "x/"}},
		{name: "unknown item", key: "svc", defs: defs, values: map[string]string{"nope": "1"}, wantErr: `item "nope" in category "svc" does not exist`},
		{name: "readonly", key: "svc", defs: defs, values: map[string]string{"plugin": "other"}, wantErr: "read-only"},
		{name: "above maximum", key: "svc", defs: defs, values: map[string]string{"port": "70000"}, wantErr: "above the maximum"},
		{name: "not an integer", key: "svc", defs: defs, values: map[string]string{"port": "abc"}, wantErr: "not an integer"},
		{name: "bad definition", key: "svc", defs: map[string]Item{"x": {Type: "colour"}}, wantErr: "unknown type"},
		{name: "bad key", key: "", defs: defs, wantErr: "category key is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CheckValues(c.key, c.defs, c.values)
			if c.wantErr != "" {
				if !errors.Is(err, fault.Invalid) || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("CheckValues = %v, want an Invalid fault containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("CheckValues: %v", err)
			}
			if !maps.Equal(got, c.want) {
				t.Errorf("CheckValues = %v, want %v", got, c.want)
			}
		})
	}
}
