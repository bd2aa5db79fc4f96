package edgeplugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// A plugin declares its configuration as a struct whose fields carry an
// `item` tag: ItemsOf derives the configuration items (what Info.Items
// and a built-in plugin's definition hold, and what the gateway shows and
// validates), Decode fills the struct from a configuration. The tags:
//
//	item        the item's name (required; a field without it is not an item)
//	desc        its description
//	display     its display name
//	default     its default value, as the configuration holds it
//	order       its order; when absent, the field's position among the items (1, 2, …)
//	type        its type when not the field's: password, enumeration, JSON, URL,
//	            IPv4, IPv6, code, …; by default string for a string,
//	            integer for an int, float for a float64, boolean for a bool
//	options     an enumeration's options, separated by |
//	min, max    the limits of a number
//	length      the most characters of a string
//	mandatory   "true" when a value is required
//	readonly    "true" when clients may not change it
//	validity    an expression over other items telling when it applies
//
// A field of type JSON is decoded from its item's JSON text, strictly (a
// field the Go type lacks is an error); a string field of type JSON keeps
// the text. Any other
// field must be a string, a bool, an integer or a float.
//
//	type Config struct {
//		Asset string `item:"asset" desc:"Asset code of the readings" display:"Asset" default:"csv" mandatory:"true"`
//		Rate  int    `item:"rate" desc:"Rows read per second" display:"Rate" default:"1" min:"1" max:"10000"`
//	}

// ErrSchema means a configuration struct whose tags do not describe items.
var ErrSchema = errors.New("configuration struct")

// schemaField is one item of a configuration struct.
type schemaField struct {
	index []int
	name  string
	item  Item
}

// fieldsOf returns the items of the struct type t, in field order.
func fieldsOf(t reflect.Type) ([]schemaField, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%w: %s is not a struct", ErrSchema, t)
	}
	var out []schemaField
	if err := appendFields(&out, map[string]bool{}, t, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// appendFields appends the items of struct type t, whose fields are at
// index below the outer struct, to out; an embedded struct without an item
// tag adds its items in its place (items several plugins share).
func appendFields(out *[]schemaField, seen map[string]bool, t reflect.Type, index []int) error {
	for i := range t.NumField() {
		f := t.Field(i)
		f.Index = append(append([]int{}, index...), f.Index...)
		name, ok := f.Tag.Lookup("item")
		if !ok {
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				if err := appendFields(out, seen, f.Type, f.Index); err != nil {
					return err
				}
			}
			continue
		}
		if name == "" || seen[name] {
			return fmt.Errorf("%w: field %s: item name %q is empty or taken", ErrSchema, f.Name, name)
		}
		seen[name] = true
		tag := f.Tag.Get
		it := Item{Description: tag("desc"), DisplayName: tag("display"), Default: tag("default"), Order: tag("order"),
			Minimum: tag("min"), Maximum: tag("max"), Length: tag("length"), Mandatory: tag("mandatory"),
			Readonly: tag("readonly"), Validity: tag("validity"), Type: tag("type")}
		if o := tag("options"); o != "" {
			it.Options = strings.Split(o, "|")
		}
		if it.Order == "" {
			it.Order = strconv.Itoa(len(*out) + 1)
		}
		kindType, err := goType(f.Type)
		if err != nil && !strings.EqualFold(it.Type, "JSON") {
			return fmt.Errorf("%w: field %s (item %q): %w", ErrSchema, f.Name, name, err)
		}
		if it.Type == "" {
			it.Type = kindType
		}
		if it.Description == "" {
			return fmt.Errorf("%w: field %s (item %q) has no desc", ErrSchema, f.Name, name)
		}
		*out = append(*out, schemaField{index: f.Index, name: name, item: it})
	}
	return nil
}

// goType returns the item type a field of type t has by default.
func goType(t reflect.Type) (string, error) {
	switch t.Kind() {
	case reflect.String:
		return "string", nil
	case reflect.Bool:
		return "boolean", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer", nil
	case reflect.Float32, reflect.Float64:
		return "float", nil
	}
	return "", fmt.Errorf("a field of type %s needs type:\"JSON\"", t)
}

// ItemsOf returns the configuration items that the struct v (or a pointer
// to one) declares. It fails with ErrSchema when a tag is malformed: a
// field of a type that is no item type, an item without a description or
// a name used twice.
func ItemsOf(v any) (map[string]Item, error) {
	fields, err := fieldsOf(reflect.TypeOf(v))
	if err != nil {
		return nil, err
	}
	out := make(map[string]Item, len(fields))
	for _, f := range fields {
		out[f.name] = f.item
	}
	return out, nil
}

// MustItemsOf is ItemsOf for a struct fixed at compile time: it panics on
// a malformed one (a test of the plugin finds it).
func MustItemsOf(v any) map[string]Item {
	items, err := ItemsOf(v)
	if err != nil {
		panic(err)
	}
	return items
}

// Decode fills the struct v points to from cfg: each item field gets its
// item's value, or its default when cfg lacks the item. An item whose
// value does not parse as its field's type is an error naming the item.
func Decode(cfg Config, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("%w: Decode needs a pointer to a struct, not %T", ErrSchema, v)
	}
	fields, err := fieldsOf(rv.Type())
	if err != nil {
		return err
	}
	s := rv.Elem()
	for _, f := range fields {
		text, ok := cfg[f.name]
		if !ok {
			text = f.item.Default
		}
		if err := setField(s.FieldByIndex(f.index), f.item, text); err != nil {
			return fmt.Errorf("item %q = %q: %w", f.name, text, err)
		}
	}
	return nil
}

// setField parses text into the field fv.
func setField(fv reflect.Value, it Item, text string) error {
	if strings.EqualFold(it.Type, "JSON") && fv.Kind() != reflect.String {
		if strings.TrimSpace(text) == "" {
			fv.SetZero()
			return nil
		}
		p := reflect.New(fv.Type())
		d := json.NewDecoder(strings.NewReader(text))
		d.DisallowUnknownFields()
		if err := d.Decode(p.Interface()); err != nil {
			return fmt.Errorf("not JSON of the item's shape: %w", err)
		}
		if d.More() {
			return errors.New("not JSON of the item's shape: more than one JSON value")
		}
		fv.Set(p.Elem())
		return nil
	}
	if fv.Kind() != reflect.String && strings.TrimSpace(text) == "" {
		fv.SetZero() // an optional number or flag left empty
		return nil
	}
	switch fv.Kind() {
	case reflect.String:
		fv.SetString(text)
	case reflect.Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return errors.New("not a boolean")
		}
		fv.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(strings.TrimSpace(text), 10, fv.Type().Bits())
		if err != nil {
			return errors.New("not an integer of the item's range")
		}
		fv.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(strings.TrimSpace(text), 10, fv.Type().Bits())
		if err != nil {
			return errors.New("not an integer of the item's range")
		}
		fv.SetUint(n)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(strings.TrimSpace(text), fv.Type().Bits())
		if err != nil {
			return errors.New("not a number")
		}
		fv.SetFloat(x)
	default:
		return fmt.Errorf("%w: a field of type %s", ErrSchema, fv.Type())
	}
	return nil
}
