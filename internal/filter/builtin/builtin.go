// Package builtin holds the filter plugins compiled into the gateway:
// scale, rename, expression, delta, downsample, assets and metadata. Each
// is a plugin.Definition of kind filter, in the gateway's one plugin registry; their configurations are validated when an
// instance is created and whenever it is reconfigured.
package builtin

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/edged/edged/internal/plugin"
)

// Definitions returns the built-in filter plugins.
func Definitions() []plugin.Definition {
	return []plugin.Definition{
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
// else matches itself. The common shapes (`*`, a literal, `prefix*`) match
// without a regular expression: patterns run for every datapoint.
type pattern struct {
	re     *regexp.Regexp // nil for the shapes below
	any    bool           // "*"
	prefix string         // "prefix*", or the literal when exact
	exact  bool
}

func compilePattern(glob string) (pattern, error) {
	if glob == "" {
		return pattern{}, fmt.Errorf("a pattern is empty")
	}
	switch wild := strings.IndexAny(glob, "*?"); {
	case glob == "*":
		return pattern{any: true}, nil
	case wild < 0:
		return pattern{prefix: glob, exact: true}, nil
	case wild == len(glob)-1 && glob[wild] == '*':
		return pattern{prefix: glob[:wild]}, nil
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

func (p pattern) match(s string) bool {
	switch {
	case p.any:
		return true
	case p.re != nil:
		return p.re.MatchString(s)
	case p.exact:
		return s == p.prefix
	}
	return strings.HasPrefix(s, p.prefix)
}
