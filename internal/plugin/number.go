package plugin

import (
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
