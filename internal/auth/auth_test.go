package auth_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/impl"
	"github.com/edged/edged/internal/auth"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/router"
	"github.com/edged/edged/internal/user"
)

// caller is one kind of client of the matrix: a role with its token, or
// anonymous (no token).
type caller struct {
	name  string
	role  user.Role // RoleNone: anonymous
	token string
}

var callers = []caller{
	{name: "admin", role: user.RoleAdmin, token: "tok-admin"},
	{name: "user", role: user.RoleUser, token: "tok-user"},
	{name: "view", role: user.RoleView, token: "tok-view"},
	{name: "data-view", role: user.RoleDataView, token: "tok-data-view"},
	{name: "control", role: user.RoleControl, token: "tok-control"},
	{name: "anonymous"},
}

// fakeSessions knows one token per role; the user id is the role id.
type fakeSessions struct{}

func (fakeSessions) Session(_ context.Context, token string) (user.Principal, error) {
	for _, c := range callers {
		if c.token != "" && c.token == token {
			return user.Principal{UserID: int64(c.role), Username: c.name, Role: c.role}, nil
		}
	}
	return user.Principal{}, fault.New(fault.Unauthorized, user.MsgInvalidToken)
}

// mutableSettings lets a test switch modes.
type mutableSettings struct{ s user.Settings }

func (m *mutableSettings) Settings() user.Settings { return m.s }

type operation struct {
	id, method, path string
}

// specOperations lists every operation of openapi.yaml.
func specOperations(t *testing.T) (*openapi3.T, []operation) {
	t.Helper()
	spec, err := gen.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	var ops []operation
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			// The embedded spec capitalises the first letter; expected
			// uses the contract's spelling.
			id := strings.ToLower(op.OperationID[:1]) + op.OperationID[1:]
			ops = append(ops, operation{id: id, method: method, path: path})
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].id < ops[j].id })
	if len(ops) < 60 {
		t.Fatalf("only %d operations in the spec", len(ops))
	}
	return spec, ops
}

// newHandler routes every operation of the spec to a handler that answers
// 200 {} after reading the body, behind the real router and Authorizer.
func newHandler(t *testing.T, settings user.SettingsSource) http.Handler {
	t.Helper()
	spec, ops := specOperations(t)
	a := auth.New(fakeSessions{}, settings, slog.New(slog.DiscardHandler))
	rt := router.New(router.Options{Spec: spec, WriteError: impl.ErrorWriter(slog.New(slog.DiscardHandler)), Authorize: a.Authorize})
	for _, op := range ops {
		rt.MethodFunc(op.method, op.path, func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, "{}")
		})
	}
	return rt
}

// adminOnly are the operations of user management and the roles list,
// those that change the code the gateway runs or where it comes from (the
// package repository, install, update and removal), and the fleet
// configuration (whose document holds the users).
var adminOnly = []string{"createUser", "adminUpdateUser", "adminUpdateUserById", "deleteUser",
	"deleteUserById", "logoutUserSessions", "listRoles",
	"setRepository", "installPlugin", "updatePackages", "removePackage",
	"exportConfig", "planConfig", "applyConfig",
	// a backup holds the users' password hashes; a restore replaces everything
	"listBackups", "createBackup", "getBackup", "deleteBackup", "downloadBackup", "restoreBackup", "uploadBackup"}

// tokenOnly are the calls an anonymous caller never gets in the optional
// mode though some roles below admin do: the user list, and stopping or
// restarting the process.
var tokenOnly = []string{"listUsers", "shutdown", "restart"}

// controlOnly are the calls that act on the plant (spec §2.5) and the
// gateway's log: admins and the control role only, never anonymous
// callers.
var controlOnly = []string{"controlWrite", "controlOperation", "listLogEntries"}

// expected is decisions §2 in words, written independently of the Rights
// table: 0 means allowed, else the status of the refusal. allowPing is
// true; path parameters name the caller's own user and a category other
// than rest_api and password.
func expected(c caller, mandatory bool, op operation) int {
	switch op.id {
	case "login", "authenticate", "changePassword", "ping", "getMetrics":
		return 0 // the metrics are scraped on ping's terms
	}
	if slices.Contains(controlOnly, op.id) {
		switch c.role {
		case user.RoleNone:
			return http.StatusUnauthorized // never anonymous, in either mode
		case user.RoleAdmin, user.RoleControl:
			return 0
		}
		return http.StatusForbidden
	}
	if c.role == user.RoleNone {
		switch {
		case mandatory:
			return http.StatusUnauthorized
		case op.id == "logout" || op.id == "updateOwnUser":
			return http.StatusUnauthorized // no user to act on
		case slices.Contains(adminOnly, op.id) || slices.Contains(tokenOnly, op.id):
			return http.StatusUnauthorized // needs a token in every mode
		}
		return expected(caller{role: user.RoleUser}, mandatory, op)
	}
	get := op.method == http.MethodGet
	assets := strings.HasPrefix(op.path, "/edge/asset")
	switch c.role {
	case user.RoleAdmin:
		return 0
	case user.RoleUser, user.RoleControl:
		if slices.Contains(adminOnly, op.id) {
			return http.StatusForbidden
		}
		return 0
	case user.RoleView:
		if op.id == "logout" || op.id == "updateOwnUser" || get && !assets && !slices.Contains(adminOnly, op.id) {
			return 0
		}
		return http.StatusForbidden
	case user.RoleDataView:
		if op.id == "logout" || get && (assets || op.path == "/edge/ping" || strings.HasPrefix(op.path, "/edge/statistics")) {
			return 0
		}
		return http.StatusForbidden
	}
	panic("unknown role")
}

// pathFor fills the path parameters of op: the caller's own user id, the
// category "service", "x" for the rest.
func pathFor(op operation, c caller) string {
	uid := int(c.role)
	if uid == 0 {
		uid = 2
	}
	r := strings.NewReplacer("{user_id}", strconv.Itoa(uid), "{name}", "service", "{id}", "x",
		"{schedule_id}", "x", "{code}", "x", "{reading}", "x", "{item}", "x", "{service_name}", "x",
		"{plugin_name}", "x", "{asset_name}", "x", "{event_name}", "x", "{child}", "x")
	return r.Replace(op.path)
}

func send(h http.Handler, method, target, token, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestMatrix checks every operation of the contract for every role and
// anonymous callers, in both authentication modes.
func TestMatrix(t *testing.T) {
	_, ops := specOperations(t)
	for _, mode := range []string{"optional", "mandatory"} {
		settings := &mutableSettings{s: user.DefaultSettings()}
		settings.s.Mandatory = mode == "mandatory"
		h := newHandler(t, settings)
		t.Run(mode, func(t *testing.T) {
			for _, c := range callers {
				t.Run(c.name, func(t *testing.T) {
					for _, op := range ops {
						want := expected(c, settings.s.Mandatory, op)
						rec := send(h, op.method, pathFor(op, c), c.token, "")
						got := rec.Code
						switch {
						case want == 0 && (got == http.StatusUnauthorized || got == http.StatusForbidden):
							t.Errorf("%s %s (%s): status %d, want allowed; body %s", op.method, op.path, op.id, got, rec.Body)
						case want != 0 && got != want:
							t.Errorf("%s %s (%s): status %d, want %d; body %s", op.method, op.path, op.id, got, want, rec.Body)
						}
					}
				})
			}
		})
	}
}

// TestEveryOperationHasARule fails when the contract and the table differ.
func TestEveryOperationHasARule(t *testing.T) {
	_, ops := specOperations(t)
	// The embedded spec capitalises operationIds (Ping for ping); the
	// table uses the contract's spelling and is matched ignoring case.
	inSpec := map[string]bool{}
	inTable := map[string]bool{}
	for id := range auth.Rights {
		inTable[strings.ToLower(id)] = true
	}
	for _, op := range ops {
		inSpec[strings.ToLower(op.id)] = true
		if !inTable[strings.ToLower(op.id)] {
			t.Errorf("operation %s (%s %s) has no entry in auth.Rights", op.id, op.method, op.path)
		}
	}
	for id := range auth.Rights {
		if !inSpec[strings.ToLower(id)] {
			t.Errorf("auth.Rights has an entry for %s, which is not an operation of openapi.yaml", id)
		}
	}
	if len(inTable) != len(auth.Rights) {
		t.Errorf("auth.Rights has entries differing only in case")
	}
}

func TestSpecialCases(t *testing.T) {
	item := `{"value":"8090"}`
	tests := []struct {
		name      string
		mandatory bool
		noPing    bool
		method    string
		target    string
		token     string
		body      string
		want      int // 0: allowed
	}{
		{name: "user may not write rest_api", method: "PUT", target: "/edge/category/rest_api/httpPort", token: "tok-user", body: item, want: 403},
		{name: "control may not reset password items", method: "DELETE", target: "/edge/category/password/length/value", token: "tok-control", want: 403},
		{name: "anonymous may not write rest_api", method: "PUT", target: "/edge/category/rest_api/authentication", body: `{"value":"mandatory"}`, want: 401},
		{name: "admin may write rest_api", mandatory: true, method: "PUT", target: "/edge/category/rest_api/httpPort", token: "tok-admin", body: item},
		{name: "user may write another category", method: "PUT", target: "/edge/category/service/name", token: "tok-user", body: `{"value":"x"}`},
		{name: "user may read rest_api", method: "GET", target: "/edge/category/rest_api", token: "tok-user"},
		{name: "user may not set several rest_api items", method: "PUT", target: "/edge/category/rest_api", token: "tok-user",
			body: `{"httpPort":"8090"}`, want: 403},
		{name: "admin may set several rest_api items", method: "PUT", target: "/edge/category/rest_api", token: "tok-admin",
			body: `{"httpPort":"8090"}`},
		{name: "user may set several items of another category", method: "PUT", target: "/edge/category/service", token: "tok-user",
			body: `{"name":"x"}`},
		{name: "user may move rest_api in the tree", method: "POST", target: "/edge/category/Advanced/children", token: "tok-user",
			body: `{"children":["rest_api"]}`},
		{name: "view may not change the tree", method: "DELETE", target: "/edge/category/General/children/rest_api", token: "tok-view", want: 403},
		{name: "view reads the tree", method: "GET", target: "/edge/category/rest_api/parent", token: "tok-view"},
		{name: "data-view reads an asset's summary", method: "GET", target: "/edge/asset/pump/summary", token: "tok-data-view"},
		{name: "view may not read an asset's summary", method: "GET", target: "/edge/asset/pump/summary", token: "tok-view", want: 403},
		{name: "user may not merge into rest_api", method: "POST", target: "/edge/category", token: "tok-user",
			body: `{"key":"rest_api","description":"d","items":{}}`, want: 403},
		{name: "user may not merge into password anonymously", method: "POST", target: "/edge/category",
			body: `{"key":"password","description":"d","items":{}}`, want: 401},
		{name: "user may create another category; body still validated", method: "POST", target: "/edge/category", token: "tok-user",
			body: `{"key":"mine","description":"d","items":{}}`},
		{name: "admin may merge into rest_api", method: "POST", target: "/edge/category", token: "tok-admin",
			body: `{"key":"rest_api","description":"d","items":{}}`},
		{name: "view may not change another's password", method: "PUT", target: "/edge/user/2/password", token: "tok-view",
			body: `{"current_password":"a","new_password":"b"}`, want: 403},
		{name: "admin may call the password change for another", method: "PUT", target: "/edge/user/2/password", token: "tok-admin",
			body: `{"current_password":"a","new_password":"b"}`},
		{name: "password change needs no token when mandatory", mandatory: true, method: "PUT", target: "/edge/user/3/password",
			body: `{"current_password":"a","new_password":"b"}`},
		{name: "invalid token ignored by the password change", mandatory: true, method: "PUT", target: "/edge/user/3/password", token: "stale",
			body: `{"current_password":"a","new_password":"b"}`},
		{name: "invalid token refused in optional mode", method: "GET", target: "/edge/category", token: "stale", want: 401},
		{name: "invalid token refused in mandatory mode", mandatory: true, method: "GET", target: "/edge/category", token: "stale", want: 401},
		{name: "invalid token ignored by login", mandatory: true, method: "POST", target: "/edge/login", token: "stale",
			body: `{"username":"a","password":"b"}`},
		{name: "invalid token ignored by ping", mandatory: true, method: "GET", target: "/edge/ping", token: "stale"},
		{name: "ping needs a token without allowPing", mandatory: true, noPing: true, method: "GET", target: "/edge/ping", want: 401},
		{name: "ping with a token without allowPing", mandatory: true, noPing: true, method: "GET", target: "/edge/ping", token: "tok-data-view"},
		{name: "ping open in optional mode without allowPing", noPing: true, method: "GET", target: "/edge/ping"},
		{name: "metrics need a token without allowPing", mandatory: true, noPing: true, method: "GET", target: "/edge/metrics", want: 401},
		{name: "metrics with a data-view token without allowPing", mandatory: true, noPing: true, method: "GET", target: "/edge/metrics", token: "tok-data-view"},
		{name: "metrics ignore an invalid token with allowPing", mandatory: true, method: "GET", target: "/edge/metrics", token: "stale"},
		{name: "bearer form accepted", mandatory: true, method: "GET", target: "/edge/category", token: "Bearer tok-view"},
		{name: "data-view reads statistics history", mandatory: true, method: "GET", target: "/edge/statistics/history", token: "tok-data-view"},
		{name: "data-view may not read configuration", method: "GET", target: "/edge/category", token: "tok-data-view", want: 403},
		{name: "data-view may not change its real name", method: "PUT", target: "/edge/user", token: "tok-data-view", body: `{"real_name":"x"}`, want: 403},
		{name: "view may not purge readings", method: "DELETE", target: "/edge/asset", token: "tok-view", want: 403},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &mutableSettings{s: user.DefaultSettings()}
			s.s.Mandatory, s.s.AllowPing = tc.mandatory, !tc.noPing
			rec := send(newHandler(t, s), tc.method, tc.target, tc.token, tc.body)
			got := rec.Code
			if tc.want == 0 && got != http.StatusOK {
				t.Fatalf("status %d, want 200 (allowed and valid); body %s", got, rec.Body)
			}
			if tc.want != 0 && got != tc.want {
				t.Fatalf("status %d, want %d; body %s", got, tc.want, rec.Body)
			}
		})
	}
}

func TestTokenOf(t *testing.T) {
	tests := []struct {
		name    string
		headers map[string]string
		want    string
	}{
		{name: "none"},
		{name: "bare", headers: map[string]string{"authorization": "abc"}, want: "abc"},
		{name: "bearer", headers: map[string]string{"authorization": "Bearer abc"}, want: "abc"},
		{name: "bearer any case", headers: map[string]string{"authorization": "bearer  abc "}, want: "abc"},
		{name: "authtoken alias", headers: map[string]string{"authtoken": "xyz"}, want: "xyz"},
		{name: "authorization wins", headers: map[string]string{"authorization": "abc", "authtoken": "xyz"}, want: "abc"},
		{name: "empty authorization falls back", headers: map[string]string{"authorization": " ", "authtoken": "xyz"}, want: "xyz"},
		{name: "bearer without token", headers: map[string]string{"authorization": "Bearer "}, want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.headers {
				h.Set(k, v)
			}
			if got := auth.TokenOf(h); got != tc.want {
				t.Errorf("TokenOf = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPrincipalInContext(t *testing.T) {
	s := &mutableSettings{s: user.DefaultSettings()}
	a := auth.New(fakeSessions{}, s, nil)
	tests := []struct {
		name   string
		token  string
		wantOK bool
		wantID int64
	}{
		{name: "token", token: "tok-view", wantOK: true, wantID: 3},
		{name: "anonymous"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/edge/category", nil)
			req.Header.Set("authtoken", tc.token)
			req.RemoteAddr = "192.0.2.7:4000"
			ctx, err := a.Authorize(req, router.Operation{ID: "listCategories"})
			if err != nil {
				t.Fatal(err)
			}
			p, ok := auth.PrincipalFrom(ctx)
			if ok != tc.wantOK || p.UserID != tc.wantID {
				t.Errorf("PrincipalFrom = %+v, %v", p, ok)
			}
			if c := auth.CredentialsFrom(ctx); c.Token != tc.token || c.RemoteAddr != "192.0.2.7:4000" {
				t.Errorf("CredentialsFrom = %+v", c)
			}
		})
	}
	if _, err := a.Authorize(httptest.NewRequest("GET", "/", nil), router.Operation{ID: "noSuchOperation"}); err == nil {
		t.Error("an operation without a rule was allowed")
	}
}

// TestCodeChangesAreAdminOnly checks the calls that change what code runs,
// where it is fetched from or which keys are trusted: admins only, 401
// without a token and 403 for every other role, in both modes.
func TestCodeChangesAreAdminOnly(t *testing.T) {
	install := `{"format":"repository","name":"p"}`
	requests := []struct {
		name, method, target, body string
	}{
		{name: "set the repository", method: "POST", target: "/edge/repository", body: `{"url":"https://example.org/repo"}`},
		{name: "install a plugin", method: "POST", target: "/edge/plugin", body: install},
		{name: "install a service package", method: "POST", target: "/edge/service?action=install", body: install},
		{name: "update packages", method: "PUT", target: "/edge/update"},
		{name: "remove a package", method: "DELETE", target: "/edge/package/p"},
		{name: "trust a key", method: "PUT", target: "/edge/category/Installation/trustedKeys", body: `{"value":"k"}`},
		{name: "trust a key, several items", method: "PUT", target: "/edge/category/Installation", body: `{"trustedKeys":"k"}`},
		{name: "reset the trusted keys", method: "DELETE", target: "/edge/category/Installation/trustedKeys/value"},
		{name: "point the repository item elsewhere", method: "PUT", target: "/edge/category/Installation/repositoryURL", body: `{"value":"https://x"}`},
		{name: "merge into Installation", method: "POST", target: "/edge/category", body: `{"key":"Installation","description":"d","items":{}}`},
	}
	for _, mode := range []string{"optional", "mandatory"} {
		for _, c := range callers {
			for _, rq := range requests {
				t.Run(mode+"/"+c.name+"/"+rq.name, func(t *testing.T) {
					s := &mutableSettings{s: user.DefaultSettings()}
					s.s.Mandatory = mode == "mandatory"
					rec := send(newHandler(t, s), rq.method, rq.target, c.token, rq.body)
					want := http.StatusForbidden
					switch c.role {
					case user.RoleAdmin:
						want = http.StatusOK
					case user.RoleNone:
						want = http.StatusUnauthorized
					}
					if rec.Code != want {
						t.Fatalf("status %d, want %d; body %s", rec.Code, want, rec.Body)
					}
				})
			}
		}
	}
}

// TestCreateServiceWithoutInstall keeps creating a service an editor's
// right: only the install form of createService is admin-only.
func TestCreateServiceWithoutInstall(t *testing.T) {
	body := `{"name":"sine","type":"south","plugin":"sinusoid","enabled":true}`
	for _, c := range callers {
		t.Run(c.name, func(t *testing.T) {
			rec := send(newHandler(t, &mutableSettings{s: user.DefaultSettings()}), "POST", "/edge/service", c.token, body)
			want := http.StatusOK
			if c.role == user.RoleView || c.role == user.RoleDataView {
				want = http.StatusForbidden
			}
			if rec.Code != want {
				t.Fatalf("status %d, want %d; body %s", rec.Code, want, rec.Body)
			}
		})
	}
}

// TestRefusalCarriesTheCaller: a refused call comes with a context naming
// who was refused, so the refusal can be audited with its caller.
func TestRefusalCarriesTheCaller(t *testing.T) {
	a := auth.New(fakeSessions{}, &mutableSettings{s: user.DefaultSettings()}, nil)
	tests := []struct {
		name   string
		token  string
		kind   *fault.Kind
		caller string // "" for anonymous
	}{
		{name: "a role without the right", token: "tok-view", kind: fault.Forbidden, caller: "view"},
		{name: "anonymous", kind: fault.Unauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/edge/control/write", nil)
			req.Header.Set("authorization", tc.token)
			ctx, err := a.Authorize(req, router.Operation{ID: "controlWrite"})
			if !errors.Is(err, tc.kind) {
				t.Fatalf("Authorize = %v, want %v", err, tc.kind)
			}
			if ctx == nil {
				t.Fatal("no context with the refusal")
			}
			p, ok := auth.PrincipalFrom(ctx)
			if ok != (tc.caller != "") || p.Username != tc.caller {
				t.Errorf("PrincipalFrom = %+v, %v; want caller %q", p, ok, tc.caller)
			}
		})
	}
}

// TestProtectedCategoryLookalikes checks that a category key differing
// from rest_api, password or Installation only by case or surrounding
// space is protected as the category itself.
func TestProtectedCategoryLookalikes(t *testing.T) {
	tests := []struct {
		name, method, target, body string
	}{
		{name: "REST_API item", method: "PUT", target: "/edge/category/REST_API/authentication", body: `{"value":"mandatory"}`},
		{name: "rest_api with a trailing space", method: "PUT", target: "/edge/category/rest_api%20/authentication", body: `{"value":"mandatory"}`},
		{name: "Password items", method: "PUT", target: "/edge/category/Password", body: `{"length":"1"}`},
		{name: "installation reset", method: "DELETE", target: "/edge/category/installation/trustedKeys/value"},
		{name: "create REST_API", method: "POST", target: "/edge/category", body: `{"key":"REST_API","description":"d","items":{}}`},
		{name: "create rest_api with a trailing space", method: "POST", target: "/edge/category", body: `{"key":"rest_api ","description":"d","items":{}}`},
		{name: "create Password", method: "POST", target: "/edge/category", body: `{"key":"Password","description":"d","items":{}}`},
		{name: "create INSTALLATION", method: "POST", target: "/edge/category", body: `{"key":" INSTALLATION","description":"d","items":{}}`},
	}
	for _, tc := range tests {
		for _, c := range []caller{callers[1], callers[4], callers[5]} { // user, control, anonymous
			t.Run(tc.name+"/"+c.name, func(t *testing.T) {
				rec := send(newHandler(t, &mutableSettings{s: user.DefaultSettings()}), tc.method, tc.target, c.token, tc.body)
				want := http.StatusForbidden
				if c.role == user.RoleNone {
					want = http.StatusUnauthorized
				}
				if rec.Code != want {
					t.Fatalf("status %d, want %d; body %s", rec.Code, want, rec.Body)
				}
			})
		}
	}
}

// TestSecurityMatchesRights checks that the contract's security
// requirements say what the Rights table does, so generated clients and
// fuzzers know which calls succeed without a token: an operation an
// anonymous caller may make in the optional mode lists the token and "no
// token" ({}) as alternatives; one that needs no token at all (login and
// the like) requires nothing; every other one requires the token only.
func TestSecurityMatchesRights(t *testing.T) {
	spec, ops := specOperations(t)
	for _, o := range ops {
		t.Run(o.id, func(t *testing.T) {
			rule, ok := auth.Rights[o.id]
			if !ok {
				t.Fatalf("no rule for %s", o.id)
			}
			reqs := spec.Security
			if s := spec.Paths.Find(o.path).GetOperation(o.method).Security; s != nil {
				reqs = *s
			}
			var token, none bool
			for _, r := range reqs {
				if len(r) == 0 {
					none = true
				}
				if _, ok := r["tokenAuth"]; ok {
					token = true
				}
			}
			if len(reqs) == 0 {
				none = true
			}
			switch {
			case rule.Open:
				if token || !none {
					t.Errorf("needs no token, but the contract's security is %v", reqs)
				}
			case rule.Anonymous:
				if !token || !none {
					t.Errorf("an anonymous caller is served in the optional mode, but the contract's security is %v (want tokenAuth or {})", reqs)
				}
			default:
				if !token || none {
					t.Errorf("needs a token in every mode, but the contract's security is %v", reqs)
				}
			}
		})
	}
}

// TestInstallBodyIsAdminOnly: a package install body installs without
// ?action=install too (the body decides), so it is admin-only either way.
func TestInstallBodyIsAdminOnly(t *testing.T) {
	body := `{"format":"repository","name":"notification"}`
	for _, c := range callers {
		t.Run(c.name, func(t *testing.T) {
			rec := send(newHandler(t, &mutableSettings{s: user.DefaultSettings()}), "POST", "/edge/service", c.token, body)
			want := http.StatusOK
			switch c.role {
			case user.RoleNone:
				want = http.StatusUnauthorized
			case user.RoleAdmin:
			default:
				want = http.StatusForbidden
			}
			if rec.Code != want {
				t.Fatalf("status %d, want %d; body %s", rec.Code, want, rec.Body)
			}
		})
	}
}
