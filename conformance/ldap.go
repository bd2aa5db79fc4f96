package conformance

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/v2/edgeclient"
	"github.com/edged/edged/internal/simtest"
)

// defaultAuthProviders is the specification's default of
// rest_api.authProviders.
const defaultAuthProviders = `{"providers": ["username", "ldap"]}`

// ldapSetup is a directory (Debian's slapd) the suite's gateway logs users
// in through: an admin of the directory (group → admin), an operator
// (group → control), and the gateway configured to ask it.
type ldapSetup struct {
	dir              *simtest.Directory
	admin            string // the suite's admin token
	dirAdmin, dirOps string // user names, each with password name+"-pw"
	caName           string // the directory's authority in the gateway's certificate store
}

// setUpLDAP starts slapd with fresh users and groups, puts its authority
// into the certificate store of the suite's gateway and points category
// LDAP at it over plain LDAP; everything is put back when the test ends.
func setUpLDAP(t *testing.T) *ldapSetup {
	t.Helper()
	counterpartsHere(t)
	s := &ldapSetup{dir: simtest.Slapd(t), admin: adminToken(t), dirAdmin: unique("la"), dirOps: unique("lo"), caName: unique("ldap-ca")}
	d := s.dir
	d.AddUser(s.dirAdmin, s.dirAdmin+"-pw")
	d.AddUser(s.dirOps, s.dirOps+"-pw")
	admins, ops := unique("edge-admins"), unique("edge-operators")
	d.AddGroup(admins, s.dirAdmin)
	d.AddGroup(ops, s.dirOps)

	certs := filepath.Join(filepath.Dir(ownGatewayLog), "certs")
	if err := os.MkdirAll(certs, 0o750); err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(certs, s.caName+".cert")
	if err := os.WriteFile(caFile, []byte(d.CA.CAPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(caFile) }) // the data directory goes when the suite ends anyway

	roles, _ := json.Marshal(map[string]string{d.GroupDN(admins): "admin", ops: "control"})
	for _, it := range []struct{ item, value string }{
		{"url", d.URL}, {"bindDN", d.AdminDN}, {"bindPassword", d.AdminPassword},
		{"userBase", d.People}, {"groupBase", d.Groups}, {"groupRoles", string(roles)},
		{"connectTimeout", "2"}, {"requestTimeout", "2"},
	} {
		changeItemAs(t, s.admin, "LDAP", it.item, it.value)
	}
	// The users the logins create go with the test.
	t.Cleanup(func() {
		for _, name := range []string{s.dirAdmin, s.dirOps} {
			if u, ok := userNamed(t, s.admin, name); ok {
				deleteIfExists(t, s.admin, u.UserId)
			}
		}
	})
	return s
}

// userNamed returns the gateway's user called name.
func userNamed(t testing.TB, admin, name string) (edgeclient.User, bool) {
	t.Helper()
	resp, err := apiAs(t, admin).ListUsersWithResponse(context.Background(), &edgeclient.ListUsersParams{Username: &name})
	must(t, err)
	wantStatus(t, "listUsers "+name, resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil || len(resp.JSON200.Users) == 0 {
		return edgeclient.User{}, false
	}
	return resp.JSON200.Users[0], true
}

// tryLogin sends a password login and returns the raw answer.
func tryLogin(t *testing.T, name, password string) rawResponse {
	t.Helper()
	r, err := sendRaw(t.Context(), httpClient, loginRequest(name, password))
	must(t, err)
	return r
}

// wantLoginAnswer fails t unless the login answered want; a 401 or 429 must be
// an error body (with Retry-After for a 429), a 503 an error body saying
// the directory is unavailable, with Retry-After.
func wantLoginAnswer(t *testing.T, what string, r rawResponse, want int, msgHas string) {
	t.Helper()
	if r.status != want {
		t.Fatalf("%s: status %d, want %d; body %s", what, r.status, want, truncate(r.body))
	}
	if want == http.StatusOK {
		return
	}
	var body struct{ Message string }
	if err := json.Unmarshal(r.body, &body); err != nil || body.Message == "" {
		t.Fatalf("%s: body %s is not {\"message\": ...}", what, truncate(r.body))
	}
	if !strings.Contains(body.Message, msgHas) {
		t.Errorf("%s: message %q, want it to contain %q", what, body.Message, msgHas)
	}
	if want == http.StatusServiceUnavailable || want == http.StatusTooManyRequests {
		wantRetryAfter(t, r, 3600)
	}
}

// TestLDAPLogin logs directory users in through the gateway's LDAP
// provider (rest_api.authProviders, category LDAP) against a slapd the
// test starts: the mapped role, 401 and the lockout for wrong passwords
// and unknown names, TLS verified against the test's authority, 503 with
// the directory stopped while admin logs in, and the providers' effect.
func testLDAPLogin(t *testing.T) {
	s := setUpLDAP(t)

	t.Run("authProviders has the specification's default", func(t *testing.T) {
		it := getItem(t, "rest_api", "authProviders")
		if it.Type != edgeclient.JSON || it.Value != defaultAuthProviders || it.Default == nil || *it.Default != defaultAuthProviders {
			t.Errorf("rest_api.authProviders = %+v, want type JSON, value and default %s", it, defaultAuthProviders)
		}
	})
	t.Run("a directory user logs in with the mapped role", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			role int
		}{{s.dirAdmin, 1}, {s.dirOps, 5}} {
			r := tryLogin(t, tc.name, tc.name+"-pw")
			wantLoginAnswer(t, "login "+tc.name, r, http.StatusOK, "")
			var res edgeclient.LoginResult
			if err := json.Unmarshal(r.body, &res); err != nil || res.Token == "" || res.Admin != (tc.role == 1) {
				t.Errorf("login %s = %s, want a token and admin %v", tc.name, truncate(r.body), tc.role == 1)
			}
			u, ok := userNamed(t, s.admin, tc.name)
			if !ok || u.AccessMethod != edgeclient.AccessMethodLdap || u.RoleId != tc.role {
				t.Errorf("gateway user %s = %+v (found %v), want access method ldap and role %d", tc.name, u, ok, tc.role)
			}
			// The token is a session like any other: it logs out.
			resp, err := apiAs(t, res.Token).LogoutWithResponse(t.Context())
			must(t, err)
			wantStatus(t, "logout of "+tc.name, resp.StatusCode(), resp.Body, http.StatusOK)
		}
	})
	t.Run("TLS to the directory verified against the test's authority", func(t *testing.T) {
		changeItemAs(t, s.admin, "LDAP", "url", s.dir.TLSURL)
		changeItemAs(t, s.admin, "LDAP", "caCertificateName", s.caName)
		wantLoginAnswer(t, "login over LDAPS", tryLogin(t, s.dirAdmin, s.dirAdmin+"-pw"), http.StatusOK, "")
		setItemAs(t, s.admin, "LDAP", "caCertificateName", "")
		wantLoginAnswer(t, "login over LDAPS trusting only the system's authorities",
			tryLogin(t, s.dirAdmin, s.dirAdmin+"-pw"), http.StatusServiceUnavailable, "TLS certificate is not trusted")
		setItemAs(t, s.admin, "LDAP", "caCertificateName", s.caName)
		setItemAs(t, s.admin, "LDAP", "url", s.dir.URL)
		changeItemAs(t, s.admin, "LDAP", "startTLS", "true")
		wantLoginAnswer(t, "login with StartTLS", tryLogin(t, s.dirAdmin, s.dirAdmin+"-pw"), http.StatusOK, "")
	})
	t.Run("the directory stopped: 503 for its users, admin logs in", func(t *testing.T) {
		s.dir.Stop()
		defer s.dir.Start()
		wantLoginAnswer(t, "login of a directory user", tryLogin(t, s.dirOps, s.dirOps+"-pw"), http.StatusServiceUnavailable,
			"LDAP directory is unavailable")
		wantLoginAnswer(t, "login of a name only the directory could know", tryLogin(t, unique("nobody"), "x"),
			http.StatusServiceUnavailable, "LDAP directory is unavailable")
		wantLoginAnswer(t, "login of admin", tryLogin(t, "admin", adminPass()), http.StatusOK, "")
	})
	t.Run("authProviders decides who checks passwords", func(t *testing.T) {
		local, pw := newUser(t, s.admin, 2, "")
		changeItemAs(t, s.admin, "rest_api", "authProviders", `{"providers": ["username"]}`)
		wantLoginAnswer(t, "directory user without the ldap provider", tryLogin(t, s.dirAdmin, s.dirAdmin+"-pw"),
			http.StatusUnauthorized, "not enabled")
		wantLoginAnswer(t, "local user without the ldap provider", tryLogin(t, local.UserName, pw), http.StatusOK, "")
		setItemAs(t, s.admin, "rest_api", "authProviders", `{"providers": ["ldap"]}`)
		wantLoginAnswer(t, "local user without the username provider", tryLogin(t, local.UserName, pw), http.StatusUnauthorized, "username")
		wantLoginAnswer(t, "admin without the username provider", tryLogin(t, "admin", adminPass()), http.StatusOK, "")
		wantLoginAnswer(t, "directory user with the ldap provider", tryLogin(t, s.dirAdmin, s.dirAdmin+"-pw"), http.StatusOK, "")
		for _, bad := range []string{`{"providers": []}`, `{"providers": ["kerberos"]}`, `["username"]`} {
			resp, err := apiAs(t, s.admin).SetCategoryItemWithResponse(t.Context(), "rest_api", "authProviders",
				edgeclient.SetCategoryItemJSONRequestBody{Value: bad})
			must(t, err)
			if msg := checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest); !strings.Contains(msg, "authProviders") {
				t.Errorf("authProviders = %s: message %q does not name the item", bad, msg)
			}
		}
	})
	t.Run("wrong password and unknown name: 401, counted toward the lockout", func(t *testing.T) {
		for _, name := range []string{s.dirOps, unique("nobody")} {
			for i := range 5 {
				wantLoginAnswer(t, "wrong guess "+strings.Repeat("I", i+1)+" for "+name, tryLogin(t, name, "wrong-guess"),
					http.StatusUnauthorized, msgNoMatch)
			}
			wantLoginAnswer(t, "sixth guess for "+name, tryLogin(t, name, "wrong-guess"), http.StatusTooManyRequests, "locked")
		}
		wantLoginAnswer(t, "the right password while locked", tryLogin(t, s.dirOps, s.dirOps+"-pw"), http.StatusTooManyRequests, "locked")
	})
}
