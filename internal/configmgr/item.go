package configmgr

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/edged/edged/db"
)

// The item types a definition may name (decisions §4). Type names are
// accepted case-insensitively in definitions and stored in this spelling.
const (
	TypeBoolean     = "boolean"
	TypeInteger     = "integer"
	TypeFloat       = "float"
	TypeString      = "string"
	TypeEnumeration = "enumeration"
	TypeJSON        = "JSON"
	TypeIPv4        = "IPv4"
	TypeIPv6        = "IPv6"
	TypeURL         = "URL"
	TypePassword    = "password"
)

// PasswordMask replaces the value (and default) of a password item in
// everything meant for clients: reads, CONAD and CONCH audit details.
const PasswordMask = "****"

// Item is one configuration item: its definition and its current value.
// The JSON field names are the wire names; every attribute is a string
// except Options. Value is always present, possibly empty; the other
// attributes are omitted when empty.
type Item struct {
	Description string   `json:"description,omitempty"`
	Type        string   `json:"type,omitempty"`
	Default     string   `json:"default,omitempty"`
	DisplayName string   `json:"displayName,omitempty"`
	Order       string   `json:"order,omitempty"`
	Value       string   `json:"value"`
	Options     []string `json:"options,omitempty"`
	// Validity is an expression over other items of the category (for
	// example `enableHttp == "false"`). It is display guidance, stored and
	// returned as given, and never enforced.
	Validity  string `json:"validity,omitempty"`
	Minimum   string `json:"minimum,omitempty"`
	Maximum   string `json:"maximum,omitempty"`
	Length    string `json:"length,omitempty"`
	Readonly  string `json:"readonly,omitempty"`
	Mandatory string `json:"mandatory,omitempty"`
}

// Category is a configuration category with its items, keyed by item name.
type Category struct {
	Key         string
	Description string
	DisplayName string
	Items       map[string]Item
}

// CategoryInput is a category definition given to Manager.Create. The
// Value of each item is ignored: a new item starts at its default.
type CategoryInput struct {
	Key         string
	Description string
	DisplayName string
	Items       map[string]Item
}

// masked returns a copy of it fit for a client: a non-empty value or
// default of a password item is replaced by PasswordMask.
func (it Item) masked() Item {
	it = it.clone()
	if it.Type == TypePassword {
		it.Value = maskValue(it.Type, it.Value)
		it.Default = maskValue(it.Type, it.Default)
	}
	return it
}

// Initial returns items as a client reads them from a category just
// created with them: each value its default, passwords masked. The plugin
// catalogue shows a plugin's items so, before any service has them.
func Initial(items map[string]Item) map[string]Item {
	out := make(map[string]Item, len(items))
	for name, it := range items {
		it.Value = it.Default
		out[name] = it.masked()
	}
	return out
}

// clone returns a copy of it that shares no memory with it.
func (it Item) clone() Item {
	it.Options = slices.Clone(it.Options)
	return it
}

// maskValue returns v as a client may see it for an item of type typ.
func maskValue(typ, v string) string {
	if typ == TypePassword && v != "" {
		return PasswordMask
	}
	return v
}

// masked returns a deep copy of c with every password masked.
func (c Category) masked() Category {
	out := c
	out.Items = make(map[string]Item, len(c.Items))
	for name, it := range c.Items {
		out.Items[name] = it.masked()
	}
	return out
}

// clone returns a deep copy of c.
func (c Category) clone() Category {
	out := c
	out.Items = make(map[string]Item, len(c.Items))
	for name, it := range c.Items {
		out.Items[name] = it.clone()
	}
	return out
}

// equal reports whether a and b hold the same description, display name
// and items.
func (c Category) equal(o Category) bool {
	return c.Key == o.Key && c.Description == o.Description && c.DisplayName == o.DisplayName &&
		maps.EqualFunc(c.Items, o.Items, func(a, b Item) bool {
			return a.Description == b.Description && a.Type == b.Type && a.Default == b.Default &&
				a.DisplayName == b.DisplayName && a.Order == b.Order && a.Value == b.Value &&
				slices.Equal(a.Options, b.Options) && a.Validity == b.Validity &&
				a.Minimum == b.Minimum && a.Maximum == b.Maximum && a.Length == b.Length &&
				a.Readonly == b.Readonly && a.Mandatory == b.Mandatory
		})
}

// decodeCategory converts a stored row into a Category.
func decodeCategory(row db.Category) (Category, error) {
	c := Category{Key: row.Key, Description: row.Description, DisplayName: row.DisplayName}
	if len(row.Items) > 0 {
		if err := json.Unmarshal(row.Items, &c.Items); err != nil {
			return Category{}, fmt.Errorf("configmgr: category %q holds malformed items: %w", row.Key, err)
		}
	}
	if c.Items == nil {
		c.Items = map[string]Item{}
	}
	return c, nil
}

// encodeCategory converts c into a row to store.
func encodeCategory(c Category) (db.Category, error) {
	items := c.Items
	if items == nil {
		items = map[string]Item{}
	}
	raw, err := json.Marshal(items)
	if err != nil {
		return db.Category{}, fmt.Errorf("configmgr: encode items of category %q: %w", c.Key, err)
	}
	return db.Category{Key: c.Key, Description: c.Description, DisplayName: c.DisplayName, Items: raw}, nil
}

// ValueReader reads an item's value in clear; *Manager implements it.
type ValueReader interface {
	Value(ctx context.Context, key, item string) (string, error)
}

// Unmasked returns a copy of c, as Category returned it (passwords
// masked), whose password items hold their values in clear, read through
// r: what a plugin instance is configured with.
func Unmasked(ctx context.Context, r ValueReader, c Category) (Category, error) {
	out := c
	out.Items = make(map[string]Item, len(c.Items))
	for name, it := range c.Items {
		if it.Type == TypePassword {
			v, err := r.Value(ctx, c.Key, name)
			if err != nil {
				return Category{}, fmt.Errorf("configuration of %q: %w", c.Key, err)
			}
			it.Value = v
		}
		out.Items[name] = it
	}
	return out, nil
}

// Values returns the value of every item of c by name.
func (c Category) Values() map[string]string {
	out := make(map[string]string, len(c.Items))
	for name, it := range c.Items {
		out[name] = it.Value
	}
	return out
}
