package plugin

import (
	"fmt"
	"regexp"
	"time"
)

// ingestTime splits the timestamp forms ParseTimestamp accepts: date,
// separator, time of day, optional fraction, optional zone.
var ingestTime = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})([ T])(\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$`)

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
func ParseTimestamp(s string) (time.Time, error) {
	m := ingestTime.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, fmt.Errorf("timestamp %q is not of the form YYYY-MM-DD HH:MM:SS[.fff|.ffffff][+HH:MM] or RFC 3339", s)
	}
	date, sep, clock, frac, zone := m[1], m[2], m[3], m[4], m[5]
	if sep == "T" {
		if zone == "" {
			return time.Time{}, fmt.Errorf("timestamp %q has a T but no offset or Z (RFC 3339 requires one)", s)
		}
		if len(frac) > 9 {
			return time.Time{}, fmt.Errorf("timestamp %q has more than 9 fraction digits", s)
		}
	} else if frac != "" && len(frac) != 3 && len(frac) != 6 {
		return time.Time{}, fmt.Errorf("timestamp %q has %d fraction digits; want none, 3 or 6", s, len(frac))
	}
	if zone == "" {
		zone = "Z"
	}
	norm := date + "T" + clock
	if frac != "" {
		norm += "." + frac
	}
	t, err := time.Parse(time.RFC3339Nano, norm+zone)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q is not a valid date and time", s)
	}
	return t.UTC().Truncate(time.Microsecond), nil
}
