package plugin

import (
	"encoding/json"
	"math"
	"strconv"
)

// Tidy rounds f to 15 significant digits, the most a float64 always holds
// exactly in decimal, so that arithmetic on readings (217 × 0.1) gives the
// number a person expects (21.7, not 21.700000000000003). NaN and the
// infinities are returned unchanged.
func Tidy(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	if err != nil {
		return f
	}
	return v
}

// Number returns v, a value of a reading or of a write, as a float64 when
// it is a number: any Go integer or floating-point type, or a json.Number
// that parses. Anything else, a boolean included, is not a number: a
// filter does not scale a flag, an OPC UA Double takes no boolean.
func Number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint8:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// NumberOrBool is Number that also takes a boolean as true 1 and false 0:
// for a Modbus coil, or a threshold rule over a flag.
func NumberOrBool(v any) (float64, bool) {
	if b, ok := v.(bool); ok {
		if b {
			return 1, true
		}
		return 0, true
	}
	return Number(v)
}
