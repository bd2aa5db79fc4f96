package portal_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/edged/edged/internal/portal"
)

func TestConsoleFiles(t *testing.T) {
	srv := newServer(t)
	tests := []struct {
		name, path, wantType, wantBody string
	}{
		{name: "page", path: portal.ConsolePath, wantType: "text/html; charset=utf-8", wantBody: `src="/edge/console/console.js"`},
		{name: "script", path: portal.ConsolePath + "/console.js", wantType: "text/javascript; charset=utf-8", wantBody: "/edge/login"},
		{name: "style sheet", path: portal.ConsolePath + "/console.css", wantType: "text/css; charset=utf-8", wantBody: ".uplot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fetch(t, http.MethodGet, srv.URL+tt.path, nil)
			if got.status != http.StatusOK {
				t.Fatalf("status %d", got.status)
			}
			if ct := got.header.Get("Content-Type"); ct != tt.wantType {
				t.Errorf("Content-Type %q, want %q", ct, tt.wantType)
			}
			csp := got.header.Get("Content-Security-Policy")
			for _, want := range []string{"default-src 'none'", "script-src 'self';", "style-src 'self';", "connect-src 'self'", "frame-ancestors 'none'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("CSP %q lacks %q", csp, want)
				}
			}
			if strings.Contains(csp, "unsafe") {
				t.Errorf("CSP %q allows unsafe sources", csp)
			}
			if !bytes.Contains(got.body, []byte(tt.wantBody)) {
				t.Errorf("body lacks %q", tt.wantBody)
			}
		})
	}
	got := fetch(t, http.MethodGet, srv.URL+portal.ConsolePath+"/", nil)
	if got.status != http.StatusMovedPermanently || got.header.Get("Location") != portal.ConsolePath {
		t.Errorf("trailing slash: status %d, Location %q; want 301 to %s", got.status, got.header.Get("Location"), portal.ConsolePath)
	}
}

// consoleBudget is the console's size budget, gzipped bytes of all its
// files together, the charting library and the SDK included (docs/console.md
// says why this figure).
const consoleBudget = 64_000

// TestConsoleBundleSize keeps the console within its budget (sizes.json is
// written by the build and checked for drift with the bundle).
func TestConsoleBundleSize(t *testing.T) {
	b, err := os.ReadFile("console/sizes.json")
	if err != nil {
		t.Fatal(err)
	}
	var sizes []struct {
		File  string `json:"file"`
		Bytes int    `json:"bytes"`
		Gzip  int    `json:"gzip"`
	}
	if err := json.Unmarshal(b, &sizes); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range sizes {
		onDisk, err := os.ReadFile("console/" + s.File)
		if err != nil {
			t.Fatal(err)
		}
		if len(onDisk) != s.Bytes {
			t.Errorf("%s has %d bytes, sizes.json says %d: run 'make generate'", s.File, len(onDisk), s.Bytes)
		}
		total += s.Gzip
	}
	if total == 0 || total >= consoleBudget {
		t.Errorf("the console is %d bytes gzipped; the budget is under %d", total, consoleBudget)
	}
}
