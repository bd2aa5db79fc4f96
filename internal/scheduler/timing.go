package scheduler

import (
	"time"

	"github.com/edged/edged/db"
)

// isoWeekday returns t's weekday, 1 (Monday) to 7 (Sunday).
func isoWeekday(t time.Time) int { return (int(t.Weekday())+6)%7 + 1 }

// nextTimed returns the first time strictly after after that is tod
// seconds past midnight UTC, on weekday day (1..7) or any day when day is
// nil.
func nextTimed(after time.Time, tod int, day *int) time.Time {
	u := after.UTC()
	midnight := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	for i := 0; i <= 8; i++ {
		d := midnight.AddDate(0, 0, i)
		at := d.Add(time.Duration(tod) * time.Second)
		if !at.After(after) || day != nil && isoWeekday(d) != *day {
			continue
		}
		return at
	}
	return time.Time{} // unreachable for tod in 0..86399 and day in 1..7
}

// firstRun returns when a schedule armed at now first runs; the zero time
// when the scheduler does not run it by itself (disabled, MANUAL, and
// STARTUP, which is the service runtime's). An INTERVAL schedule runs at
// once, a TIMED one at its next time of day (now included).
func firstRun(s db.Schedule, now time.Time) time.Time {
	if !s.Enabled {
		return time.Time{}
	}
	switch s.Type {
	case db.ScheduleInterval:
		return now
	case db.ScheduleTimed:
		if s.TimeOfDay == nil {
			return time.Time{}
		}
		return nextTimed(now.Add(-time.Nanosecond), *s.TimeOfDay, s.Day)
	}
	return time.Time{}
}

// resumeRun returns when a schedule found at start first runs: an
// INTERVAL schedule one interval after now, the others as firstRun says.
func resumeRun(s db.Schedule, now time.Time) time.Time {
	if s.Enabled && s.Type == db.ScheduleInterval && s.RepeatSeconds > 0 {
		return now.Add(time.Duration(s.RepeatSeconds) * time.Second)
	}
	return firstRun(s, now)
}

// nextRun returns the run after the one due at due, as seen at now: an
// INTERVAL schedule keeps its cadence (due plus whole intervals, skipping
// those already past), a TIMED one goes to its next time of day after
// both. Other types have no next run.
func nextRun(s db.Schedule, due, now time.Time) time.Time {
	switch s.Type {
	case db.ScheduleInterval:
		if s.RepeatSeconds <= 0 {
			return time.Time{}
		}
		every := time.Duration(s.RepeatSeconds) * time.Second
		next := due.Add(every)
		if !next.After(now) {
			next = next.Add(every * (now.Sub(next)/every + 1))
		}
		return next
	case db.ScheduleTimed:
		if s.TimeOfDay == nil {
			return time.Time{}
		}
		after := due
		if now.After(after) {
			after = now
		}
		return nextTimed(after, *s.TimeOfDay, s.Day)
	}
	return time.Time{}
}
