package configmgr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
)

func TestSetValue(t *testing.T) {
	tests := []struct {
		name    string
		item    string
		value   string
		want    string // stored value
		wantErr string // exact message; empty when valid
	}{
		{name: "boolean", item: "flag", value: "FALSE", want: "false"},
		{name: "boolean invalid", item: "flag", value: "no", wantErr: `value "no" of item "flag" in category "test" is not "true" or "false"`},
		{name: "integer", item: "port", value: "9090", want: "9090"},
		{name: "integer at bounds", item: "port", value: "65535", want: "65535"},
		{name: "integer above maximum", item: "port", value: "70000", wantErr: `value 70000 of item "port" in category "test" is above the maximum 65535`},
		{name: "integer below minimum", item: "port", value: "0", wantErr: `value 0 of item "port" in category "test" is below the minimum 1`},
		{name: "integer not integer", item: "port", value: "abc", wantErr: `value "abc" of item "port" in category "test" is not an integer`},
		{name: "integer empty refused with default", item: "port", value: "", wantErr: `value "" of item "port" in category "test" is not an integer`},
		{name: "integer empty allowed without default", item: "count", value: "", want: ""},
		{name: "float", item: "ratio", value: "1.5", want: "1.5"},
		{name: "float above maximum", item: "ratio", value: "1.51", wantErr: `value 1.51 of item "ratio" in category "test" is above the maximum 1.5`},
		{name: "string", item: "label", value: "hello", want: "hello"},
		{name: "string too long", item: "label", value: "hello!", wantErr: `value of item "label" in category "test" is longer than 5 characters`},
		{name: "string empty", item: "free", value: "", want: ""},
		{name: "mandatory empty", item: "needed", value: "", wantErr: `item "needed" in category "test" is mandatory and its value cannot be empty`},
		{name: "enumeration", item: "mode", value: "b", want: "b"},
		{name: "enumeration not an option", item: "mode", value: "c", wantErr: `value "c" of item "mode" in category "test" is not one of the options "a", "b"`},
		{name: "JSON", item: "doc", value: `{"k": [true]}`, want: `{"k": [true]}`},
		{name: "JSON invalid", item: "doc", value: `{k}`, wantErr: `value of item "doc" in category "test" is not valid JSON`},
		{name: "IPv4", item: "v4", value: "10.1.2.3", want: "10.1.2.3"},
		{name: "IPv4 invalid", item: "v4", value: "10.1.2.300", wantErr: `value "10.1.2.300" of item "v4" in category "test" is not an IPv4 address`},
		{name: "IPv6", item: "v6", value: "2001:db8::2", want: "2001:db8::2"},
		{name: "IPv6 invalid", item: "v6", value: "2001:db8::g", wantErr: `value "2001:db8::g" of item "v6" in category "test" is not an IPv6 address`},
		{name: "URL", item: "link", value: "https://gw.example:8443/", want: "https://gw.example:8443/"},
		{name: "URL invalid", item: "link", value: "gw.example", wantErr: `value "gw.example" of item "link" in category "test" is not an absolute URL with a scheme and a host`},
		{name: "password", item: "secret", value: "n3w", want: "n3w"},
		{name: "password too long", item: "secret", value: "0123456789x", wantErr: `value of item "secret" in category "test" is longer than 10 characters`},
		{name: "readonly", item: "fixed", value: "2.0", wantErr: `item "fixed" in category "test" is read-only`},
		{name: "validity not enforced", item: "cond", value: "set while flag is true", want: "set while flag is true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFixture(t)
			before := f.stored(t, tt.item)
			got, err := f.m.SetValue(t.Context(), testCategory, tt.item, tt.value)
			if tt.wantErr != "" {
				wantFault(t, err, fault.Invalid, tt.wantErr)
				if v := f.stored(t, tt.item); v != before {
					t.Errorf("stored value changed to %q after a refused write", v)
				}
				if n := len(f.audit.bySource("CONCH")); n != 0 {
					t.Errorf("got %d CONCH entries after a refused write", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("SetValue: %v", err)
			}
			if v := f.stored(t, tt.item); v != tt.want {
				t.Errorf("stored %q, want %q", v, tt.want)
			}
			if want := maskValue(got.Type, tt.want); got.Value != want {
				t.Errorf("returned value %q, want %q", got.Value, want)
			}
			if raw, err := f.m.Value(t.Context(), testCategory, tt.item); err != nil || raw != tt.want {
				t.Errorf("Value = %q, %v; want %q", raw, err, tt.want)
			}
		})
	}
}

func TestCONCH(t *testing.T) {
	tests := []struct {
		name string
		// set runs the change; it returns the error of the call.
		set       func(ctx context.Context, m *Manager) error
		wantCONCH []string // JSON details
	}{
		{
			name: "changed",
			set: func(ctx context.Context, m *Manager) error {
				_, err := m.SetValue(ctx, testCategory, "port", "9000")
				return err
			},
			wantCONCH: []string{`{"category":"test","item":"port","oldValue":"8081","newValue":"9000"}`},
		},
		{
			name: "same value",
			set: func(ctx context.Context, m *Manager) error {
				_, err := m.SetValue(ctx, testCategory, "port", "8081")
				return err
			},
		},
		{
			name: "same value after normalisation",
			set: func(ctx context.Context, m *Manager) error {
				_, err := m.SetValue(ctx, testCategory, "flag", "TRUE")
				return err
			},
		},
		{
			name: "password masked",
			set: func(ctx context.Context, m *Manager) error {
				_, err := m.SetValue(ctx, testCategory, "secret", "other")
				return err
			},
			wantCONCH: []string{`{"category":"test","item":"secret","oldValue":"****","newValue":"****"}`},
		},
		{
			name: "password cleared",
			set: func(ctx context.Context, m *Manager) error {
				_, err := m.SetValue(ctx, testCategory, "secret", "")
				return err
			},
			wantCONCH: []string{`{"category":"test","item":"secret","oldValue":"****","newValue":""}`},
		},
		{
			name: "reset when at default",
			set: func(ctx context.Context, m *Manager) error {
				_, err := m.ResetValue(ctx, testCategory, "port")
				return err
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFixture(t)
			var calls int
			f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error { calls++; return nil })
			if err := tt.set(t.Context(), f.m); err != nil {
				t.Fatalf("change: %v", err)
			}
			var got []string
			for _, e := range f.audit.bySource("CONCH") {
				if e.Severity != "INFORMATION" {
					t.Errorf("CONCH severity %q, want INFORMATION", e.Severity)
				}
				got = append(got, e.Details)
			}
			if !slices.Equal(got, tt.wantCONCH) {
				t.Errorf("CONCH details %q, want %q", got, tt.wantCONCH)
			}
			if want := len(tt.wantCONCH); calls != want {
				t.Errorf("listener called %d times, want %d", calls, want)
			}
		})
	}
}

func TestResetValue(t *testing.T) {
	tests := []struct {
		name    string
		item    string
		set     string // value set before the reset
		want    string // stored after the reset
		wantErr string
	}{
		{name: "to default", item: "port", set: "9000", want: "8081"},
		{name: "to empty without default", item: "count", set: "12", want: ""},
		{name: "string without default", item: "free", set: "text", want: ""},
		{name: "password to default", item: "secret", set: "other", want: "s3cret"},
		{name: "readonly", item: "fixed", wantErr: `item "fixed" in category "test" is read-only`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFixture(t)
			if tt.set != "" {
				if _, err := f.m.SetValue(t.Context(), testCategory, tt.item, tt.set); err != nil {
					t.Fatalf("SetValue: %v", err)
				}
			}
			f.audit.reset()
			got, err := f.m.ResetValue(t.Context(), testCategory, tt.item)
			if tt.wantErr != "" {
				wantFault(t, err, fault.Invalid, tt.wantErr)
				return
			}
			if err != nil {
				t.Fatalf("ResetValue: %v", err)
			}
			if v := f.stored(t, tt.item); v != tt.want {
				t.Errorf("stored %q, want %q", v, tt.want)
			}
			if want := maskValue(got.Type, tt.want); got.Value != want {
				t.Errorf("returned %q, want %q", got.Value, want)
			}
			want := fmt.Sprintf(`{"category":"test","item":%q,"oldValue":%q,"newValue":%q}`,
				tt.item, maskValue(got.Type, tt.set), maskValue(got.Type, tt.want))
			if e := f.audit.bySource("CONCH"); len(e) != 1 || e[0].Details != want {
				t.Errorf("CONCH entries %+v, want one with %s", e, want)
			}
		})
	}
}

func TestPasswordMasking(t *testing.T) {
	f := newTestFixture(t)
	ctx := t.Context()
	var seen string
	f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error {
		seen = c.Items["secret"].Value
		return nil
	})
	checkItem := func(t *testing.T, where string, it Item) {
		t.Helper()
		if it.Value != PasswordMask || it.Default != PasswordMask {
			t.Errorf("%s: value %q, default %q; want both %q", where, it.Value, it.Default, PasswordMask)
		}
	}

	t.Run("set returns masked", func(t *testing.T) {
		it, err := f.m.SetValue(ctx, testCategory, "secret", "n3w")
		if err != nil {
			t.Fatalf("SetValue: %v", err)
		}
		checkItem(t, "SetValue", it)
		if seen != "n3w" {
			t.Errorf("listener saw %q, want the unmasked value", seen)
		}
	})
	t.Run("item", func(t *testing.T) {
		it, err := f.m.Item(ctx, testCategory, "secret")
		if err != nil {
			t.Fatalf("Item: %v", err)
		}
		checkItem(t, "Item", it)
	})
	t.Run("category", func(t *testing.T) {
		c, err := f.m.Category(ctx, testCategory)
		if err != nil {
			t.Fatalf("Category: %v", err)
		}
		checkItem(t, "Category", c.Items["secret"])
		if c.Items["label"].Value != "abc" {
			t.Errorf("other items masked too: %+v", c.Items["label"])
		}
	})
	t.Run("categories", func(t *testing.T) {
		cs, err := f.m.Categories(ctx)
		if err != nil {
			t.Fatalf("Categories: %v", err)
		}
		if len(cs) != 1 {
			t.Fatalf("got %d categories, want 1", len(cs))
		}
		checkItem(t, "Categories", cs[0].Items["secret"])
	})
	t.Run("reset returns masked", func(t *testing.T) {
		it, err := f.m.ResetValue(ctx, testCategory, "secret")
		if err != nil {
			t.Fatalf("ResetValue: %v", err)
		}
		checkItem(t, "ResetValue", it)
	})
	t.Run("create returns masked", func(t *testing.T) {
		c, err := f.m.Create(ctx, CategoryInput{Key: testCategory})
		if err != nil {
			t.Fatalf("Create: %v", err)
		}
		checkItem(t, "Create", c.Items["secret"])
	})
	t.Run("value is raw", func(t *testing.T) {
		v, err := f.m.Value(ctx, testCategory, "secret")
		if err != nil || v != "s3cret" {
			t.Errorf("Value = %q, %v; want the raw password", v, err)
		}
	})
	t.Run("audit never holds it", func(t *testing.T) {
		for _, e := range f.audit.entries {
			if strings.Contains(e.Details, "n3w") || strings.Contains(e.Details, "s3cret") {
				t.Errorf("audit entry %s %s holds a password", e.Source, e.Details)
			}
		}
	})
	t.Run("empty stays empty", func(t *testing.T) {
		it, err := f.m.SetValue(ctx, testCategory, "secret", "")
		if err != nil {
			t.Fatalf("SetValue: %v", err)
		}
		if it.Value != "" {
			t.Errorf("empty password read as %q, want empty", it.Value)
		}
	})
}

func TestCreateNew(t *testing.T) {
	f := newFixture(t)
	c, err := f.m.Create(t.Context(), testInput())
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if c.Key != testCategory || c.Description != "Test category" || c.DisplayName != "Test" {
		t.Errorf("got category %q %q %q", c.Key, c.Description, c.DisplayName)
	}
	for name, def := range testInput().Items {
		it, ok := c.Items[name]
		if !ok {
			t.Errorf("item %q missing", name)
			continue
		}
		if want := maskValue(def.Type, def.Default); it.Value != want {
			t.Errorf("item %q value %q, want its default %q", name, it.Value, want)
		}
		if want := def.Default; f.stored(t, name) != want {
			t.Errorf("item %q stored %q, want %q", name, f.stored(t, name), want)
		}
	}
	if c.Items["cond"].Validity != `flag == "false"` {
		t.Errorf("validity %q not kept", c.Items["cond"].Validity)
	}

	conad := f.audit.bySource("CONAD")
	if len(conad) != 1 {
		t.Fatalf("got %d CONAD entries, want 1", len(conad))
	}
	var details struct {
		Name     string          `json:"name"`
		Category map[string]Item `json:"category"`
	}
	if err := json.Unmarshal([]byte(conad[0].Details), &details); err != nil {
		t.Fatalf("CONAD details %s: %v", conad[0].Details, err)
	}
	if details.Name != testCategory || len(details.Category) != len(testInput().Items) {
		t.Errorf("CONAD details %s", conad[0].Details)
	}
	if s := details.Category["secret"]; s.Value != PasswordMask || s.Default != PasswordMask {
		t.Errorf("CONAD holds password %+v", s)
	}
	if conad[0].Severity != "INFORMATION" {
		t.Errorf("CONAD severity %q", conad[0].Severity)
	}
	if n := len(f.audit.bySource("CONCH")); n != 0 {
		t.Errorf("got %d CONCH entries on create", n)
	}
}

func TestCreateWire(t *testing.T) {
	f := newFixture(t)
	_, err := f.m.Create(t.Context(), CategoryInput{Key: "w", Items: map[string]Item{
		"e": {Type: TypeEnumeration, Default: "a", Options: []string{"a", "b"}, Order: "1"},
		"s": {Type: TypeString},
	}})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	f.store.mu.Lock()
	raw := string(f.store.rows["w"].Items)
	f.store.mu.Unlock()
	want := `{"e":{"type":"enumeration","default":"a","order":"1","value":"a","options":["a","b"]},"s":{"type":"string","value":""}}`
	if raw != want {
		t.Errorf("stored items\n  %s\nwant\n  %s", raw, want)
	}
}

func TestCreateMerge(t *testing.T) {
	tests := []struct {
		name string
		// prepare runs after the test category is created.
		prepare   func(t *testing.T, m *Manager)
		in        CategoryInput
		check     func(t *testing.T, c Category)
		wantCONCH []string
		wantNote  bool // listeners notified
	}{
		{
			name: "same definition changes nothing",
			in:   testInput(),
			check: func(t *testing.T, c Category) {
				if !c.equal(mustCreateFresh(t)) {
					t.Errorf("category changed: %+v", c)
				}
			},
		},
		{
			name: "keeps current value",
			prepare: func(t *testing.T, m *Manager) {
				mustSet(t, m, "port", "9000")
			},
			in: testInput(),
			check: func(t *testing.T, c Category) {
				if v := c.Items["port"].Value; v != "9000" {
					t.Errorf("port %q, want the kept 9000", v)
				}
			},
		},
		{
			name: "adds new item at default",
			in: CategoryInput{Key: testCategory, Items: map[string]Item{
				"extra": {Type: TypeInteger, Default: "3", Description: "new"},
			}},
			check: func(t *testing.T, c Category) {
				if it := c.Items["extra"]; it.Value != "3" || it.Description != "new" {
					t.Errorf("extra %+v", it)
				}
				if len(c.Items) != len(testInput().Items)+1 {
					t.Errorf("got %d items, want the old ones kept", len(c.Items))
				}
				if c.Description != "Test category" || c.DisplayName != "Test" {
					t.Errorf("description %q, display name %q changed though not given", c.Description, c.DisplayName)
				}
			},
			wantNote: true,
		},
		{
			name: "updates definition keeping valid value",
			prepare: func(t *testing.T, m *Manager) {
				mustSet(t, m, "port", "9000")
			},
			in: CategoryInput{Key: testCategory, Description: "New description", DisplayName: "New", Items: map[string]Item{
				"port": {Type: TypeInteger, Default: "80", Description: "changed", Minimum: "1", Maximum: "10000", Order: "7"},
			}},
			check: func(t *testing.T, c Category) {
				it := c.Items["port"]
				if it.Value != "9000" || it.Default != "80" || it.Description != "changed" || it.Maximum != "10000" || it.Order != "7" {
					t.Errorf("port %+v", it)
				}
				if c.Description != "New description" || c.DisplayName != "New" {
					t.Errorf("description %q, display name %q not updated", c.Description, c.DisplayName)
				}
				if c.Items["label"].Value != "abc" {
					t.Errorf("item not named changed: %+v", c.Items["label"])
				}
			},
			wantNote: true,
		},
		{
			name: "resets value invalid under new definition",
			prepare: func(t *testing.T, m *Manager) {
				mustSet(t, m, "port", "9000")
			},
			in: CategoryInput{Key: testCategory, Items: map[string]Item{
				"port": {Type: TypeInteger, Default: "80", Maximum: "8999"},
			}},
			check: func(t *testing.T, c Category) {
				if it := c.Items["port"]; it.Value != "80" {
					t.Errorf("port %+v, want reset to 80", it)
				}
			},
			wantCONCH: []string{`{"category":"test","item":"port","oldValue":"9000","newValue":"80"}`},
			wantNote:  true,
		},
		{
			name: "changes type",
			prepare: func(t *testing.T, m *Manager) {
				mustSet(t, m, "label", "x")
			},
			in: CategoryInput{Key: testCategory, Items: map[string]Item{
				"label": {Type: TypeEnumeration, Default: "y", Options: []string{"x", "y"}},
				"mode":  {Type: TypeString, Default: "z"},
			}},
			check: func(t *testing.T, c Category) {
				if it := c.Items["label"]; it.Value != "x" || it.Type != TypeEnumeration || it.Length != "" {
					t.Errorf("label %+v, want enumeration keeping x", it)
				}
				if it := c.Items["mode"]; it.Value != "a" || it.Options != nil {
					t.Errorf("mode %+v, want string keeping a, without options", it)
				}
			},
			wantNote: true,
		},
		{
			name: "empty kept value under a new default",
			in: CategoryInput{Key: testCategory, Items: map[string]Item{
				"count": {Type: TypeInteger, Default: "5"},
			}},
			check: func(t *testing.T, c Category) {
				if it := c.Items["count"]; it.Value != "5" {
					t.Errorf("count %+v, want the new default", it)
				}
			},
			wantCONCH: []string{`{"category":"test","item":"count","oldValue":"","newValue":"5"}`},
			wantNote:  true,
		},
		{
			name: "readonly item follows its default",
			in: CategoryInput{Key: testCategory, Items: map[string]Item{
				"fixed": {Type: TypeString, Default: "2.0", Readonly: "true"},
			}},
			check: func(t *testing.T, c Category) {
				if it := c.Items["fixed"]; it.Value != "2.0" {
					t.Errorf("fixed %+v, want 2.0", it)
				}
			},
			wantCONCH: []string{`{"category":"test","item":"fixed","oldValue":"1.0","newValue":"2.0"}`},
			wantNote:  true,
		},
		{
			name: "password kept and masked in CONCH on reset",
			prepare: func(t *testing.T, m *Manager) {
				mustSet(t, m, "secret", "0123456789")
			},
			in: CategoryInput{Key: testCategory, Items: map[string]Item{
				"secret": {Type: TypePassword, Default: "short", Length: "5"},
			}},
			check: func(t *testing.T, c Category) {
				if it := c.Items["secret"]; it.Value != "short" {
					t.Errorf("secret %+v, want reset to the new default", it)
				}
			},
			wantCONCH: []string{`{"category":"test","item":"secret","oldValue":"****","newValue":"****"}`},
			wantNote:  true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFixture(t)
			if tt.prepare != nil {
				tt.prepare(t, f.m)
			}
			f.audit.reset()
			var notes []Category
			f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error {
				notes = append(notes, c)
				return nil
			})
			got, err := f.m.Create(t.Context(), tt.in)
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			stored, _ := f.store.row(t, testCategory)
			if !got.equal(stored.masked()) {
				t.Errorf("returned %+v, stored %+v", got, stored)
			}
			tt.check(t, stored)
			if n := len(f.audit.bySource("CONAD")); n != 0 {
				t.Errorf("got %d CONAD entries on merge, want none", n)
			}
			var conch []string
			for _, e := range f.audit.bySource("CONCH") {
				conch = append(conch, e.Details)
			}
			if !slices.Equal(conch, tt.wantCONCH) {
				t.Errorf("CONCH %q, want %q", conch, tt.wantCONCH)
			}
			if tt.wantNote != (len(notes) == 1) || len(notes) > 1 {
				t.Fatalf("listener called %d times, want notified=%v", len(notes), tt.wantNote)
			}
			if tt.wantNote && !notes[0].equal(stored) {
				t.Errorf("listener got %+v, want the stored %+v", notes[0], stored)
			}
		})
	}
}

// mustCreateFresh returns the test category as created in a new store.
func mustCreateFresh(t *testing.T) Category {
	t.Helper()
	f := newTestFixture(t)
	c, _ := f.store.row(t, testCategory)
	return c
}

// mustSet sets an item of the test category.
func mustSet(t *testing.T, m *Manager, item, value string) {
	t.Helper()
	if _, err := m.SetValue(t.Context(), testCategory, item, value); err != nil {
		t.Fatalf("SetValue(%s, %q): %v", item, value, err)
	}
}

func TestCreateInvalid(t *testing.T) {
	tests := []struct {
		name    string
		in      CategoryInput
		wantErr string
	}{
		{name: "empty key", in: CategoryInput{}, wantErr: "category key is empty"},
		{name: "key too long", in: CategoryInput{Key: strings.Repeat("k", 256)}, wantErr: "category key is longer than 255 characters"},
		{name: "key with control character", in: CategoryInput{Key: "a\x00"}, wantErr: `category key "a\x00" contains a control character`},
		{name: "rest_api in capitals", in: CategoryInput{Key: "REST_API"},
			wantErr: `category key "REST_API" differs from the protected category "rest_api" only by case or surrounding space`},
		{name: "rest_api with a trailing space", in: CategoryInput{Key: "rest_api "},
			wantErr: `category key "rest_api " differs from the protected category "rest_api" only by case or surrounding space`},
		{name: "Password", in: CategoryInput{Key: "Password"},
			wantErr: `category key "Password" differs from the protected category "password" only by case or surrounding space`},
		{name: "installation", in: CategoryInput{Key: " installation"},
			wantErr: `category key " installation" differs from the protected category "Installation" only by case or surrounding space`},
		{
			name: "one bad item among good ones",
			in: CategoryInput{Key: testCategory, Items: map[string]Item{
				"good": {Type: TypeString, Default: "x"},
				"bad":  {Type: TypeInteger, Default: "x"},
			}},
			wantErr: `default "x" of item "bad" in category "test" is not an integer`,
		},
		{
			name:    "unknown type",
			in:      CategoryInput{Key: testCategory, Items: map[string]Item{"port": {Type: "port"}}},
			wantErr: `item "port" in category "test" has unknown type "port"`,
		},
		{
			name:    "first bad item by name",
			in:      CategoryInput{Key: testCategory, Items: map[string]Item{"b": {}, "a": {}}},
			wantErr: `item "a" in category "test" has no type`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name+" new", func(t *testing.T) {
			f := newFixture(t)
			_, err := f.m.Create(t.Context(), tt.in)
			wantFault(t, err, fault.Invalid, tt.wantErr)
			if n := f.store.writeCount(); n != 0 {
				t.Errorf("%d writes after a refused create", n)
			}
			if len(f.audit.entries) != 0 {
				t.Errorf("audit entries %+v after a refused create", f.audit.entries)
			}
		})
		t.Run(tt.name+" merge", func(t *testing.T) {
			f := newTestFixture(t)
			before, _ := f.store.row(t, testCategory)
			writes := f.store.writeCount()
			_, err := f.m.Create(t.Context(), tt.in)
			wantFault(t, err, fault.Invalid, tt.wantErr)
			if n := f.store.writeCount(); n != writes {
				t.Errorf("%d writes after a refused merge", n-writes)
			}
			if after, _ := f.store.row(t, testCategory); !after.equal(before) {
				t.Errorf("category changed by a refused merge")
			}
		})
	}
}

func TestLookalike(t *testing.T) {
	tests := []struct {
		key, want string
		ok        bool
	}{
		{key: "rest_api"},
		{key: "Installation"},
		{key: "rest_api2"},
		{key: "service"},
		{key: "Rest_Api", want: CategoryRESTAPI, ok: true},
		{key: "\tpassword", want: CategoryPassword, ok: true},
		{key: "INSTALLATION ", want: CategoryInstallation, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			got, ok := Lookalike(tt.key)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Lookalike(%q) = %q, %v; want %q, %v", tt.key, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestCreateIgnoresInputValue(t *testing.T) {
	f := newFixture(t)
	c, err := f.m.Create(t.Context(), CategoryInput{Key: "k", Items: map[string]Item{
		"i": {Type: TypeInteger, Default: "1", Value: "2"},
	}})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if v := c.Items["i"].Value; v != "1" {
		t.Errorf("value %q, want the default 1", v)
	}
}

func TestCreateConflictRetried(t *testing.T) {
	f := newFixture(t)
	f.store.conflictOnce = true
	c, err := f.m.Create(t.Context(), testInput())
	if err != nil {
		t.Fatalf("Create after a conflict: %v", err)
	}
	if c.Items["port"].Value != "8081" {
		t.Errorf("port %+v", c.Items["port"])
	}
}

func TestNotFound(t *testing.T) {
	tests := []struct {
		name    string
		call    func(ctx context.Context, m *Manager) error
		wantMsg string
	}{
		{
			name:    "category",
			call:    func(ctx context.Context, m *Manager) error { _, err := m.Category(ctx, "nope"); return err },
			wantMsg: `category "nope" not found`,
		},
		{
			name:    "item of unknown category",
			call:    func(ctx context.Context, m *Manager) error { _, err := m.Item(ctx, "nope", "port"); return err },
			wantMsg: `category "nope" not found`,
		},
		{
			name:    "unknown item",
			call:    func(ctx context.Context, m *Manager) error { _, err := m.Item(ctx, testCategory, "nope"); return err },
			wantMsg: `item "nope" in category "test" not found`,
		},
		{
			name:    "value of unknown item",
			call:    func(ctx context.Context, m *Manager) error { _, err := m.Value(ctx, testCategory, "nope"); return err },
			wantMsg: `item "nope" in category "test" not found`,
		},
		{
			name:    "value of unknown category",
			call:    func(ctx context.Context, m *Manager) error { _, err := m.Value(ctx, "nope", "x"); return err },
			wantMsg: `category "nope" not found`,
		},
		{
			name: "set in unknown category",
			call: func(ctx context.Context, m *Manager) error {
				_, err := m.SetValue(ctx, "nope", "port", "1")
				return err
			},
			wantMsg: `category "nope" not found`,
		},
		{
			name: "set unknown item",
			call: func(ctx context.Context, m *Manager) error {
				_, err := m.SetValue(ctx, testCategory, "nope", "1")
				return err
			},
			wantMsg: `item "nope" in category "test" not found`,
		},
		{
			name:    "reset in unknown category",
			call:    func(ctx context.Context, m *Manager) error { _, err := m.ResetValue(ctx, "nope", "port"); return err },
			wantMsg: `category "nope" not found`,
		},
		{
			name: "reset unknown item",
			call: func(ctx context.Context, m *Manager) error {
				_, err := m.ResetValue(ctx, testCategory, "nope")
				return err
			},
			wantMsg: `item "nope" in category "test" not found`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFixture(t)
			wantFault(t, tt.call(t.Context(), f.m), fault.NotFound, tt.wantMsg)
		})
	}
}

func TestStorageErrors(t *testing.T) {
	disk := errors.New("disk on fire")
	tests := []struct {
		name string
		call func(ctx context.Context, m *Manager) error
	}{
		{name: "categories", call: func(ctx context.Context, m *Manager) error { _, err := m.Categories(ctx); return err }},
		{name: "category", call: func(ctx context.Context, m *Manager) error { _, err := m.Category(ctx, testCategory); return err }},
		{name: "item", call: func(ctx context.Context, m *Manager) error { _, err := m.Item(ctx, testCategory, "port"); return err }},
		{name: "value", call: func(ctx context.Context, m *Manager) error { _, err := m.Value(ctx, testCategory, "port"); return err }},
		{name: "set", call: func(ctx context.Context, m *Manager) error {
			_, err := m.SetValue(ctx, testCategory, "port", "1")
			return err
		}},
		{name: "reset", call: func(ctx context.Context, m *Manager) error {
			_, err := m.ResetValue(ctx, testCategory, "port")
			return err
		}},
		{name: "create", call: func(ctx context.Context, m *Manager) error { _, err := m.Create(ctx, testInput()); return err }},
		{name: "seed", call: func(ctx context.Context, m *Manager) error { return m.Seed(ctx) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFixture(t)
			f.store.setFail(disk)
			err := tt.call(t.Context(), f.m)
			if !errors.Is(err, disk) {
				t.Fatalf("got %v, want the storage error wrapped", err)
			}
			if _, ok := fault.As(err); ok {
				t.Errorf("storage error %v returned as a fault", err)
			}
		})
	}
}

func TestCorruptItems(t *testing.T) {
	f := newFixture(t)
	f.store.rows["bad"] = db.Category{Key: "bad", Items: []byte(`[1, 2]`)}
	if _, err := f.m.Category(t.Context(), "bad"); err == nil {
		t.Fatal("got no error for malformed stored items")
	} else if _, ok := fault.As(err); ok {
		t.Errorf("malformed stored items reported as a fault: %v", err)
	}
}

func TestAuditFailureDoesNotFailWrite(t *testing.T) {
	f := newTestFixture(t)
	f.audit.fail = errors.New("audit down")
	if _, err := f.m.SetValue(t.Context(), testCategory, "port", "9000"); err != nil {
		t.Fatalf("SetValue: %v", err)
	}
	if v := f.stored(t, "port"); v != "9000" {
		t.Errorf("stored %q", v)
	}
	if !strings.Contains(f.logs.String(), "audit down") {
		t.Errorf("audit failure not logged: %s", f.logs.String())
	}
}

func TestSubscribe(t *testing.T) {
	t.Run("called after commit with the new value", func(t *testing.T) {
		f := newTestFixture(t)
		var got []string
		f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error {
			if f.store.inTx.Load() {
				t.Error("listener called inside the transaction")
			}
			// The write is visible to readers: it has been committed.
			v, err := f.m.Value(ctx, testCategory, "port")
			if err != nil {
				t.Errorf("Value in listener: %v", err)
			}
			got = append(got, c.Items["port"].Value, v)
			return nil
		})
		mustSet(t, f.m, "port", "9000")
		if want := []string{"9000", "9000"}; !slices.Equal(got, want) {
			t.Errorf("listener saw %q, want %q", got, want)
		}
	})

	t.Run("subscription order and other categories", func(t *testing.T) {
		f := newTestFixture(t)
		var order []string
		for _, name := range []string{"first", "second", "third"} {
			f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error {
				order = append(order, name)
				return nil
			})
		}
		f.m.Subscribe("other", func(ctx context.Context, c Category) error {
			order = append(order, "other")
			return nil
		})
		mustSet(t, f.m, "port", "9000")
		if want := []string{"first", "second", "third"}; !slices.Equal(order, want) {
			t.Errorf("order %q, want %q", order, want)
		}
	})

	t.Run("error and panic are logged only", func(t *testing.T) {
		f := newTestFixture(t)
		var last bool
		f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error { return errors.New("listener broke") })
		f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error { panic("listener exploded") })
		f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error { last = true; return nil })
		it, err := f.m.SetValue(t.Context(), testCategory, "port", "9000")
		if err != nil {
			t.Fatalf("SetValue: %v", err)
		}
		if it.Value != "9000" || f.stored(t, "port") != "9000" {
			t.Errorf("write not kept: returned %q, stored %q", it.Value, f.stored(t, "port"))
		}
		if !last {
			t.Error("listener after the failing ones not called")
		}
		logs := f.logs.String()
		for _, want := range []string{"listener broke", "listener exploded"} {
			if !strings.Contains(logs, want) {
				t.Errorf("log lacks %q:\n%s", want, logs)
			}
		}
		if _, err := f.m.SetValue(t.Context(), testCategory, "port", "9001"); err != nil {
			t.Fatalf("SetValue after a panic: %v", err)
		}
	})

	t.Run("cancel stops notifications", func(t *testing.T) {
		f := newTestFixture(t)
		var a, b int
		cancelA := f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error { a++; return nil })
		f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error { b++; return nil })
		mustSet(t, f.m, "port", "9000")
		cancelA()
		cancelA()
		mustSet(t, f.m, "port", "9001")
		if a != 1 || b != 2 {
			t.Errorf("calls a=%d b=%d, want 1 and 2", a, b)
		}
	})

	t.Run("listener may not alter the state others see", func(t *testing.T) {
		f := newTestFixture(t)
		var seen string
		f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error {
			c.Items["port"] = Item{Value: "tampered"}
			return nil
		})
		f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error {
			seen = c.Items["port"].Value
			return nil
		})
		mustSet(t, f.m, "port", "9000")
		if seen != "9000" {
			t.Errorf("second listener saw %q", seen)
		}
	})

	t.Run("context outlives the caller", func(t *testing.T) {
		f := newTestFixture(t)
		var ctxErr error
		f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error { ctxErr = ctx.Err(); return nil })
		ctx, cancel := context.WithCancel(t.Context())
		f.store.mu.Lock() // cancel the caller's context while the write is under way
		done := make(chan error)
		go func() { _, err := f.m.SetValue(ctx, testCategory, "port", "9000"); done <- err }()
		cancel()
		f.store.mu.Unlock()
		if err := <-done; err != nil {
			t.Fatalf("SetValue: %v", err)
		}
		if ctxErr != nil {
			t.Errorf("listener context already done: %v", ctxErr)
		}
	})

	t.Run("write from a listener is delivered in order", func(t *testing.T) {
		f := newTestFixture(t)
		var seen []string
		f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error {
			seen = append(seen, c.Items["port"].Value+"/"+c.Items["label"].Value)
			if c.Items["label"].Value == "abc" {
				_, err := f.m.SetValue(ctx, testCategory, "label", "xyz")
				return err
			}
			return nil
		})
		mustSet(t, f.m, "port", "9000")
		if want := []string{"9000/abc", "9000/xyz"}; !slices.Equal(seen, want) {
			t.Errorf("listener saw %q, want %q", seen, want)
		}
	})
}

func TestConcurrentWrites(t *testing.T) {
	f := newTestFixture(t)
	var (
		mu   sync.Mutex
		last string
	)
	f.m.Subscribe(testCategory, func(ctx context.Context, c Category) error {
		mu.Lock()
		defer mu.Unlock()
		last = c.Items["port"].Value
		return nil
	})
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			if _, err := f.m.SetValue(t.Context(), testCategory, "port", strconv.Itoa(1000+i)); err != nil {
				t.Errorf("SetValue: %v", err)
			}
			if _, err := f.m.Category(t.Context(), testCategory); err != nil {
				t.Errorf("Category: %v", err)
			}
		})
	}
	wg.Wait()
	if want := f.stored(t, "port"); last != want {
		t.Errorf("listener ended with %q, stored %q", last, want)
	}
	if n := len(f.audit.bySource("CONCH")); n != 40 {
		t.Errorf("got %d CONCH entries, want 40", n)
	}
}
