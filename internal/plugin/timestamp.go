package plugin

import (
	"fmt"
	"time"
)

// ParseTimestamp parses a reading's timestamp as ingest accepts it
// (decisions §1) and returns it in UTC, truncated to the microsecond that
// storage keeps:
//
//   - the API's form `YYYY-MM-DD HH:MM:SS` with no fraction or one of 3 or
//     6 digits, in UTC unless followed by an offset such as `+00:00` (or
//     `Z`);
//   - RFC 3339 with `T`, any fraction of 1 to 9 digits, and an offset or
//     `Z`, which RFC 3339 requires.
//
// The error names what is wrong with s.
func ParseTimestamp(s string) (time.Time, error) { return parseTimestamp(s) }

// ParseTimestampBytes is ParseTimestamp for text still in a request
// buffer, so the hot path converts nothing to a string.
func ParseTimestampBytes(b []byte) (time.Time, error) { return parseTimestamp(b) }

// parseTimestamp reads the fixed-width fields by position: ingest parses one
// timestamp per reading, and this costs a fraction of a regular expression
// or of time.Parse.
func parseTimestamp[T string | []byte](s T) (time.Time, error) {
	form := func() error {
		return fmt.Errorf("timestamp %q is not of the form YYYY-MM-DD HH:MM:SS[.fff|.ffffff][+HH:MM] or RFC 3339", string(s))
	}
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':' {
		return time.Time{}, form()
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		return time.Time{}, form()
	}
	rest := s[19:]
	nanos, fracDigits := 0, 0
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			if fracDigits < 9 {
				nanos = nanos*10 + int(rest[i]-'0')
			}
			fracDigits++
		}
		if fracDigits == 0 {
			return time.Time{}, form()
		}
		for k := fracDigits; k < 9; k++ {
			nanos *= 10
		}
		rest = rest[i:]
	}
	offset, zoned := 0, true
	switch {
	case len(rest) == 0:
		zoned = false
	case len(rest) == 1 && rest[0] == 'Z':
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3])
		om, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return time.Time{}, fmt.Errorf("timestamp %q is not a valid date and time", string(s))
		}
		offset = (oh*60 + om) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, form()
	}
	if s[10] == 'T' {
		if !zoned {
			return time.Time{}, fmt.Errorf("timestamp %q has a T but no offset or Z (RFC 3339 requires one)", string(s))
		}
		if fracDigits > 9 {
			return time.Time{}, fmt.Errorf("timestamp %q has more than 9 fraction digits", string(s))
		}
	} else if fracDigits != 0 && fracDigits != 3 && fracDigits != 6 {
		return time.Time{}, fmt.Errorf("timestamp %q has %d fraction digits; want none, 3 or 6", string(s), fracDigits)
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, fmt.Errorf("timestamp %q is not a valid date and time", string(s))
	}
	unix := daysSinceEpoch(year, month, day)*86400 + int64(hour*3600+minute*60+sec-offset)
	return time.Unix(unix, int64(nanos-nanos%1000)).UTC(), nil
}

// digits returns the decimal value of s, which must be all ASCII digits.
func digits[T string | []byte](s T) (int, bool) {
	n := 0
	for i := range len(s) {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int(c)
	}
	return n, true
}

// daysIn returns the number of days of month m (1–12) in year y, in the
// proleptic Gregorian calendar time.Date uses.
func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysSinceEpoch returns the days from 1970-01-01 to the date y-m-d
// (proleptic Gregorian; y ≥ 0), by the days-from-civil algorithm: years
// counted from March, so the leap day ends a year.
func daysSinceEpoch(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400 // [0, 399]
	mp := (m + 9) % 12 // March = 0
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}
