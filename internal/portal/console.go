package portal

import (
	"embed"
	"net/http"
)

// consoleFiles is the operator console, built from web/console by
// `make generate` (esbuild bundles the TypeScript with the SDK and uPlot)
// and embedded in the binary. Never edit it by hand.
//
//go:embed console/index.html console/console.js console/console.css
var consoleFiles embed.FS

// ConsolePath is where the console is served; its script and style sheet
// are served beneath it.
const ConsolePath = "/edge/console"

// consoleCSP allows the console's own script and style sheet and requests
// to the gateway only: no inline script or style attribute, nothing from
// another host, no framing. uPlot styles its elements through the CSSOM,
// which style-src does not restrict.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// consoleDocuments returns the console's files by path.
func consoleDocuments() map[string]*document {
	headers := map[string]string{
		"Content-Security-Policy": consoleCSP,
		"Referrer-Policy":         "no-referrer",
		"X-Frame-Options":         "DENY",
	}
	read := func(name string) []byte {
		b, err := consoleFiles.ReadFile("console/" + name)
		if err != nil {
			panic("portal: the embedded console lacks " + name) // go:embed guarantees it
		}
		return b
	}
	return map[string]*document{
		ConsolePath:                  newDocument(read("index.html"), "text/html; charset=utf-8", headers),
		ConsolePath + "/console.js":  newDocument(read("console.js"), "text/javascript; charset=utf-8", headers),
		ConsolePath + "/console.css": newDocument(read("console.css"), "text/css; charset=utf-8", headers),
	}
}

// redirectTo answers a permanent redirect to path.
func redirectTo(path string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, path, http.StatusMovedPermanently)
	}
}
