package db

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// sumScale scales every value before it is added to a sum. A sum of
// float64 values overflows past about 1.8e308 (two readings of 1.7e308
// do); Σ value·2⁻⁶⁴ stays finite for any 2⁶⁴ finite values. Multiplying by
// a power of two is exact for every value whose magnitude is above 2⁻⁹⁵⁸
// (about 1e-288), so the scaled sum is the plain sum, to the same
// precision, for every value a sensor sends; only magnitudes below that
// lose low bits (and below 2⁻¹¹³⁸ vanish), which an average clamped to the
// minimum and maximum of its values never shows.
const sumScale = 0x1p-64

// agg aggregates numbers: how many, their scaled sum (see sumScale), their
// minimum and their maximum. The zero agg is empty. Every figure of the
// rollups, the summaries and the series is an agg, so there is one way of
// adding values and of taking an average.
type agg struct {
	count    int64
	sum      float64 // Σ value·sumScale
	min, max float64
}

// add adds v, which must be finite.
func (a *agg) add(v float64) {
	if a.count == 0 || v < a.min {
		a.min = v
	}
	if a.count == 0 || v > a.max {
		a.max = v
	}
	a.sum += v * sumScale
	a.count++
}

// merge adds every value aggregated in b.
func (a *agg) merge(b agg) {
	if b.count == 0 {
		return
	}
	if a.count == 0 || b.min < a.min {
		a.min = b.min
	}
	if a.count == 0 || b.max > a.max {
		a.max = b.max
	}
	a.sum += b.sum
	a.count += b.count
}

// mean returns the average of the values, 0 for none. It is always finite
// and within [min, max]: the unscaled average can round one step past the
// largest float64 when every value is near it, and the scaled sum loses
// the low bits of values below 1e-288, so the result is clamped.
func (a agg) mean() float64 {
	if a.count == 0 {
		return 0
	}
	m := a.sum / float64(a.count) / sumScale
	switch {
	case math.IsNaN(m):
		return a.min
	case m < a.min:
		return a.min
	case m > a.max:
		return a.max
	}
	return m
}

// summary returns a as a Summary.
func (a agg) summary() Summary {
	return Summary{Min: a.min, Max: a.max, Average: a.mean(), Count: a.count}
}

// finite returns v and whether it is a finite float64: only those are
// aggregated (a JSON number like 1e400 is a number float64 cannot hold).
func finite(v float64) (float64, bool) {
	return v, !math.IsInf(v, 0) && !math.IsNaN(v)
}

// parseNumber returns the float64 of the JSON number text b and whether it
// is one that float64 holds; any other text (a string, true, null, 1e400)
// is not.
func parseNumber(b []byte) (float64, bool) {
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, false
	}
	return finite(v)
}

// member is one top-level member of a reading document whose value is a
// number float64 holds.
type member struct {
	key   []byte // the key as it appears in the document, escapes and all
	value float64
	ok    bool // false: the key's value is not such a number
}

// numericMembers calls fn for every top-level member of the JSON object doc
// whose value is a JSON number that float64 holds, with the member's key
// unescaped; values of other types, and numbers beyond float64, are
// skipped. A key given more than once counts once, with its last value, as
// PostgreSQL keeps it. A doc that is not a JSON object calls nothing, and
// malformed JSON ends the walk where it breaks (ingest validates documents
// before they are stored). buf is scratch space that may be reused between
// calls; the key passed to fn is only valid during the call.
func numericMembers(doc []byte, buf []member, fn func(key []byte, v float64)) []member {
	ms := buf[:0]
	s := jsonWalker{b: doc}
	s.space()
	if !s.eat('{') {
		return ms
	}
	s.space()
	if s.eat('}') {
		return ms
	}
	for {
		s.space()
		key, ok := s.str()
		if !ok {
			break
		}
		s.space()
		if !s.eat(':') {
			break
		}
		s.space()
		m := member{key: key}
		if s.i < len(s.b) && (s.b[s.i] == '-' || s.b[s.i] >= '0' && s.b[s.i] <= '9') {
			m.value, m.ok = parseNumber(s.number())
		} else if !s.skip() {
			break
		}
		ms = append(ms, m)
		s.space()
		if !s.eat(',') {
			break
		}
	}
	for i, m := range ms {
		if !m.ok || laterDuplicate(ms[i+1:], m.key) {
			continue
		}
		fn(unescapeKey(m.key), m.value)
	}
	return ms
}

// laterDuplicate reports whether ms holds key again.
func laterDuplicate(ms []member, key []byte) bool {
	for _, m := range ms {
		if string(m.key) == string(key) {
			return true
		}
	}
	return false
}

// unescapeKey returns the raw JSON string contents key unescaped; without
// a backslash it is returned as is.
func unescapeKey(key []byte) []byte {
	for _, c := range key {
		if c == '\\' {
			quoted := make([]byte, 0, len(key)+2)
			quoted = append(append(append(quoted, '"'), key...), '"')
			var s string
			if err := json.Unmarshal(quoted, &s); err != nil {
				return key
			}
			return []byte(s)
		}
	}
	return key
}

// jsonWalker walks a JSON document without building values.
type jsonWalker struct {
	b []byte
	i int
}

func (s *jsonWalker) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jsonWalker) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str consumes a string and returns its raw contents (between the quotes).
func (s *jsonWalker) str() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			s.i += 2
		case '"':
			s.i++
			return s.b[start : s.i-1], true
		default:
			s.i++
		}
	}
	return nil, false
}

// number consumes the characters a JSON number can hold.
func (s *jsonWalker) number() []byte {
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			s.i++
		default:
			return s.b[start:s.i]
		}
	}
	return s.b[start:s.i]
}

// skip consumes one value that is not a number: a string, an object, an
// array or a literal.
func (s *jsonWalker) skip() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		_, ok := s.str()
		return ok
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if _, ok := s.str(); !ok {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	default: // true, false, null
		start := s.i
		for s.i < len(s.b) && s.b[s.i] >= 'a' && s.b[s.i] <= 'z' {
			s.i++
		}
		return s.i > start
	}
}

// jsonNumber scans a key's value as the query returns it (a number on
// SQLite, the JSON text on PostgreSQL); ok is false unless it is a number
// float64 holds.
type jsonNumber struct {
	v  float64
	ok bool
}

// Scan implements sql.Scanner.
func (n *jsonNumber) Scan(src any) error {
	switch x := src.(type) {
	case nil:
		*n = jsonNumber{}
	case float64:
		n.v, n.ok = finite(x)
	case int64:
		n.v, n.ok = float64(x), true
	case []byte:
		n.v, n.ok = parseNumber(x)
	case string:
		n.v, n.ok = parseNumber([]byte(x))
	default:
		return fmt.Errorf("db: cannot scan %T into a number", src)
	}
	return nil
}

// buckets aggregates values into series buckets of one width.
type buckets struct {
	width int64 // microseconds
	// max is how many complete buckets are wanted when values are added
	// newest first (0: all): once a value of the next older bucket arrives,
	// full reports that no more are needed.
	max  int
	aggs map[int64]*agg // by bucket start, Unix microseconds
}

func newBuckets(b Bucket, max int) *buckets {
	return &buckets{width: int64(time.Duration(b) / time.Microsecond), max: max, aggs: map[int64]*agg{}}
}

// start returns the start of t's bucket in Unix microseconds (a floor).
func (bs *buckets) start(t time.Time) int64 {
	us := t.UnixMicro()
	return us - ((us%bs.width)+bs.width)%bs.width
}

func (bs *buckets) at(t time.Time) *agg {
	s := bs.start(t)
	a := bs.aggs[s]
	if a == nil {
		a = &agg{}
		bs.aggs[s] = a
	}
	return a
}

// addValue adds the value v at sensor time t.
func (bs *buckets) addValue(t time.Time, v float64) { bs.at(t).add(v) }

// addAgg adds the aggregate a of values within the bucket of t.
func (bs *buckets) addAgg(t time.Time, a agg) { bs.at(t).merge(a) }

// full reports whether more buckets than wanted have been started.
func (bs *buckets) full() bool { return bs.max > 0 && len(bs.aggs) > bs.max }

// points returns the buckets newest first, skip buckets skipped and at
// most limit returned (0: all).
func (bs *buckets) points(skip, limit int) []SeriesPoint {
	starts := make([]int64, 0, len(bs.aggs))
	for s := range bs.aggs {
		starts = append(starts, s)
	}
	slices.Sort(starts)
	slices.Reverse(starts)
	starts = starts[min(skip, len(starts)):]
	if limit > 0 && len(starts) > limit {
		starts = starts[:limit]
	}
	out := make([]SeriesPoint, 0, len(starts))
	for _, s := range starts {
		a := bs.aggs[s]
		out = append(out, SeriesPoint{Start: time.UnixMicro(s).UTC(), Min: a.min, Max: a.max, Average: a.mean(), Count: a.count})
	}
	return out
}
