// Package builtin holds the filter plugins compiled into the gateway:
// scale, rename, expression, delta, downsample, assets and metadata. Each
// is a plugin.FilterDefinition; their configurations are validated when an
// instance is created and whenever it is reconfigured.
package builtin

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/edged/edged/internal/plugin"
)

// Definitions returns the built-in filter plugins.
func Definitions() []plugin.FilterDefinition {
	return []plugin.FilterDefinition{
		scaleDefinition(),
		renameDefinition(),
		expressionDefinition(),
		deltaDefinition(),
		downsampleDefinition(),
		assetsDefinition(),
		metadataDefinition(),
	}
}

// pattern is a compiled glob: `*` matches any run of characters (a slash
// included, asset codes may hold one), `?` any one character; everything
// else matches itself.
type pattern struct{ re *regexp.Regexp }

func compilePattern(glob string) (pattern, error) {
	if glob == "" {
		return pattern{}, fmt.Errorf("a pattern is empty")
	}
	var b strings.Builder
	b.WriteString(`^`)
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`$`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return pattern{}, fmt.Errorf("pattern %q: %w", glob, err)
	}
	return pattern{re: re}, nil
}

func (p pattern) match(s string) bool { return p.re.MatchString(s) }

// decodeItem decodes the JSON value of item into v, strictly.
func decodeItem(cfg plugin.Config, item string, v any) error {
	d := json.NewDecoder(strings.NewReader(cfg.String(item)))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("item %q: %w", item, err)
	}
	return nil
}
