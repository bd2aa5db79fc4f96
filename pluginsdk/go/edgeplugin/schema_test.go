package edgeplugin

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

type rule struct {
	Asset  string  `json:"asset"`
	Factor float64 `json:"factor"`
}

type sampleConfig struct {
	Asset    string  `item:"asset" desc:"Asset code" display:"Asset" default:"csv" mandatory:"true" length:"255"`
	Rate     int     `item:"rate" desc:"Rows per second" display:"Rate" default:"1" min:"1" max:"10000"`
	Scale    float64 `item:"scale" desc:"Factor" default:"0.5"`
	Loop     bool    `item:"loop" desc:"Start over" default:"true" validity:"rate == \"1\""`
	Mode     string  `item:"mode" desc:"Mode" type:"enumeration" options:"a|b|c" default:"b" order:"9"`
	Secret   string  `item:"secret" desc:"Password" type:"password"`
	Rules    []rule  `item:"rules" desc:"Rules" type:"JSON" default:"[]"`
	Count    uint16  `item:"count" desc:"Optional count"`
	internal int     //nolint:unused // an unexported field, which ItemsOf skips: not an item
}

func TestItemsOf(t *testing.T) {
	got, err := ItemsOf(sampleConfig{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Item{
		"asset":  {Description: "Asset code", Type: "string", Default: "csv", DisplayName: "Asset", Order: "1", Length: "255", Mandatory: "true"},
		"rate":   {Description: "Rows per second", Type: "integer", Default: "1", DisplayName: "Rate", Order: "2", Minimum: "1", Maximum: "10000"},
		"scale":  {Description: "Factor", Type: "float", Default: "0.5", Order: "3"},
		"loop":   {Description: "Start over", Type: "boolean", Default: "true", Order: "4", Validity: `rate == "1"`},
		"mode":   {Description: "Mode", Type: "enumeration", Options: []string{"a", "b", "c"}, Default: "b", Order: "9"},
		"secret": {Description: "Password", Type: "password", Order: "6"},
		"rules":  {Description: "Rules", Type: "JSON", Default: "[]", Order: "7"},
		"count":  {Description: "Optional count", Type: "integer", Order: "8"},
	}
	if !reflect.DeepEqual(got, want) {
		for k := range want {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("item %s = %+v\nwant %+v", k, got[k], want[k])
			}
		}
		t.Fatalf("items: %d, want %d", len(got), len(want))
	}
}

func TestItemsOfRefusesMalformed(t *testing.T) {
	tests := []struct {
		name string
		v    any
	}{
		{"not a struct", 3},
		{"no description", struct {
			A string `item:"a"`
		}{}},
		{"a name twice", struct {
			A string `item:"a" desc:"a"`
			B string `item:"a" desc:"b"`
		}{}},
		{"a map without JSON type", struct {
			M map[string]int `item:"m" desc:"m"`
		}{}},
		{"an empty name", struct {
			A string `item:"" desc:"a"`
		}{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ItemsOf(tt.v); !errors.Is(err, ErrSchema) {
				t.Errorf("ItemsOf = %v, want ErrSchema", err)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		want    sampleConfig
		wantErr string
	}{
		{name: "defaults", cfg: Config{},
			want: sampleConfig{Asset: "csv", Rate: 1, Scale: 0.5, Loop: true, Mode: "b", Rules: []rule{}}},
		{name: "values", cfg: Config{"asset": "a/b", "rate": "20", "scale": "-1e3", "loop": "false", "mode": "c",
			"secret": "s3cret", "rules": `[{"asset":"x","factor":2}]`, "count": "7"},
			want: sampleConfig{Asset: "a/b", Rate: 20, Scale: -1000, Loop: false, Mode: "c", Secret: "s3cret",
				Rules: []rule{{Asset: "x", Factor: 2}}, Count: 7}},
		{name: "an empty optional number", cfg: Config{"count": ""},
			want: sampleConfig{Asset: "csv", Rate: 1, Scale: 0.5, Loop: true, Mode: "b", Rules: []rule{}}},
		{name: "not an integer", cfg: Config{"rate": "fast"}, wantErr: `item "rate" = "fast": not an integer`},
		{name: "out of the field's range", cfg: Config{"count": "70000"}, wantErr: `item "count"`},
		{name: "not a boolean", cfg: Config{"loop": "yes please"}, wantErr: `item "loop"`},
		{name: "not a number", cfg: Config{"scale": "x"}, wantErr: `item "scale"`},
		{name: "JSON of another shape", cfg: Config{"rules": `{"asset":1}`}, wantErr: `item "rules"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got sampleConfig
			err := Decode(tt.cfg, &got)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Decode = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Decode = %+v\nwant %+v", got, tt.want)
			}
		})
	}
	if err := Decode(Config{}, sampleConfig{}); !errors.Is(err, ErrSchema) {
		t.Errorf("Decode into a struct value = %v, want ErrSchema", err)
	}
}

type connection struct {
	Broker string `item:"broker" desc:"Broker" default:"tcp://127.0.0.1:1883"`
}

type withConnection struct {
	connection
	Topics string `item:"topics" desc:"Topics, JSON kept as text" type:"JSON" default:"[\"a/#\"]" order:"10"`
}

// TestEmbeddedItems: an embedded struct adds its items in its place; a
// JSON item of a string field keeps its text.
func TestEmbeddedItems(t *testing.T) {
	items, err := ItemsOf(withConnection{})
	if err != nil {
		t.Fatal(err)
	}
	if items["broker"].Order != "1" || items["topics"].Order != "10" || items["topics"].Type != "JSON" {
		t.Errorf("items = %+v", items)
	}
	var c withConnection
	if err := Decode(Config{"broker": "ssl://b:8883"}, &c); err != nil {
		t.Fatal(err)
	}
	if c.Broker != "ssl://b:8883" || c.Topics != `["a/#"]` {
		t.Errorf("decoded %+v", c)
	}
}
