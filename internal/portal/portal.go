// Package portal serves the gateway's documentation: the API reference page
// (Redoc, built offline from openapi.yaml by `make generate` and embedded in
// the binary, loading nothing from any other host) and the contract itself as
// YAML and JSON; and the operator console (web/console, built offline the
// same way), a browser client of the API. These routes sit outside the API
// contract.
package portal

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed" // the Redoc page
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"go.yaml.in/yaml/v3"
)

// redocHTML is the reference page, built by
// `redocly build-docs openapi.yaml --inlineBundle` (see the Makefile's
// generate target). Never edit it by hand.
//
//go:embed redoc.html
var redocHTML []byte

// The paths the portal serves.
const (
	DocsPath = "/edge/docs"
	YAMLPath = "/edge/openapi.yaml"
	JSONPath = "/edge/openapi.json"
)

// docsCSP allows the page's inline script and styles, images and fonts from
// data: URLs, and requests to the gateway itself only: a browser refuses any
// request the page would make to another host.
const docsCSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

// Portal holds the documents and the console, ready to serve.
type Portal struct {
	docs, yaml, json *document
	console          map[string]*document
}

// New prepares the portal from the contract in JSON, as the generated server
// code embeds it (gen.GetSpecJSON). The YAML and the indented JSON served are
// converted from it, so they are the spec the gateway validates against.
func New(specJSON []byte) (*Portal, error) {
	var indented bytes.Buffer
	if err := json.Indent(&indented, specJSON, "", "  "); err != nil {
		return nil, fmt.Errorf("portal: the embedded spec is not JSON: %w", err)
	}
	indented.WriteByte('\n')
	y, err := JSONToYAML(specJSON)
	if err != nil {
		return nil, fmt.Errorf("portal: convert the embedded spec to YAML: %w", err)
	}
	return &Portal{
		docs: newDocument(redocHTML, "text/html; charset=utf-8", map[string]string{
			"Content-Security-Policy": docsCSP,
			"Referrer-Policy":         "no-referrer",
		}),
		yaml:    newDocument(y, "application/yaml", nil),
		json:    newDocument(indented.Bytes(), "application/json", nil),
		console: consoleDocuments(),
	}, nil
}

// Register adds GET and HEAD routes for the three documents and the
// console's files to r, and redirects /edge/docs/ and /edge/console/ to
// the paths without the slash.
func (p *Portal) Register(r chi.Router) {
	routes := map[string]*document{DocsPath: p.docs, YAMLPath: p.yaml, JSONPath: p.json}
	for path, d := range p.console {
		routes[path] = d
	}
	for path, d := range routes {
		r.Method(http.MethodGet, path, d)
		r.Method(http.MethodHead, path, d)
	}
	r.Get(DocsPath+"/", redirectTo(DocsPath))
	r.Get(ConsolePath+"/", redirectTo(ConsolePath))
}

// document is one static resource with its strong ETag, served plain or
// gzip-compressed as the client accepts.
type document struct {
	body        []byte
	contentType string
	headers     map[string]string
	etag        string
	gzipped     func() ([]byte, string) // compressed lazily, once
}

func newDocument(body []byte, contentType string, headers map[string]string) *document {
	sum := sha256.Sum256(body)
	tag := hex.EncodeToString(sum[:12])
	d := &document{body: body, contentType: contentType, headers: headers, etag: `"` + tag + `"`}
	d.gzipped = sync.OnceValues(func() ([]byte, string) {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
		_, _ = zw.Write(body)                                    // writes to a bytes.Buffer do not fail
		_ = zw.Close()
		return buf.Bytes(), `"` + tag + `-gzip"`
	})
	return d
}

// ServeHTTP answers with the document, 304 when the client's If-None-Match
// names the current ETag. Clients must revalidate (no-cache): the documents
// change with the gateway's version at the same URL.
func (d *document) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for k, v := range d.headers {
		h.Set(k, v)
	}
	h.Set("Content-Type", d.contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept-Encoding")
	body, etag := d.body, d.etag
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body, etag = d.gzipped()
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// acceptsGzip reports whether an Accept-Encoding header value admits gzip
// (named, or through "*", with a non-zero quality).
func acceptsGzip(header string) bool {
	gzipQ, starQ := "", ""
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := "1"
		for p := range strings.SplitSeq(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				q = strings.TrimSpace(v)
			}
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "gzip", "x-gzip":
			gzipQ = q
		case "*":
			starQ = q
		}
	}
	q := gzipQ
	if q == "" {
		q = starQ
	}
	return q != "" && strings.Trim(q, "0.") != ""
}

// topLevelOrder is the conventional order of an OpenAPI document's keys;
// the embedded JSON has them sorted alphabetically.
var topLevelOrder = []string{"openapi", "info", "jsonSchemaDialect", "servers", "security", "tags", "paths", "webhooks", "components", "externalDocs"}

// JSONToYAML converts a JSON document to block-style YAML, keeping the key
// order of the JSON except at the top level, which is put in the order
// OpenAPI documents conventionally use. Multi-line strings become literal
// blocks; strings that would read as another type are quoted.
func JSONToYAML(doc []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil { // JSON is YAML
		return nil, err
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 {
		return nil, fmt.Errorf("not a single JSON document")
	}
	restyle(root.Content[0])
	if top := root.Content[0]; top.Kind == yaml.MappingNode {
		orderKeys(top, topLevelOrder)
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// restyle turns the flow style of parsed JSON into block style.
func restyle(n *yaml.Node) {
	n.Style = 0
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && strings.Contains(n.Value, "\n") {
		n.Style = yaml.LiteralStyle
	}
	for _, c := range n.Content {
		restyle(c)
	}
}

// orderKeys moves the keys named in order to the front of mapping m, in that
// order; the other keys follow in their original order.
func orderKeys(m *yaml.Node, order []string) {
	rank := make(map[string]int, len(order))
	for i, k := range order {
		rank[k] = i
	}
	type pair struct{ k, v *yaml.Node }
	first := make([]*pair, len(order))
	var rest []pair
	for i := 0; i+1 < len(m.Content); i += 2 {
		p := pair{m.Content[i], m.Content[i+1]}
		if r, ok := rank[p.k.Value]; ok && first[r] == nil {
			first[r] = &p
			continue
		}
		rest = append(rest, p)
	}
	content := make([]*yaml.Node, 0, len(m.Content))
	for _, p := range first {
		if p != nil {
			content = append(content, p.k, p.v)
		}
	}
	for _, p := range rest {
		content = append(content, p.k, p.v)
	}
	m.Content = content
}
