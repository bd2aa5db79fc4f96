package conformance

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// summaryKeys returns the keys of a category list.
func summaryKeys(cats []edgeclient.CategorySummary) []string {
	out := make([]string, 0, len(cats))
	for _, c := range cats {
		out = append(out, c.Key)
	}
	return out
}

// listCategoriesWhere lists the categories with root=root.
func listCategoriesWhere(t testing.TB, root bool) []string {
	t.Helper()
	resp, err := api(t).ListCategoriesWithResponse(t.Context(), &edgeclient.ListCategoriesParams{Root: &root})
	must(t, err)
	wantStatus(t, fmt.Sprintf("listCategories root=%v", root), resp.StatusCode(), resp.Body, http.StatusOK)
	return summaryKeys(resp.JSON200.Categories)
}

// childrenOf lists the children of key and fails unless that succeeds.
func childrenOf(t testing.TB, key string) []string {
	t.Helper()
	resp, err := api(t).ListCategoryChildrenWithResponse(t.Context(), key)
	must(t, err)
	wantStatus(t, "listCategoryChildren "+key, resp.StatusCode(), resp.Body, http.StatusOK)
	return summaryKeys(resp.JSON200.Categories)
}

// parentOf returns the parent of key, "" for a root.
func parentOf(t testing.TB, key string) string {
	t.Helper()
	resp, err := api(t).GetCategoryParentWithResponse(t.Context(), key)
	must(t, err)
	wantStatus(t, "getCategoryParent "+key, resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200.Parent == nil {
		return ""
	}
	return resp.JSON200.Parent.Key
}

// attach makes children children of parent and returns all its children.
func attach(t testing.TB, parent string, children ...string) []string {
	t.Helper()
	resp, err := api(t).AddCategoryChildrenWithResponse(t.Context(), parent, edgeclient.CategoryChildrenAdd{Children: children})
	must(t, err)
	wantStatus(t, "addCategoryChildren "+parent, resp.StatusCode(), resp.Body, http.StatusOK)
	return resp.JSON200.Children
}

// detachLater detaches child from parent when the test ends, if it is
// still there, so that the gateway's tree is left as it was.
func detachLater(t testing.TB, parent, child string) {
	t.Helper()
	t.Cleanup(func() {
		resp, err := api(t).RemoveCategoryChildWithResponse(context.Background(), parent, child)
		if err != nil {
			t.Errorf("cleanup: detach %s from %s: %v", child, parent, err)
			return
		}
		if resp.StatusCode() != http.StatusOK && resp.StatusCode() != http.StatusNotFound {
			t.Errorf("cleanup: detach %s from %s: status %d", child, parent, resp.StatusCode())
		}
	})
}

// TestCategoryTree reads the seeded tree and changes it: roots, children,
// parents, attaching, moving and detaching categories of the test's own.
func testCategoryTree(t *testing.T) {
	t.Run("seeded roots", func(t *testing.T) {
		roots := listCategoriesWhere(t, true)
		for _, k := range []string{"General", "Advanced", "Utilities"} {
			if !slices.Contains(roots, k) {
				t.Errorf("root=true lacks %s: %q", k, roots)
			}
		}
		for _, k := range []string{"rest_api", "service", "PURGE_READ"} {
			if slices.Contains(roots, k) {
				t.Errorf("root=true lists %s, which has a parent", k)
			}
		}
		if !slices.IsSorted(roots) {
			t.Errorf("roots not sorted by key: %q", roots)
		}
		children := listCategoriesWhere(t, false)
		if !slices.Contains(children, "rest_api") || slices.Contains(children, "General") {
			t.Errorf("root=false = %q, want the categories with a parent (rest_api, not General)", children)
		}
		all := categoryKeys(t)
		if len(roots)+len(children) != len(all) {
			t.Errorf("%d roots + %d children != %d categories", len(roots), len(children), len(all))
		}
	})
	t.Run("seeded children and parents", func(t *testing.T) {
		if got := childrenOf(t, "General"); !slices.Contains(got, "rest_api") || !slices.Contains(got, "service") {
			t.Errorf("children of General = %q, want rest_api and service among them", got)
		}
		if got := childrenOf(t, "Utilities"); !slices.Contains(got, "PURGE_READ") {
			t.Errorf("children of Utilities = %q, want PURGE_READ among them", got)
		}
		if got := parentOf(t, "SCHEDULER"); got != "Advanced" {
			t.Errorf("parent of SCHEDULER = %q, want Advanced", got)
		}
		if got := parentOf(t, "General"); got != "" {
			t.Errorf("parent of General = %q, want none (a root)", got)
		}
		if got := childrenOf(t, "rest_api"); len(got) != 0 {
			t.Errorf("children of rest_api = %q, want []", got)
		}
	})

	top, a, b := unique("conf-tree"), unique("conf-tree-a"), unique("conf-tree-b")
	for _, k := range []string{top, a, b} {
		createCategory(t, edgeclient.CategoryCreate{Key: k, Description: ptr("tree " + k)})
	}
	detachLater(t, top, a)
	detachLater(t, top, b)
	detachLater(t, a, b)

	got := attach(t, top, b, a, b)
	if want := sorted(a, b); !slices.Equal(got, want) {
		t.Errorf("addCategoryChildren answered %q, want %q", got, want)
	}
	if got := childrenOf(t, top); !slices.Equal(got, sorted(a, b)) {
		t.Errorf("children of %s = %q, want %q", top, got, sorted(a, b))
	}
	if got := parentOf(t, a); got != top {
		t.Errorf("parent of %s = %q, want %s", a, got, top)
	}
	if slices.Contains(listCategoriesWhere(t, true), a) || !slices.Contains(listCategoriesWhere(t, true), top) {
		t.Errorf("root=true after attaching: want %s and not %s", top, a)
	}
	t.Run("attaching again changes nothing", func(t *testing.T) {
		if got := attach(t, top, a); !slices.Equal(got, sorted(a, b)) {
			t.Errorf("children = %q, want %q", got, sorted(a, b))
		}
	})
	t.Run("summaries of children", func(t *testing.T) {
		resp, err := api(t).ListCategoryChildrenWithResponse(t.Context(), top)
		must(t, err)
		for _, c := range resp.JSON200.Categories {
			if c.Description != "tree "+c.Key {
				t.Errorf("child %s described %q, want %q", c.Key, c.Description, "tree "+c.Key)
			}
		}
	})
	t.Run("detach and move", func(t *testing.T) {
		resp, err := api(t).RemoveCategoryChildWithResponse(t.Context(), top, b)
		must(t, err)
		wantStatus(t, "removeCategoryChild", resp.StatusCode(), resp.Body, http.StatusOK)
		if !slices.Equal(resp.JSON200.Children, []string{a}) {
			t.Errorf("remaining children %q, want [%s]", resp.JSON200.Children, a)
		}
		if got := parentOf(t, b); got != "" {
			t.Errorf("parent of detached %s = %q, want none", b, got)
		}
		attach(t, a, b)
		if got := parentOf(t, b); got != a {
			t.Errorf("parent of %s = %q, want %s", b, got, a)
		}
	})
}

// sorted returns keys sorted.
func sorted(keys ...string) []string {
	return slices.Sorted(slices.Values(keys))
}

// TestCategoryTreeErrors checks the refusals of the tree operations, and
// that a refused attachment changes nothing.
func testCategoryTreeErrors(t *testing.T) {
	p, c, other := unique("conf-treeerr"), unique("conf-treeerr-c"), unique("conf-treeerr-o")
	for _, k := range []string{p, c, other} {
		createCategory(t, edgeclient.CategoryCreate{Key: k})
	}
	detachLater(t, p, c)
	attach(t, p, c)
	ghost := unique("conf-ghost")

	post := func(t *testing.T, parent, body string) rawResponse {
		return doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/category/" + url.PathEscape(parent) + "/children",
			body: strings.NewReader(body), ctype: "application/json"})
	}
	cases := []struct {
		name  string
		send  func(t *testing.T) rawResponse
		want  int
		names string // the message must mention this
	}{
		{name: "children of an unknown category", want: 404, names: ghost,
			send: func(t *testing.T) rawResponse {
				return doRaw(t, rawRequest{method: "GET", path: "/edge/category/" + ghost + "/children"})
			}},
		{name: "parent of an unknown category", want: 404, names: ghost,
			send: func(t *testing.T) rawResponse {
				return doRaw(t, rawRequest{method: "GET", path: "/edge/category/" + ghost + "/parent"})
			}},
		{name: "attach to an unknown category", want: 404, names: ghost,
			send: func(t *testing.T) rawResponse { return post(t, ghost, `{"children":["`+c+`"]}`) }},
		{name: "attach an unknown category", want: 404, names: ghost,
			send: func(t *testing.T) rawResponse { return post(t, other, `{"children":["`+ghost+`"]}`) }},
		{name: "attach a child of another", want: 409, names: c,
			send: func(t *testing.T) rawResponse { return post(t, other, `{"children":["`+c+`"]}`) }},
		{name: "attach a category to itself", want: 409, names: other,
			send: func(t *testing.T) rawResponse { return post(t, other, `{"children":["`+other+`"]}`) }},
		{name: "attach a parent under its child", want: 409, names: p,
			send: func(t *testing.T) rawResponse { return post(t, c, `{"children":["`+p+`"]}`) }},
		{name: "no children", want: 400, names: "children",
			send: func(t *testing.T) rawResponse { return post(t, other, `{"children":[]}`) }},
		{name: "children missing", want: 400, names: "children",
			send: func(t *testing.T) rawResponse { return post(t, other, `{}`) }},
		{name: "child not a string", want: 400, names: "children",
			send: func(t *testing.T) rawResponse { return post(t, other, `{"children":[5]}`) }},
		{name: "detach a category that is no child", want: 404, names: other,
			send: func(t *testing.T) rawResponse {
				return doRaw(t, rawRequest{method: "DELETE", path: "/edge/category/" + p + "/children/" + other})
			}},
		{name: "detach from an unknown category", want: 404, names: ghost,
			send: func(t *testing.T) rawResponse {
				return doRaw(t, rawRequest{method: "DELETE", path: "/edge/category/" + ghost + "/children/" + c})
			}},
		{name: "an item named children cannot be defined", want: 400, names: "children",
			send: func(t *testing.T) rawResponse {
				return doRaw(t, rawRequest{method: "POST", path: "/edge/category", ctype: "application/json",
					body: strings.NewReader(`{"key":"` + ghost + `","items":{"children":{"description":"d","type":"string"}}}`)})
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.send(t)
			msg := checkError(t, r.status, r.body, tc.want)
			if !strings.Contains(msg, tc.names) {
				t.Errorf("message %q does not name %q", msg, tc.names)
			}
		})
	}
	if got := parentOf(t, c); got != p {
		t.Errorf("parent of %s = %q after refused changes, want %s", c, got, p)
	}
	if got := childrenOf(t, other); len(got) != 0 {
		t.Errorf("children of %s = %q after refused changes, want none", other, got)
	}
	wantNoCategory(t, ghost)
}

// TestSetCategoryItems sets several items of a category at once: all are
// stored and audited, the whole category comes back; a refused item stores
// nothing.
func testSetCategoryItems(t *testing.T) {
	key := typedCategory(t)
	set := func(t *testing.T, body string) rawResponse {
		return doRaw(t, rawRequest{method: http.MethodPut, path: "/edge/category/" + url.PathEscape(key), body: strings.NewReader(body), ctype: "application/json"})
	}
	beforeCONCH := auditCount(t, edgeclient.CONCH)
	resp, err := api(t).SetCategoryItemsWithResponse(t.Context(), key, edgeclient.CategoryValues{"strItem": "bulk", "intItem": "7", "boolItem": "FALSE"})
	must(t, err)
	wantStatus(t, "setCategoryItems", resp.StatusCode(), resp.Body, http.StatusOK)
	cat := *resp.JSON200
	for item, want := range map[string]string{"strItem": "bulk", "intItem": "7", "boolItem": "false"} {
		if got := cat[item].Value; got != want {
			t.Errorf("answer: %s = %q, want %q", item, got, want)
		}
		if got := getItem(t, key, item).Value; got != want {
			t.Errorf("read back: %s = %q, want %q", item, got, want)
		}
	}
	if len(cat) != len(getCategory(t, key)) {
		t.Errorf("the answer has %d items, the category %d: want the whole category", len(cat), len(getCategory(t, key)))
	}
	if got := auditCount(t, edgeclient.CONCH) - beforeCONCH; got < 3 {
		t.Errorf("%d CONCH entries written, want one per changed item (3)", got)
	}
	for _, item := range []string{"strItem", "intItem", "boolItem"} {
		if configAudit(t, edgeclient.CONCH, key, item) == nil {
			t.Errorf("no CONCH entry for %s", item)
		}
	}

	cases := []struct {
		name  string
		body  string
		want  int
		names string
	}{
		{name: "one invalid value", body: `{"strItem":"never","intItem":"seven"}`, want: 400, names: "intItem"},
		{name: "an unknown item", body: `{"strItem":"never","ghostItem":"x"}`, want: 404, names: "ghostItem"},
		{name: "a value not a string", body: `{"strItem":"never","intItem":8}`, want: 400, names: "intItem"},
		{name: "no items", body: `{}`, want: 400},
		{name: "not an object", body: `["strItem"]`, want: 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := set(t, tc.body)
			msg := checkError(t, r.status, r.body, tc.want)
			if !strings.Contains(msg, tc.names) {
				t.Errorf("message %q does not name %q", msg, tc.names)
			}
			if got := getItem(t, key, "strItem").Value; got != "bulk" {
				t.Errorf("strItem = %q after a refused change, want bulk (all or nothing)", got)
			}
		})
	}
	t.Run("unknown category", func(t *testing.T) {
		ghost := unique("conf-ghost")
		r := doRaw(t, rawRequest{method: http.MethodPut, path: "/edge/category/" + ghost, body: strings.NewReader(`{"a":"b"}`), ctype: "application/json"})
		if msg := checkError(t, r.status, r.body, http.StatusNotFound); !strings.Contains(msg, ghost) {
			t.Errorf("message %q does not name %s", msg, ghost)
		}
	})
	t.Run("rest_api needs an admin", func(t *testing.T) {
		// Without a token: 401 in either mode (decisions §2).
		r := doRaw(t, rawRequest{method: http.MethodPut, path: "/edge/category/rest_api", anonymous: true,
			body: strings.NewReader(`{"allowPing":"true"}`), ctype: "application/json"})
		checkError(t, r.status, r.body, http.StatusUnauthorized)
	})
}

// TestCreateCategoryDisplayNameAlias creates categories with display_name,
// the alternative spelling of displayName.
func testCreateCategoryDisplayNameAlias(t *testing.T) {
	key := unique("conf-alias")
	r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/category", ctype: "application/json",
		body: strings.NewReader(`{"key":"` + key + `","description":"d","display_name":"Pump station"}`)})
	wantStatus(t, "createCategory with display_name", r.status, r.body, http.StatusOK)
	found := false
	resp, err := api(t).ListCategoriesWithResponse(t.Context(), nil)
	must(t, err)
	for _, c := range resp.JSON200.Categories {
		if c.Key == key {
			found = true
			if c.DisplayName == nil || *c.DisplayName != "Pump station" {
				t.Errorf("displayName = %v, want Pump station", c.DisplayName)
			}
		}
	}
	if !found {
		t.Fatalf("%s not listed", key)
	}
	t.Run("both spellings agreeing", func(t *testing.T) {
		r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/category", ctype: "application/json",
			body: strings.NewReader(`{"key":"` + key + `","displayName":"Pumps","display_name":"Pumps"}`)})
		wantStatus(t, "createCategory", r.status, r.body, http.StatusOK)
	})
	t.Run("both spellings differing", func(t *testing.T) {
		other := unique("conf-alias")
		r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/category", ctype: "application/json",
			body: strings.NewReader(`{"key":"` + other + `","displayName":"A","display_name":"B"}`)})
		if msg := checkError(t, r.status, r.body, http.StatusBadRequest); !strings.Contains(msg, "display_name") {
			t.Errorf("message %q does not name display_name", msg)
		}
		wantNoCategory(t, other)
	})
}
