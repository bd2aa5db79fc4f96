// Package fleetconfig exports a gateway's whole configuration as one
// document, plans a document against the gateway (what would be created,
// changed and removed) and applies it idempotently: only differences are
// written, so applying the same document twice changes nothing the second
// time.
//
// The document never carries a secret: password items and the passwords
// of users are exported as references ({"fromEnv": NAME} or
// {"fromFile": PATH}). The gateway never resolves a reference: a client
// (the edged config command does) replaces each reference by the value it
// names on the operator's machine before sending the document, so a caller
// can never make the gateway read a file or an environment variable of its
// own. A reference that reaches the gateway is refused (Invalid).
package fleetconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Version is the version of the document format this package writes and
// reads.
const Version = 1

// Document is a gateway's configuration. A section that is absent (nil)
// is not managed: plan and apply leave that kind alone. A section that is
// present, even empty, is the whole truth for its kind: what the gateway
// has and the section lacks is removed (except what the gateway itself
// owns: see the package documentation in docs/fleet-config.md).
type Document struct {
	Version       int            `json:"version"`
	Categories    []Category     `json:"categories"`
	Services      []Service      `json:"services"`
	Filters       []Filter       `json:"filters"`
	Notifications []Notification `json:"notifications"`
	Schedules     []Schedule     `json:"schedules"`
	Users         []User         `json:"users"`
}

// SecretRef names where a secret comes from: an environment variable or a
// file of the machine that resolves the document.
type SecretRef struct {
	FromEnv  string `json:"fromEnv,omitempty"`
	FromFile string `json:"fromFile,omitempty"`
}

// String names the reference for messages.
func (r SecretRef) String() string {
	if r.FromEnv != "" {
		return fmt.Sprintf("fromEnv %q", r.FromEnv)
	}
	return fmt.Sprintf("fromFile %q", r.FromFile)
}

// Value is a configuration value: plain text, or a reference to a secret.
// On the wire it is a JSON string or a SecretRef object.
type Value struct {
	Text string
	Ref  *SecretRef
	// secret marks the value of a password item; it is never shown.
	secret bool
}

// Plain returns the text value s.
func Plain(s string) Value { return Value{Text: s} }

// MarshalJSON writes the text as a string, or the reference as an object.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.Ref != nil {
		return json.Marshal(v.Ref)
	}
	return json.Marshal(v.Text)
}

// UnmarshalJSON reads a string, or an object with exactly one of fromEnv
// and fromFile. Numbers and booleans are taken as their text, so a
// hand-written document may say `port: 6683` or `enable: true`.
func (v *Value) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '{':
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var r SecretRef
		if err := dec.Decode(&r); err != nil {
			return fmt.Errorf("a secret reference is {\"fromEnv\": NAME} or {\"fromFile\": PATH}: %w", err)
		}
		if (r.FromEnv == "") == (r.FromFile == "") {
			return fmt.Errorf("a secret reference names exactly one of fromEnv and fromFile")
		}
		*v = Value{Ref: &r}
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = Value{Text: s}
		return nil
	case bytes.Equal(b, []byte("null")):
		return fmt.Errorf("a value is a string or a secret reference, not null")
	case len(b) > 0 && b[0] == '[':
		return fmt.Errorf("a value is a string or a secret reference, not an array")
	}
	*v = Value{Text: string(b)} // a number or a boolean
	return nil
}

// shown is the value as a plan shows it: secrets masked.
func (v Value) shown() string {
	if v.secret || v.Ref != nil {
		return "****"
	}
	return v.Text
}

// Values are item values keyed by item name.
type Values map[string]Value

// Definition is the definition of an item of a category the document
// creates (attributes as in POST /edge/category).
type Definition struct {
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Default     string   `json:"default,omitempty"`
	DisplayName string   `json:"displayName,omitempty"`
	Order       string   `json:"order,omitempty"`
	Options     []string `json:"options,omitempty"`
	Validity    string   `json:"validity,omitempty"`
	Minimum     string   `json:"minimum,omitempty"`
	Maximum     string   `json:"maximum,omitempty"`
	Length      string   `json:"length,omitempty"`
	Readonly    string   `json:"readonly,omitempty"`
	Mandatory   string   `json:"mandatory,omitempty"`
}

// Category is a configuration category that belongs to no service, filter
// or notification. Items lists the values to hold; items not listed are
// left alone. Definitions are present for categories the gateway does not
// seed, so that applying to a fresh gateway can create them.
type Category struct {
	Name        string                `json:"name"`
	Description string                `json:"description,omitempty"`
	DisplayName string                `json:"displayName,omitempty"`
	Definitions map[string]Definition `json:"definitions,omitempty"`
	Items       Values                `json:"items"`
}

// Service is a south, north, notification or dispatcher service with its
// plugin configuration (every item that is not read-only) and its filter
// pipeline (absent: none).
type Service struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Plugin   string   `json:"plugin"`
	Enabled  bool     `json:"enabled"`
	Config   Values   `json:"config"`
	Pipeline []string `json:"pipeline"`
}

// Filter is a filter instance with its configuration.
type Filter struct {
	Name   string `json:"name"`
	Plugin string `json:"plugin"`
	Config Values `json:"config"`
}

// Notification is a notification instance with its rule's and its
// delivery channel's configuration and its extra channels.
type Notification struct {
	Name           string    `json:"name"`
	Description    string    `json:"description"`
	Type           string    `json:"type"`
	Enabled        bool      `json:"enabled"`
	RetriggerTime  float64   `json:"retriggerTime"`
	Rule           string    `json:"rule"`
	RuleConfig     Values    `json:"ruleConfig"`
	Channel        string    `json:"channel"`
	DeliveryConfig Values    `json:"deliveryConfig"`
	Channels       []Channel `json:"channels"`
}

// Channel is an extra delivery channel of a notification.
type Channel struct {
	Name   string `json:"name"`
	Plugin string `json:"plugin"`
	Config Values `json:"config"`
}

// Schedule is a schedule of the gateway's own (purge, statistics…):
// only whether it is enabled is managed. Services' schedules follow their
// service's enabled flag.
type Schedule struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

// User is a user account. Password is used only to create the user (a
// reference in an exported document); an existing user's password is never
// changed by apply.
type User struct {
	Name         string `json:"name"`
	Role         string `json:"role"`
	RealName     string `json:"realName"`
	Description  string `json:"description"`
	AccessMethod string `json:"accessMethod"`
	Password     *Value `json:"password,omitempty"`
}

// Change is one difference between a document and a gateway. From and To
// are absent for whole objects; secrets show as "****".
type Change struct {
	Action string  `json:"action"` // create, change or remove
	Kind   string  `json:"kind"`   // category, service, filter, notification, channel, schedule, user
	Name   string  `json:"name"`
	Field  string  `json:"field,omitempty"`
	From   *string `json:"from,omitempty"`
	To     *string `json:"to,omitempty"`
}

// Actions of a Change.
const (
	ActionCreate = "create"
	ActionChange = "change"
	ActionRemove = "remove"
)

// Result is what plan and apply answer.
type Result struct {
	Changes []Change `json:"changes"`
	Summary Summary  `json:"summary"`
}

// Summary counts the changes by action.
type Summary struct {
	Create int `json:"create"`
	Change int `json:"change"`
	Remove int `json:"remove"`
}

func summarize(changes []Change) Result {
	r := Result{Changes: changes}
	if r.Changes == nil {
		r.Changes = []Change{}
	}
	for _, c := range changes {
		switch c.Action {
		case ActionCreate:
			r.Summary.Create++
		case ActionChange:
			r.Summary.Change++
		case ActionRemove:
			r.Summary.Remove++
		}
	}
	return r
}
