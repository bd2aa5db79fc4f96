package conformance

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// options are the settings of a run, from flags or their environment
// variables.
type options struct {
	url           string // the gateway under test; empty: start one (go test only)
	token         string // a session token for requests without one
	adminPassword string // the admin password of an external gateway
	pathPrefix    string // the product segment replacing /edge
	reportJSON    string // where to write the JSON report
	reportJUnit   string // where to write the JUnit XML report
	// coverageTable prints a line per operation after the run.
	coverageTable bool
}

// defaultPrefix is the product segment of the contract's paths.
const defaultPrefix = "/edge"

// registerSharedFlags defines the flags go test and edged-conformance share
// on fs and returns a function giving their values, environment variables
// filling in for flags left empty.
func registerSharedFlags(fs *flag.FlagSet) func() options {
	u := fs.String("url", "", "base `URL` of the gateway under test (default $EDGE_URL)")
	token := fs.String("token", "", "session `token` sent with every request that carries none of its own (default $EDGE_TOKEN; "+
		"empty: for a gateway whose authentication is mandatory, the suite logs in as admin)")
	pw := fs.String("admin-password", "", "`password` of the admin user of the gateway under test (default $EDGE_ADMIN_PASSWORD); "+
		"without it the tests that need an admin skip")
	prefix := fs.String("path-prefix", "", "the gateway's product `segment`, used in place of /edge in every path (default $EDGE_PATH_PREFIX, else /edge)")
	junit := fs.String("report-junit", "", "write a JUnit XML report (seed and strict test suites) to `FILE` (default $EDGE_CONFORMANCE_JUNIT)")
	return func() options {
		return options{
			url:           strings.TrimRight(orEnv(*u, "EDGE_URL"), "/"),
			token:         orEnv(*token, "EDGE_TOKEN"),
			adminPassword: orEnv(*pw, "EDGE_ADMIN_PASSWORD"),
			pathPrefix:    orEnv(*prefix, "EDGE_PATH_PREFIX"),
			reportJUnit:   orEnv(*junit, "EDGE_CONFORMANCE_JUNIT"),
		}
	}
}

// orEnv returns v, or the environment variable env when v is empty.
func orEnv(v, env string) string {
	if v != "" {
		return v
	}
	return os.Getenv(env)
}

// normalisePrefix checks a -path-prefix and returns it as "/segment…"
// without a trailing slash.
func normalisePrefix(p string) (string, error) {
	if p == "" {
		return defaultPrefix, nil
	}
	p = "/" + strings.Trim(p, "/")
	if p == "/" || strings.ContainsAny(p, "?#%") || strings.Contains(p, "//") {
		return "", fmt.Errorf("-path-prefix %q is not a path segment such as /edge or /foglamp", p)
	}
	return p, nil
}

// edgePrefix is the product segment of the gateway under test: requests
// to /edge/… go to edgePrefix/… (see prefixTransport).
var edgePrefix = defaultPrefix

// prefixTransport sends the suite's requests to the gateway under test with
// /edge replaced by edgePrefix, so that a gateway of this API whose product
// segment differs can be measured. The specification uses the same
// segment as the name of one field of asset tracking events, so that field
// is renamed back in the answers of GET /edge/track. The requests the
// suite records keep /edge, so coverage maps them to the contract.
type prefixTransport struct{ base http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (p prefixTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rest, ok := edgePath(req.URL)
	if edgePrefix == defaultPrefix || !ok {
		return p.base.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	base := strings.TrimSuffix(out.URL.EscapedPath(), rest)
	escaped := base + edgePrefix + strings.TrimPrefix(rest, defaultPrefix)
	path, err := url.PathUnescape(escaped)
	if err != nil {
		return nil, err
	}
	out.URL.Path, out.URL.RawPath = path, escaped
	resp, err := p.base.RoundTrip(out)
	if err != nil || rest != defaultPrefix+"/track" || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	return renameTrackField(resp)
}

// edgePath returns the part of u's escaped path from /edge on when u
// addresses the gateway under test under /edge.
func edgePath(u *url.URL) (string, bool) {
	b, err := url.Parse(baseURL)
	if err != nil || u.Host != b.Host {
		return "", false
	}
	rest, ok := strings.CutPrefix(u.EscapedPath(), strings.TrimRight(b.EscapedPath(), "/"))
	if !ok || rest != defaultPrefix && !strings.HasPrefix(rest, defaultPrefix+"/") {
		return "", false
	}
	return rest, true
}

// renameTrackField renames the product-segment field of every tracking
// event in a GET /edge/track answer to "edge". A body that is not the
// expected shape is passed on as it came.
func renameTrackField(resp *http.Response) (*http.Response, error) {
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if renamed, ok := renamedTrack(body); ok {
		body = renamed
		resp.ContentLength = int64(len(body))
		resp.Header.Del("Content-Length")
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// renamedTrack returns the GET /edge/track body with the product-segment
// field of each event named "edge", and false when body is not that shape.
func renamedTrack(body []byte) ([]byte, bool) {
	var doc map[string]json.RawMessage
	var events []map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil || json.Unmarshal(doc["track"], &events) != nil {
		return nil, false
	}
	field := strings.TrimPrefix(edgePrefix[strings.LastIndex(edgePrefix, "/"):], "/")
	for _, e := range events {
		if v, ok := e[field]; ok {
			e["edge"] = v
			delete(e, field)
		}
	}
	track, err := json.Marshal(events)
	if err != nil {
		return nil, false
	}
	doc["track"] = track
	out, err := json.Marshal(doc)
	return out, err == nil
}
