package conformance

import (
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// TestListCategories checks the list's shape, order and the seeded
// categories.
func testListCategories(t *testing.T) {
	resp, err := api(t).ListCategoriesWithResponse(t.Context(), nil)
	must(t, err)
	wantStatus(t, "listCategories", resp.StatusCode(), resp.Body, http.StatusOK)
	cats := resp.JSON200.Categories
	keys := make([]string, 0, len(cats))
	for _, c := range cats {
		keys = append(keys, c.Key)
		if c.Key == "" {
			t.Errorf("a category has an empty key: %s", jsonString(c))
		}
	}
	strictCheck(t, "sorted by key", func(t *testing.T) {
		if !slices.IsSorted(keys) {
			t.Errorf("categories are not sorted by key: %v", keys)
		}
	})
	// The specification names these; edged seeds the others too.
	inSpec := []string{"SCHEDULER", "SMNTR", "rest_api", "service", "General", "Advanced", "Utilities"}
	for _, seeded := range []string{"rest_api", "password", "LDAP", "service", "SCHEDULER", "SMNTR", "PURGE_READ", "STATISTICS", "LOGGING", "General", "Advanced", "Utilities"} {
		t.Run(seeded, func(t *testing.T) {
			if !slices.Contains(inSpec, seeded) {
				strictCase(t)
			}
			i := slices.Index(keys, seeded)
			if i < 0 {
				t.Fatalf("seeded category %q is not listed", seeded)
			}
			c := cats[i]
			if c.Description == "" {
				t.Errorf("category %q has no description", seeded)
			}
			if c.DisplayName == nil || *c.DisplayName == "" {
				t.Errorf("category %q has no displayName", seeded)
			}
			getCategory(t, seeded) // and it can be read
		})
	}
}

// TestRestAPIDefaults reads rest_api and checks the spec's items, types,
// defaults and options.
func testRestAPIDefaults(t *testing.T) {
	cat := getCategory(t, "rest_api")
	cases := []struct {
		item    string
		typ     edgeclient.ConfigItemType
		dflt    *string // nil: not checked
		options []string
		strict  bool // an item of edged's own
	}{
		{item: "enableHttp", typ: edgeclient.Boolean, dflt: ptr("true")},
		{item: "httpPort", typ: edgeclient.Integer, dflt: ptr("8081")},
		{item: "httpsPort", typ: edgeclient.Integer, dflt: ptr("1995")},
		{item: "certificateName", typ: edgeclient.String},
		{item: "authentication", typ: edgeclient.Enumeration, dflt: ptr("optional"), options: []string{"mandatory", "optional"}},
		{item: "authMethod", typ: edgeclient.Enumeration, dflt: ptr("any"), options: []string{"any", "password", "certificate"}},
		{item: "authCertificateName", typ: edgeclient.String, dflt: ptr("ca")},
		{item: "allowPing", typ: edgeclient.Boolean, dflt: ptr("true")},
		{item: "passwordChange", typ: edgeclient.Integer, dflt: ptr("0")},
		{item: "disconnectIdleUserSession", typ: edgeclient.Integer, dflt: ptr("60"), strict: true},
		{item: "allowedOrigins", typ: edgeclient.String, strict: true},
		{item: "authProviders", typ: edgeclient.JSON, dflt: ptr(`{"providers": ["username", "ldap"]}`)},
	}
	for _, tc := range cases {
		t.Run(tc.item, func(t *testing.T) {
			if tc.strict {
				strictCase(t)
			}
			it, ok := cat[tc.item]
			if !ok {
				t.Fatalf("rest_api has no item %q", tc.item)
			}
			if it.Type != tc.typ {
				t.Errorf("type = %q, want %q", it.Type, tc.typ)
			}
			if it.Description == "" {
				t.Errorf("description is empty")
			}
			if tc.dflt != nil {
				if it.Default == nil {
					t.Errorf("no default, want %q", *tc.dflt)
				} else if *it.Default != *tc.dflt {
					t.Errorf("default = %q, want %q", *it.Default, *tc.dflt)
				}
				if ownGateway && it.Value != *tc.dflt {
					t.Errorf("value on a fresh gateway = %q, want the default %q", it.Value, *tc.dflt)
				}
			}
			if tc.options != nil {
				if it.Options == nil || !slices.Equal(*it.Options, tc.options) {
					t.Errorf("options = %v, want %v", it.Options, tc.options)
				}
			}
			one := getItem(t, "rest_api", tc.item)
			if jsonString(one) != jsonString(it) {
				t.Errorf("getCategoryItem = %s, differs from getCategory's %s", jsonString(one), jsonString(it))
			}
		})
	}
}

// typedCategory creates a category with one item of every type (and a
// read-only one) and returns its key.
func typedCategory(t testing.TB) string {
	t.Helper()
	key := unique("conf-types")
	intItem := def(edgeclient.Integer, "10")
	intItem.Minimum, intItem.Maximum = ptr("1"), ptr("100")
	floatItem := def(edgeclient.Float, "1.5")
	floatItem.Minimum, floatItem.Maximum = ptr("0"), ptr("10")
	strItem := def(edgeclient.String, "abc")
	strItem.Length = ptr("5")
	enumItem := def(edgeclient.Enumeration, "a")
	enumItem.Options = ptr([]string{"a", "b", "c"})
	roItem := def(edgeclient.String, "fixed")
	roItem.Readonly = ptr(edgeclient.ConfigItemDefinitionReadonly("true"))
	createCategory(t, edgeclient.CategoryCreate{
		Key:         key,
		Description: ptr("conformance: one item per type"),
		Items: &map[string]edgeclient.ConfigItemDefinition{
			"boolItem":  def(edgeclient.Boolean, "true"),
			"intItem":   intItem,
			"floatItem": floatItem,
			"strItem":   strItem,
			"bareItem":  def(edgeclient.String, ""),
			"enumItem":  enumItem,
			"jsonItem":  def(edgeclient.JSON, `{"k": 1}`),
			"ipv4Item":  def(edgeclient.IPv4, "127.0.0.1"),
			"ipv6Item":  def(edgeclient.IPv6, "::1"),
			"urlItem":   def(edgeclient.URL, "http://localhost:8081/edge"),
			"pwItem":    def(edgeclient.Password, "s3cret"),
			"roItem":    roItem,
		},
	})
	return key
}

// TestConfigChangeAuditReset is the configuration flow: change an item, see
// it read back and audited with old and new value, reset it to its default.
func testConfigChangeAuditReset(t *testing.T) {
	key := typedCategory(t)

	got := setItem(t, key, "intItem", "30")
	if got.Value != "30" {
		t.Errorf("setCategoryItem answered value %q, want 30", got.Value)
	}
	if got.Type != edgeclient.Integer || got.Default == nil || *got.Default != "10" {
		t.Errorf("setCategoryItem answered %s, want the integer item with default 10", jsonString(got))
	}
	if v := getItem(t, key, "intItem").Value; v != "30" {
		t.Errorf("getCategoryItem after the change: value %q, want 30", v)
	}
	if v := getCategory(t, key)["intItem"].Value; v != "30" {
		t.Errorf("getCategory after the change: value %q, want 30", v)
	}
	strictCheck(t, "change audited", func(t *testing.T) { wantConch(t, key, "intItem", "10", "30") })

	reset := resetItem(t, key, "intItem")
	if reset.Value != "10" {
		t.Errorf("resetCategoryItem answered value %q, want the default 10", reset.Value)
	}
	if v := getItem(t, key, "intItem").Value; v != "10" {
		t.Errorf("getCategoryItem after the reset: value %q, want 10", v)
	}
	strictCheck(t, "reset audited", func(t *testing.T) { wantConch(t, key, "intItem", "30", "10") })

	t.Run("reset without a default gives empty", func(t *testing.T) {
		setItem(t, key, "bareItem", "something")
		if v := resetItem(t, key, "bareItem").Value; v != "" {
			t.Errorf("reset of an item without default: value %q, want empty", v)
		}
		if v := getItem(t, key, "bareItem").Value; v != "" {
			t.Errorf("getCategoryItem after the reset: value %q, want empty", v)
		}
		strictCheck(t, "audited", func(t *testing.T) { wantConch(t, key, "bareItem", "something", "") })
	})
}

// wantConch asserts that the newest CONCH entry for key/item records the
// change from oldValue to newValue.
func wantConch(t testing.TB, key, item, oldValue, newValue string) {
	t.Helper()
	e := configAudit(t, edgeclient.CONCH, key, item)
	if e == nil {
		t.Errorf("no CONCH audit entry for %s/%s", key, item)
		return
	}
	want := map[string]any{"category": key, "item": item, "oldValue": oldValue, "newValue": newValue}
	if !jsonEqual(t, e.Details, want) {
		t.Errorf("CONCH details = %s, want %s", jsonString(e.Details), jsonString(want))
	}
	if e.Severity != edgeclient.INFORMATION {
		t.Errorf("CONCH severity = %q, want INFORMATION", e.Severity)
	}
}

// TestConfigConchOnlyOnChange checks that writing the value an item already
// has writes no CONCH entry.
func testConfigConchOnlyOnChange(t *testing.T) {
	key := typedCategory(t)
	setItem(t, key, "strItem", "xyz")
	cases := []struct {
		name string
		do   func(t *testing.T)
	}{
		{name: "set the same value", do: func(t *testing.T) { setItem(t, key, "strItem", "xyz") }},
		{name: "set the default while at default", do: func(t *testing.T) { setItem(t, key, "intItem", "10") }},
		{name: "reset while at default", do: func(t *testing.T) { resetItem(t, key, "boolItem") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := auditCount(t, edgeclient.CONCH)
			tc.do(t)
			if after := auditCount(t, edgeclient.CONCH); after != before {
				t.Errorf("CONCH totalCount went from %d to %d although no value changed", before, after)
			}
		})
	}
	if v := getItem(t, key, "strItem").Value; v != "xyz" {
		t.Errorf("strItem = %q, want xyz", v)
	}
}

// TestConfigValidValues sets a valid value of every type.
func testConfigValidValues(t *testing.T) {
	key := typedCategory(t)
	cases := []struct {
		item  string
		value string
	}{
		{item: "boolItem", value: "false"},
		{item: "intItem", value: "100"},
		{item: "intItem", value: "1"},
		{item: "floatItem", value: "2.25"},
		{item: "floatItem", value: "10"},
		{item: "strItem", value: "abcde"},
		{item: "strItem", value: ""},
		{item: "enumItem", value: "c"},
		{item: "jsonItem", value: `{"k": [1, 2], "s": "x"}`},
		{item: "ipv4Item", value: "10.0.0.1"},
		{item: "ipv6Item", value: "fe80::1"},
		{item: "urlItem", value: "https://example.com/path?q=1"},
	}
	for _, tc := range cases {
		t.Run(tc.item+"="+tc.value, func(t *testing.T) {
			if got := setItem(t, key, tc.item, tc.value); got.Value != tc.value {
				t.Errorf("answered value %q, want %q", got.Value, tc.value)
			}
			if got := getItem(t, key, tc.item).Value; got != tc.value {
				t.Errorf("read back %q, want %q", got, tc.value)
			}
		})
	}
}

// TestConfigInvalidValues sets invalid values: each is 400 naming the item,
// and the value stays.
func testConfigInvalidValues(t *testing.T) {
	key := typedCategory(t)
	cases := []struct {
		name  string
		item  string
		value string
	}{
		{name: "integer not a number", item: "intItem", value: "abc"},
		{name: "integer fractional", item: "intItem", value: "1.5"},
		{name: "integer above maximum", item: "intItem", value: "101"},
		{name: "integer below minimum", item: "intItem", value: "0"},
		{name: "float not a number", item: "floatItem", value: "x"},
		{name: "float above maximum", item: "floatItem", value: "10.5"},
		{name: "float below minimum", item: "floatItem", value: "-0.5"},
		{name: "boolean not a boolean", item: "boolItem", value: "maybe"},
		{name: "string too long", item: "strItem", value: "abcdef"},
		{name: "enumeration not an option", item: "enumItem", value: "d"},
		{name: "JSON malformed", item: "jsonItem", value: "{"},
		{name: "IPv4 octet out of range", item: "ipv4Item", value: "300.1.1.1"},
		{name: "IPv4 too short", item: "ipv4Item", value: "1.2.3"},
		{name: "IPv6 not an address", item: "ipv6Item", value: "not-an-ip"},
		{name: "URL not a URL", item: "urlItem", value: "not a url"},
		{name: "read-only item", item: "roItem", value: "changed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := getItem(t, key, tc.item).Value
			resp, err := api(t).SetCategoryItemWithResponse(t.Context(), key, tc.item, edgeclient.SetCategoryItemJSONRequestBody{Value: tc.value})
			must(t, err)
			msg := checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
			if msg != "" && !strings.Contains(msg, tc.item) {
				t.Errorf("message %q does not name the item %q", msg, tc.item)
			}
			if after := getItem(t, key, tc.item).Value; after != before {
				t.Errorf("value changed from %q to %q by a refused write", before, after)
			}
		})
	}
	t.Run("reset of a read-only item", func(t *testing.T) {
		resp, err := api(t).ResetCategoryItemWithResponse(t.Context(), key, "roItem")
		must(t, err)
		checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
	})
	if e := configAudit(t, edgeclient.CONCH, key, ""); e != nil {
		t.Errorf("a refused write was audited: %s", jsonString(e))
	}
}

// TestConfigSetBodyErrors sends malformed setCategoryItem bodies.
func testConfigSetBodyErrors(t *testing.T) {
	key := typedCategory(t)
	path := "/edge/category/" + url.PathEscape(key) + "/strItem"
	cases := []struct {
		name  string
		body  string
		ctype string
		want  int // 0: 400
	}{
		{name: "missing value", body: `{}`},
		{name: "value not a string", body: `{"value": 5}`},
		{name: "value null", body: `{"value": null}`},
		{name: "unknown field", body: `{"value": "x", "other": 1}`},
		{name: "malformed JSON", body: `{"value": "x"`},
		{name: "not an object", body: `"x"`},
		{name: "empty body", body: ``},
		{name: "unsupported content type", body: `{"value": "x"}`, ctype: "application/xml", want: http.StatusUnsupportedMediaType},
		{name: "form-encoded, not JSON", body: `value=x`, ctype: "application/x-www-form-urlencoded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctype := tc.ctype
			if ctype == "" {
				ctype = "application/json"
			}
			r := doRaw(t, rawRequest{method: http.MethodPut, path: path, body: strings.NewReader(tc.body), ctype: ctype})
			want := tc.want
			if want == 0 {
				want = http.StatusBadRequest
			}
			checkError(t, r.status, r.body, want)
		})
	}
	if v := getItem(t, key, "strItem").Value; v != "abc" {
		t.Errorf("strItem = %q after refused writes, want abc", v)
	}
}

// TestConfigNotFound addresses unknown categories and items on every
// category operation.
func testConfigNotFound(t *testing.T) {
	key := typedCategory(t)
	missing := unique("conf-missing")
	c := api(t)
	body := edgeclient.SetCategoryItemJSONRequestBody{Value: "1"}
	cases := []struct {
		name string
		call func() (int, []byte, error)
	}{
		{name: "get unknown category", call: func() (int, []byte, error) {
			r, err := c.GetCategoryWithResponse(t.Context(), missing)
			return status(r, err)
		}},
		{name: "get item of unknown category", call: func() (int, []byte, error) {
			r, err := c.GetCategoryItemWithResponse(t.Context(), missing, "intItem")
			return status(r, err)
		}},
		{name: "get unknown item", call: func() (int, []byte, error) {
			r, err := c.GetCategoryItemWithResponse(t.Context(), key, "noSuchItem")
			return status(r, err)
		}},
		{name: "put item of unknown category", call: func() (int, []byte, error) {
			r, err := c.SetCategoryItemWithResponse(t.Context(), missing, "intItem", body)
			return status(r, err)
		}},
		{name: "put unknown item", call: func() (int, []byte, error) {
			r, err := c.SetCategoryItemWithResponse(t.Context(), key, "noSuchItem", body)
			return status(r, err)
		}},
		{name: "reset item of unknown category", call: func() (int, []byte, error) {
			r, err := c.ResetCategoryItemWithResponse(t.Context(), missing, "intItem")
			return status(r, err)
		}},
		{name: "reset unknown item", call: func() (int, []byte, error) {
			r, err := c.ResetCategoryItemWithResponse(t.Context(), key, "noSuchItem")
			return status(r, err)
		}},
		{name: "get unknown item of rest_api", call: func() (int, []byte, error) {
			r, err := c.GetCategoryItemWithResponse(t.Context(), "rest_api", "noSuchItem")
			return status(r, err)
		}},
		{name: "category keys are case-sensitive", call: func() (int, []byte, error) {
			r, err := c.GetCategoryWithResponse(t.Context(), "REST_API")
			return status(r, err)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, b, err := tc.call()
			must(t, err)
			checkError(t, code, b, http.StatusNotFound)
		})
	}
	t.Run("PUT unknown item does not create it", func(t *testing.T) {
		if _, ok := getCategory(t, key)["noSuchItem"]; ok {
			t.Errorf("noSuchItem exists after a 404 write")
		}
		wantNoCategory(t, missing)
	})
}

// sdkResponse is what every SDK response offers.
type sdkResponse interface {
	StatusCode() int
}

func status(r sdkResponse, err error) (int, []byte, error) {
	if err != nil {
		return 0, nil, err
	}
	var body []byte
	switch v := r.(type) {
	case *edgeclient.GetCategoryResponse:
		body = v.Body
	case *edgeclient.GetCategoryItemResponse:
		body = v.Body
	case *edgeclient.SetCategoryItemResponse:
		body = v.Body
	case *edgeclient.ResetCategoryItemResponse:
		body = v.Body
	case *edgeclient.CreateCategoryResponse:
		body = v.Body
	}
	return r.StatusCode(), body, nil
}

// TestCreateCategory creates a category: items take their default, the
// answer and reads agree, CONAD is written and the list shows it.
func testCreateCategory(t *testing.T) {
	key := unique("conf-create")
	before := auditCount(t, edgeclient.CONAD)
	interval := def(edgeclient.Integer, "10")
	interval.DisplayName, interval.Order, interval.Minimum = ptr("Interval"), ptr("1"), ptr("1")
	mode := def(edgeclient.Enumeration, "slow")
	mode.Options = ptr([]string{"slow", "fast"})
	items := map[string]edgeclient.ConfigItemDefinition{
		"interval": interval,
		"mode":     mode,
		"enabled":  def(edgeclient.Boolean, "false"),
		"label":    def(edgeclient.String, "pump 3"),
		"note":     def(edgeclient.String, ""),
	}
	got := createCategory(t, edgeclient.CategoryCreate{
		Key:         key,
		Description: ptr("conformance create"),
		DisplayName: ptr("Conformance Create"),
		Value:       &items,
	})
	if got.Key != key || got.Description != "conformance create" {
		t.Errorf("answer key/description = %q/%q, want %q/%q", got.Key, got.Description, key, "conformance create")
	}
	if got.DisplayName == nil || *got.DisplayName != "Conformance Create" {
		t.Errorf("answer displayName = %v, want Conformance Create", got.DisplayName)
	}
	stored := getCategory(t, key)
	for name, d := range items {
		t.Run(name, func(t *testing.T) {
			want := ""
			if d.Default != nil {
				want = *d.Default
			}
			for where, it := range map[string]edgeclient.ConfigItem{"createCategory answer": got.Value[name], "getCategory": stored[name]} {
				if it.Value != want {
					t.Errorf("%s: value %q, want the default %q", where, it.Value, want)
				}
				if it.Type != d.Type || it.Description != d.Description {
					t.Errorf("%s: type/description %q/%q, want %q/%q", where, it.Type, it.Description, d.Type, d.Description)
				}
			}
		})
	}
	if len(stored) != len(items) {
		t.Errorf("getCategory has %d items, want %d: %s", len(stored), len(items), jsonString(stored))
	}
	it := stored["interval"]
	if it.DisplayName == nil || *it.DisplayName != "Interval" || it.Order == nil || *it.Order != "1" || it.Minimum == nil || *it.Minimum != "1" {
		t.Errorf("interval's attributes were not kept: %s", jsonString(it))
	}
	if it := stored["mode"]; it.Options == nil || !slices.Equal(*it.Options, []string{"slow", "fast"}) {
		t.Errorf("mode's options were not kept: %s", jsonString(it))
	}

	if after := auditCount(t, edgeclient.CONAD); after != before+1 {
		t.Errorf("CONAD totalCount went from %d to %d, want +1", before, after)
	}
	if e := configAudit(t, edgeclient.CONAD, key, ""); e == nil {
		t.Errorf("no CONAD entry names %q", key)
	}

	resp, err := api(t).ListCategoriesWithResponse(t.Context(), nil)
	must(t, err)
	i := slices.IndexFunc(resp.JSON200.Categories, func(c edgeclient.CategorySummary) bool { return c.Key == key })
	if i < 0 {
		t.Fatalf("listCategories does not show %q", key)
	}
	if c := resp.JSON200.Categories[i]; c.Description != "conformance create" || c.DisplayName == nil || *c.DisplayName != "Conformance Create" {
		t.Errorf("listCategories shows %s", jsonString(c))
	}
}

// TestCreateCategoryDisplayNameDefault checks that displayName defaults to
// the key (CategoryCreate.displayName).
func testCreateCategoryDisplayNameDefault(t *testing.T) {
	key := unique("conf-noname")
	got := createCategory(t, edgeclient.CategoryCreate{Key: key, Description: ptr("no display name"),
		Items: &map[string]edgeclient.ConfigItemDefinition{"x": def(edgeclient.String, "1")}})
	if got.DisplayName == nil || *got.DisplayName != key {
		t.Errorf("createCategory answer displayName = %v, want the key %q", jsonString(got.DisplayName), key)
	}
	resp, err := api(t).ListCategoriesWithResponse(t.Context(), nil)
	must(t, err)
	for _, c := range resp.JSON200.Categories {
		if c.Key == key && (c.DisplayName == nil || *c.DisplayName != key) {
			t.Errorf("listCategories shows displayName %v, want the key %q", jsonString(c.DisplayName), key)
		}
	}
}

// TestCreateCategoryMerge posts an existing key again: new items are added,
// existing items keep their value while their definition updates, items not
// named stay.
func testCreateCategoryMerge(t *testing.T) {
	key := unique("conf-merge")
	createCategory(t, edgeclient.CategoryCreate{Key: key, Description: ptr("merge"), Items: &map[string]edgeclient.ConfigItemDefinition{
		"kept":    def(edgeclient.Integer, "10"),
		"unnamed": def(edgeclient.String, "stay"),
	}})
	setItem(t, key, "kept", "20")
	setItem(t, key, "unnamed", "changed")

	updated := def(edgeclient.Integer, "15")
	updated.Description = "updated description"
	updated.Maximum = ptr("50")
	got := createCategory(t, edgeclient.CategoryCreate{Key: key, Description: ptr("merge"), Items: &map[string]edgeclient.ConfigItemDefinition{
		"kept":  updated,
		"added": def(edgeclient.String, "new"),
	}})
	stored := getCategory(t, key)
	for where, cat := range map[string]map[string]edgeclient.ConfigItem{"createCategory answer": got.Value, "getCategory": stored} {
		t.Run(where, func(t *testing.T) {
			k := cat["kept"]
			if k.Value != "20" {
				t.Errorf("kept: value %q, want the current value 20", k.Value)
			}
			if k.Description != "updated description" || k.Default == nil || *k.Default != "15" || k.Maximum == nil || *k.Maximum != "50" {
				t.Errorf("kept: definition not updated: %s", jsonString(k))
			}
			if u, ok := cat["unnamed"]; !ok || u.Value != "changed" {
				t.Errorf("unnamed: %s, want it kept with value changed", jsonString(cat["unnamed"]))
			}
			if a, ok := cat["added"]; !ok || a.Value != "new" {
				t.Errorf("added: %s, want it added with its default as value", jsonString(cat["added"]))
			}
			if len(cat) != 3 {
				t.Errorf("%d items, want 3: %s", len(cat), jsonString(cat))
			}
		})
	}
	t.Run("updated definition is enforced", func(t *testing.T) {
		resp, err := api(t).SetCategoryItemWithResponse(t.Context(), key, "kept", edgeclient.SetCategoryItemJSONRequestBody{Value: "51"})
		must(t, err)
		checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
	})
	t.Run("refused merge stores nothing", func(t *testing.T) {
		resp, err := api(t).CreateCategoryWithResponse(t.Context(), edgeclient.CategoryCreate{Key: key, Items: &map[string]edgeclient.ConfigItemDefinition{
			"alsoAdded": def(edgeclient.String, "x"),
			"broken":    def("widget", "x"),
		}})
		must(t, err)
		checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
		after := getCategory(t, key)
		if jsonString(after) != jsonString(stored) {
			t.Errorf("category changed by a refused merge:\nbefore %s\nafter  %s", jsonString(stored), jsonString(after))
		}
	})
}

// TestCreateCategoryItemsAndValue checks that both spellings of the item
// definitions are accepted, together too.
func testCreateCategoryItemsAndValue(t *testing.T) {
	cases := []struct {
		name   string
		items  map[string]edgeclient.ConfigItemDefinition
		value  map[string]edgeclient.ConfigItemDefinition
		want   []string
		strict bool // beyond either spelling alone
	}{
		{name: "items only", items: map[string]edgeclient.ConfigItemDefinition{"a": def(edgeclient.String, "1")}, want: []string{"a"}},
		{name: "value only", value: map[string]edgeclient.ConfigItemDefinition{"b": def(edgeclient.String, "2")}, want: []string{"b"}},
		{
			name:   "both combined",
			items:  map[string]edgeclient.ConfigItemDefinition{"a": def(edgeclient.String, "1")},
			value:  map[string]edgeclient.ConfigItemDefinition{"b": def(edgeclient.String, "2")},
			want:   []string{"a", "b"},
			strict: true,
		},
		{name: "no items", want: []string{}, strict: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.strict {
				strictCase(t)
			}
			key := unique("conf-spelling")
			body := edgeclient.CategoryCreate{Key: key, Description: ptr(tc.name)}
			if tc.items != nil {
				body.Items = &tc.items
			}
			if tc.value != nil {
				body.Value = &tc.value
			}
			createCategory(t, body)
			stored := getCategory(t, key)
			var names []string
			for n := range stored {
				names = append(names, n)
			}
			slices.Sort(names)
			if !slices.Equal(names, tc.want) {
				t.Errorf("items %v, want %v", names, tc.want)
			}
		})
	}
}

// TestCreateCategoryInvalid posts invalid categories: each is 400 and
// nothing is stored.
func testCreateCategoryInvalid(t *testing.T) {
	good := def(edgeclient.String, "ok")
	withOpts := func(d edgeclient.ConfigItemDefinition, opts ...string) edgeclient.ConfigItemDefinition {
		d.Options = &opts
		return d
	}
	withMax := func(d edgeclient.ConfigItemDefinition, maximum string) edgeclient.ConfigItemDefinition {
		d.Maximum = &maximum
		return d
	}
	cases := []struct {
		name  string
		items map[string]edgeclient.ConfigItemDefinition
		value map[string]edgeclient.ConfigItemDefinition
	}{
		{name: "unknown type", items: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": def("widget", "x")}},
		{name: "empty type", items: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": def("", "x")}},
		{name: "integer default not an integer", items: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": def(edgeclient.Integer, "abc")}},
		{name: "integer default above its maximum", items: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": withMax(def(edgeclient.Integer, "200"), "100")}},
		{name: "boolean default not a boolean", items: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": def(edgeclient.Boolean, "maybe")}},
		{name: "JSON default malformed", items: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": def(edgeclient.JSON, "{")}},
		{name: "IPv4 default invalid", items: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": def(edgeclient.IPv4, "300.1.1.1")}},
		{name: "enumeration without options", items: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": def(edgeclient.Enumeration, "a")}},
		{name: "enumeration default not an option", items: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": withOpts(def(edgeclient.Enumeration, "z"), "a", "b")}},
		{name: "invalid item in value", value: map[string]edgeclient.ConfigItemDefinition{"ok": good, "bad": def(edgeclient.Float, "fast")}},
		{
			name:  "same item in items and value",
			items: map[string]edgeclient.ConfigItemDefinition{"dup": good},
			value: map[string]edgeclient.ConfigItemDefinition{"dup": good},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key := unique("conf-invalid")
			body := edgeclient.CategoryCreate{Key: key, Description: ptr(tc.name)}
			if tc.items != nil {
				body.Items = &tc.items
			}
			if tc.value != nil {
				body.Value = &tc.value
			}
			resp, err := api(t).CreateCategoryWithResponse(t.Context(), body)
			must(t, err)
			checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
			wantNoCategory(t, key)
			if e := configAudit(t, edgeclient.CONAD, key, ""); e != nil {
				t.Errorf("CONAD written for a refused create: %s", jsonString(e))
			}
		})
	}

	raw := []struct {
		name  string
		body  string
		blank string // a blank key the request names, which must not exist after it
	}{
		{name: "missing key", body: `{"description": "x", "items": {}}`},
		{name: "empty key", body: `{"key": "", "description": "x"}`},
		{name: "blank key", body: `{"key": "   ", "description": "x"}`, blank: "   "},
		{name: "key of unicode spaces", body: `{"key": "\u00a0\u3000", "description": "x"}`, blank: "\u00a0\u3000"},
		{name: "key too long", body: `{"key": "` + strings.Repeat("k", 256) + `", "description": "x"}`},
		{name: "items not an object", body: `{"key": "KEY", "items": ["a"]}`},
		{name: "item missing type", body: `{"key": "KEY", "items": {"a": {"description": "x", "default": "1"}}}`},
		{name: "item missing description", body: `{"key": "KEY", "items": {"a": {"type": "string", "default": "1"}}}`},
		{name: "default not a string", body: `{"key": "KEY", "items": {"a": {"description": "x", "type": "integer", "default": 5}}}`},
		{name: "malformed JSON", body: `{"key": "KEY", "items": {`},
	}
	for _, tc := range raw {
		t.Run(tc.name, func(t *testing.T) {
			key := unique("conf-invalid")
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/category", ctype: "application/json",
				body: strings.NewReader(strings.ReplaceAll(tc.body, "KEY", key))})
			checkError(t, r.status, r.body, http.StatusBadRequest)
			if strings.Contains(tc.body, "KEY") {
				wantNoCategory(t, key)
			}
			if tc.blank != "" {
				wantNoCategory(t, tc.blank)
			}
		})
	}
}

// TestConfigPassword checks that password values are masked on every read,
// in the write's answer and in the audit trail.
func testConfigPassword(t *testing.T) {
	key := unique("conf-secret")
	secret1, secret2 := unique("first-secret"), unique("second-secret")
	got := createCategory(t, edgeclient.CategoryCreate{Key: key, Description: ptr("secrets"), Items: &map[string]edgeclient.ConfigItemDefinition{
		"pw": def(edgeclient.Password, secret1),
	}})
	reads := map[string]func() edgeclient.ConfigItem{
		"createCategory answer": func() edgeclient.ConfigItem { return got.Value["pw"] },
		"getCategory":           func() edgeclient.ConfigItem { return getCategory(t, key)["pw"] },
		"getCategoryItem":       func() edgeclient.ConfigItem { return getItem(t, key, "pw") },
	}
	check := func(t *testing.T) {
		for where, read := range reads {
			it := read()
			if it.Value != "****" {
				t.Errorf("%s: value %q, want ****", where, it.Value)
			}
			if s := jsonString(it); strings.Contains(s, secret1) || strings.Contains(s, secret2) {
				t.Errorf("%s leaks the secret: %s", where, s)
			}
		}
	}
	t.Run("after create", check)

	if e := configAudit(t, edgeclient.CONAD, key, ""); e == nil {
		t.Errorf("no CONAD entry for %q", key)
	} else if strings.Contains(jsonString(e.Details), secret1) {
		t.Errorf("CONAD details leak the secret: %s", jsonString(e.Details))
	}

	set := setItem(t, key, "pw", secret2)
	if set.Value != "****" {
		t.Errorf("setCategoryItem answered value %q, want ****", set.Value)
	}
	t.Run("after set", check)
	wantConch(t, key, "pw", "****", "****")

	reset := resetItem(t, key, "pw")
	if reset.Value != "****" {
		t.Errorf("resetCategoryItem answered value %q, want ****", reset.Value)
	}
	wantConch(t, key, "pw", "****", "****")
	for _, e := range listAudit(t, edgeclient.ListAuditEntriesParams{Limit: ptr(100)}).Audit {
		if s := jsonString(e.Details); strings.Contains(s, secret1) || strings.Contains(s, secret2) {
			t.Errorf("audit entry %s leaks a secret: %s", e.Source, s)
		}
	}
}

// TestConfigPathDecoding uses a category key with '%' and '/' and item
// names with '/', '%' and a space, through the SDK (which percent-encodes)
// and through hand-escaped URLs, which must be decoded exactly once.
func testConfigPathDecoding(t *testing.T) {
	base := unique("conf-path")
	cases := []struct {
		name string
		key  string
		item string
	}{
		{name: "percent in key, slash in item", key: base + "-50%", item: "a/b"},
		{name: "slash in key, percent in item", key: base + "/x", item: "100%"},
		{name: "space and unicode", key: base + " ünï", item: "sp ace"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			createCategory(t, edgeclient.CategoryCreate{Key: tc.key, Description: ptr("path decoding"), Items: &map[string]edgeclient.ConfigItemDefinition{
				tc.item: def(edgeclient.String, "v1"),
			}})
			if !slices.Contains(categoryKeys(t), tc.key) {
				t.Errorf("listCategories does not show %q", tc.key)
			}
			if _, ok := getCategory(t, tc.key)[tc.item]; !ok {
				t.Errorf("getCategory %q has no item %q", tc.key, tc.item)
			}
			if v := getItem(t, tc.key, tc.item).Value; v != "v1" {
				t.Errorf("getCategoryItem = %q, want v1", v)
			}
			setItem(t, tc.key, tc.item, "v2")
			wantConch(t, tc.key, tc.item, "v1", "v2")

			ek, ei := url.PathEscape(tc.key), url.PathEscape(tc.item)
			r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/category/" + ek + "/" + ei})
			wantStatus(t, "GET /edge/category/"+ek+"/"+ei, r.status, r.body, http.StatusOK)
			if !strings.Contains(string(r.body), `"v2"`) {
				t.Errorf("raw GET returned %s, want value v2", r.body)
			}
			r = doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/category/" + ek})
			wantStatus(t, "GET /edge/category/"+ek, r.status, r.body, http.StatusOK)

			// Escaped twice: decoding once names something else.
			twice := "/edge/category/" + url.PathEscape(ek) + "/" + url.PathEscape(ei)
			if strings.ContainsAny(tc.key+tc.item, "%/ ") {
				r = doRaw(t, rawRequest{method: http.MethodGet, path: twice})
				checkError(t, r.status, r.body, http.StatusNotFound)
			}
			r = doRaw(t, rawRequest{method: http.MethodPut, path: "/edge/category/" + ek + "/" + ei,
				ctype: "application/json", body: strings.NewReader(`{"value": "v3"}`)})
			wantStatus(t, "PUT raw", r.status, r.body, http.StatusOK)
			r = doRaw(t, rawRequest{method: http.MethodDelete, path: "/edge/category/" + ek + "/" + ei + "/value"})
			wantStatus(t, "DELETE raw", r.status, r.body, http.StatusOK)
			if v := getItem(t, tc.key, tc.item).Value; v != "v1" {
				t.Errorf("after the raw reset: value %q, want v1", v)
			}
		})
	}
	t.Run("literal 50%25 URL", func(t *testing.T) {
		// The example of the contract, spelled out: /edge/category/<key>-50%25/a%2Fb.
		path := "/edge/category/" + base + "-50%25/a%2Fb"
		r := doRaw(t, rawRequest{method: http.MethodGet, path: path})
		wantStatus(t, "GET "+path, r.status, r.body, http.StatusOK)
		r = doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/category/" + base + "-50%2525/a%2Fb"})
		checkError(t, r.status, r.body, http.StatusNotFound)
		r = doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/category/" + base + "-50%25/a%252Fb"})
		checkError(t, r.status, r.body, http.StatusNotFound)
	})
}

// TestLogLevelChangesLive changes LOGGING.logLevel and finds the effect in
// the log of the gateway the suite started: a request is logged (at debug
// level) only while the level lets debug lines through.
func testLogLevelChangesLive(t *testing.T) {
	needOwnGateway(t, "reads the log of the gateway it started")
	// The suite starts its gateway with --log-level debug; leave it there.
	t.Cleanup(func() { restoreItem(t, "LOGGING", "logLevel", "debug") })
	quiet, loud := unique("conf-quiet"), unique("conf-loud")

	setItem(t, "LOGGING", "logLevel", "warning")
	r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/category/" + quiet})
	checkError(t, r.status, r.body, http.StatusNotFound)
	setItem(t, "LOGGING", "logLevel", "debug")
	r = doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/category/" + loud})
	checkError(t, r.status, r.body, http.StatusNotFound)

	// The access line is written before the answer leaves the gateway.
	b, err := os.ReadFile(ownGatewayLog)
	if err != nil {
		t.Fatalf("read the gateway's log: %v", err)
	}
	if !strings.Contains(string(b), loud) {
		t.Errorf("with logLevel debug, the request for %s is not in the log", loud)
	}
	if strings.Contains(string(b), quiet) {
		t.Errorf("with logLevel warning, the request for %s was logged at debug level", quiet)
	}
}

// TestRetiredItemsRemovedAtStart stores items that earlier versions seeded
// and that nothing reads any more, restarts the gateway and finds them
// gone: Installation.maxUpgrade, and PURGE_READ.retainTaskHistory, whose
// changed value moves to SCHEDULER.max_completed_task_age_days.
// rest_api.authProviders, retired once, is seeded again and stays.
func testRetiredItemsRemovedAtStart(t *testing.T) {
	needOwnGateway(t, "restarts the gateway")
	admin := apiAs(t, adminToken(t))
	ageBefore := getItem(t, "SCHEDULER", "max_completed_task_age_days")
	if ageBefore.Default == nil || ageBefore.Value != *ageBefore.Default {
		t.Fatalf("SCHEDULER.max_completed_task_age_days = %q, want its default on the suite's gateway", ageBefore.Value)
	}
	t.Cleanup(func() { restoreItem(t, "SCHEDULER", "max_completed_task_age_days", ageBefore.Value) })

	earlier := []edgeclient.CategoryCreate{
		{Key: "PURGE_READ", Items: &map[string]edgeclient.ConfigItemDefinition{"retainTaskHistory": def(edgeclient.Integer, "30")}},
		{Key: "Installation", Description: ptr("Package installation"),
			Items: &map[string]edgeclient.ConfigItemDefinition{"maxUpgrade": def(edgeclient.Integer, "1")}},
	}
	for _, in := range earlier {
		resp, err := admin.CreateCategoryWithResponse(t.Context(), in)
		must(t, err)
		wantStatus(t, "createCategory "+in.Key, resp.StatusCode(), resp.Body, http.StatusOK)
	}
	setItem(t, "PURGE_READ", "retainTaskHistory", "45")

	starts, ok := sourceCount(baseURL, edgeclient.START)
	if !ok {
		t.Fatal("audit not readable")
	}
	resp, err := admin.RestartWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "restart", resp.StatusCode(), resp.Body, http.StatusOK)
	eventually(t, 30*time.Second, "the restart (a new START entry)", func() bool {
		n, ok := sourceCount(baseURL, edgeclient.START)
		return ok && n == starts+1
	})

	if it, ok := getCategory(t, "rest_api")["authProviders"]; !ok || it.Value != `{"providers": ["username", "ldap"]}` {
		t.Errorf("rest_api.authProviders after a start = %+v (present %v), want the specification's default", it, ok)
	}
	if _, ok := getCategory(t, "PURGE_READ")["retainTaskHistory"]; ok {
		t.Error("PURGE_READ.retainTaskHistory is still there after a start")
	}
	installation := getCategory(t, "Installation")
	if _, ok := installation["maxUpgrade"]; ok {
		t.Error("Installation.maxUpgrade is still there after a start")
	}
	if _, ok := installation["trustedKeys"]; !ok {
		t.Error("Installation lost its trustedKeys item")
	}
	if got := getItem(t, "SCHEDULER", "max_completed_task_age_days").Value; got != "45" {
		t.Errorf("SCHEDULER.max_completed_task_age_days = %q, want 45, the value retainTaskHistory held", got)
	}
}
