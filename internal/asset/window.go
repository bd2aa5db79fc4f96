package asset

import (
	"strings"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
)

// Window checks q against the query rules of the API and returns the
// storage window it selects:
//
//   - seconds, minutes and hours exclude each other, limit and skip;
//   - previous needs one of them;
//   - limit is 1..MaxLimit (default DefaultLimit), skip ≥ 0 (default 0),
//     seconds, minutes and hours ≥ 1, previous ≥ 0.
//
// A time window of N units with previous P covers [now−(N+P)·unit,
// now−P·unit); without previous (or with 0) it has no upper bound, so
// readings stamped slightly ahead of the gateway's clock are included. A
// broken rule gives a fault.Invalid naming the parameters.
func (s *Service) Window(q Query) (db.Window, error) {
	type param struct {
		name string
		v    *int
		min  int
	}
	for _, p := range []param{
		{"limit", q.Limit, 1}, {"skip", q.Skip, 0}, {"seconds", q.Seconds, 1},
		{"minutes", q.Minutes, 1}, {"hours", q.Hours, 1}, {"previous", q.Previous, 0},
	} {
		if p.v != nil && *p.v < p.min {
			return db.Window{}, fault.New(fault.Invalid, "query parameter %s is %d; it must be at least %d", p.name, *p.v, p.min)
		}
	}
	if q.Limit != nil && *q.Limit > MaxLimit {
		return db.Window{}, fault.New(fault.Invalid, "query parameter limit is %d; it must be at most %d", *q.Limit, MaxLimit)
	}

	type unit struct {
		name string
		v    *int
		d    time.Duration
	}
	var set []unit
	for _, u := range []unit{{"seconds", q.Seconds, time.Second}, {"minutes", q.Minutes, time.Minute}, {"hours", q.Hours, time.Hour}} {
		if u.v != nil {
			set = append(set, u)
		}
	}
	switch {
	case len(set) > 1:
		names := make([]string, len(set))
		for i, u := range set {
			names[i] = u.name
		}
		return db.Window{}, fault.New(fault.Invalid, "query parameters %s exclude each other: give only one", strings.Join(names, " and "))
	case len(set) == 1 && q.Limit != nil:
		return db.Window{}, fault.New(fault.Invalid, "query parameter %s cannot be combined with limit", set[0].name)
	case len(set) == 1 && q.Skip != nil:
		return db.Window{}, fault.New(fault.Invalid, "query parameter %s cannot be combined with skip", set[0].name)
	case len(set) == 0 && q.Previous != nil:
		return db.Window{}, fault.New(fault.Invalid, "query parameter previous needs seconds, minutes or hours")
	case len(set) == 0:
		return db.Window{Limit: valueOr(q.Limit, DefaultLimit), Skip: valueOr(q.Skip, 0)}, nil
	}

	u := set[0]
	now := s.clock.Now().UTC().Truncate(time.Microsecond)
	var w db.Window
	end := now
	if p := valueOr(q.Previous, 0); p > 0 {
		end = now.Add(-span(p, u.d))
		w.To = end
	}
	w.From = end.Add(-span(*u.v, u.d))
	return w, nil
}

// span returns n units, capped at maxSpan.
func span(n int, unit time.Duration) time.Duration {
	if int64(n) > int64(maxSpan/unit) {
		return maxSpan
	}
	return time.Duration(n) * unit
}

func valueOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
