package router

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/edged/edged/internal/fault"
)

// Media types of request bodies.
const (
	mediaJSON = "application/json"
	mediaText = "text/plain"
	mediaForm = "application/x-www-form-urlencoded"
)

// lenientMedia are the content types under which real clients send JSON
// without saying so: none at all, text/plain (browsers' "simple" requests)
// and form encoding (curl -d). A body sent with one of them is taken as JSON
// when it parses as JSON (decisions §1).
var lenientMedia = []string{"", mediaText, mediaForm}

// bodyMedia is what an operation accepts as its request body.
type bodyMedia struct {
	// json: the operation takes a JSON body.
	json bool
	// text: it also takes a text/plain body (the PEM certificate of
	// login), so a body that is not JSON keeps that meaning.
	text bool
}

func newBodyMedia(op *openapi3.Operation) bodyMedia {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return bodyMedia{}
	}
	content := op.RequestBody.Value.Content
	return bodyMedia{json: content.Get(mediaJSON) != nil, text: content.Get(mediaText) != nil}
}

// check settles the content type of a JSON operation's request body before
// validation, and refuses a JSON body that holds anything after its first
// value. A body sent as application/json stays so. One sent without a
// content type, as text/plain or form-encoded is marked application/json
// when it parses as JSON; when it does not, it is marked text/plain if the
// operation also takes text (a PEM certificate for login), and otherwise
// refused with 400 like any malformed JSON. Any other content type is 415.
// The body, bounded by the size limit, is read once here and put back.
func (m bodyMedia) check(r *http.Request) error {
	if !m.json || r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	header := r.Header.Get("Content-Type")
	mediaType := ""
	if header != "" {
		mt, _, err := mime.ParseMediaType(header)
		if err != nil {
			return fault.Wrap(fault.UnsupportedMedia, err, "request content type %q is not a valid media type; send %s", header, mediaJSON)
		}
		mediaType = mt
	}
	lenient := slices.Contains(lenientMedia, mediaType)
	if mediaType != mediaJSON && !lenient {
		return fault.New(fault.UnsupportedMedia, "request content type %q is not supported; send %s", mediaType, mediaJSON)
	}
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return RequestFault(err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil // an empty body is the validator's to judge
	}
	valid := json.Valid(body)
	switch {
	case lenient && !valid && m.text:
		r.Header.Set("Content-Type", mediaText)
		return nil
	case lenient:
		r.Header.Set("Content-Type", mediaJSON)
	}
	if valid {
		return nil
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fault.Wrap(fault.Invalid, err, "request body is not valid JSON: %s", OneLine(err.Error()))
	}
	return fault.New(fault.Invalid, "request body is not valid JSON")
}
