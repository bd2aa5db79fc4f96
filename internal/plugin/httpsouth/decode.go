package httpsouth

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/edged/edged/internal/plugin"
)

// A posted batch is decoded in one pass with a streaming JSON tokenizer
// (jsontext, the tokenizer of the Go team's JSON v2; docs/dependencies.md
// compares it with encoding/json). Its defaults are the strict rules
// storage needs: invalid UTF-8 and lone surrogate escapes (\ud800) are
// syntax errors, and so are duplicate names in an object, which the two
// stores would keep differently (PostgreSQL's jsonb the last, SQLite's text
// both). On top of it, the walk refuses what is valid JSON but cannot be
// stored alike on every store: the escape \u0000 (PostgreSQL cannot hold
// NUL) and numbers outside float64 (summaries and series compute in
// float64, and PostgreSQL cannot cast them).

// decoders recycles tokenizers and their buffers between requests.
var decoders = sync.Pool{New: func() any { return jsontext.NewDecoder(noBody) }}

// noBody is what an idle pooled tokenizer reads from, so it keeps no
// request body alive. It is never read.
var noBody = bytes.NewReader(nil)

// badBatch is a fault of the posted batch: the request is refused whole
// with status and a message naming the element.
type badBatch struct {
	status int
	msg    string
}

func (e *badBatch) Error() string { return e.msg }

// decode parses and validates a posted array; any fault refuses the whole
// request with the status to answer. sizeHint is the body's length when
// known (else ≤ 0); it sizes the buffers.
func decode(body io.Reader, prefix string, sizeHint int64) ([]plugin.Reading, int, error) {
	dec := decoders.Get().(*jsontext.Decoder)
	dec.Reset(body)
	defer func() {
		dec.Reset(noBody)
		decoders.Put(dec)
	}()
	b := batch{dec: dec, prefix: prefix, elem: -1}
	if sizeHint > 0 && sizeHint <= MaxBody {
		b.out = make([]plugin.Reading, 0, sizeHint/64+1)
		b.arena = make([]byte, 0, sizeHint/2)
	}
	if err := b.decode(); err != nil {
		// A fault may show before the end of the body: a body over the
		// limit is 413 whatever it holds, as when it is read whole.
		var tooLarge *http.MaxBytesError
		if _, rerr := io.Copy(io.Discard, body); errors.As(rerr, &tooLarge) {
			return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("request body exceeds %d bytes", tooLarge.Limit)
		}
		var bad *badBatch
		if errors.As(err, &bad) {
			return nil, bad.status, bad
		}
		return nil, http.StatusBadRequest, err
	}
	return b.out, http.StatusOK, nil
}

// batch is the state of one decode.
type batch struct {
	dec    *jsontext.Decoder
	prefix string
	elem   int // index of the element being read, -1 outside
	out    []plugin.Reading
	arena  []byte // the readings' compact JSON, back to back

	// The asset code of the previous element, raw and as stored: a batch
	// mostly repeats one asset, which then costs no allocation.
	lastRaw   []byte
	lastAsset string
}

func (b *batch) decode() error {
	tok, err := b.dec.ReadToken()
	if err != nil {
		return b.syntax(err)
	}
	if tok.Kind() != '[' {
		return errors.New("request body must be a JSON array of {timestamp, asset, readings}")
	}
	for {
		switch k := b.dec.PeekKind(); k {
		case ']':
			if _, err := b.dec.ReadToken(); err != nil {
				return b.syntax(err)
			}
			b.elem = -1
			if _, err := b.dec.ReadToken(); !errors.Is(err, io.EOF) {
				if err != nil {
					return b.syntax(err)
				}
				return errors.New("request body is not valid JSON: data after the array")
			}
			return nil
		case '{':
			b.elem = len(b.out)
			if err := b.element(); err != nil {
				return err
			}
		case 0: // a read or syntax error, which the next read returns
			_, err := b.dec.ReadValue()
			return b.syntax(err)
		default:
			b.elem = len(b.out)
			return b.fault("is not an object")
		}
	}
}

// element reads one {timestamp, asset, readings} object.
func (b *batch) element() error {
	if _, err := b.dec.ReadToken(); err != nil {
		return b.syntax(err)
	}
	var r plugin.Reading
	var haveTS, haveAsset, haveReadings bool
	for b.dec.PeekKind() != '}' {
		name, err := b.dec.ReadValue()
		if err != nil {
			return b.syntax(err)
		}
		field, err := unquote(name)
		if err != nil {
			return b.syntax(err)
		}
		switch string(field) {
		case "timestamp":
			v, err := b.stringField("timestamp")
			if err != nil {
				return err
			}
			if r.Timestamp, err = plugin.ParseTimestampBytes(v); err != nil {
				return b.fault(`field "timestamp": %v`, err)
			}
			haveTS = true
		case "asset":
			v, err := b.stringField("asset")
			if err != nil {
				return err
			}
			if r.Asset, err = b.asset(v); err != nil {
				return err
			}
			haveAsset = true
		case "readings":
			if b.dec.PeekKind() != '{' {
				if _, err := b.dec.ReadValue(); err != nil {
					return b.syntax(err)
				}
				return b.fault(`field "readings" must be a JSON object`)
			}
			start := len(b.arena)
			if err := b.readings(); err != nil {
				return err
			}
			r.Values = b.arena[start:len(b.arena):len(b.arena)]
			haveReadings = true
		default: // other fields are ignored, as senders may add their own
			if err := b.dec.SkipValue(); err != nil {
				return b.syntax(err)
			}
		}
	}
	if _, err := b.dec.ReadToken(); err != nil {
		return b.syntax(err)
	}
	switch {
	case !haveAsset:
		return b.fault(`field "asset" is missing`)
	case !haveTS:
		return b.fault(`field "timestamp" is missing`)
	case !haveReadings:
		return b.fault(`field "readings" is missing`)
	}
	b.out = append(b.out, r)
	return nil
}

// stringField reads the value of field, which must be a JSON string, and
// returns its text (valid only until the next read).
func (b *batch) stringField(field string) ([]byte, error) {
	v, err := b.dec.ReadValue()
	if err != nil {
		return nil, b.syntax(err)
	}
	if v.Kind() != '"' {
		return nil, b.fault("field %q must be a string", field)
	}
	s, err := unquote(v)
	if err != nil {
		return nil, b.syntax(err)
	}
	return s, nil
}

// asset returns the stored asset code of the text v.
func (b *batch) asset(v []byte) (string, error) {
	if b.lastRaw != nil && bytes.Equal(v, b.lastRaw) {
		return b.lastAsset, nil
	}
	switch {
	case len(v) == 0:
		return "", b.fault(`field "asset" is empty`)
	case bytes.IndexByte(v, 0) >= 0:
		return "", b.fault(`field "asset" contains a NUL character, which storage cannot hold`)
	}
	asset := b.prefix + string(v)
	if err := plugin.CheckAsset(asset); err != nil {
		// The ingest buffer would refuse it too; here the message can
		// name the element.
		return "", b.fault(`field "asset" (with the service's assetNamePrefix): %v`, err)
	}
	b.lastRaw = append(b.lastRaw[:0], v...)
	b.lastAsset = asset
	return b.lastAsset, nil
}

// readings copies the readings object at the decoder's position to the
// arena, compacted, checking every name and value on the way.
func (b *batch) readings() error {
	depth := 0
	start := len(b.arena)
	for {
		k := b.dec.PeekKind()
		switch k {
		case '{', '[':
			if _, err := b.dec.ReadToken(); err != nil {
				return b.syntax(err)
			}
			b.separate(start)
			b.arena = append(b.arena, byte(k))
			depth++
			continue
		case '}', ']':
			if _, err := b.dec.ReadToken(); err != nil {
				return b.syntax(err)
			}
			b.arena = append(b.arena, byte(k))
			if depth--; depth == 0 {
				return nil
			}
			continue
		}
		v, err := b.dec.ReadValue()
		if err != nil {
			return b.syntax(err)
		}
		switch k {
		case '"':
			if hasEscapedNUL(v) {
				return b.fault(`field "readings" contains a NUL character (\u0000) at %q, which storage cannot hold`, b.where())
			}
		case '0':
			if err := checkNumber(v); err != nil {
				return b.fault(`field "readings": %v at %q, which storage cannot hold`, err, b.where())
			}
		}
		b.separate(start)
		b.arena = append(b.arena, v...)
		if kind, n := b.dec.StackIndex(b.dec.StackDepth()); kind == '{' && n%2 == 1 {
			b.arena = append(b.arena, ':') // v was a member name
		}
	}
}

// separate appends the comma that precedes a value unless it opens its
// container or follows a member name; start is where the object began.
func (b *batch) separate(start int) {
	if n := len(b.arena); n > start {
		switch b.arena[n-1] {
		case '{', '[', ':':
		default:
			b.arena = append(b.arena, ',')
		}
	}
}

// where returns the JSON pointer of the value just read, inside the
// element's readings (e.g. "/readings/temp").
func (b *batch) where() string {
	p := string(b.dec.StackPointer())
	if _, rest, ok := strings.Cut(strings.TrimPrefix(p, "/"), "/"); ok {
		return "/" + rest
	}
	return p
}

// fault returns a badBatch naming the element being read.
func (b *batch) fault(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if b.elem >= 0 {
		msg = fmt.Sprintf("element %d: %s", b.elem, msg)
	}
	return &badBatch{status: http.StatusBadRequest, msg: msg + "; nothing was stored"}
}

// syntax turns a tokenizer or read error into the request's fault.
func (b *batch) syntax(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return &badBatch{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("request body exceeds %d bytes", tooLarge.Limit)}
	}
	var serr *jsontext.SyntacticError
	if !errors.As(err, &serr) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return &badBatch{status: http.StatusBadRequest, msg: fmt.Sprintf("request body could not be read: %v", err)}
	}
	detail := strings.TrimPrefix(err.Error(), "jsontext: ")
	if errors.Is(err, io.EOF) {
		detail = "it ends before the array does"
	}
	if b.elem >= 0 {
		return &badBatch{status: http.StatusBadRequest, msg: fmt.Sprintf("element %d is not valid JSON: %s; nothing was stored", b.elem, detail)}
	}
	return &badBatch{status: http.StatusBadRequest, msg: "request body is not valid JSON: " + detail}
}

// unquote returns the text of the JSON string v, without copying when it
// holds no escape.
func unquote(v []byte) ([]byte, error) {
	if bytes.IndexByte(v, '\\') < 0 {
		return v[1 : len(v)-1], nil
	}
	return jsontext.AppendUnquote(nil, v)
}

// checkNumber returns an error when the JSON number v is outside float64:
// too large (1e400, a 400-digit integer) or so small that it would round to
// zero (1e-400). Up to 15 digits without an exponent always fit, so most
// numbers are not parsed at all.
func checkNumber(v []byte) error {
	if len(v) <= 15 && !bytes.ContainsAny(v, "eE") {
		return nil
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return fmt.Errorf("number %s is outside the range of a 64-bit float", abbreviate(v))
	}
	if f == 0 && nonZeroMantissa(v) {
		return fmt.Errorf("number %s is too small for a 64-bit float", abbreviate(v))
	}
	return nil
}

// nonZeroMantissa reports whether the number v has a digit other than 0
// before its exponent.
func nonZeroMantissa(v []byte) bool {
	for _, c := range v {
		switch {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

// abbreviate shortens a long number for a message.
func abbreviate(v []byte) string {
	if len(v) <= 24 {
		return string(v)
	}
	return fmt.Sprintf("%s… (%d characters)", v[:12], len(v))
}

// hasEscapedNUL reports whether the JSON text b holds the escape \u0000 (a
// NUL character in a key or string), which PostgreSQL cannot store. An
// escaped backslash followed by "u0000" is ordinary text: the escape counts
// only after an odd number of backslashes.
func hasEscapedNUL(b []byte) bool {
	const esc = `\u0000`
	for i := bytes.Index(b, []byte(esc)); i >= 0; {
		n := 0
		for j := i; j >= 0 && b[j] == '\\'; j-- {
			n++
		}
		if n%2 == 1 {
			return true
		}
		next := bytes.Index(b[i+1:], []byte(esc))
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}
