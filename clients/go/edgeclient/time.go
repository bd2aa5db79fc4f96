package edgeclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Time is a timestamp of the API, which the gateway writes in UTC as
// "YYYY-MM-DD HH:MM:SS.fff" (audit, tasks, statistics) or with six fraction
// digits (readings, asset tracking). It embeds time.Time, so t.Before,
// t.Format and the rest apply; t.Time is the plain value.
type Time struct {
	time.Time
}

// TimeLayout is the layout of the gateway's timestamps (six fraction
// digits; the gateway also writes three).
const TimeLayout = "2006-01-02 15:04:05.000000"

// parseLayouts are the forms UnmarshalJSON accepts: the gateway's, with any
// number of fraction digits, then RFC 3339.
var parseLayouts = []string{"2006-01-02 15:04:05.999999999", time.RFC3339Nano}

// ParseTime parses a timestamp as the gateway writes it (UTC, no offset),
// or an RFC 3339 one.
func ParseTime(s string) (Time, error) {
	for _, layout := range parseLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return Time{t.UTC()}, nil
		}
	}
	return Time{}, fmt.Errorf("edged: timestamp %q is not YYYY-MM-DD HH:MM:SS.fff", s)
}

// UnmarshalJSON decodes a timestamp string; null leaves t unchanged.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("edged: a timestamp must be a string, got %s", b)
	}
	p, err := ParseTime(s)
	if err != nil {
		return err
	}
	*t = p
	return nil
}

// MarshalJSON encodes t in the gateway's form, in UTC.
func (t Time) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.String())
}

// String renders t as the gateway does, in UTC with six fraction digits.
func (t Time) String() string {
	return t.UTC().Format(TimeLayout)
}
