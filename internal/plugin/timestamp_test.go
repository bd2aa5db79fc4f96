package plugin

import (
	"testing"
	"time"
)

func TestParseTimestamp(t *testing.T) {
	utc := func(ns int) time.Time { return time.Date(2024, 5, 1, 10, 15, 42, ns, time.UTC) }
	cases := []struct {
		name string
		in   string
		want time.Time
		bad  bool
	}{
		{name: "spec form, no fraction", in: "2024-05-01 10:15:42", want: utc(0)},
		{name: "spec form, milliseconds", in: "2024-05-01 10:15:42.123", want: utc(123000000)},
		{name: "spec form, microseconds", in: "2024-05-01 10:15:42.123456", want: utc(123456000)},
		{name: "spec form, zero offset", in: "2024-05-01 10:15:42.123456+00:00", want: utc(123456000)},
		{name: "spec form, positive offset", in: "2024-05-01 12:15:42.123+02:00", want: utc(123000000)},
		{name: "spec form, negative offset", in: "2024-05-01 05:15:42-05:00", want: utc(0)},
		{name: "spec form, Z", in: "2024-05-01 10:15:42Z", want: utc(0)},
		{name: "RFC 3339 Z", in: "2024-05-01T10:15:42Z", want: utc(0)},
		{name: "RFC 3339 offset", in: "2024-05-01T11:15:42.5+01:00", want: utc(500000000)},
		{name: "RFC 3339 nanoseconds truncated", in: "2024-05-01T10:15:42.123456789Z", want: utc(123456000)},
		{name: "offset crosses midnight", in: "2024-05-02 01:15:42+15:00", want: utc(0)},

		{name: "empty", in: "", bad: true},
		{name: "date only", in: "2024-05-01", bad: true},
		{name: "one fraction digit in spec form", in: "2024-05-01 10:15:42.1", bad: true},
		{name: "nine fraction digits in spec form", in: "2024-05-01 10:15:42.123456789", bad: true},
		{name: "RFC 3339 without zone", in: "2024-05-01T10:15:42", bad: true},
		{name: "ten fraction digits", in: "2024-05-01T10:15:42.1234567891Z", bad: true},
		{name: "month 13", in: "2024-13-01 10:15:42", bad: true},
		{name: "hour 24", in: "2024-05-01 24:00:00", bad: true},
		{name: "February 30", in: "2024-02-30 10:00:00", bad: true},
		{name: "offset without colon", in: "2024-05-01 10:15:42+0000", bad: true},
		{name: "trailing space", in: "2024-05-01 10:15:42 ", bad: true},
		{name: "slashes", in: "2024/05/01 10:15:42", bad: true},
		{name: "epoch number", in: "1714558542", bad: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseTimestamp(c.in)
			if c.bad {
				if err == nil {
					t.Fatalf("ParseTimestamp(%q) = %v, want an error", c.in, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseTimestamp(%q): %v", c.in, err)
			}
			if !got.Equal(c.want) || got.Location() != time.UTC {
				t.Errorf("ParseTimestamp(%q) = %v, want %v in UTC", c.in, got, c.want)
			}
		})
	}
}
