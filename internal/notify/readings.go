package notify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// decodeReadings decodes the body of a "readings" call,
// [{"asset", "timestamp", "readings": {…}}…], in one pass of a streaming
// tokenizer: it is the busiest call (every committed batch of watched
// assets), and decoding by reflection cost the notification service more
// than evaluating its rules (BenchmarkDecodeReadings). The result is what
// JSON v2's Unmarshal into []Reading gives: numbers as float64, nested
// values as JSON v2 decodes them into any, members other than the three
// ignored, duplicate names and invalid UTF-8 refused.
func decodeReadings(body []byte) ([]Reading, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	if dec.PeekKind() == 'n' { // null: no readings
		_, err := dec.ReadToken()
		return nil, end(dec, err)
	}
	if err := expect(dec, '['); err != nil {
		return nil, err
	}
	rs := make([]Reading, 0, len(body)/96+1) // the feed's readings are about 100 bytes
	for dec.PeekKind() == '{' {
		r, err := decodeReading(dec)
		if err != nil {
			return nil, fmt.Errorf("reading %d: %w", len(rs), err)
		}
		rs = append(rs, r)
	}
	if err := end(dec, expect(dec, ']')); err != nil {
		return nil, err
	}
	return rs, nil
}

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

// decodeReading decodes one element, whose '{' is next.
func decodeReading(dec *jsontext.Decoder) (Reading, error) {
	var r Reading
	if err := expect(dec, '{'); err != nil {
		return r, err
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return r, err
		}
		switch name.String() {
		case "asset":
			if r.Asset, err = stringToken(dec, "asset"); err != nil {
				return r, err
			}
		case "timestamp":
			s, err := stringToken(dec, "timestamp")
			if err != nil {
				return r, err
			}
			if r.Timestamp, err = time.Parse(time.RFC3339Nano, s); err != nil {
				return r, fmt.Errorf("timestamp: %w", err)
			}
		case "readings":
			if r.Values, err = decodeValues(dec); err != nil {
				return r, fmt.Errorf("readings: %w", err)
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return r, err
			}
		}
	}
	return r, expect(dec, '}')
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

// stringToken reads the next token, which must be a string.
func stringToken(dec *jsontext.Decoder, what string) (string, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return "", err
	}
	if tok.Kind() != '"' {
		return "", fmt.Errorf("%s: found %v where a string was expected", what, tok.Kind())
	}
	return tok.String(), nil
}
