package router

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/edged/edged/internal/fault"
)

// The NUL character (U+0000) is refused in every text a request carries:
// path parameters, the operation's query parameters, and the strings (keys
// included) of a JSON body. PostgreSQL stores no NUL in text or jsonb, so
// without this rule the same request would be stored on SQLite and fail on
// PostgreSQL; with it, both answer 400 before any handler runs.
//
// So is text that is not UTF-8, in the same places: a percent-encoded path
// or query parameter that decodes to invalid UTF-8 (PostgreSQL refuses it,
// SQLite would store it), and a JSON body with invalid UTF-8 or a lone
// UTF-16 surrogate escape such as \ud800 (Go's JSON decoder would quietly
// turn either into U+FFFD, storing something other than what was sent).
// Ingest refuses the same in the readings it is sent.

// nulRefusal is the end of the message of a refused NUL.
const nulRefusal = "contains a NUL character (U+0000), which the gateway does not accept in text"

// utf8Refusal is the end of the message of text that is not UTF-8.
const utf8Refusal = "is not valid UTF-8 text"

// surrogateRefusal is the end of the message of a lone surrogate escape.
const surrogateRefusal = "holds a lone UTF-16 surrogate escape (\\ud800-\\udfff), which is not a character"

// nulCheck refuses NUL characters in the requests of one operation.
type nulCheck struct {
	// query holds the names of the operation's query parameters; other
	// query parameters are ignored by the gateway, so they are not judged.
	query []string
}

// newNULCheck returns the check for the operation op of the path item.
func newNULCheck(item *openapi3.PathItem, op *openapi3.Operation) nulCheck {
	var c nulCheck
	for _, params := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, p := range params {
			if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
				c.query = append(c.query, p.Value.Name)
			}
		}
	}
	slices.Sort(c.query)
	return c
}

// check returns an Invalid fault naming the first path parameter, query
// parameter or body field whose text holds a NUL, or nil. A JSON body is
// read and put back for the handlers that follow.
func (c nulCheck) check(r *http.Request, pathParams map[string]string) error {
	names := make([]string, 0, len(pathParams))
	for name := range pathParams {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := checkText("path parameter", name, pathParams[name]); err != nil {
			return err
		}
	}
	if len(c.query) > 0 {
		query := r.URL.Query()
		for _, name := range c.query {
			for _, v := range query[name] {
				if err := checkText("query parameter", name, v); err != nil {
					return err
				}
			}
		}
	}
	return jsonBodyNUL(r)
}

// checkText returns an Invalid fault when the value of the parameter name
// (of kind what) holds a NUL or is not UTF-8, or nil.
func checkText(what, name, value string) error {
	switch {
	case strings.ContainsRune(value, 0):
		return fault.New(fault.Invalid, "%s %q %s", what, name, nulRefusal)
	case !utf8.ValidString(value):
		return fault.New(fault.Invalid, "%s %q %s", what, name, utf8Refusal)
	}
	return nil
}

// jsonBodyNUL checks the strings of a JSON request body. A raw NUL byte
// is not valid JSON, so only the escape \u0000 can bring one in.
func jsonBodyNUL(r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	if mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mediaType != "application/json" {
		return nil
	}
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return RequestFault(err)
	}
	if err := jsonBodyText(body); err != nil {
		return err
	}
	if !bytes.Contains(body, []byte(`\u0000`)) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		// singleJSONValue let the body through, so it is JSON; say so
		// anyway rather than pass it on unchecked.
		return RequestFault(err)
	}
	if field, ok := findNUL(v, ""); ok {
		if field == "" {
			return fault.New(fault.Invalid, "request body %s", nulRefusal)
		}
		return fault.New(fault.Invalid, "request body field %q %s", field, nulRefusal)
	}
	return nil
}

// findNUL returns the dotted path of the first string in v (a key or a
// value, in key order) that holds a NUL.
func findNUL(v any, at string) (string, bool) {
	join := func(name string) string {
		if at == "" {
			return name
		}
		return at + "." + name
	}
	switch v := v.(type) {
	case string:
		return at, strings.ContainsRune(v, 0)
	case []any:
		for i, e := range v {
			if field, ok := findNUL(e, join(strconv.Itoa(i))); ok {
				return field, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if strings.ContainsRune(k, 0) {
				return join(k), true
			}
			if field, ok := findNUL(v[k], join(k)); ok {
				return field, true
			}
		}
	}
	return "", false
}

// surrogateEscape matches a JSON escape of a UTF-16 surrogate (a lone one
// is refused; a pair is a character and passes the decode below).
var surrogateEscape = regexp.MustCompile(`\\u[dD][89a-fA-F]`)

// jsonBodyText refuses a JSON body holding invalid UTF-8 or a lone
// surrogate escape, naming the field. The strict tokenizer of JSON v2
// (jsontext, as ingest uses) finds and locates both; a body that is not
// JSON for another reason is left to the validator.
func jsonBodyText(body []byte) error {
	if utf8.Valid(body) && !surrogateEscape.Match(body) {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewReader(body), jsontext.AllowDuplicateNames(true))
	_, err := dec.ReadValue()
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return nil
	}
	reason := utf8Refusal
	switch text := se.Err.Error(); {
	case strings.Contains(text, "UTF-8"):
	case strings.Contains(text, "surrogate"), strings.Contains(text, `\u`):
		reason = surrogateRefusal
	default:
		return nil
	}
	var field []string
	for tok := range se.JSONPointer.Tokens() {
		field = append(field, tok)
	}
	if len(field) == 0 {
		return fault.New(fault.Invalid, "request body %s", reason)
	}
	return fault.New(fault.Invalid, "request body field %q %s", strings.Join(field, "."), reason)
}
