package logging

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"
)

// Handler returns a slog handler that gives every record next handles to
// the journal too, then to next. Enabled is next's, so the journal holds
// what the gateway logs at its current level. A line's source is the
// value of its top-level string attribute ServiceKey, from the logger or
// the call, else SourceCore; that attribute is not repeated among the
// line's attributes.
func (j *Journal) Handler(next slog.Handler) slog.Handler {
	return &handler{j: j, next: next, source: SourceCore}
}

type handler struct {
	j      *Journal
	next   slog.Handler
	prefix string // the open groups, "a.b." (empty at the top level)
	attrs  []kv   // the logger's attributes, keys qualified
	source string
}

type kv struct {
	key string
	val any
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	e := Entry{Time: r.Time, Level: r.Level, Source: h.source, Message: r.Message}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	var attrs []kv
	r.Attrs(func(a slog.Attr) bool {
		if h.prefix == "" && a.Key == ServiceKey {
			if v := a.Value.Resolve(); v.Kind() == slog.KindString {
				e.Source = v.String()
				return true
			}
		}
		attrs = flatten(attrs, h.prefix, a)
		return true
	})
	if n := len(h.attrs) + len(attrs); n > 0 {
		e.Attrs = make(map[string]any, n)
		for _, a := range h.attrs {
			e.Attrs[a.key] = a.val
		}
		for _, a := range attrs {
			e.Attrs[a.key] = a.val
		}
	}
	h.j.add(e)
	return h.next.Handle(ctx, r)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.next = h.next.WithAttrs(as)
	c.attrs = append([]kv(nil), h.attrs...)
	for _, a := range as {
		if h.prefix == "" && a.Key == ServiceKey {
			if v := a.Value.Resolve(); v.Kind() == slog.KindString {
				c.source = v.String()
				continue
			}
		}
		c.attrs = flatten(c.attrs, h.prefix, a)
	}
	return &c
}

func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.next = h.next.WithGroup(name)
	c.prefix = h.prefix + name + "."
	return &c
}

// flatten appends a to out with its key qualified by prefix, a group's
// members each under "group." (a group without a key inlined, an empty
// attribute dropped, as slog's handlers do).
func flatten(out []kv, prefix string, a slog.Attr) []kv {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		p := prefix
		if a.Key != "" {
			p += a.Key + "."
		}
		for _, m := range v.Group() {
			out = flatten(out, p, m)
		}
		return out
	}
	if a.Key == "" && v.Any() == nil {
		return out
	}
	return append(out, kv{key: prefix + a.Key, val: plain(v)})
}

// plain is v as a JSON value: strings, numbers and booleans as they are,
// durations and times as text, errors as their message, anything else as
// fmt prints it.
func plain(v slog.Value) any {
	switch v.Kind() {
	case slog.KindString:
		return v.String()
	case slog.KindInt64:
		return v.Int64()
	case slog.KindUint64:
		return v.Uint64()
	case slog.KindFloat64:
		if f := v.Float64(); !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
		return v.String()
	case slog.KindBool:
		return v.Bool()
	case slog.KindDuration:
		return v.Duration().String()
	case slog.KindTime:
		return v.Time().UTC().Format(time.RFC3339Nano)
	}
	switch a := v.Any().(type) {
	case error:
		return a.Error()
	case fmt.Stringer:
		return a.String()
	case []byte:
		return string(a)
	default:
		return strings.TrimSpace(fmt.Sprint(a))
	}
}
