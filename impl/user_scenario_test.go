package impl_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestUserScenarios: login and its failures, users created, listed,
// changed and deleted, passwords, sessions, and the rights of each call
// (decisions §2).
func TestUserScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		const pw = scenario.Password
		name := e.Unique("u")
		var made struct {
			UserID int `json:"userId"`
		}
		e.Call(t, "POST", "/edge/admin/user", map[string]any{"username": name, "password": pw, "role_id": 2}, admin, 200, &made)
		id := made.UserID
		var session struct {
			Token string `json:"token"`
		}
		e.Call(t, "POST", "/edge/login", map[string]any{"username": name, "password": pw}, anon, 200, &session)
		as := func(tok string) map[string]string { return map[string]string{"Authorization": tok} }
		locked := e.Unique("locked")
		e.Call(t, "POST", "/edge/admin/user", map[string]any{"username": locked, "password": pw}, admin, 200, nil)
		gone := e.Unique("gone")
		var goneUser struct {
			UserID int `json:"userId"`
		}
		e.Call(t, "POST", "/edge/admin/user", map[string]any{"username": gone, "password": pw, "role_id": 3}, admin, 200, &goneUser)
		wrongLogin := func(n int) scn {
			return scn{Name: fmt.Sprintf("failed login %d", n), Method: "POST", URL: "/edge/login",
				Body: map[string]any{"username": locked, "password": "Wrong-Pass-1!"}, ExpectedStatus: 401}
		}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "login", Method: "POST", URL: "/edge/login", Body: map[string]any{"username": name, "password": pw}, ExpectedStatus: 200,
				ExpectedContent: []string{`"token":"`, fmt.Sprintf(`"uid":%d`, id), `"admin":false`}},
			{Name: "login with a wrong password", Method: "POST", URL: "/edge/login", Body: map[string]any{"username": name, "password": "Nope-Nope-1!"},
				ExpectedStatus: 401, ExpectedContent: []string{"Username or password do not match"}},
			{Name: "login of an unknown user", Method: "POST", URL: "/edge/login", Body: map[string]any{"username": e.Unique("none"), "password": pw},
				ExpectedStatus: 401, ExpectedContent: []string{"Username or password do not match"}},
			{Name: "login without password", Method: "POST", URL: "/edge/login", Body: map[string]any{"username": name}, ExpectedStatus: 400},
			{Name: "login with malformed JSON", Method: "POST", URL: "/edge/login", Body: `{"username":`, ExpectedStatus: 400},
			{Name: "login with a password over 72 bytes", Method: "POST", URL: "/edge/login",
				Body: map[string]any{"username": name, "password": strings.Repeat("Aa1!", 19)}, ExpectedStatus: 400},
			{Name: "login with a stale token still works", Method: "POST", URL: "/edge/login", Headers: as("stale"),
				Body: map[string]any{"username": name, "password": pw}, ExpectedStatus: 200},
			{Name: "certificate login without TLS", Method: "POST", URL: "/edge/authenticate", ExpectedStatus: 401},
		},
			[]scn{wrongLogin(1), wrongLogin(2), wrongLogin(3), wrongLogin(4), wrongLogin(5),
				{Name: "locked out after five failures", Method: "POST", URL: "/edge/login", Body: map[string]any{"username": locked, "password": pw},
					ExpectedStatus: 429, AfterTestFunc: func(t *testing.T, _ *env, res *httptest.ResponseRecorder) {
						if res.Header().Get("Retry-After") == "" {
							t.Error("no Retry-After")
						}
					}},
			},
			[]scn{
				{Name: "create a duplicate, other case", Method: "POST", URL: "/edge/admin/user", As: admin,
					Body: map[string]any{"username": strings.ToUpper(name), "password": pw}, ExpectedStatus: 409},
				{Name: "create with a short name", Method: "POST", URL: "/edge/admin/user", As: admin,
					Body: map[string]any{"username": "ab", "password": pw}, ExpectedStatus: 400},
				{Name: "create with a name of spaces", Method: "POST", URL: "/edge/admin/user", As: admin,
					Body: map[string]any{"username": "a b c", "password": pw}, ExpectedStatus: 400},
				{Name: "create with an unknown role", Method: "POST", URL: "/edge/admin/user", As: admin,
					Body: map[string]any{"username": e.Unique("u"), "password": pw, "role_id": 6}, ExpectedStatus: 400},
				{Name: "create with a weak password", Method: "POST", URL: "/edge/admin/user", As: admin,
					Body: map[string]any{"username": e.Unique("u"), "password": "short"}, ExpectedStatus: 400},
				{Name: "create with an unknown access method", Method: "POST", URL: "/edge/admin/user", As: admin,
					Body: map[string]any{"username": e.Unique("u"), "password": pw, "access_method": "magic"}, ExpectedStatus: 400},
				{Name: "list", Method: "GET", URL: "/edge/user", As: view, ExpectedStatus: 200, ExpectedContent: []string{`"userName":"` + name + `"`},
					NotExpectedContent: []string{"password", "$2a$"}},
				{Name: "list by id", Method: "GET", URL: fmt.Sprintf("/edge/user?id=%d", id), As: user, ExpectedStatus: 200,
					ExpectedContent: []string{`"userName":"` + name + `"`}, NotExpectedContent: []string{`"userName":"admin"`}},
				{Name: "list by username", Method: "GET", URL: "/edge/user?username=" + name, As: admin, ExpectedStatus: 200,
					ExpectedContent: []string{fmt.Sprintf(`"userId":%d`, id)}},
				{Name: "roles", Method: "GET", URL: "/edge/user/role", As: admin, ExpectedStatus: 200,
					ExpectedContent: []string{`"name":"admin"`, `"name":"control"`}},
				{Name: "own real name", Method: "PUT", URL: "/edge/user", Headers: as(session.Token), Body: map[string]any{"real_name": "Pat O."},
					ExpectedStatus: 200},
				{Name: "own real name shows", Method: "GET", URL: fmt.Sprintf("/edge/user?id=%d", id), As: admin, ExpectedStatus: 200,
					ExpectedContent: []string{`"realName":"Pat O."`}},
				{Name: "own real name without a token", Method: "PUT", URL: "/edge/user", Body: map[string]any{"real_name": "x"}, ExpectedStatus: 401},
				{Name: "own real name without the field", Method: "PUT", URL: "/edge/user", Headers: as(session.Token), Body: `{}`, ExpectedStatus: 400},
				{Name: "own real name as view", Method: "PUT", URL: "/edge/user", As: view, Body: map[string]any{"real_name": "Viewer"}, ExpectedStatus: 200},
				{Name: "change password with a wrong current one", Method: "PUT", URL: fmt.Sprintf("/edge/user/%d/password", id),
					Body: map[string]any{"current_password": "Wrong-Pass-1!", "new_password": "Other-Pass-2!"}, ExpectedStatus: 401},
				{Name: "change password to the same", Method: "PUT", URL: fmt.Sprintf("/edge/user/%d/password", id),
					Body: map[string]any{"current_password": pw, "new_password": pw}, ExpectedStatus: 400},
				{Name: "change password to a weak one", Method: "PUT", URL: fmt.Sprintf("/edge/user/%d/password", id),
					Body: map[string]any{"current_password": pw, "new_password": "weak"}, ExpectedStatus: 400},
				// The call needs no token: an unknown id answers as a wrong
				// password does, so user ids cannot be probed.
				{Name: "change password of an unknown user", Method: "PUT", URL: "/edge/user/999999/password",
					Body: map[string]any{"current_password": pw, "new_password": "Other-Pass-2!"}, ExpectedStatus: 401,
					ExpectedContent: []string{"does not match"}},
				{Name: "change another user's password", Method: "PUT", URL: fmt.Sprintf("/edge/user/%d/password", id), As: view,
					Body: map[string]any{"current_password": pw, "new_password": "Other-Pass-2!"}, ExpectedStatus: 403},
				{Name: "change password without the new one", Method: "PUT", URL: fmt.Sprintf("/edge/user/%d/password", id),
					Body: map[string]any{"current_password": pw}, ExpectedStatus: 400},
				{Name: "change password", Method: "PUT", URL: fmt.Sprintf("/edge/user/%d/password", id),
					Body: map[string]any{"current_password": pw, "new_password": "Other-Pass-2!"}, ExpectedStatus: 200},
				{Name: "the old session ended with the password change", Method: "PUT", URL: "/edge/logout", Headers: as(session.Token), ExpectedStatus: 401},
				{Name: "admin changes a role by id", Method: "PUT", URL: fmt.Sprintf("/edge/admin/%d", id), As: admin,
					Body: map[string]any{"role_id": 5, "real_name": "Pat Control"}, ExpectedStatus: 200, ExpectedContent: []string{`"roleId":5`}},
				{Name: "admin changes a user in the body", Method: "PUT", URL: "/edge/admin/user", As: admin,
					Body: map[string]any{"user_id": id, "description": "operator"}, ExpectedStatus: 200, ExpectedContent: []string{`"description":"operator"`}},
				{Name: "admin changes an unknown user", Method: "PUT", URL: "/edge/admin/999999", As: admin, Body: map[string]any{"real_name": "x"},
					ExpectedStatus: 404},
				{Name: "admin changes an unknown user in the body", Method: "PUT", URL: "/edge/admin/user", As: admin,
					Body: map[string]any{"user_id": 999999, "real_name": "x"}, ExpectedStatus: 404},
				{Name: "admin sets an unknown role", Method: "PUT", URL: fmt.Sprintf("/edge/admin/%d", id), As: admin,
					Body: map[string]any{"role_id": 0}, ExpectedStatus: 400},
				{Name: "admin loses the admin role", Method: "PUT", URL: "/edge/admin/1", As: admin, Body: map[string]any{"role_id": 2},
					ExpectedStatus: 400},
				{Name: "admin loses the admin role (body)", Method: "PUT", URL: "/edge/admin/user", As: admin,
					Body: map[string]any{"user_id": 1, "role_id": 3}, ExpectedStatus: 400},
				{Name: "log out a user's sessions", Method: "PUT", URL: fmt.Sprintf("/edge/%d/logout", id), As: admin, ExpectedStatus: 200},
				{Name: "log out an unknown user's sessions", Method: "PUT", URL: "/edge/999999/logout", As: admin, ExpectedStatus: 404},
				{Name: "delete", Method: "DELETE", URL: fmt.Sprintf("/edge/admin/%d/delete", id), As: admin, ExpectedStatus: 200},
				{Name: "delete again", Method: "DELETE", URL: fmt.Sprintf("/edge/admin/%d/delete", id), As: admin, ExpectedStatus: 404},
				{Name: "delete (long path)", Method: "DELETE", URL: fmt.Sprintf("/edge/admin/user/%d/delete", goneUser.UserID), As: admin,
					ExpectedStatus: 200},
				{Name: "delete the admin", Method: "DELETE", URL: "/edge/admin/1/delete", As: admin, ExpectedStatus: 400},
				{Name: "delete the admin (long path)", Method: "DELETE", URL: "/edge/admin/user/1/delete", As: admin, ExpectedStatus: 400},
				{Name: "delete with an id not a number", Method: "DELETE", URL: "/edge/admin/x/delete", As: admin, ExpectedStatus: 400},
			},
			scenario.Refused("GET", "/edge/user", nil, anon, dataView),
			scenario.Refused("GET", "/edge/user/role", nil, anon, user, control, view),
			scenario.Refused("POST", "/edge/admin/user", map[string]any{"username": e.Unique("u"), "password": pw}, anon, user, control),
			scenario.Refused("PUT", "/edge/admin/1", map[string]any{"real_name": "x"}, anon, user),
			scenario.Refused("PUT", "/edge/admin/user", map[string]any{"user_id": 1, "real_name": "x"}, anon, control),
			scenario.Refused("DELETE", "/edge/admin/2/delete", nil, anon, user),
			scenario.Refused("DELETE", "/edge/admin/user/2/delete", nil, anon, control),
			scenario.Refused("PUT", "/edge/1/logout", nil, anon, user),
			scenario.Refused("PUT", "/edge/user", map[string]any{"real_name": "x"}, dataView),
		))
	})
}

// TestSessionScenarios: a session ends at logout, and logout needs one.
func TestSessionScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		name := e.Unique("sess")
		e.Call(t, "POST", "/edge/admin/user", map[string]any{"username": name, "password": scenario.Password}, admin, 200, nil)
		var s struct {
			Token string `json:"token"`
		}
		e.Call(t, "POST", "/edge/login", map[string]any{"username": name, "password": scenario.Password}, anon, 200, &s)
		tok := map[string]string{"Authorization": "Bearer " + s.Token}
		scenario.Run(t, e, []scn{
			{Name: "a bearer token works", Method: "GET", URL: "/edge/user", Headers: tok, ExpectedStatus: 200},
			{Name: "logout", Method: "PUT", URL: "/edge/logout", Headers: tok, ExpectedStatus: 200},
			{Name: "the token no longer works", Method: "GET", URL: "/edge/user", Headers: tok, ExpectedStatus: 401},
			{Name: "logout without a token", Method: "PUT", URL: "/edge/logout", ExpectedStatus: 401},
		})
	})
}

// TestMandatoryScenarios: with authentication mandatory every call but
// login and ping (allowPing) needs a token.
func TestMandatoryScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		set := func(mode string) {
			e.Call(t, "PUT", "/edge/category/rest_api/authentication", map[string]string{"value": mode}, admin, 200, nil)
		}
		set("mandatory")
		t.Cleanup(func() { set("optional") })
		scenario.Run(t, e, []scn{
			{Name: "anonymous read", Method: "GET", URL: "/edge/category", ExpectedStatus: 401},
			{Name: "anonymous readings", Method: "GET", URL: "/edge/asset", ExpectedStatus: 401},
			{Name: "anonymous write", Method: "POST", URL: "/edge/audit",
				Body: map[string]any{"source": "LOGGN", "severity": "INFORMATION", "details": map[string]any{}}, ExpectedStatus: 401},
			{Name: "ping", Method: "GET", URL: "/edge/ping", ExpectedStatus: 200, ExpectedContent: []string{`"authenticationOptional":false`}},
			{Name: "login", Method: "POST", URL: "/edge/login", Body: map[string]any{"username": "scenario-view", "password": scenario.Password},
				ExpectedStatus: 200},
			{Name: "a role's read", Method: "GET", URL: "/edge/category", As: view, ExpectedStatus: 200},
			{Name: "view may not read readings", Method: "GET", URL: "/edge/asset", As: view, ExpectedStatus: 403},
		})
	})
}
