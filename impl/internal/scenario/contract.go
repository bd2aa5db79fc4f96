package scenario

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/edged/edged/gen"
)

// operation is one operation of the contract: its method, path template
// and the statuses it lists.
type operation struct {
	id       string
	method   string
	segments []string // of the path; "{…}" for a parameter
	statuses []string // "200", "404", …, "default"
}

var (
	contractOnce sync.Once
	contractOps  []operation
	contractErr  error
)

// contract returns the operations of the embedded contract.
func contract() ([]operation, error) {
	contractOnce.Do(func() {
		var spec *openapi3.T
		spec, contractErr = gen.GetSpec()
		if contractErr != nil {
			return
		}
		for path, item := range spec.Paths.Map() {
			for method, op := range item.Operations() {
				o := operation{id: op.OperationID, method: method, segments: strings.Split(strings.Trim(path, "/"), "/")}
				for code := range op.Responses.Map() {
					o.statuses = append(o.statuses, code)
				}
				contractOps = append(contractOps, o)
			}
		}
	})
	return contractOps, contractErr
}

// operationOf returns the contract's operation for method and the escaped
// path, as the router chooses it: of the templates that match, the one
// with a literal segment where the others have a parameter, leftmost
// first. ok is false when no operation of that method matches.
func operationOf(method, escapedPath string) (operation, bool) {
	ops, err := contract()
	if err != nil {
		return operation{}, false
	}
	segs := strings.Split(strings.Trim(escapedPath, "/"), "/")
	var best *operation
	for i := range ops {
		o := &ops[i]
		if o.method != method || len(o.segments) != len(segs) {
			continue
		}
		match := true
		for j, s := range o.segments {
			if !isParam(s) && s != segs[j] {
				match = false
				break
			}
		}
		if match && (best == nil || moreLiteral(o.segments, best.segments)) {
			best = o
		}
	}
	if best == nil {
		return operation{}, false
	}
	return *best, true
}

func isParam(s string) bool { return strings.HasPrefix(s, "{") }

// moreLiteral reports whether template a has a literal segment before b
// does (at the first position where they differ in kind).
func moreLiteral(a, b []string) bool {
	for i := range a {
		if isParam(a[i]) != isParam(b[i]) {
			return !isParam(a[i])
		}
	}
	return false
}

// listed reports whether the contract lists status for o.
func (o operation) listed(status int) bool {
	return slices.Contains(o.statuses, strconv.Itoa(status)) || slices.Contains(o.statuses, "default") ||
		slices.Contains(o.statuses, strconv.Itoa(status/100)+"XX")
}

// covered are the operations scenarios called, by operationId.
var (
	coveredMu sync.Mutex
	covered   = map[string]bool{}
)

// cover records that a scenario called the operation of r.
func cover(r *http.Request) {
	if o, ok := operationOf(r.Method, r.URL.EscapedPath()); ok {
		coveredMu.Lock()
		covered[o.id] = true
		coveredMu.Unlock()
	}
}

// uncovered returns the operations of the contract no scenario called,
// sorted.
func uncovered() []string {
	ops, err := contract()
	if err != nil {
		return []string{err.Error()}
	}
	coveredMu.Lock()
	defer coveredMu.Unlock()
	var out []string
	for _, o := range ops {
		if !covered[o.id] {
			out = append(out, o.id)
		}
	}
	slices.Sort(out)
	return out
}

// contractStatus returns the operation a request reaches and whether the
// contract lists status among its answers; a status the router gives for
// no operation (405, 404 of an unknown path) counts as listed.
func contractStatus(r *http.Request, status int) (op string, ok bool) {
	o, found := operationOf(r.Method, r.URL.EscapedPath())
	if !found {
		return "", true
	}
	return o.id, o.listed(status)
}
