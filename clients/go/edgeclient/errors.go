package edgeclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"time"
)

// Sentinel errors an *APIError matches with errors.Is, one per HTTP status a
// caller usually handles on its own:
//
//	if errors.Is(err, edgeclient.ErrNotFound) { … }
var (
	ErrBadRequest      = errors.New("edged: bad request")       // 400
	ErrUnauthorized    = errors.New("edged: unauthorized")      // 401
	ErrForbidden       = errors.New("edged: forbidden")         // 403
	ErrNotFound        = errors.New("edged: not found")         // 404
	ErrConflict        = errors.New("edged: conflict")          // 409
	ErrTooLarge        = errors.New("edged: request too large") // 413
	ErrTooManyRequests = errors.New("edged: too many requests") // 429
	ErrNotImplemented  = errors.New("edged: not implemented")   // 501
	ErrUnavailable     = errors.New("edged: unavailable")       // 503
)

// sentinelByStatus maps a status to the sentinel an *APIError with that
// status matches.
var sentinelByStatus = map[int]error{
	http.StatusBadRequest:            ErrBadRequest,
	http.StatusUnauthorized:          ErrUnauthorized,
	http.StatusForbidden:             ErrForbidden,
	http.StatusNotFound:              ErrNotFound,
	http.StatusConflict:              ErrConflict,
	http.StatusRequestEntityTooLarge: ErrTooLarge,
	http.StatusTooManyRequests:       ErrTooManyRequests,
	http.StatusNotImplemented:        ErrNotImplemented,
	http.StatusServiceUnavailable:    ErrUnavailable,
}

// APIError is a response of the gateway with a status outside 2xx. Every
// error body of the API is {"message": "..."}; Message holds that sentence
// (or the raw body, or the status text, when the body is not that shape).
type APIError struct {
	// StatusCode is the HTTP status, e.g. 404.
	StatusCode int
	// Message is the gateway's one-sentence explanation.
	Message string
	// RequestID is the response's X-Request-Id, which the gateway's log
	// lines quote; empty if the response had none.
	RequestID string
	// RetryAfter is the wait the answer's Retry-After header asks for
	// (429 after failed logins, 503), or zero.
	RetryAfter time.Duration
	// Header is the answer's header.
	Header http.Header
	// Body is the answer's body (its first MiB).
	Body []byte
}

// Error renders the status, its phrase, the message and the request id:
//
//	edged: 400 Bad Request: name: must not be empty (request id req-1)
//
// The Python and TypeScript SDKs render the same answer as the same text
// (clients/testdata/error-answers.json); the phrase is net/http's
// StatusText, left out for a status without one.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "edged: %d", e.StatusCode)
	if phrase := http.StatusText(e.StatusCode); phrase != "" {
		b.WriteString(" ")
		b.WriteString(phrase)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request id %s)", e.RequestID)
	}
	return b.String()
}

// Is reports whether target is the sentinel of e's status, so that
// errors.Is(err, ErrNotFound) holds for every 404.
func (e *APIError) Is(target error) bool {
	s, ok := sentinelByStatus[e.StatusCode]
	return ok && s == target
}

// Response is implemented by every generated *XxxResponse (and XxxResponse)
// of this package.
type Response interface {
	StatusCode() int
	Status() string
}

// Check turns the result of a generated XxxWithResponse call of the raw
// clients (Client.Raw, NewClientWithResponses) into an error when the call
// failed or the gateway answered outside 2xx; Client's own calls need no
// Check. It returns resp unchanged, so a call reads
//
//	ping, err := edgeclient.Check(c.Raw.PingWithResponse(ctx))
//
// A transport error is returned as is; a non-2xx answer as an *APIError.
func Check[R Response](resp R, err error) (R, error) {
	if err != nil {
		return resp, err
	}
	if isNil(resp) {
		return resp, errors.New("edged: no response")
	}
	if code := resp.StatusCode(); code >= 200 && code < 300 {
		return resp, nil
	}
	return resp, newAPIError(resp)
}

// newAPIError builds the *APIError of a generated response. The generated
// responses carry the raw body in their Body field and the *http.Response in
// HTTPResponse; they share no method for either, hence the reflection.
func newAPIError(resp Response) *APIError {
	v := reflect.ValueOf(resp)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	var (
		body []byte
		hr   = &http.Response{StatusCode: resp.StatusCode(), Header: http.Header{}}
	)
	if v.Kind() == reflect.Struct {
		if f := v.FieldByName("Body"); f.IsValid() && f.Type() == reflect.TypeFor[[]byte]() {
			body = f.Bytes()
		}
		if f := v.FieldByName("HTTPResponse"); f.IsValid() && f.Type() == reflect.TypeFor[*http.Response]() && !f.IsNil() {
			hr = f.Interface().(*http.Response)
		}
	}
	return errorFromHTTP(hr, body)
}

// errorFromHTTP builds the *APIError of an answer outside 2xx.
func errorFromHTTP(resp *http.Response, body []byte) *APIError {
	e := &APIError{
		StatusCode: resp.StatusCode,
		RequestID:  resp.Header.Get("X-Request-Id"),
		Header:     resp.Header,
		Body:       body,
		Message:    messageOf(body, resp.StatusCode),
	}
	e.RetryAfter, _ = retryAfter(resp.Header.Get("Retry-After"), time.Now())
	return e
}

// messageOf extracts the message of an error body: its message, else its
// text (trimmed, 200 characters at most), else the status's phrase.
func messageOf(body []byte, status int) string {
	var m struct {
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(body, &m); err == nil && m.Message != nil && *m.Message != "" {
		return *m.Message
	}
	if s := strings.TrimSpace(string(body)); s != "" {
		const maxRunes = 200
		if r := []rune(s); len(r) > maxRunes {
			s = string(r[:maxRunes]) + "…"
		}
		return s
	}
	return http.StatusText(status)
}

// checked finishes a call of the convenience Client (client.convenience.gen.go):
// rsp and err are the raw client's answer, parse the operation's generated
// ParseXxxResponse. A 2xx answer returns what parse returns; an answer
// outside 2xx returns the parsed response (its JSON400, JSON404, … and Body)
// beside its *APIError, or the *APIError alone when the body is not the
// documented one (an HTML page of a proxy). A transport error is returned as
// is.
func checked[R Response](rsp *http.Response, err error, parse func(*http.Response) (R, error)) (R, error) {
	var zero R
	if err != nil {
		return zero, err
	}
	body, err := io.ReadAll(rsp.Body)
	_ = rsp.Body.Close()
	if err != nil {
		return zero, err
	}
	rsp.Body = io.NopCloser(bytes.NewReader(body))
	r, perr := parse(rsp)
	if rsp.StatusCode >= 200 && rsp.StatusCode < 300 {
		return r, perr
	}
	apiErr := errorFromHTTP(rsp, body[:min(len(body), maxErrorBody)])
	if perr != nil {
		return zero, apiErr
	}
	return r, apiErr
}

func isNil(r Response) bool {
	if r == nil {
		return true
	}
	v := reflect.ValueOf(r)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
