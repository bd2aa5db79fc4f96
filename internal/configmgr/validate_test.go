package configmgr

import (
	"strings"
	"testing"

	"github.com/edged/edged/internal/fault"
)

func TestCheckValue(t *testing.T) {
	w := where{category: "c", item: "i"}
	boolean := Item{Type: TypeBoolean, Default: "true"}
	integer := Item{Type: TypeInteger, Default: "8081", Minimum: "1", Maximum: "65535"}
	float := Item{Type: TypeFloat, Default: "0.5", Minimum: "-1.5", Maximum: "2.5"}
	str := Item{Type: TypeString, Length: "3"}
	pwd := Item{Type: TypePassword, Length: "4"}
	enum := Item{Type: TypeEnumeration, Default: "a", Options: []string{"a", "b c"}}

	tests := []struct {
		name    string
		def     Item
		value   string
		want    string
		wantErr string // exact message; empty when valid
	}{
		{name: "boolean true", def: boolean, value: "true", want: "true"},
		{name: "boolean false", def: boolean, value: "false", want: "false"},
		{name: "boolean upper case stored lower", def: boolean, value: "TRUE", want: "true"},
		{name: "boolean mixed case", def: boolean, value: "False", want: "false"},
		{name: "boolean yes", def: boolean, value: "yes", wantErr: `value "yes" of item "i" in category "c" is not "true" or "false"`},
		{name: "boolean one", def: boolean, value: "1", wantErr: `value "1" of item "i" in category "c" is not "true" or "false"`},
		{name: "boolean empty with default", def: boolean, value: "", wantErr: `value "" of item "i" in category "c" is not "true" or "false"`},

		{name: "integer", def: integer, value: "8081", want: "8081"},
		{name: "integer at minimum", def: integer, value: "1", want: "1"},
		{name: "integer at maximum", def: integer, value: "65535", want: "65535"},
		{name: "integer canonical", def: integer, value: "+0080", want: "80"},
		{name: "integer below minimum", def: integer, value: "0", wantErr: `value 0 of item "i" in category "c" is below the minimum 1`},
		{name: "integer above maximum", def: integer, value: "70000", wantErr: `value 70000 of item "i" in category "c" is above the maximum 65535`},
		{name: "integer not a number", def: integer, value: "abc", wantErr: `value "abc" of item "i" in category "c" is not an integer`},
		{name: "integer fraction", def: integer, value: "1.5", wantErr: `value "1.5" of item "i" in category "c" is not an integer`},
		{name: "integer space", def: integer, value: " 80", wantErr: `value " 80" of item "i" in category "c" is not an integer`},
		{name: "integer underscore", def: integer, value: "1_000", wantErr: `value "1_000" of item "i" in category "c" is not an integer`},
		{name: "integer overflow", def: integer, value: "99999999999999999999", wantErr: `value 99999999999999999999 of item "i" in category "c" is outside the 64-bit integer range`},
		{name: "integer negative unbounded", def: Item{Type: TypeInteger}, value: "-9223372036854775808", want: "-9223372036854775808"},
		{name: "integer without default empty", def: Item{Type: TypeInteger}, value: "", want: ""},

		{name: "float", def: float, value: "1.25", want: "1.25"},
		{name: "float exponent", def: float, value: "2e-1", want: "2e-1"},
		{name: "float integer form", def: float, value: "2", want: "2"},
		{name: "float at minimum", def: float, value: "-1.5", want: "-1.5"},
		{name: "float at maximum", def: float, value: "2.5", want: "2.5"},
		{name: "float below minimum", def: float, value: "-1.6", wantErr: `value -1.6 of item "i" in category "c" is below the minimum -1.5`},
		{name: "float above maximum", def: float, value: "2.51", wantErr: `value 2.51 of item "i" in category "c" is above the maximum 2.5`},
		{name: "float text", def: float, value: "abc", wantErr: `value "abc" of item "i" in category "c" is not a number`},
		{name: "float NaN", def: float, value: "NaN", wantErr: `value "NaN" of item "i" in category "c" is not a number`},
		{name: "float infinity", def: Item{Type: TypeFloat}, value: "Inf", wantErr: `value "Inf" of item "i" in category "c" is not a number`},
		{name: "float hexadecimal", def: float, value: "0x1p-1", wantErr: `value "0x1p-1" of item "i" in category "c" is not a number`},

		{name: "string", def: str, value: "abc", want: "abc"},
		{name: "string length counts characters", def: str, value: "äöü", want: "äöü"},
		{name: "string too long", def: str, value: "abcd", wantErr: `value of item "i" in category "c" is longer than 3 characters`},
		{name: "string empty", def: str, value: "", want: ""},
		{name: "string unbounded", def: Item{Type: TypeString}, value: strings.Repeat("x", 5000), want: strings.Repeat("x", 5000)},
		{name: "string mandatory empty", def: Item{Type: TypeString, Default: "x", Mandatory: "true"}, value: "", wantErr: `item "i" in category "c" is mandatory and its value cannot be empty`},
		{name: "string mandatory set", def: Item{Type: TypeString, Default: "x", Mandatory: "true"}, value: "y", want: "y"},

		{name: "password", def: pwd, value: "abcd", want: "abcd"},
		{name: "password too long does not echo", def: pwd, value: "abcde", wantErr: `value of item "i" in category "c" is longer than 4 characters`},
		{name: "password empty", def: pwd, value: "", want: ""},

		{name: "enumeration option", def: enum, value: "b c", want: "b c"},
		{name: "enumeration other", def: enum, value: "c", wantErr: `value "c" of item "i" in category "c" is not one of the options "a", "b c"`},
		{name: "enumeration case matters", def: enum, value: "A", wantErr: `value "A" of item "i" in category "c" is not one of the options "a", "b c"`},
		{name: "enumeration empty", def: enum, value: "", wantErr: `value "" of item "i" in category "c" is not one of the options "a", "b c"`},

		{name: "JSON object", def: Item{Type: TypeJSON}, value: `{"a": [1, 2]}`, want: `{"a": [1, 2]}`},
		{name: "JSON scalar", def: Item{Type: TypeJSON}, value: `42`, want: `42`},
		{name: "JSON invalid", def: Item{Type: TypeJSON}, value: `{"a":`, wantErr: `value of item "i" in category "c" is not valid JSON`},

		{name: "IPv4", def: Item{Type: TypeIPv4}, value: "192.168.1.10", want: "192.168.1.10"},
		{name: "IPv4 short", def: Item{Type: TypeIPv4}, value: "192.168.1", wantErr: `value "192.168.1" of item "i" in category "c" is not an IPv4 address`},
		{name: "IPv4 leading zero", def: Item{Type: TypeIPv4}, value: "192.168.01.1", wantErr: `value "192.168.01.1" of item "i" in category "c" is not an IPv4 address`},
		{name: "IPv4 given IPv6", def: Item{Type: TypeIPv4}, value: "::1", wantErr: `value "::1" of item "i" in category "c" is not an IPv4 address`},
		{name: "IPv4 host name", def: Item{Type: TypeIPv4}, value: "localhost", wantErr: `value "localhost" of item "i" in category "c" is not an IPv4 address`},

		{name: "IPv6", def: Item{Type: TypeIPv6}, value: "fe80::1", want: "fe80::1"},
		{name: "IPv6 full", def: Item{Type: TypeIPv6}, value: "2001:db8:0:0:0:0:0:1", want: "2001:db8:0:0:0:0:0:1"},
		{name: "IPv6 given IPv4", def: Item{Type: TypeIPv6}, value: "10.0.0.1", wantErr: `value "10.0.0.1" of item "i" in category "c" is not an IPv6 address`},
		{name: "IPv6 garbage", def: Item{Type: TypeIPv6}, value: "fe80:::1", wantErr: `value "fe80:::1" of item "i" in category "c" is not an IPv6 address`},

		{name: "URL", def: Item{Type: TypeURL}, value: "https://example.com:8443/a?b=c", want: "https://example.com:8443/a?b=c"},
		{name: "URL without scheme", def: Item{Type: TypeURL}, value: "example.com/a", wantErr: `value "example.com/a" of item "i" in category "c" is not an absolute URL with a scheme and a host`},
		{name: "URL without host", def: Item{Type: TypeURL}, value: "mailto:a@example.com", wantErr: `value "mailto:a@example.com" of item "i" in category "c" is not an absolute URL with a scheme and a host`},
		{name: "URL path only", def: Item{Type: TypeURL}, value: "/a/b", wantErr: `value "/a/b" of item "i" in category "c" is not an absolute URL with a scheme and a host`},
		{name: "URL malformed", def: Item{Type: TypeURL}, value: "http://[::1", wantErr: `value "http://[::1" of item "i" in category "c" is not an absolute URL with a scheme and a host`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := checkValue(w, tt.def, "value", tt.value)
			if tt.wantErr != "" {
				wantFault(t, err, fault.Invalid, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatalf("checkValue(%q): %v", tt.value, err)
			}
			if got != tt.want {
				t.Errorf("checkValue(%q) = %q, want %q", tt.value, got, tt.want)
			}
		})
	}
}

func TestCheckDefinition(t *testing.T) {
	tests := []struct {
		name    string
		item    string // item name; "i" when empty
		in      Item
		want    Item
		wantErr string // exact message; empty when valid
	}{
		{name: "minimal", in: Item{Type: TypeString}, want: Item{Type: TypeString}},
		{
			name: "normalised",
			in:   Item{Type: "json", Default: `[]`, Readonly: "TRUE", Mandatory: "False", Value: "ignored", Options: []string{}},
			want: Item{Type: TypeJSON, Default: `[]`, Readonly: "true", Mandatory: "false"},
		},
		{name: "type spelling", in: Item{Type: "ipv4"}, want: Item{Type: TypeIPv4}},
		{name: "boolean default lower case", in: Item{Type: TypeBoolean, Default: "True"}, want: Item{Type: TypeBoolean, Default: "true"}},
		{name: "integer default canonical", in: Item{Type: TypeInteger, Default: "007"}, want: Item{Type: TypeInteger, Default: "7"}},
		{
			name: "every attribute",
			in: Item{Description: "d", Type: TypeInteger, Default: "5", DisplayName: "D", Order: "3", Validity: `a == "b"`,
				Minimum: "-1", Maximum: "10", Readonly: "false", Mandatory: "true"},
			want: Item{Description: "d", Type: TypeInteger, Default: "5", DisplayName: "D", Order: "3", Validity: `a == "b"`,
				Minimum: "-1", Maximum: "10", Readonly: "false", Mandatory: "true"},
		},
		{name: "float bounds", in: Item{Type: TypeFloat, Minimum: "-0.5", Maximum: "1e3"}, want: Item{Type: TypeFloat, Minimum: "-0.5", Maximum: "1e3"}},
		{name: "equal bounds", in: Item{Type: TypeInteger, Minimum: "4", Maximum: "4"}, want: Item{Type: TypeInteger, Minimum: "4", Maximum: "4"}},
		{name: "reserved name children", item: "children", in: Item{Type: TypeString},
			wantErr: `item name "children" in category "c" is reserved: /edge/category/{name}/children addresses the category tree`},
		{name: "reserved name parent", item: "parent", in: Item{Type: TypeString},
			wantErr: `item name "parent" in category "c" is reserved: /edge/category/{name}/parent addresses the category tree`},
		{name: "reserved names are case-sensitive", item: "Parent", in: Item{Type: TypeString}, want: Item{Type: TypeString}},
		{
			name: "enumeration",
			in:   Item{Type: TypeEnumeration, Default: "b", Options: []string{"a", "b"}},
			want: Item{Type: TypeEnumeration, Default: "b", Options: []string{"a", "b"}},
		},

		{name: "empty name", item: "-", in: Item{Type: TypeString}, wantErr: `category "c" has an item with an empty name`},
		{name: "control character in name", item: "a\nb", in: Item{Type: TypeString}, wantErr: `item name "a\nb" in category "c" contains a control character`},
		{name: "long name", item: strings.Repeat("n", 256), in: Item{Type: TypeString}, wantErr: `an item name in category "c" is longer than 255 characters`},
		{name: "no type", in: Item{Default: "x"}, wantErr: `item "i" in category "c" has no type`},
		{name: "unknown type", in: Item{Type: "color"}, wantErr: `item "i" in category "c" has unknown type "color"`},
		{name: "readonly not boolean", in: Item{Type: TypeString, Readonly: "yes"}, wantErr: `readonly "yes" of item "i" in category "c" is not "true" or "false"`},
		{name: "mandatory not boolean", in: Item{Type: TypeString, Default: "x", Mandatory: "1"}, wantErr: `mandatory "1" of item "i" in category "c" is not "true" or "false"`},
		{name: "order not digits", in: Item{Type: TypeString, Order: "first"}, wantErr: `order "first" of item "i" in category "c" is not a non-negative integer`},
		{name: "order negative", in: Item{Type: TypeString, Order: "-1"}, wantErr: `order "-1" of item "i" in category "c" is not a non-negative integer`},
		{name: "length zero", in: Item{Type: TypeString, Length: "0"}, wantErr: `length "0" of item "i" in category "c" is not a positive integer`},
		{name: "length text", in: Item{Type: TypeString, Length: "ten"}, wantErr: `length "ten" of item "i" in category "c" is not a positive integer`},
		{name: "minimum not a number", in: Item{Type: TypeFloat, Minimum: "low"}, wantErr: `minimum "low" of item "i" in category "c" is not a number`},
		{name: "maximum not an integer", in: Item{Type: TypeInteger, Maximum: "1.5"}, wantErr: `maximum "1.5" of item "i" in category "c" is not an integer`},
		{name: "minimum above maximum", in: Item{Type: TypeInteger, Minimum: "10", Maximum: "9"}, wantErr: `item "i" in category "c" has the minimum 10 above its maximum 9`},
		{name: "float minimum above maximum", in: Item{Type: TypeFloat, Minimum: "1.5", Maximum: "1.25"}, wantErr: `item "i" in category "c" has the minimum 1.5 above its maximum 1.25`},
		{name: "enumeration without options", in: Item{Type: TypeEnumeration, Default: "a"}, wantErr: `item "i" in category "c" is an enumeration without options`},
		{name: "enumeration without default", in: Item{Type: TypeEnumeration, Options: []string{"a"}}, wantErr: `item "i" in category "c" is an enumeration without a default`},
		{name: "enumeration default not an option", in: Item{Type: TypeEnumeration, Default: "c", Options: []string{"a", "b"}}, wantErr: `default "c" of item "i" in category "c" is not one of the options "a", "b"`},
		{name: "enumeration duplicate option", in: Item{Type: TypeEnumeration, Default: "a", Options: []string{"a", "a"}}, wantErr: `item "i" in category "c" has the option "a" more than once`},
		{name: "enumeration empty option", in: Item{Type: TypeEnumeration, Default: "a", Options: []string{"a", ""}}, wantErr: `item "i" in category "c" has an empty option`},
		{name: "options without enumeration", in: Item{Type: TypeString, Options: []string{"a"}}, wantErr: `item "i" in category "c" has options but is not an enumeration`},
		{name: "mandatory without default", in: Item{Type: TypeString, Mandatory: "true"}, wantErr: `item "i" in category "c" is mandatory but has no default`},
		{name: "default of wrong type", in: Item{Type: TypeInteger, Default: "many"}, wantErr: `default "many" of item "i" in category "c" is not an integer`},
		{name: "default out of bounds", in: Item{Type: TypeInteger, Default: "0", Minimum: "1"}, wantErr: `default 0 of item "i" in category "c" is below the minimum 1`},
		{name: "default too long", in: Item{Type: TypeString, Default: "abcd", Length: "3"}, wantErr: `default of item "i" in category "c" is longer than 3 characters`},
		{name: "default invalid JSON", in: Item{Type: TypeJSON, Default: "{"}, wantErr: `default of item "i" in category "c" is not valid JSON`},
		{name: "default invalid URL", in: Item{Type: TypeURL, Default: "nowhere"}, wantErr: `default "nowhere" of item "i" in category "c" is not an absolute URL with a scheme and a host`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := tt.item
			switch name {
			case "":
				name = "i"
			case "-":
				name = ""
			}
			got, err := checkDefinition("c", name, tt.in)
			if tt.wantErr != "" {
				wantFault(t, err, fault.Invalid, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatalf("checkDefinition: %v", err)
			}
			if !(Category{Items: map[string]Item{"i": got}}).equal(Category{Items: map[string]Item{"i": tt.want}}) {
				t.Errorf("checkDefinition = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCheckKey(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		wantErr string
	}{
		{name: "plain", key: "rest_api"},
		{name: "spaces and unicode", key: "Süd Pumpe 1/a"},
		{name: "255 characters", key: strings.Repeat("ä", 255)},
		{name: "empty", key: "", wantErr: "category key is empty"},
		{name: "blank", key: "   ", wantErr: `category key "   " is blank`},
		{name: "blank with unicode spaces", key: "\u00a0\u3000", wantErr: `category key "\u00a0\u3000" is blank`},
		{name: "space around a name", key: " a "},
		{name: "too long", key: strings.Repeat("k", 256), wantErr: "category key is longer than 255 characters"},
		{name: "control character", key: "a\tb", wantErr: `category key "a\tb" contains a control character`},
		{name: "invalid UTF-8", key: "a\xffb", wantErr: `category key "a\xffb" contains a control character`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkKey(tt.key)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("checkKey: %v", err)
				}
				return
			}
			wantFault(t, err, fault.Invalid, tt.wantErr)
		})
	}
}
