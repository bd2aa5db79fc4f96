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
		{name: "leap day", in: "2024-02-29T10:15:42Z", want: time.Date(2024, 2, 29, 10, 15, 42, 0, time.UTC)},
		{name: "offset with minutes", in: "2024-05-01 15:45:42+05:30", want: utc(0)},

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
		{name: "dot without digits", in: "2024-05-01 10:15:42.", bad: true},
		{name: "February 29 of a common year", in: "2023-02-29 10:00:00", bad: true},
		{name: "second 60", in: "2024-05-01 10:15:60", bad: true},
		{name: "offset hour 24", in: "2024-05-01 10:15:42+24:00", bad: true},
		{name: "offset minute 60", in: "2024-05-01 10:15:42+01:60", bad: true},
		{name: "sign in a field", in: "2024-+5-01 10:15:42", bad: true},
		{name: "lower-case t", in: "2024-05-01t10:15:42Z", bad: true},
		{name: "text after the zone", in: "2024-05-01T10:15:42Zx", bad: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseTimestamp(c.in)
			if b, berr := ParseTimestampBytes([]byte(c.in)); !b.Equal(got) || (berr == nil) != (err == nil) {
				t.Errorf("ParseTimestampBytes(%q) = %v, %v; ParseTimestamp = %v, %v", c.in, b, berr, got, err)
			}
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

// BenchmarkParseTimestamp measures the parse of one reading's timestamp,
// which ingest does once per reading.
func BenchmarkParseTimestamp(b *testing.B) {
	in := []byte("2024-05-01 10:15:42.123456")
	for b.Loop() {
		if _, err := ParseTimestampBytes(in); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDaysSinceEpoch compares the calendar arithmetic with time.Date on
// every day of the years the timestamp form can hold at its edges and
// around the epoch.
func TestDaysSinceEpoch(t *testing.T) {
	for _, span := range [][2]int{{0, 3}, {1599, 1601}, {1899, 1901}, {1968, 1973}, {1999, 2001}, {2099, 2101}, {9997, 9999}} {
		for y := span[0]; y <= span[1]; y++ {
			for m := 1; m <= 12; m++ {
				if got, want := daysIn(m, y), time.Date(y, time.Month(m+1), 0, 0, 0, 0, 0, time.UTC).Day(); got != want {
					t.Fatalf("daysIn(%d, %d) = %d, want %d", m, y, got, want)
				}
				for d := 1; d <= daysIn(m, y); d++ {
					want := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400
					if got := daysSinceEpoch(y, m, d); got != want {
						t.Fatalf("daysSinceEpoch(%d, %d, %d) = %d, want %d", y, m, d, got, want)
					}
				}
			}
		}
	}
}
