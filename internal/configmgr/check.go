package configmgr

import (
	"maps"
	"slices"
)

// CheckValues validates, without storing anything, the item definitions
// defs of a category key as Create would, and each of values (item name →
// value) against its item's definition as SetValue would. It returns the
// values in their stored form (booleans in lower case, integers canonical).
// This lets a caller refuse a whole request before creating anything.
//
// An invalid key or definition, a value naming no item, a value for a
// readonly item or a value failing its item's rules is a fault of kind
// Invalid naming the item.
func CheckValues(key string, defs map[string]Item, values map[string]string) (map[string]string, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	checked := make(map[string]Item, len(defs))
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		def, err := checkDefinition(key, name, defs[name])
		if err != nil {
			return nil, err
		}
		checked[name] = def
	}
	out := make(map[string]string, len(values))
	for _, name := range slices.Sorted(maps.Keys(values)) {
		w := where{category: key, item: name}
		def, ok := checked[name]
		if !ok {
			return nil, invalid("%s does not exist", w)
		}
		if isTrue(def.Readonly) {
			return nil, invalid("%s is read-only", w)
		}
		v, err := checkValue(w, def, "value", values[name])
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}
