package scheduler

import (
	"testing"
	"time"

	"github.com/edged/edged/db"
)

func ptr[T any](v T) *T { return &v }

// monday is a Monday, 00:30 UTC.
var monday = time.Date(2024, 5, 6, 0, 30, 0, 0, time.UTC)

func TestNextTimed(t *testing.T) {
	tests := []struct {
		name  string
		after time.Time
		tod   int
		day   *int
		want  time.Time
	}{
		{name: "later today", after: monday, tod: 3600, want: time.Date(2024, 5, 6, 1, 0, 0, 0, time.UTC)},
		{name: "tomorrow when passed", after: monday, tod: 0, want: time.Date(2024, 5, 7, 0, 0, 0, 0, time.UTC)},
		{name: "strictly after", after: time.Date(2024, 5, 6, 1, 0, 0, 0, time.UTC), tod: 3600,
			want: time.Date(2024, 5, 7, 1, 0, 0, 0, time.UTC)},
		{name: "on a weekday this week", after: monday, tod: 3600, day: ptr(3), want: time.Date(2024, 5, 8, 1, 0, 0, 0, time.UTC)},
		{name: "on today's weekday", after: monday, tod: 3600, day: ptr(1), want: time.Date(2024, 5, 6, 1, 0, 0, 0, time.UTC)},
		{name: "on today's weekday, passed", after: monday, tod: 60, day: ptr(1), want: time.Date(2024, 5, 13, 0, 1, 0, 0, time.UTC)},
		{name: "sunday", after: monday, tod: 86399, day: ptr(7), want: time.Date(2024, 5, 12, 23, 59, 59, 0, time.UTC)},
		{name: "other time zones count in UTC", after: monday.In(time.FixedZone("UTC+10", 10*3600)), tod: 3600,
			want: time.Date(2024, 5, 6, 1, 0, 0, 0, time.UTC)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := nextTimed(tc.after, tc.tod, tc.day); !got.Equal(tc.want) {
				t.Errorf("nextTimed = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFirstAndNextRun(t *testing.T) {
	interval := db.Schedule{Type: db.ScheduleInterval, RepeatSeconds: 10, Enabled: true}
	timed := db.Schedule{Type: db.ScheduleTimed, TimeOfDay: ptr(1800), Enabled: true}
	tests := []struct {
		name      string
		s         db.Schedule
		due, now  time.Time
		wantFirst time.Time
		wantNext  time.Time
	}{
		{name: "interval runs at once and keeps its cadence", s: interval, due: monday, now: monday.Add(time.Second),
			wantFirst: monday.Add(time.Second), wantNext: monday.Add(10 * time.Second)},
		{name: "interval skips runs already past", s: interval, due: monday, now: monday.Add(35 * time.Second),
			wantFirst: monday.Add(35 * time.Second), wantNext: monday.Add(40 * time.Second)},
		{name: "interval on the cadence goes to the next", s: interval, due: monday, now: monday.Add(30 * time.Second),
			wantFirst: monday.Add(30 * time.Second), wantNext: monday.Add(40 * time.Second)},
		{name: "timed due now runs now", s: timed, due: monday, now: monday,
			wantFirst: monday, wantNext: monday.Add(24 * time.Hour)},
		{name: "disabled is not armed", s: db.Schedule{Type: db.ScheduleInterval, RepeatSeconds: 10}, due: monday, now: monday,
			wantNext: monday.Add(10 * time.Second)},
		{name: "manual is not armed", s: db.Schedule{Type: db.ScheduleManual, Enabled: true}, due: monday, now: monday},
		{name: "startup is the service runtime's", s: db.Schedule{Type: db.ScheduleStartup, Enabled: true}, due: monday, now: monday},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := firstRun(tc.s, tc.now); !got.Equal(tc.wantFirst) {
				t.Errorf("firstRun = %v, want %v", got, tc.wantFirst)
			}
			if got := nextRun(tc.s, tc.due, tc.now); !got.Equal(tc.wantNext) {
				t.Errorf("nextRun = %v, want %v", got, tc.wantNext)
			}
		})
	}
}
