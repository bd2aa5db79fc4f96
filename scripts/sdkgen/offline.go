package main

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
)

// redocLogos are the images Redoc's attribution ("API docs by Redocly")
// loads from Redocly's CDN, with the inline SVG each becomes: the name,
// drawn as text, in Redocly's blue.
var redocLogos = map[string]string{
	"https://cdn.redoc.ly/redoc/logo-mini-full.svg": logoSVG(72, "Redocly"),
	"https://cdn.redoc.ly/redoc/logo-mini.svg":      logoSVG(14, "R"),
}

func logoSVG(width int, text string) string {
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="16" viewBox="0 0 %d 16">`+
		`<text x="0" y="13" font-family="sans-serif" font-size="13" font-weight="bold" fill="#0044D4">%s</text></svg>`, width, width, text)
	return "data:image/svg+xml," + url.PathEscape(svg)
}

// offline rewrites the docs page in so that it loads nothing from another
// host, into out.
func offline(in, out string) error {
	page, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	for remote, inline := range redocLogos {
		if !bytes.Contains(page, []byte(remote)) {
			return fmt.Errorf("%s: no %s: has the Redoc build changed?", in, remote)
		}
		page = bytes.ReplaceAll(page, []byte(remote), []byte(inline))
	}
	const charset = `<meta charset="utf8" />`
	if !bytes.Contains(page, []byte(charset)) {
		return fmt.Errorf("%s: no %s to put the icon after", in, charset)
	}
	page = bytes.Replace(page, []byte(charset), []byte(charset+"\n  <link rel=\"icon\" href=\"data:,\" />"), 1)
	return os.WriteFile(out, page, 0o644)
}
