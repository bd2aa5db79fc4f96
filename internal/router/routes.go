package router

import (
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// routeTable knows the path templates of the contract and picks, for a
// request path, the template that owns it. chi prefers a literal segment
// to a parameter only while the literal route has the request's method;
// otherwise it falls back to the parameter route, so that GET
// /edge/schedule/enable would reach GET /edge/schedule/{schedule_id} with
// the id "enable", and DELETE /edge/asset/timespan would purge an asset
// named "timespan". A fixed word of a path is never a parameter value:
// the most specific matching template owns the path, and a method it lacks
// is 405.
type routeTable struct {
	templates []routeTemplate
}

// routeTemplate is one path of the contract.
type routeTemplate struct {
	pattern  string
	segments []string
	methods  []string // in the order of probeMethods
}

func newRouteTable(spec *openapi3.T) *routeTable {
	t := &routeTable{}
	if spec == nil || spec.Paths == nil {
		return t
	}
	for pattern, item := range spec.Paths.Map() {
		rt := routeTemplate{pattern: pattern, segments: splitPath(pattern)}
		for m := range item.Operations() {
			rt.methods = append(rt.methods, strings.ToUpper(m))
		}
		slices.SortFunc(rt.methods, func(a, b string) int {
			return slices.Index(probeMethods, a) - slices.Index(probeMethods, b)
		})
		t.templates = append(t.templates, rt)
	}
	return t
}

func splitPath(p string) []string { return strings.Split(strings.Trim(p, "/"), "/") }

func isParam(seg string) bool { return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") }

// owner returns the most specific template matching escapedPath, or nil:
// at the first segment where two matching templates differ, a literal
// beats a parameter.
func (t *routeTable) owner(escapedPath string) *routeTemplate {
	segs := splitPath(escapedPath)
	var best *routeTemplate
	for i := range t.templates {
		tpl := &t.templates[i]
		if matches(tpl.segments, segs) && (best == nil || moreSpecific(tpl.segments, best.segments)) {
			best = tpl
		}
	}
	return best
}

// shadowed reports whether some other template can own a path that
// pattern matches: one with a literal where pattern has a parameter.
func (t *routeTable) shadowed(pattern string) bool {
	segs := splitPath(pattern)
	for _, tpl := range t.templates {
		if tpl.pattern != pattern && len(tpl.segments) == len(segs) && overlaps(tpl.segments, segs) && moreSpecific(tpl.segments, segs) {
			return true
		}
	}
	return false
}

// matches reports whether template segments tpl match the escaped path
// segments segs; literals are compared with the decoded segment.
func matches(tpl, segs []string) bool {
	if len(tpl) != len(segs) {
		return false
	}
	for i, s := range tpl {
		if isParam(s) {
			if segs[i] == "" {
				return false
			}
			continue
		}
		d, err := url.PathUnescape(segs[i])
		if err != nil || d != s {
			return false
		}
	}
	return true
}

// overlaps reports whether some path matches both templates a and b.
func overlaps(a, b []string) bool {
	for i := range a {
		if !isParam(a[i]) && !isParam(b[i]) && a[i] != b[i] {
			return false
		}
	}
	return true
}

// moreSpecific reports whether template a has a literal where b has a
// parameter at the first position where they differ in kind.
func moreSpecific(a, b []string) bool {
	for i := range a {
		if pa, pb := isParam(a[i]), isParam(b[i]); pa != pb {
			return !pa
		}
	}
	return false
}
