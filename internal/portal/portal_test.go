package portal_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/portal"
)

func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	spec, err := gen.GetSpecJSON()
	if err != nil {
		t.Fatal(err)
	}
	p, err := portal.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	r := chi.NewRouter()
	p.Register(r)
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

type result struct {
	status int
	header http.Header
	body   []byte
}

// fetch sends one request without Go's transparent gzip handling, so the
// test sees exactly what the portal sends.
func fetch(t *testing.T, method, url string, header map[string]string) result {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return result{status: resp.StatusCode, header: resp.Header, body: body}
}

func TestDocuments(t *testing.T) {
	srv := newServer(t)
	tests := []struct {
		name        string
		path        string
		contentType string
		prefix      string
	}{
		{name: "docs page", path: portal.DocsPath, contentType: "text/html; charset=utf-8", prefix: "<!DOCTYPE html>"},
		{name: "spec as YAML", path: portal.YAMLPath, contentType: "application/yaml", prefix: "openapi: 3.0.3\ninfo:\n"},
		{name: "spec as JSON", path: portal.JSONPath, contentType: "application/json", prefix: "{\n  \"components\": {"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fetch(t, http.MethodGet, srv.URL+tt.path, nil)
			if got.status != http.StatusOK {
				t.Fatalf("status %d", got.status)
			}
			if ct := got.header.Get("Content-Type"); ct != tt.contentType {
				t.Errorf("Content-Type %q, want %q", ct, tt.contentType)
			}
			if !bytes.HasPrefix(got.body, []byte(tt.prefix)) {
				t.Errorf("body starts %q, want %q", got.body[:min(len(got.body), 40)], tt.prefix)
			}
			etag := got.header.Get("ETag")
			if !regexp.MustCompile(`^"[0-9a-f]{24}"$`).MatchString(etag) {
				t.Errorf("ETag %q is not a strong hash tag", etag)
			}
			for k, want := range map[string]string{"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff", "Vary": "Accept-Encoding", "Content-Encoding": ""} {
				if v := got.header.Get(k); v != want {
					t.Errorf("%s %q, want %q", k, v, want)
				}
			}

			head := fetch(t, http.MethodHead, srv.URL+tt.path, nil)
			if head.status != http.StatusOK || len(head.body) != 0 || head.header.Get("ETag") != etag {
				t.Errorf("HEAD: status %d, %d body bytes, ETag %q", head.status, len(head.body), head.header.Get("ETag"))
			}

			cached := fetch(t, http.MethodGet, srv.URL+tt.path, map[string]string{"If-None-Match": etag})
			if cached.status != http.StatusNotModified || len(cached.body) != 0 {
				t.Errorf("If-None-Match the current ETag: status %d with %d bytes, want 304 and none", cached.status, len(cached.body))
			}
			stale := fetch(t, http.MethodGet, srv.URL+tt.path, map[string]string{"If-None-Match": `"0000"`})
			if stale.status != http.StatusOK {
				t.Errorf("If-None-Match another ETag: status %d, want 200", stale.status)
			}

			zipped := fetch(t, http.MethodGet, srv.URL+tt.path, map[string]string{"Accept-Encoding": "gzip"})
			if zipped.header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("Accept-Encoding gzip: Content-Encoding %q", zipped.header.Get("Content-Encoding"))
			}
			if zt := zipped.header.Get("ETag"); zt == etag || zt == "" {
				t.Errorf("gzip variant ETag %q must differ from the plain one %q", zt, etag)
			}
			zr, err := gzip.NewReader(bytes.NewReader(zipped.body))
			if err != nil {
				t.Fatal(err)
			}
			plain, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(plain, got.body) {
				t.Error("the gzip variant does not decompress to the plain document")
			}
		})
	}
}

func TestAcceptEncoding(t *testing.T) {
	srv := newServer(t)
	tests := []struct {
		name     string
		header   string
		wantGzip bool
	}{
		{name: "none", header: "", wantGzip: false},
		{name: "gzip", header: "gzip", wantGzip: true},
		{name: "browser list", header: "gzip, deflate, br, zstd", wantGzip: true},
		{name: "gzip refused", header: "gzip;q=0, br", wantGzip: false},
		{name: "gzip refused as q=0.000", header: "gzip; q=0.000", wantGzip: false},
		{name: "gzip with low quality", header: "br;q=1.0, gzip;q=0.5", wantGzip: true},
		{name: "any", header: "*", wantGzip: true},
		{name: "any but gzip", header: "*, gzip;q=0", wantGzip: false},
		{name: "identity only", header: "identity", wantGzip: false},
		{name: "upper case", header: "GZIP", wantGzip: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fetch(t, http.MethodGet, srv.URL+portal.JSONPath, map[string]string{"Accept-Encoding": tt.header})
			if isGzip := got.header.Get("Content-Encoding") == "gzip"; isGzip != tt.wantGzip {
				t.Errorf("Accept-Encoding %q: gzip %v, want %v", tt.header, isGzip, tt.wantGzip)
			}
		})
	}
}

func TestDocsTrailingSlashRedirects(t *testing.T) {
	srv := newServer(t)
	got := fetch(t, http.MethodGet, srv.URL+portal.DocsPath+"/", nil)
	if got.status != http.StatusMovedPermanently || got.header.Get("Location") != portal.DocsPath {
		t.Errorf("status %d, Location %q; want 301 to %s", got.status, got.header.Get("Location"), portal.DocsPath)
	}
}

func TestDocsPageIsSelfContained(t *testing.T) {
	html, err := os.ReadFile("redoc.html")
	if err != nil {
		t.Fatal(err)
	}
	external := regexp.MustCompile(`(?i)^(https?:)?//`)
	tags := regexp.MustCompile(`(?is)<(script|link|iframe|img|source|embed|object)\b[^>]*>`)
	refs := regexp.MustCompile(`(?is)\b(src|href|data)\s*=\s*["']?([^"'\s>]+)`)
	var scripts, links int
	for _, tag := range tags.FindAllString(string(html), -1) {
		switch strings.ToLower(tag[1:min(len(tag), 7)]) {
		case "script":
			scripts++
		case "link":
			links++
		}
		for _, m := range refs.FindAllStringSubmatch(tag, -1) {
			if external.MatchString(m[2]) {
				t.Errorf("%s refers to another host", tag)
			}
		}
	}
	if scripts == 0 {
		t.Error("no <script> in the page: is it a Redoc build?")
	}
	if !bytes.Contains(html, []byte(`"disableTelemetry":true`)) {
		t.Error(`the page does not carry "disableTelemetry":true (redocly.yaml must keep telemetry: off)`)
	}
	spec, err := gen.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(html, []byte("<title>"+spec.Info.Title+"</title>")) {
		t.Errorf("the page is not built from the current spec (title %q missing): run 'make generate'", spec.Info.Title)
	}
}

// TestServedSpecsAreTheEmbeddedSpec loads the served YAML and JSON with an
// OpenAPI loader and checks that both equal the spec the gateway validates
// against.
func TestServedSpecsAreTheEmbeddedSpec(t *testing.T) {
	srv := newServer(t)
	want, err := gen.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{portal.YAMLPath, portal.JSONPath} {
		t.Run(path, func(t *testing.T) {
			got := fetch(t, http.MethodGet, srv.URL+path, nil)
			doc, err := openapi3.NewLoader().LoadFromData(got.body)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if err := doc.Validate(t.Context()); err != nil {
				t.Fatalf("validate: %v", err)
			}
			gotJSON, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Error("the served spec differs from the embedded one")
			}
		})
	}
}

// TestServedSpecIsTheContract checks that the served spec names every
// operation as openapi.yaml does: oapi-codegen would otherwise capitalise
// the operationIds it embeds (see gen/server.cfg.yaml), and tools that
// select operations by id read the served spec.
func TestServedSpecIsTheContract(t *testing.T) {
	contract, err := openapi3.NewLoader().LoadFromFile("../../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	served, err := openapi3.NewLoader().LoadFromData(fetch(t, http.MethodGet, newServer(t).URL+portal.JSONPath, nil).body)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(doc *openapi3.T) map[string]string {
		out := map[string]string{}
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				out[method+" "+path] = op.OperationID
			}
		}
		return out
	}
	want, got := ids(contract), ids(served)
	for route, id := range want {
		if got[route] != id {
			t.Errorf("%s: served operationId %q, openapi.yaml has %q", route, got[route], id)
		}
	}
	if len(got) != len(want) {
		t.Errorf("served spec has %d operations, openapi.yaml %d: run 'make generate'", len(got), len(want))
	}
}

func TestJSONToYAML(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr bool
	}{
		{name: "top-level keys in OpenAPI order", in: `{"components":{},"info":{"title":"t"},"openapi":"3.0.3","paths":{},"x-extra":1}`,
			want: "openapi: 3.0.3\ninfo:\n  title: t\npaths: {}\ncomponents: {}\nx-extra: 1\n"},
		{name: "nested key order kept", in: `{"b":{"z":1,"a":2},"a":true}`, want: "b:\n  z: 1\n  a: 2\na: true\n"},
		{name: "strings that read as other types are quoted", in: `{"a":"200","b":"true","c":"null","d":"1.5","e":"~","f":"plain"}`,
			want: "a: \"200\"\nb: \"true\"\nc: \"null\"\nd: \"1.5\"\ne: \"~\"\nf: plain\n"},
		{name: "numbers, booleans and null stay typed", in: `{"a":200,"b":true,"c":null,"d":1.5}`, want: "a: 200\nb: true\nc: null\nd: 1.5\n"},
		{name: "multi-line strings become literal blocks", in: `{"d":"line one\nline two\n"}`, want: "d: |\n  line one\n  line two\n"},
		{name: "sequences in block style", in: `{"tags":["a","b"],"empty":[]}`, want: "tags:\n  - a\n  - b\nempty: []\n"},
		{name: "special characters", in: `{"k":"a: b","p":"#x","s":"- x","u":"é/ü"}`, want: "k: 'a: b'\np: '#x'\ns: '- x'\nu: é/ü\n"},
		{name: "not JSON", in: `{"a":`, wantErr: true},
		{name: "empty", in: ``, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := portal.JSONToYAML([]byte(tt.in))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("got %q, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestNewRejectsBadSpec(t *testing.T) {
	if _, err := portal.New([]byte("not json")); err == nil {
		t.Fatal("New accepted a spec that is not JSON")
	}
}
