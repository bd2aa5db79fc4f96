package notify

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// rule is a rule plugin's instance. Its methods are called with Engine.mu
// held, never concurrently; value, seen and statistics run on the callers'
// goroutines and must not allocate.
type rule interface {
	// watches says what the rule is evaluated on.
	watches() watches
	// start is called once when the instance is created.
	start(now time.Time)
	// value evaluates a datapoint's value received at now; known is false
	// when the rule cannot tell yet.
	value(now time.Time, v float64) (cond, known bool)
	// seen evaluates the arrival at now of a watched asset or audit code.
	seen(now time.Time) bool
	// statistics evaluates a snapshot of the statistics counters.
	statistics(at time.Time, counters map[string]int64) (cond, known bool)
	// tick evaluates the rule's timers at now; changed is false when
	// nothing changed since the last evaluation.
	tick(now time.Time) (cond, changed bool)
	// deadline returns when tick has something to do next.
	deadline() (time.Time, bool)
	// reason explains the last evaluation, for a triggered or a cleared
	// notification; it may allocate.
	reason(triggered bool) string
}

// watches is what a rule is evaluated on.
type watches struct {
	points    []assetPoint // datapoints of assets (value)
	assets    []string     // any reading of these assets (seen)
	audit     []string     // audit codes (seen)
	statistic bool         // statistics snapshots
}

type assetPoint struct{ asset, point string }

// noRule gives the methods a rule does not use.
type noRule struct{}

func (noRule) start(time.Time)                                     {}
func (noRule) value(time.Time, float64) (bool, bool)               { return false, false }
func (noRule) seen(time.Time) bool                                 { return false }
func (noRule) statistics(time.Time, map[string]int64) (bool, bool) { return false, false }
func (noRule) tick(time.Time) (bool, bool)                         { return false, false }
func (noRule) deadline() (time.Time, bool)                         { return time.Time{}, false }

// Rule plugin names.
const (
	RuleThreshold        = "threshold"
	RuleOutOfBound       = "outofbound"
	RuleDataAvailability = "data_availability"
	RuleStatistic        = "statistic"
)

// Conditions of threshold and statistic.
var conditions = []string{">", ">=", "<", "<=", "==", "!="}

type condition struct {
	op    string
	limit float64
}

func (c condition) holds(v float64) bool {
	switch c.op {
	case ">":
		return v > c.limit
	case ">=":
		return v >= c.limit
	case "<":
		return v < c.limit
	case "<=":
		return v <= c.limit
	case "==":
		return v == c.limit
	case "!=":
		return v != c.limit
	}
	return false
}

// Aggregates of a window.
const (
	aggMin     = "min"
	aggMax     = "max"
	aggAverage = "average"
)

func init() {
	evaluation := Item{Description: "single: each reading is compared; window: an aggregate of the readings received within the window",
		Type: typeEnum, Options: []string{"single", "window"}, Default: "single", DisplayName: "Evaluation", Order: "5"}
	window := Item{Description: "Seconds of readings the window holds, by the time they reached the gateway",
		Type: typeInteger, Default: "60", DisplayName: "Window (s)", Order: "7", Minimum: "1", Maximum: "86400"}
	registerRule(RuleThreshold, "Triggers when a datapoint (or its minimum, maximum or average over a window) meets a condition",
		map[string]Item{
			"asset":      {Description: "The asset", Type: typeString, DisplayName: "Asset", Order: "1", Mandatory: "true"},
			"datapoint":  {Description: "The datapoint of the asset", Type: typeString, DisplayName: "Datapoint", Order: "2", Mandatory: "true"},
			"condition":  {Description: "The comparison of the value with the limit", Type: typeEnum, Options: conditions, Default: ">", DisplayName: "Condition", Order: "3"},
			"value":      {Description: "The limit", Type: typeFloat, Default: "0", DisplayName: "Value", Order: "4", Mandatory: "true"},
			"evaluation": evaluation,
			"aggregate": {Description: "What of the window is compared", Type: typeEnum, Options: []string{aggMin, aggMax, aggAverage},
				Default: aggAverage, DisplayName: "Aggregate", Order: "6"},
			"window": window,
		}, newThreshold)
	registerRule(RuleOutOfBound, "Triggers when a datapoint (or its average over a window) is outside a range",
		map[string]Item{
			"asset":      {Description: "The asset", Type: typeString, DisplayName: "Asset", Order: "1", Mandatory: "true"},
			"datapoint":  {Description: "The datapoint of the asset", Type: typeString, DisplayName: "Datapoint", Order: "2", Mandatory: "true"},
			"low":        {Description: "The lowest value in range", Type: typeFloat, DisplayName: "Low", Order: "3", Mandatory: "true"},
			"high":       {Description: "The highest value in range", Type: typeFloat, DisplayName: "High", Order: "4", Mandatory: "true"},
			"evaluation": evaluation,
			"window":     window,
		}, newOutOfBound)
	registerRule(RuleDataAvailability, "Triggers when an asset's readings or an audit code are seen, or not seen within a time",
		map[string]Item{
			"asset":     {Description: "The asset; empty: none (then an audit code is needed)", Type: typeString, DisplayName: "Asset", Order: "1"},
			"auditCode": {Description: "The audit code (e.g. SRVFL); empty: none", Type: typeString, DisplayName: "Audit code", Order: "2"},
			"mode": {Description: "seen: true while something was seen within the time; notSeen: true when nothing was",
				Type: typeEnum, Options: []string{"seen", "notSeen"}, Default: "seen", DisplayName: "Mode", Order: "3"},
			"within": {Description: "Seconds", Type: typeInteger, Default: "60", DisplayName: "Within (s)", Order: "4", Minimum: "1", Maximum: "604800"},
		}, newDataAvailability)
	registerRule(RuleStatistic, "Triggers when a statistics counter's rate per period meets a condition",
		map[string]Item{
			"statistic": {Description: "The statistics key (e.g. READINGS)", Type: typeString, DisplayName: "Statistic", Order: "1", Mandatory: "true"},
			"period":    {Description: "Seconds the rate is per, and measured over", Type: typeInteger, Default: "60", DisplayName: "Period (s)", Order: "2", Minimum: "1", Maximum: "86400"},
			"condition": {Description: "The comparison of the rate with the limit", Type: typeEnum, Options: conditions, Default: ">", DisplayName: "Condition", Order: "3"},
			"value":     {Description: "The limit", Type: typeFloat, Default: "0", DisplayName: "Value", Order: "4", Mandatory: "true"},
		}, newStatistic)
}

// point is a datapoint evaluated one reading at a time or over a window.
type point struct {
	asset, point string
	win          *window // nil: single
	last         float64 // the value or aggregate last evaluated
}

func newPoint(c config, agg string) point {
	p := point{asset: c["asset"], point: c["datapoint"]}
	if c["evaluation"] == "window" {
		p.win = &window{span: c.seconds("window"), agg: agg}
	}
	return p
}

func (p *point) watches() watches {
	return watches{points: []assetPoint{{p.asset, p.point}}}
}

// add takes v received at now and returns the value to compare.
func (p *point) add(now time.Time, v float64) float64 {
	if p.win != nil {
		p.win.add(now, v)
		v = p.win.aggregate()
	}
	p.last = v
	return v
}

// expire drops what left the window by now; empty is true when nothing is
// left and changed when something left.
func (p *point) expire(now time.Time) (empty, changed bool) {
	if p.win == nil || !p.win.expire(now) {
		return false, false
	}
	if p.win.len() == 0 {
		return true, true
	}
	p.last = p.win.aggregate()
	return false, true
}

func (p *point) deadline() (time.Time, bool) {
	if p.win == nil || p.win.len() == 0 {
		return time.Time{}, false
	}
	return p.win.oldest().Add(p.win.span), true
}

func (p *point) describe() string {
	if p.win == nil {
		return fmt.Sprintf("%s.%s = %g", p.asset, p.point, p.last)
	}
	return fmt.Sprintf("%s of %s.%s over %s = %g", p.win.agg, p.asset, p.point, p.win.span, p.last)
}

type threshold struct {
	noRule
	point
	cond condition
}

func newThreshold(c config) (rule, error) {
	return &threshold{point: newPoint(c, c["aggregate"]), cond: condition{op: c["condition"], limit: c.float("value")}}, nil
}

func (t *threshold) value(now time.Time, v float64) (bool, bool) {
	return t.cond.holds(t.add(now, v)), true
}

func (t *threshold) tick(now time.Time) (bool, bool) {
	empty, changed := t.expire(now)
	return !empty && t.cond.holds(t.last), changed
}

func (t *threshold) deadline() (time.Time, bool) { return t.point.deadline() }

func (t *threshold) reason(triggered bool) string {
	if !triggered && t.win != nil && t.win.len() == 0 {
		return fmt.Sprintf("no reading of %s.%s within %s", t.asset, t.point.point, t.win.span)
	}
	if triggered {
		return fmt.Sprintf("%s %s %g", t.describe(), t.cond.op, t.cond.limit)
	}
	return fmt.Sprintf("%s, no longer %s %g", t.describe(), t.cond.op, t.cond.limit)
}

type outOfBound struct {
	noRule
	point
	low, high float64
}

func newOutOfBound(c config) (rule, error) {
	o := &outOfBound{point: newPoint(c, aggAverage), low: c.float("low"), high: c.float("high")}
	if o.low > o.high {
		return nil, fmt.Errorf("low %g is above high %g", o.low, o.high)
	}
	return o, nil
}

func (o *outOfBound) out(v float64) bool { return v < o.low || v > o.high }

func (o *outOfBound) value(now time.Time, v float64) (bool, bool) { return o.out(o.add(now, v)), true }

func (o *outOfBound) tick(now time.Time) (bool, bool) {
	empty, changed := o.expire(now)
	return !empty && o.out(o.last), changed
}

func (o *outOfBound) deadline() (time.Time, bool) { return o.point.deadline() }

func (o *outOfBound) reason(triggered bool) string {
	if !triggered && o.win != nil && o.win.len() == 0 {
		return fmt.Sprintf("no reading of %s.%s within %s", o.asset, o.point.point, o.win.span)
	}
	if triggered {
		return fmt.Sprintf("%s, outside [%g, %g]", o.describe(), o.low, o.high)
	}
	return fmt.Sprintf("%s, back within [%g, %g]", o.describe(), o.low, o.high)
}

// dataAvailability is true in mode seen while its asset or audit code was
// seen within the time, and in mode notSeen while neither was (counted from
// the instance's creation until the first).
type dataAvailability struct {
	noRule
	asset, code string
	notSeen     bool
	within      time.Duration
	since       time.Time // the last sighting, or the creation
	sighted     bool      // since is a sighting
	cond        bool
}

func newDataAvailability(c config) (rule, error) {
	d := &dataAvailability{asset: c["asset"], code: c["auditCode"], notSeen: c["mode"] == "notSeen", within: c.seconds("within")}
	if d.asset == "" && d.code == "" {
		return nil, fmt.Errorf("give an asset, an audit code or both")
	}
	return d, nil
}

func (d *dataAvailability) watches() watches {
	var w watches
	if d.asset != "" {
		w.assets = []string{d.asset}
	}
	if d.code != "" {
		w.audit = []string{d.code}
	}
	return w
}

func (d *dataAvailability) start(now time.Time) { d.since = now }

func (d *dataAvailability) seen(now time.Time) bool {
	d.since, d.sighted = now, true
	d.cond = !d.notSeen
	return d.cond
}

func (d *dataAvailability) tick(now time.Time) (bool, bool) {
	quiet := !now.Before(d.since.Add(d.within)) // nothing seen within the time
	var cond bool
	if d.notSeen {
		cond = quiet
	} else {
		cond = d.sighted && !quiet
	}
	changed := cond != d.cond
	d.cond = cond
	return cond, changed
}

func (d *dataAvailability) deadline() (time.Time, bool) {
	if d.cond != d.notSeen { // seen and true, or notSeen and false: the time may run out
		return d.since.Add(d.within), true
	}
	return time.Time{}, false
}

func (d *dataAvailability) what() string {
	var parts []string
	if d.asset != "" {
		parts = append(parts, "asset "+d.asset)
	}
	if d.code != "" {
		parts = append(parts, "audit code "+d.code)
	}
	return strings.Join(parts, " or ")
}

func (d *dataAvailability) reason(triggered bool) string {
	if triggered == d.notSeen {
		return fmt.Sprintf("nothing of %s seen within %s", d.what(), d.within)
	}
	return fmt.Sprintf("%s seen", d.what())
}

// statistic compares the rate of a statistics counter per period,
// measured over the snapshots of the last period.
type statistic struct {
	noRule
	key     string
	period  time.Duration
	cond    condition
	samples []sample // oldest first: the one at or before a period ago, then newer
	rate    float64
}

type sample struct {
	t time.Time
	v float64
}

func newStatistic(c config) (rule, error) {
	return &statistic{key: c["statistic"], period: c.seconds("period"), cond: condition{op: c["condition"], limit: c.float("value")}}, nil
}

func (s *statistic) watches() watches { return watches{statistic: true} }

func (s *statistic) statistics(at time.Time, counters map[string]int64) (bool, bool) {
	n, ok := counters[s.key]
	if !ok {
		return false, false
	}
	v := float64(n)
	if k := len(s.samples); k > 0 && (v < s.samples[k-1].v || !at.After(s.samples[k-1].t)) {
		s.samples = s.samples[:0] // the counter was reset, or time went back: measure afresh
	}
	s.samples = append(s.samples, sample{at, v})
	drop := 0
	for drop+1 < len(s.samples) && !s.samples[drop+1].t.After(at.Add(-s.period)) {
		drop++
	}
	if drop > 0 {
		s.samples = append(s.samples[:0], s.samples[drop:]...)
	}
	first := s.samples[0]
	if len(s.samples) < 2 {
		return false, false
	}
	s.rate = (v - first.v) / at.Sub(first.t).Seconds() * s.period.Seconds()
	return s.cond.holds(s.rate), true
}

func (s *statistic) reason(triggered bool) string {
	r := math.Round(s.rate*1000) / 1000
	if triggered {
		return fmt.Sprintf("%s rose by %g per %s, %s %g", s.key, r, s.period, s.cond.op, s.cond.limit)
	}
	return fmt.Sprintf("%s rose by %g per %s, no longer %s %g", s.key, r, s.period, s.cond.op, s.cond.limit)
}

// window holds what its aggregate needs of the values received within
// span, oldest first: every value for the average (with their sum), and
// for the minimum (maximum) the values no later value is below (above), a
// monotonic queue whose front is the aggregate. Each value is added and
// dropped once: no rescans.
type window struct {
	span time.Duration
	agg  string
	s    []sample
	head int // s[head:] are in the window
	sum  float64
}

// len is 0 exactly when nothing was received within span: the newest
// value is always kept.
func (w *window) len() int { return len(w.s) - w.head }

// oldest is when the front value leaves, changing the aggregate.
func (w *window) oldest() time.Time { return w.s[w.head].t }

func (w *window) add(now time.Time, v float64) {
	w.expire(now)
	switch w.agg {
	case aggMin:
		for w.len() > 0 && w.s[len(w.s)-1].v >= v {
			w.s = w.s[:len(w.s)-1]
		}
	case aggMax:
		for w.len() > 0 && w.s[len(w.s)-1].v <= v {
			w.s = w.s[:len(w.s)-1]
		}
	default:
		w.sum += v
	}
	if w.head > 0 && w.head >= len(w.s)/2 { // reuse the slice's front instead of growing it
		n := copy(w.s, w.s[w.head:])
		w.s, w.head = w.s[:n], 0
		if w.agg == aggAverage { // summed again, so rounding errors do not pile up
			w.sum = v
			for _, x := range w.s {
				w.sum += x.v
			}
		}
	}
	w.s = append(w.s, sample{now, v})
}

// expire drops the values received span or longer before now and tells
// whether any were.
func (w *window) expire(now time.Time) bool {
	cut := now.Add(-w.span)
	start := w.head
	for w.head < len(w.s) && !w.s[w.head].t.After(cut) {
		if w.agg == aggAverage {
			w.sum -= w.s[w.head].v
		}
		w.head++
	}
	if w.head == start {
		return false
	}
	if w.len() == 0 {
		w.s, w.head, w.sum = w.s[:0], 0, 0
	}
	return true
}

func (w *window) aggregate() float64 {
	if w.agg == aggAverage {
		return w.sum / float64(w.len())
	}
	return w.s[w.head].v
}
