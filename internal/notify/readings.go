package notify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// DecodeValues decodes a reading's values, a JSON object, in one pass of
// a streaming tokenizer: readings are the notification service's busiest
// input (every committed batch of watched assets), and decoding by
// reflection cost it more than evaluating its rules
// (BenchmarkDecodeValues). The result is what JSON v2's Unmarshal into a
// map[string]any gives: numbers as float64, nested values as JSON v2
// decodes them into any, duplicate names and invalid UTF-8 refused; null
// is no values.
func DecodeValues(b []byte) (map[string]any, error) {
	d := decoders.Get().(*decoder)
	defer decoders.Put(d)
	d.r.Reset(b)
	d.dec.Reset(&d.r)
	values, err := decodeValues(d.dec)
	if err := end(d.dec, err); err != nil {
		return nil, err
	}
	return values, nil
}

// decoder is a tokenizer with its reader, kept for reuse: making one for
// each reading's values cost more than decoding them.
type decoder struct {
	r   bytes.Reader
	dec *jsontext.Decoder
}

var decoders = sync.Pool{New: func() any {
	d := &decoder{}
	d.dec = jsontext.NewDecoder(&d.r)
	return d
}}

// end returns err, or an error if anything follows the document.
func end(dec *jsontext.Decoder, err error) error {
	if err != nil {
		return err
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON document")
	}
	return nil
}

// decodeValues decodes a reading's values: an object (or null).
func decodeValues(dec *jsontext.Decoder) (map[string]any, error) {
	if dec.PeekKind() == 'n' {
		_, err := dec.ReadToken()
		return nil, err
	}
	if err := expect(dec, '{'); err != nil {
		return nil, err
	}
	values := make(map[string]any, 4)
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String() // a token is valid until the next read
		var v any
		switch dec.PeekKind() {
		case '0', '"', 't', 'f', 'n':
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			switch tok.Kind() {
			case '0':
				v = tok.Float()
			case '"':
				v = tok.String()
			case 't', 'f':
				v = tok.Bool()
			}
		default: // an object or an array
			raw, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			if err := jsonv2.Unmarshal(raw, &v); err != nil {
				return nil, err
			}
		}
		values[name] = v
	}
	return values, expect(dec, '}')
}

// expect reads the next token, which must be the delimiter kind.
func expect(dec *jsontext.Decoder, kind jsontext.Kind) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != kind {
		return fmt.Errorf("found %v where %v was expected", tok.Kind(), kind)
	}
	return nil
}
