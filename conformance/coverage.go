package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// The suite proves that it calls every operation of the contract: every
// request sent through the SDK clients (checkingDoer) or doRaw is recorded
// with its method, path and status, mapped to an operation of the spec the
// gateway under test serves at /edge/openapi.json, and after the run the
// suite prints how often each operation was called and with which statuses,
// and fails if any operation was never called.

// specJSONPath is where a gateway serves its contract as JSON.
const specJSONPath = "/edge/openapi.json"

// specOperation is one operation of the contract.
type specOperation struct {
	ID       string `json:"operationId"`
	Method   string `json:"method"`
	Template string `json:"path"`
	segments []string
}

// operationIndex maps requests to the operations of a spec.
type operationIndex struct {
	ops []*specOperation
	// byTemplate groups the operations by path template.
	byTemplate map[string][]*specOperation
	templates  [][]string
}

var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// parseSpec reads the operations of an OpenAPI document in JSON.
func parseSpec(doc []byte) (*operationIndex, error) {
	var spec struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &spec); err != nil {
		return nil, fmt.Errorf("the spec is not an OpenAPI JSON document: %w", err)
	}
	if len(spec.Paths) == 0 {
		return nil, fmt.Errorf("the spec declares no paths")
	}
	idx := &operationIndex{byTemplate: map[string][]*specOperation{}}
	for template, item := range spec.Paths {
		// A gateway whose product segment is not /edge serves its
		// paths under its own; the suite speaks of /edge.
		if edgePrefix != defaultPrefix && strings.HasPrefix(template, edgePrefix+"/") {
			template = defaultPrefix + strings.TrimPrefix(template, edgePrefix)
		}
		segs := splitPath(template)
		idx.templates = append(idx.templates, segs)
		for _, m := range httpMethods {
			raw, ok := item[m]
			if !ok {
				continue
			}
			var op struct {
				ID string `json:"operationId"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, fmt.Errorf("%s %s: %w", strings.ToUpper(m), template, err)
			}
			if op.ID == "" {
				return nil, fmt.Errorf("%s %s has no operationId", strings.ToUpper(m), template)
			}
			o := &specOperation{ID: op.ID, Method: strings.ToUpper(m), Template: template, segments: segs}
			idx.ops = append(idx.ops, o)
			idx.byTemplate[template] = append(idx.byTemplate[template], o)
		}
	}
	sort.Slice(idx.ops, func(i, j int) bool { return idx.ops[i].ID < idx.ops[j].ID })
	return idx, nil
}

// splitPath splits an escaped path into its segments: a percent-encoded
// slash (%2F) stays inside its segment.
func splitPath(p string) []string {
	return strings.Split(strings.TrimPrefix(p, "/"), "/")
}

func isParam(seg string) bool { return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") }

// match returns the operation a request with method and escaped path is
// routed to, or nil. Like the router, the most specific template wins: at
// the first segment where two matching templates differ, a literal beats a
// parameter (/edge/task/latest before /edge/task/{id}). A path whose best
// template lacks the method matches nothing (the gateway answers 405).
func (idx *operationIndex) match(method, escapedPath string) *specOperation {
	segs := splitPath(escapedPath)
	var best []string
	for _, tpl := range idx.templates {
		if !templateMatches(tpl, segs) {
			continue
		}
		if best == nil || moreSpecific(tpl, best) {
			best = tpl
		}
	}
	if best == nil {
		return nil
	}
	for _, op := range idx.byTemplate["/"+strings.Join(best, "/")] {
		if op.Method == method {
			return op
		}
	}
	return nil
}

func templateMatches(tpl, segs []string) bool {
	if len(tpl) != len(segs) {
		return false
	}
	for i, t := range tpl {
		if isParam(t) {
			if segs[i] == "" {
				return false
			}
			continue
		}
		s, err := url.PathUnescape(segs[i])
		if err != nil {
			s = segs[i]
		}
		if s != t {
			return false
		}
	}
	return true
}

// moreSpecific reports whether template a has a literal where b has a
// parameter at the first position where they differ in kind.
func moreSpecific(a, b []string) bool {
	for i := range a {
		pa, pb := isParam(a[i]), isParam(b[i])
		if pa != pb {
			return !pa
		}
	}
	return false
}

// call is one request the suite sent and the status it was answered with.
type call struct {
	method, path string
	status       int
}

// recorder collects the calls of the whole run.
type recorder struct {
	mu    sync.Mutex
	calls []call
	// sink, when set, is told of every call (the child process of
	// edged-conformance reports them to its parent).
	sink func(call)
}

var (
	// calls holds every request of the run.
	calls recorder
	// pathPrefix is the path of the base URL of the gateway under test
	// (empty for a gateway at the root), stripped before matching.
	pathPrefix string
)

// add records that req was answered with status.
func (r *recorder) add(req *http.Request, status int) {
	p := req.URL.EscapedPath()
	if pathPrefix != "" && strings.HasPrefix(p, pathPrefix+"/") {
		p = strings.TrimPrefix(p, pathPrefix)
	}
	c := call{method: req.Method, path: p, status: status}
	r.mu.Lock()
	r.calls = append(r.calls, c)
	sink := r.sink
	r.mu.Unlock()
	if sink != nil {
		sink(c)
	}
}

// operationCoverage is how one operation was exercised.
type operationCoverage struct {
	specOperation
	Calls    int   `json:"calls"`
	Statuses []int `json:"statuses"`
}

// unmatchedCalls counts the requests to one method and path outside the
// contract (unknown routes, wrong methods), sent on purpose by the routing
// tests.
type unmatchedCalls struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Calls  int    `json:"calls"`
}

// coverage is the operation coverage of a run.
type coverage struct {
	Exercised  int                 `json:"exercised"`
	Total      int                 `json:"total"`
	Operations []operationCoverage `json:"operations"`
	Missing    []string            `json:"missing"`
	Unmatched  []unmatchedCalls    `json:"unmatched"`
}

// snapshot returns the calls recorded so far.
func (r *recorder) snapshot() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// coverageOf maps the recorded calls to the operations of idx.
func coverageOf(idx *operationIndex, recorded []call) coverage {
	byOp := map[*specOperation]*operationCoverage{}
	for _, op := range idx.ops {
		byOp[op] = &operationCoverage{specOperation: *op, Statuses: []int{}}
	}
	unmatched := map[[2]string]int{}
	for _, c := range recorded {
		op := idx.match(c.method, c.path)
		if op == nil {
			unmatched[[2]string{c.method, c.path}]++
			continue
		}
		oc := byOp[op]
		oc.Calls++
		if !slices.Contains(oc.Statuses, c.status) {
			oc.Statuses = append(oc.Statuses, c.status)
		}
	}
	cov := coverage{Total: len(idx.ops), Missing: []string{}, Unmatched: []unmatchedCalls{}}
	for _, op := range idx.ops {
		oc := byOp[op]
		slices.Sort(oc.Statuses)
		cov.Operations = append(cov.Operations, *oc)
		if oc.Calls > 0 {
			cov.Exercised++
		} else {
			cov.Missing = append(cov.Missing, op.ID)
		}
	}
	for k, n := range unmatched {
		cov.Unmatched = append(cov.Unmatched, unmatchedCalls{Method: k[0], Path: k[1], Calls: n})
	}
	sort.Slice(cov.Unmatched, func(i, j int) bool {
		a, b := cov.Unmatched[i], cov.Unmatched[j]
		return a.Path < b.Path || a.Path == b.Path && a.Method < b.Method
	})
	return cov
}

// print writes the coverage to standard output, with a line per operation
// when table is true.
func (c coverage) print(table bool) {
	fmt.Printf("conformance: %d/%d operations exercised\n", c.Exercised, c.Total)
	for _, op := range c.Operations {
		if !table {
			break
		}
		statuses := make([]string, len(op.Statuses))
		for i, s := range op.Statuses {
			statuses[i] = fmt.Sprint(s)
		}
		fmt.Printf("  %-24s %-6s %-72s %4d calls, %d statuses [%s]\n",
			op.ID, op.Method, op.Template, op.Calls, len(op.Statuses), strings.Join(statuses, " "))
	}
	n := 0
	for _, u := range c.Unmatched {
		n += u.Calls
	}
	fmt.Printf("conformance: %d requests outside the contract (unknown paths and methods, sent on purpose)\n", n)
	if len(c.Missing) > 0 {
		fmt.Printf("conformance: FAIL: %d operations never called: %s\n", len(c.Missing), strings.Join(c.Missing, ", "))
	}
}

// fetchSpec reads the contract the gateway at base serves.
func fetchSpec(base string) (*operationIndex, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+specJSONPath, nil)
	if err != nil {
		return nil, err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", specJSONPath, err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", specJSONPath, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s answered %d", specJSONPath, resp.StatusCode)
	}
	return parseSpec(body)
}
