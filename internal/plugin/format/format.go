// Package format renders readings with the templates north plugins are
// configured with (a topic, a subject, a payload): Go text/template over
// the reading's asset, timestamp and datapoints, with a json function.
package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"text/template"

	"github.com/edged/edged/internal/plugin"
)

// DefaultPayload is the payload template of the north plugins unless
// configured otherwise: the reading as http_south takes it.
const DefaultPayload = `{"asset": {{json .Asset}}, "timestamp": {{json .Timestamp}}, "readings": {{json .Readings}}}`

// Help describes what a template sees, for the items' descriptions.
const Help = "Go text/template: {{.Asset}}, {{.Service}}, {{.Timestamp}}, {{.Readings}} (the datapoints; {{index .Readings \"name\"}} one of them) and the function json"

// TimestampLayout is how {{.Timestamp}} shows a reading's time (UTC).
const TimestampLayout = "2006-01-02 15:04:05.000000"

// Message is what a template sees.
type Message struct {
	Asset     string
	Service   string
	Timestamp string
	Readings  map[string]any
}

var funcs = template.FuncMap{"json": func(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}}

// Template is a parsed template; it is safe for concurrent use.
type Template struct{ t *template.Template }

// Parse parses text; name names it in errors.
func Parse(name, text string) (*Template, error) {
	t, err := template.New(name).Funcs(funcs).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s template: %w", name, err)
	}
	return &Template{t: t}, nil
}

// Render renders r, read by service.
func (t *Template) Render(service string, r plugin.Reading) ([]byte, error) {
	m := Message{Asset: r.Asset, Service: service, Timestamp: r.Timestamp.UTC().Format(TimestampLayout)}
	if err := json.Unmarshal(r.Values, &m.Readings); err != nil || m.Readings == nil {
		m.Readings = map[string]any{}
	}
	var b bytes.Buffer
	if err := t.t.Execute(&b, m); err != nil {
		return nil, fmt.Errorf("%s of a reading of %q: %w", t.t.Name(), r.Asset, err)
	}
	return b.Bytes(), nil
}
