package conformance

import (
	"crypto/ed25519"
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// rightsKind is who may make a call of the rights table (decisions §2).
type rightsKind int

const (
	// codeCall changes what code runs, where it is fetched from or which
	// keys are trusted: admins only, in every mode; 401 without a token,
	// 403 for every other role.
	codeCall rightsKind = iota
	// readCall is a GET outside /edge/asset…: every role but data-view,
	// and anonymous callers in the optional mode.
	readCall
	// userListCall is the user list: every role but data-view, never
	// anonymously.
	userListCall
)

// rightsCaller is one kind of caller of the rights table: a role with a
// session, or anonymous.
type rightsCaller struct {
	name string
	role int // 0: anonymous
	c    *edgeclient.ClientWithResponses
}

// rightsRow is one call of the rights table. send makes it through c;
// allowed is the status a caller who may make it gets: the calls are
// chosen so that an allowed one changes nothing (a value set to what it
// is, a request the handler refuses after the rights check).
type rightsRow struct {
	op      string
	kind    rightsKind
	allowed int
	send    func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte)
}

// rightsWant is the status caller gets for row in the given mode.
func rightsWant(row rightsRow, caller rightsCaller, mandatory bool) int {
	const admin, dataView = 1, 4
	switch {
	case caller.role == 0 && (mandatory || row.kind != readCall):
		return http.StatusUnauthorized
	case caller.role == 0, caller.role == admin:
		return row.allowed
	case row.kind == codeCall, caller.role == dataView:
		return http.StatusForbidden
	}
	return row.allowed
}

// TestRights checks who may call the operations that change the code the
// gateway runs (the package repository, install, update and removal, and
// the Installation category with its trusted keys), the package listings,
// the plugin catalogue and the user list: for admin, user, control, view and data-view sessions
// and anonymous callers, with authentication optional and mandatory.
func testRights(t *testing.T) {
	admin := adminToken(t)
	adminAPI := apiAs(t, admin)

	// No repository, so that an admin's install or update is refused
	// after the rights check (400) instead of fetching anything; a trusted
	// key of this test's own, which the calls set to what it is.
	changeItemAs(t, admin, "Installation", "repositoryURL", "")
	pub, _, err := ed25519.GenerateKey(nil)
	must(t, err)
	key := base64.StdEncoding.EncodeToString(pub)
	changeItemAs(t, admin, "Installation", "trustedKeys", key)

	callers := []rightsCaller{{name: "admin", role: 1, c: adminAPI}}
	for _, r := range []struct {
		name string
		role int
	}{{"user", 2}, {"view", 3}, {"data-view", 4}, {"control", 5}} {
		u, pw := newUser(t, admin, r.role, "")
		callers = append(callers, rightsCaller{name: r.name, role: r.role, c: apiAs(t, loginUser(t, u.UserName, pw).Token)})
	}
	callers = append(callers, rightsCaller{name: "anonymous", c: apiAnonymous(t)})

	pkg := unique("conf-nopkg")
	installReq := edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: pkg}
	rows := []rightsRow{
		{op: "setRepository", kind: codeCall, allowed: http.StatusBadRequest, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.SetRepositoryWithResponse(t.Context(), edgeclient.RepositoryRequest{Url: "ftp://example.org/repo"})
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "installPlugin", kind: codeCall, allowed: http.StatusBadRequest, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.InstallPluginWithResponse(t.Context(), installReq)
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "createService?action=install", kind: codeCall, allowed: http.StatusBadRequest, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			var body edgeclient.ServiceRequest
			must(t, body.FromPackageInstallRequest(installReq))
			action := edgeclient.Install
			r, err := c.CreateServiceWithResponse(t.Context(), &edgeclient.CreateServiceParams{Action: &action}, body)
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "updatePackages", kind: codeCall, allowed: http.StatusBadRequest, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.UpdatePackagesWithResponse(t.Context(), nil)
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "removePackage", kind: codeCall, allowed: http.StatusNotFound, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.RemovePackageWithResponse(t.Context(), pkg)
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "setCategoryItem Installation.trustedKeys", kind: codeCall, allowed: http.StatusOK, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.SetCategoryItemWithResponse(t.Context(), "Installation", "trustedKeys", edgeclient.ConfigValue{Value: key})
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "setCategoryItems Installation", kind: codeCall, allowed: http.StatusOK, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.SetCategoryItemsWithResponse(t.Context(), "Installation", edgeclient.CategoryValues{"trustedKeys": key, "repositoryURL": ""})
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "createCategory merging into Installation", kind: codeCall, allowed: http.StatusOK, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.CreateCategoryWithResponse(t.Context(), edgeclient.CategoryCreate{Key: "Installation",
				Items: &map[string]edgeclient.ConfigItemDefinition{}}) // no description: it stays
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "resetCategoryItem Installation.repositoryURL", kind: codeCall, allowed: http.StatusOK, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.ResetCategoryItemWithResponse(t.Context(), "Installation", "repositoryURL")
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "listPackages", kind: readCall, allowed: http.StatusOK, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.ListPackagesWithResponse(t.Context())
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "listAvailablePackages", kind: readCall, allowed: http.StatusBadRequest, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.ListAvailablePackagesWithResponse(t.Context())
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "listAvailablePlugins", kind: readCall, allowed: http.StatusBadRequest, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.ListAvailablePluginsWithResponse(t.Context())
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "listInstalledPlugins", kind: readCall, allowed: http.StatusOK, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.ListInstalledPluginsWithResponse(t.Context(), &edgeclient.ListInstalledPluginsParams{Config: ptr(true)})
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "getPackageLog", kind: readCall, allowed: http.StatusNotFound, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.GetPackageLogWithResponse(t.Context(), pkg+".log")
			must(t, err)
			return r.StatusCode(), r.Body
		}},
		{op: "listUsers", kind: userListCall, allowed: http.StatusOK, send: func(t *testing.T, c *edgeclient.ClientWithResponses) (int, []byte) {
			r, err := c.ListUsersWithResponse(t.Context(), nil)
			must(t, err)
			return r.StatusCode(), r.Body
		}},
	}

	for _, mode := range []string{"optional", "mandatory"} {
		t.Run(mode, func(t *testing.T) {
			changeItemAs(t, admin, "rest_api", "authentication", mode)
			for _, caller := range callers {
				t.Run(caller.name, func(t *testing.T) {
					for _, row := range rows {
						t.Run(row.op, func(t *testing.T) {
							want := rightsWant(row, caller, mode == "mandatory")
							status, body := row.send(t, caller.c)
							if want == http.StatusOK {
								wantStatus(t, row.op, status, body, want)
								return
							}
							checkError(t, status, body, want)
						})
					}
				})
			}
		})
	}
	// The refused calls changed nothing; the admin's set what was there.
	if v := getItem(t, "Installation", "trustedKeys").Value; v != key {
		t.Errorf("Installation.trustedKeys = %q after the table, want %q", v, key)
	}
	if v := getItem(t, "Installation", "repositoryURL").Value; v != "" {
		t.Errorf("Installation.repositoryURL = %q after the table, want it empty", v)
	}
}

// TestProtectedCategoryLookalikes checks that category keys differing
// from rest_api, password or Installation only by case or surrounding
// space are protected as those categories are, and cannot be created.
func testProtectedCategoryLookalikes(t *testing.T) {
	admin := adminToken(t)
	u, pw := newUser(t, admin, 2, "")
	userAPI := apiAs(t, loginUser(t, u.UserName, pw).Token)
	for _, key := range []string{"REST_API", "rest_api ", "Password", " installation"} {
		t.Run(key, func(t *testing.T) {
			body := edgeclient.CategoryCreate{Key: key, Description: ptr("a lookalike"), Items: &map[string]edgeclient.ConfigItemDefinition{
				"authentication": def(edgeclient.String, "optional")}}
			for _, tc := range []struct {
				name   string
				c      *edgeclient.ClientWithResponses
				status int
			}{
				{"anonymous", apiAnonymous(t), http.StatusUnauthorized},
				{"user", userAPI, http.StatusForbidden},
				{"admin", apiAs(t, admin), http.StatusBadRequest},
			} {
				r, err := tc.c.CreateCategoryWithResponse(t.Context(), body)
				must(t, err)
				checkError(t, r.StatusCode(), r.Body, tc.status)
			}
			wantNoCategory(t, key)
			for _, tc := range []struct {
				name   string
				c      *edgeclient.ClientWithResponses
				status int
			}{
				{"anonymous", apiAnonymous(t), http.StatusUnauthorized},
				{"user", userAPI, http.StatusForbidden},
			} {
				r, err := tc.c.SetCategoryItemWithResponse(t.Context(), key, "authentication", edgeclient.ConfigValue{Value: "mandatory"})
				must(t, err)
				checkError(t, r.StatusCode(), r.Body, tc.status)
			}
		})
	}
}
