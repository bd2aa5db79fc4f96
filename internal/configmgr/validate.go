package configmgr

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/edged/edged/internal/fault"
)

// maxNameLength is the longest category key or item name, in characters.
const maxNameLength = 255

// canonicalTypes maps the lower-case spelling of each known type to its
// canonical spelling.
var canonicalTypes = map[string]string{
	"boolean":     TypeBoolean,
	"integer":     TypeInteger,
	"float":       TypeFloat,
	"string":      TypeString,
	"enumeration": TypeEnumeration,
	"json":        TypeJSON,
	"ipv4":        TypeIPv4,
	"ipv6":        TypeIPv6,
	"url":         TypeURL,
	"password":    TypePassword,
}

// where names an item for messages: `item "x" in category "y"`.
type where struct{ category, item string }

func (w where) String() string {
	return fmt.Sprintf("item %q in category %q", w.item, w.category)
}

// invalid returns a fault of kind Invalid.
func invalid(format string, args ...any) error {
	return fault.New(fault.Invalid, format, args...)
}

// isTrue reports whether a boolean attribute (readonly, mandatory) is set.
func isTrue(attr string) bool { return attr == "true" }

// hasControl reports whether s holds a control character or invalid UTF-8.
func hasControl(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	return strings.ContainsFunc(s, unicode.IsControl)
}

// checkKey validates a category key.
func checkKey(key string) error {
	switch n := utf8.RuneCountInString(key); {
	case n == 0:
		return invalid("category key is empty")
	case strings.TrimSpace(key) == "":
		return invalid("category key %q is blank", key)
	case n > maxNameLength:
		return invalid("category key is longer than %d characters", maxNameLength)
	case hasControl(key):
		return invalid("category key %q contains a control character", key)
	}
	return nil
}

// checkValue checks v against def's type and attributes, then against the
// rule of the gateway's own item w if it has one (see itemRules).
func checkValue(w where, def Item, noun, v string) (string, error) {
	v, err := checkTypedValue(w, def, noun, v)
	if err != nil {
		return "", err
	}
	if rule, ok := itemRules[w]; ok && v != "" {
		if err := rule(v); err != nil {
			return "", invalid("%s %q of %s is invalid: %v", noun, v, w, err)
		}
	}
	return v, nil
}

// checkTypedValue validates v (a value, or a default when noun is "default") of
// the item at w with definition def, and returns it in its stored form:
// booleans in lower case, integers in canonical base-10 form, anything else
// unchanged.
//
// An empty value means "not set". It is refused for a mandatory item, and
// accepted for a string or password item, and for an item of another type
// that has no default (the state a reset leaves it in).
func checkTypedValue(w where, def Item, noun, v string) (string, error) {
	if v == "" {
		if isTrue(def.Mandatory) {
			return "", invalid("%s is mandatory and its %s cannot be empty", w, noun)
		}
		if def.Type == TypeString || def.Type == TypePassword || def.Default == "" {
			return "", nil
		}
	}
	switch def.Type {
	case TypeBoolean:
		lv := strings.ToLower(v)
		if lv != "true" && lv != "false" {
			return "", invalid(`%s %q of %s is not "true" or "false"`, noun, v, w)
		}
		return lv, nil
	case TypeInteger:
		n, err := strconv.ParseInt(v, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return "", invalid("%s %s of %s is outside the 64-bit integer range", noun, v, w)
		}
		if err != nil {
			return "", invalid("%s %q of %s is not an integer", noun, v, w)
		}
		if def.Minimum != "" {
			if lo, _ := strconv.ParseInt(def.Minimum, 10, 64); n < lo {
				return "", invalid("%s %d of %s is below the minimum %s", noun, n, w, def.Minimum)
			}
		}
		if def.Maximum != "" {
			if hi, _ := strconv.ParseInt(def.Maximum, 10, 64); n > hi {
				return "", invalid("%s %d of %s is above the maximum %s", noun, n, w, def.Maximum)
			}
		}
		return strconv.FormatInt(n, 10), nil
	case TypeFloat:
		f, ok := parseNumber(v)
		if !ok {
			return "", invalid("%s %q of %s is not a number", noun, v, w)
		}
		if def.Minimum != "" {
			if lo, _ := parseNumber(def.Minimum); f < lo {
				return "", invalid("%s %s of %s is below the minimum %s", noun, v, w, def.Minimum)
			}
		}
		if def.Maximum != "" {
			if hi, _ := parseNumber(def.Maximum); f > hi {
				return "", invalid("%s %s of %s is above the maximum %s", noun, v, w, def.Maximum)
			}
		}
		return v, nil
	case TypeString, TypePassword:
		if def.Length != "" {
			if max, _ := strconv.Atoi(def.Length); utf8.RuneCountInString(v) > max {
				return "", invalid("%s of %s is longer than %d characters", noun, w, max)
			}
		}
		return v, nil
	case TypeEnumeration:
		if !slices.Contains(def.Options, v) {
			return "", invalid("%s %q of %s is not one of the options %s", noun, v, w, quoteList(def.Options))
		}
		return v, nil
	case TypeJSON:
		if !json.Valid([]byte(v)) {
			return "", invalid("%s of %s is not valid JSON", noun, w)
		}
		return v, nil
	case TypeIPv4:
		if a, err := netip.ParseAddr(v); err != nil || !a.Is4() {
			return "", invalid("%s %q of %s is not an IPv4 address", noun, v, w)
		}
		return v, nil
	case TypeIPv6:
		if a, err := netip.ParseAddr(v); err != nil || !a.Is6() {
			return "", invalid("%s %q of %s is not an IPv6 address", noun, v, w)
		}
		return v, nil
	case TypeURL:
		if u, err := url.Parse(v); err != nil || u.Scheme == "" || u.Host == "" {
			return "", invalid("%s %q of %s is not an absolute URL with a scheme and a host", noun, v, w)
		}
		return v, nil
	}
	return "", invalid("%s has unknown type %q", w, def.Type)
}

// parseNumber parses a finite decimal floating-point number. Hexadecimal
// notation, infinities and NaN are refused.
func parseNumber(s string) (float64, bool) {
	if strings.ContainsAny(s, "xX_") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// isDigits reports whether s is a non-empty string of ASCII digits.
func isDigits(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return r < '0' || r > '9' })
}

// quoteList renders options as `"a", "b", "c"`.
func quoteList(opts []string) string {
	q := make([]string, len(opts))
	for i, o := range opts {
		q[i] = strconv.Quote(o)
	}
	return strings.Join(q, ", ")
}

// reservedItemNames are the item names the category tree's paths take:
// /edge/category/{name}/children and /edge/category/{name}/parent route
// there, so an item of that name could not be read or set.
var reservedItemNames = []string{"children", "parent"}

// checkDefinition validates the definition of item name in category key and
// returns it normalised: canonical type spelling, lower-case readonly and
// mandatory, default in stored form, empty Value, nil Options when none.
func checkDefinition(key, name string, in Item) (Item, error) {
	w := where{category: key, item: name}
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return Item{}, invalid("category %q has an item with an empty name", key)
	case n > maxNameLength:
		return Item{}, invalid("an item name in category %q is longer than %d characters", key, maxNameLength)
	case hasControl(name):
		return Item{}, invalid("item name %q in category %q contains a control character", name, key)
	}
	if slices.Contains(reservedItemNames, name) {
		return Item{}, invalid("item name %q in category %q is reserved: /edge/category/{name}/%s addresses the category tree", name, key, name)
	}

	def := in.clone()
	def.Value = ""
	if len(def.Options) == 0 {
		def.Options = nil
	}

	if def.Type == "" {
		return Item{}, invalid("%s has no type", w)
	}
	typ, ok := canonicalTypes[strings.ToLower(def.Type)]
	if !ok {
		return Item{}, invalid("%s has unknown type %q", w, def.Type)
	}
	def.Type = typ

	for _, attr := range []struct {
		name string
		v    *string
	}{{"readonly", &def.Readonly}, {"mandatory", &def.Mandatory}} {
		if *attr.v == "" {
			continue
		}
		lv := strings.ToLower(*attr.v)
		if lv != "true" && lv != "false" {
			return Item{}, invalid(`%s %q of %s is not "true" or "false"`, attr.name, *attr.v, w)
		}
		*attr.v = lv
	}

	if def.Order != "" {
		if _, err := strconv.ParseInt(def.Order, 10, 32); err != nil || !isDigits(def.Order) {
			return Item{}, invalid("order %q of %s is not a non-negative integer", def.Order, w)
		}
	}

	if def.Length != "" {
		if n, err := strconv.ParseInt(def.Length, 10, 32); err != nil || !isDigits(def.Length) || n < 1 {
			return Item{}, invalid("length %q of %s is not a positive integer", def.Length, w)
		}
	}

	if err := checkBounds(w, def); err != nil {
		return Item{}, err
	}

	if def.Type == TypeEnumeration {
		if len(def.Options) == 0 {
			return Item{}, invalid("%s is an enumeration without options", w)
		}
		for i, o := range def.Options {
			if o == "" {
				return Item{}, invalid("%s has an empty option", w)
			}
			if slices.Contains(def.Options[:i], o) {
				return Item{}, invalid("%s has the option %q more than once", w, o)
			}
		}
		if def.Default == "" {
			return Item{}, invalid("%s is an enumeration without a default", w)
		}
	} else if def.Options != nil {
		return Item{}, invalid("%s has options but is not an enumeration", w)
	}

	if isTrue(def.Mandatory) && def.Default == "" {
		return Item{}, invalid("%s is mandatory but has no default", w)
	}

	if def.Default != "" {
		d, err := checkValue(w, def, "default", def.Default)
		if err != nil {
			return Item{}, err
		}
		def.Default = d
	}
	return def, nil
}

// checkBounds validates the minimum and maximum attributes: integers for an
// integer item, finite numbers otherwise, and minimum not above maximum.
func checkBounds(w where, def Item) error {
	var lo, hi float64
	for _, attr := range []struct {
		name string
		v    string
		out  *float64
	}{{"minimum", def.Minimum, &lo}, {"maximum", def.Maximum, &hi}} {
		if attr.v == "" {
			continue
		}
		if def.Type == TypeInteger {
			n, err := strconv.ParseInt(attr.v, 10, 64)
			if err != nil {
				return invalid("%s %q of %s is not an integer", attr.name, attr.v, w)
			}
			*attr.out = float64(n)
			continue
		}
		f, ok := parseNumber(attr.v)
		if !ok {
			return invalid("%s %q of %s is not a number", attr.name, attr.v, w)
		}
		*attr.out = f
	}
	if def.Minimum == "" || def.Maximum == "" {
		return nil
	}
	above := lo > hi
	if def.Type == TypeInteger { // compare exactly: float64 loses precision beyond 2^53
		l, _ := strconv.ParseInt(def.Minimum, 10, 64)
		h, _ := strconv.ParseInt(def.Maximum, 10, 64)
		above = l > h
	}
	if above {
		return invalid("%s has the minimum %s above its maximum %s", w, def.Minimum, def.Maximum)
	}
	return nil
}

// MaxName is the longest name, in characters, of what a category is named
// after: a service, a north task, a filter, a notification.
const MaxName = 100

// CheckName validates the name of what a category is named after (what
// says which: "service", "filter", …): 1 to MaxName characters, no control
// characters, no leading or trailing space. The error is an Invalid fault
// naming what.
func CheckName(what, name string) error {
	switch n := utf8.RuneCountInString(name); {
	case name == "":
		return invalid("%s name is empty", what)
	case n > MaxName:
		return invalid("%s name is longer than %d characters", what, MaxName)
	case !utf8.ValidString(name) || hasControl(name):
		return invalid("%s name %q contains a control character", what, name)
	case strings.TrimSpace(name) != name:
		return invalid("%s name %q has leading or trailing space", what, name)
	}
	return nil
}
