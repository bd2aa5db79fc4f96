package httpsouth

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// elem is a posted element whose readings object is r.
func elem(r string) string {
	return `{"timestamp":"2024-05-01 10:15:42","asset":"a","readings":` + r + `}`
}

func TestDecodeRefusesWhatStorageCannotHold(t *testing.T) {
	good := elem(`{"v":1}`)
	tests := []struct {
		name string
		body string
		want []string // substrings of the message
	}{
		{name: "invalid UTF-8 in a string value", body: `[` + good + `,` + elem(`{"k":"a`+"\xff"+`b"}`) + `]`, want: []string{"element 1", "invalid UTF-8"}},
		{name: "invalid UTF-8 in a key", body: `[` + elem(`{"k`+"\xc3\x28"+`":1}`) + `]`, want: []string{"element 0", "invalid UTF-8"}},
		{name: "invalid UTF-8 in the asset", body: `[{"timestamp":"2024-05-01 10:15:42","asset":"a` + "\xed\xa0\x80" + `","readings":{}}]`, want: []string{"element 0", "invalid UTF-8"}},
		{name: "lone high surrogate in a value", body: `[` + good + `,` + good + `,` + elem(`{"k":"\ud800"}`) + `]`, want: []string{"element 2", "surrogate"}},
		{name: "lone low surrogate in a key", body: `[` + elem(`{"\udc00":1}`) + `]`, want: []string{"element 0", "surrogate"}},
		{name: "surrogates in the wrong order", body: `[` + elem(`{"k":"\udc00\ud800"}`) + `]`, want: []string{"element 0", "surrogate"}},
		{name: "lone surrogate in the asset", body: `[{"timestamp":"2024-05-01 10:15:42","asset":"\ud83d","readings":{}}]`, want: []string{"element 0", "surrogate"}},
		{name: "NUL in a nested value", body: `[` + elem(`{"k":{"deep":["x\u0000"]}}`) + `]`, want: []string{"element 0", "NUL", "/readings/k/deep/0"}},
		{name: "number above float64", body: `[` + good + `,` + elem(`{"k":1e400}`) + `]`, want: []string{"element 1", "1e400", "outside the range"}},
		{name: "number below -float64", body: `[` + elem(`{"k":-1e400}`) + `]`, want: []string{"element 0", "-1e400", "outside the range"}},
		{name: "400-digit integer", body: `[` + elem(`{"k":1`+strings.Repeat("0", 399)+`}`) + `]`, want: []string{"element 0", "400 characters", "outside the range"}},
		{name: "number in an array", body: `[` + elem(`{"k":[1,2,1E309]}`) + `]`, want: []string{"element 0", "/readings/k/2"}},
		{name: "number that rounds to zero", body: `[` + elem(`{"k":1e-400}`) + `]`, want: []string{"element 0", "too small"}},
		{name: "duplicate key", body: `[` + elem(`{"k":1,"k":2}`) + `]`, want: []string{"element 0", "duplicate"}},
		{name: "duplicate field", body: `[{"asset":"a","asset":"b","timestamp":"2024-05-01 10:15:42","readings":{}}]`, want: []string{"element 0", "duplicate"}},
		{name: "control character in a string", body: `[` + elem(`{"k":"a`+"\x01"+`"}`) + `]`, want: []string{"element 0", "not valid JSON"}},
		{name: "data after the array", body: `[` + good + `] []`, want: []string{"data after the array"}},
		{name: "truncated", body: `[` + good + `,{"asset"`, want: []string{"element 1", "not valid JSON"}},
		{name: "empty body", body: ``, want: []string{"not valid JSON"}},
		{name: "asset null", body: `[{"timestamp":"2024-05-01 10:15:42","asset":null,"readings":{}}]`, want: []string{`field "asset" must be a string`}},
		{name: "timestamp not a string", body: `[{"timestamp":1,"asset":"a","readings":{}}]`, want: []string{`field "timestamp" must be a string`}},
		{name: "asset code of 2800 characters", body: `[` + good + `,{"timestamp":"2024-05-01 10:15:42","asset":"` + strings.Repeat("x", 2800) + `","readings":{}}]`,
			want: []string{"element 1", `field "asset"`, "2800 characters", "more than the 255"}},
		{name: "asset code of 256 characters", body: `[{"timestamp":"2024-05-01 10:15:42","asset":"` + strings.Repeat("é", 256) + `","readings":{}}]`,
			want: []string{"element 0", "256 characters"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, status, err := decode(strings.NewReader(tc.body), "", -1)
			if err == nil || status != 400 {
				t.Fatalf("decode = %d readings, %d, %v; want 400", len(rs), status, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestDecodeAccepts(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		asset  string
		values string
	}{
		{name: "compacted", body: "[ {\"timestamp\" : \"2024-05-01 10:15:42\",\n \"asset\": \"a\",\t\"readings\": { \"x\" : [ 1 , 2 ] , \"s\": \"a b\" } } ]",
			asset: "a", values: `{"x":[1,2],"s":"a b"}`},
		{name: "nested containers", body: `[` + elem(`{"a":{"b":[{},[],{"c":null}],"d":true},"e":false}`) + `]`, asset: "a",
			values: `{"a":{"b":[{},[],{"c":null}],"d":true},"e":false}`},
		{name: "escapes kept as sent", body: `[` + elem(`{"k\"":"\u00e9\n\\u0000\ud83d\ude00"}`) + `]`, asset: "a",
			values: `{"k\"":"\u00e9\n\\u0000\ud83d\ude00"}`},
		{name: "escaped field names and asset", body: `[{"\u0074imestamp":"2024-05-01 10:15:42","asset":"b\/c\u00e9","readings":{}}]`,
			asset: "b/cé", values: `{}`},
		{name: "asset code of 255 characters", body: `[{"timestamp":"2024-05-01 10:15:42","asset":"` + strings.Repeat("é", 255) + `","readings":{}}]`,
			asset: strings.Repeat("é", 255), values: `{}`},
		{name: "unknown fields ignored", body: `[{"timestamp":"2024-05-01 10:15:42","extra":{"x":[1]},"asset":"a","readings":{"v":1}}]`,
			asset: "a", values: `{"v":1}`},
		{name: "float64 edges", body: `[` + elem(`{"max":1.7976931348623157e308,"min":-1.7976931348623157e308,"tiny":5e-324,"zero":0e-400,"long":123456789012345678901234567890}`) + `]`,
			asset: "a", values: `{"max":1.7976931348623157e308,"min":-1.7976931348623157e308,"tiny":5e-324,"zero":0e-400,"long":123456789012345678901234567890}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, status, err := decode(strings.NewReader(tc.body), "", -1)
			if err != nil || status != 200 || len(rs) != 1 {
				t.Fatalf("decode = %v, %d, %v", rs, status, err)
			}
			if rs[0].Asset != tc.asset || string(rs[0].Values) != tc.values {
				t.Errorf("reading = %q %s, want %q %s", rs[0].Asset, rs[0].Values, tc.asset, tc.values)
			}
			if !rs[0].Timestamp.Equal(time.Date(2024, 5, 1, 10, 15, 42, 0, time.UTC)) {
				t.Errorf("timestamp = %v", rs[0].Timestamp)
			}
		})
	}
}

// TestDecodeCountsThePrefix: the service's assetNamePrefix is part of the
// stored code, so it counts toward the limit.
func TestDecodeCountsThePrefix(t *testing.T) {
	body := `[{"timestamp":"2024-05-01 10:15:42","asset":"` + strings.Repeat("a", 249) + `","readings":{}}]`
	if _, status, err := decode(strings.NewReader(body), "plant/", -1); status != 200 || err != nil {
		t.Fatalf("with a 6-character prefix: %d %v; want 200", status, err)
	}
	_, status, err := decode(strings.NewReader(body), "plant1/", -1)
	if status != 400 || err == nil || !strings.Contains(err.Error(), "256 characters") {
		t.Fatalf("with a 7-character prefix: %d %v; want 400 naming 256 characters", status, err)
	}
}

func TestDecodeKeepsReadingsApart(t *testing.T) {
	body := `[` + elem(`{"v":1}`) + `,{"timestamp":"2024-05-01 10:15:43","asset":"b","readings":{"w":[2]}},` + elem(`{}`) + `]`
	rs, _, err := decode(strings.NewReader(body), "site/", int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ asset, values string }{{"site/a", `{"v":1}`}, {"site/b", `{"w":[2]}`}, {"site/a", `{}`}}
	if len(rs) != len(want) {
		t.Fatalf("%d readings, want %d", len(rs), len(want))
	}
	for i, w := range want {
		if rs[i].Asset != w.asset || string(rs[i].Values) != w.values {
			t.Errorf("reading %d = %q %s, want %q %s", i, rs[i].Asset, rs[i].Values, w.asset, w.values)
		}
	}
	// Appending to one reading's values must not overwrite the next's.
	_ = append(rs[0].Values, 'x')
	if string(rs[1].Values) != `{"w":[2]}` {
		t.Errorf("reading 1 changed to %s by an append to reading 0", rs[1].Values)
	}
}

// FuzzDecode checks the one-pass decoder against encoding/json: whatever
// it accepts is valid JSON whose readings, compacted by encoding/json, are
// the stored values, and nothing it accepts holds what storage refuses.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`[` + elem(`{"v":1}`) + `]`,
		`[` + elem(`{"a":{"b":[{},[],{"c":null}],"d":true},"e":"x y"}`) + `, ` + elem(`{"n":-1.5e3}`) + `]`,
		`[` + elem(`{"k":"\u00e9\\u0000"}`) + `]`,
		`[` + elem(`{"k":1e400}`) + `]`,
		`[{"asset":"a","timestamp":"2024-05-01T10:15:42Z","readings":{},"x":[1,{"y":2}]}]`,
		`[]`, `{}`, `[1]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rs, status, err := decode(bytes.NewReader(body), "", -1)
		if err != nil {
			if status != 400 {
				t.Fatalf("status %d for a refused body", status)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		var elems []map[string]json.RawMessage // exact names, as decode matches them
		if err := json.Unmarshal(body, &elems); err != nil || len(elems) != len(rs) {
			t.Fatalf("encoding/json reads %d elements (%v), decode %d", len(elems), err, len(rs))
		}
		for i, e := range elems {
			var want bytes.Buffer
			if err := json.Compact(&want, e["readings"]); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want.Bytes(), rs[i].Values) {
				t.Fatalf("element %d: values %s, encoding/json compacts %s", i, rs[i].Values, want.Bytes())
			}
			if hasEscapedNUL(rs[i].Values) || strings.ContainsRune(rs[i].Asset, 0) {
				t.Fatalf("element %d holds a NUL", i)
			}
		}
	})
}
