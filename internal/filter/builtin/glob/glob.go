// Package glob is the wildcard patterns of the built-in filters (asset
// codes, datapoint names): `*` any run of characters, `?` any one.
package glob

import (
	"fmt"
	"regexp"
	"strings"
)

// Pattern is a compiled glob: `*` matches any run of characters (a slash
// included, asset codes may hold one), `?` any one character; everything
// else matches itself. The common shapes (`*`, a literal, `prefix*`) match
// without a regular expression: patterns run for every datapoint.
type Pattern struct {
	re     *regexp.Regexp // nil for the shapes below
	any    bool           // "*"
	prefix string         // "prefix*", or the literal when exact
	exact  bool
}

// Compile compiles glob.
func Compile(glob string) (Pattern, error) {
	if glob == "" {
		return Pattern{}, fmt.Errorf("a pattern is empty")
	}
	switch wild := strings.IndexAny(glob, "*?"); {
	case glob == "*":
		return Pattern{any: true}, nil
	case wild < 0:
		return Pattern{prefix: glob, exact: true}, nil
	case wild == len(glob)-1 && glob[wild] == '*':
		return Pattern{prefix: glob[:wild]}, nil
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
		return Pattern{}, fmt.Errorf("pattern %q: %w", glob, err)
	}
	return Pattern{re: re}, nil
}

// Match tells whether s matches the pattern.
func (p Pattern) Match(s string) bool {
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
