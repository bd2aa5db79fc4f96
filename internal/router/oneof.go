package router

import (
	"errors"

	"github.com/getkin/kin-openapi/openapi3"
)

// closestBranch narrows a failed oneOf or anyOf over a JSON object to the
// error of the alternative the object most resembles: the one with the
// most of its required properties present (the first on a tie). So a
// create body lacking `type` is told that `type` is required, not that it
// "doesn't match any schema from oneOf". It returns that alternative's
// error and its JSON pointer from the request's root, or ok false when se
// is not such a failure.
func closestBranch(se *openapi3.SchemaError) (branch *openapi3.SchemaError, pointer []string, ok bool) {
	var alternatives openapi3.SchemaRefs
	switch se.SchemaField {
	case "oneOf":
		alternatives = se.Schema.OneOf
	case "anyOf":
		alternatives = se.Schema.AnyOf
	default:
		return nil, nil, false
	}
	obj, isObject := se.Value.(map[string]any)
	var failures openapi3.MultiError
	if !isObject || se.Origin == nil || !errors.As(se.Origin, &failures) || len(failures) != len(alternatives) {
		return nil, nil, false
	}
	best, bestScore := -1, -1
	for i, alt := range alternatives {
		if alt.Value == nil {
			continue
		}
		score := 0
		for _, name := range alt.Value.Required {
			if _, present := obj[name]; present {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 || !errors.As(failures[best], &branch) {
		return nil, nil, false
	}
	return branch, append(se.JSONPointer(), branch.JSONPointer()...), true
}
