package edgeplugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Points turns readings into points, their values decoded by
// DecodeValues; Origin is each reading's index. A reading whose values are
// not a JSON object gets empty values (storage holds only objects, and
// south plugins produce only objects).
func Points(readings []Reading) []Point {
	out := make([]Point, len(readings))
	for i, r := range readings {
		out[i] = Point{Asset: r.Asset, Timestamp: r.Timestamp, Values: DecodeValues(r.Values), Origin: i}
	}
	return out
}

// DecodeValues decodes a JSON object of reading values: integers that fit
// become int64, other numbers float64. Anything but an object gives an
// empty map.
func DecodeValues(raw json.RawMessage) map[string]any {
	if v, ok := decodeFlat(raw); ok {
		return v
	}
	return decodeSlow(raw)
}

// decodeSlow is DecodeValues through encoding/json.
func decodeSlow(raw json.RawMessage) map[string]any {
	var fields map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &fields) != nil || fields == nil {
		return map[string]any{}
	}
	values := make(map[string]any, len(fields))
	for k, f := range fields {
		values[k] = decodeValue(f)
	}
	return values
}

// decodeValue decodes one value; numbers, the commonest, without
// reflection.
func decodeValue(f json.RawMessage) any {
	if len(f) > 0 && (f[0] == '-' || (f[0] >= '0' && f[0] <= '9')) {
		if i, err := strconv.ParseInt(string(f), 10, 64); err == nil {
			return i
		}
		if x, err := strconv.ParseFloat(string(f), 64); err == nil {
			return x
		}
	}
	d := json.NewDecoder(bytes.NewReader(f))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil
	}
	return normalise(v)
}

// decodeFlat decodes the common case fast: an object whose values are
// numbers, strings, booleans or null, with no escapes in its strings. It
// reports false for anything else (the caller falls back to
// encoding/json). Its input comes from storage or a plugin, so it is valid
// JSON; what it cannot be sure of it leaves to encoding/json.
func decodeFlat(raw []byte) (map[string]any, bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	values := make(map[string]any, 4)
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return values, skipSpace(raw, i+1) == len(raw)
	}
	for {
		key, next, ok := plainString(raw, i)
		if !ok {
			return nil, false
		}
		i = skipSpace(raw, next)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
		if i >= len(raw) {
			return nil, false
		}
		var v any
		switch c := raw[i]; {
		case c == '"':
			var s string
			if s, i, ok = plainString(raw, i); !ok {
				return nil, false
			}
			v = s
		case c == 't' && hasAt(raw, i, "true"):
			v, i = true, i+4
		case c == 'f' && hasAt(raw, i, "false"):
			v, i = false, i+5
		case c == 'n' && hasAt(raw, i, "null"):
			v, i = nil, i+4
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(raw) && strings.IndexByte("0123456789+-.eE", raw[j]) >= 0 {
				j++
			}
			num := string(raw[i:j])
			n, err := int64(0), errNotInt
			if !strings.ContainsAny(num, ".eE") { // a fraction or exponent: no integer (and no error to allocate)
				n, err = strconv.ParseInt(num, 10, 64)
			}
			if err == nil {
				v = n
			} else if f, err := strconv.ParseFloat(num, 64); err == nil {
				v = f
			} else {
				return nil, false
			}
			i = j
		default:
			return nil, false
		}
		values[key] = v
		i = skipSpace(raw, i)
		if i >= len(raw) {
			return nil, false
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case '}':
			return values, skipSpace(raw, i+1) == len(raw)
		default:
			return nil, false
		}
	}
}

// errNotInt stands for a number with a fraction or an exponent.
var errNotInt = errors.New("not an integer")

// plainString reads a string without escapes starting at raw[i] (a quote)
// and returns it and the index after its closing quote.
func plainString(raw []byte, i int) (string, int, bool) {
	if i >= len(raw) || raw[i] != '"' {
		return "", 0, false
	}
	for j := i + 1; j < len(raw); j++ {
		switch c := raw[j]; {
		case c == '"':
			return string(raw[i+1 : j]), j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", 0, false // escapes and non-ASCII: encoding/json checks them
		}
	}
	return "", 0, false
}

func hasAt(raw []byte, i int, lit string) bool {
	return len(raw)-i >= len(lit) && string(raw[i:i+len(lit)]) == lit
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// normalise replaces json.Number by int64 or float64, recursively.
func normalise(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = normalise(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalise(e)
		}
	}
	return v
}

// Readings turns points back into readings (EncodeValues). Values that
// JSON cannot hold (a NaN or an infinity a computation produced) are left
// out.
func Readings(points []Point) ([]Reading, error) {
	out := make([]Reading, len(points))
	var keys []string
	for i, p := range points {
		raw, err := encodeValues(p.Values, keys[:0])
		if err != nil {
			return nil, fmt.Errorf("encode reading of asset %q: %w", p.Asset, err)
		}
		out[i] = Reading{Asset: p.Asset, Timestamp: p.Timestamp, Values: raw}
	}
	return out, nil
}

// encodeValues encodes values as a JSON object with sorted keys (as
// encoding/json would), numbers and strings without reflection; keys is
// scratch space.
// EncodeValues encodes reading values as a JSON object, the way the
// pipeline hands readings on (non-finite numbers left out).
func EncodeValues(values map[string]any) (json.RawMessage, error) {
	return encodeValues(values, nil)
}

func encodeValues(values map[string]any, keys []string) (json.RawMessage, error) {
	for k, v := range values {
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			continue
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b := make([]byte, 0, 16*len(keys)+2)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendString(b, k); err != nil {
			return nil, err
		}
		b = append(b, ':')
		switch x := values[k].(type) {
		case int64:
			b = strconv.AppendInt(b, x, 10)
		case float64:
			b = appendFloat(b, x)
		case bool:
			b = strconv.AppendBool(b, x)
		case string:
			if b, err = appendString(b, x); err != nil {
				return nil, err
			}
		default:
			vb, err := json.Marshal(x)
			if err != nil {
				return nil, err
			}
			b = append(b, vb...)
		}
	}
	return append(b, '}'), nil
}

// appendString appends s as a JSON string, as encoding/json writes it:
// plain ASCII directly, anything needing an escape through encoding/json.
func appendString(b []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, err := json.Marshal(s)
			return append(b, q...), err
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

// appendFloat formats f as encoding/json does.
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
