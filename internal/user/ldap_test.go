package user

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/directory"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/simtest"
)

// ldapFixture is a fixture whose service asks a slapd holding alice
// (group edge-admins → admin), bob (operators → control) and carol (no
// mapped group).
type ldapFixture struct {
	*fixture
	dir *simtest.Directory
	ds  directory.Settings // the directory's settings, which a test may change
}

func newLDAPFixture(t *testing.T) *ldapFixture {
	t.Helper()
	f := newFixture(t)
	d := simtest.Slapd(t)
	d.AddUser("alice", "alice-secret")
	d.AddUser("bob", "bob-secret")
	d.AddUser("carol", "carol-secret")
	d.AddGroup("edge-admins", "alice")
	d.AddGroup("operators", "bob")
	lf := &ldapFixture{fixture: f, dir: d, ds: directory.Settings{
		URL: d.URL, BindDN: d.AdminDN, BindPassword: d.AdminPassword,
		UserBase: d.People, UserFilter: configmgr.DefaultLDAPUserFilter,
		GroupBase: d.Groups, GroupFilter: configmgr.DefaultLDAPGroupFilter,
		GroupRoles:     map[string]string{"edge-admins": "admin", "operators": "control"},
		ConnectTimeout: 5 * time.Second, RequestTimeout: 5 * time.Second,
	}}
	f.svc = NewService(Options{Store: f.store, Audit: f.audit, Settings: f.settings, CAs: f.cas, Now: f.clock.Now,
		Directory: directory.NewClient(func() directory.Settings { return lf.ds }, nil)})
	return lf
}

func (f *ldapFixture) providers(username, ldap bool) {
	f.settings.set(func(s *Settings) { s.Providers = configmgr.AuthProviders{Username: username, LDAP: ldap} })
}

func (f *ldapFixture) attempt(t *testing.T, name, password string) error {
	t.Helper()
	_, err := f.svc.LoginPassword(t.Context(), name, password, "192.0.2.7:4000")
	return err
}

func TestLDAPLogin(t *testing.T) {
	f := newLDAPFixture(t)
	ctx := t.Context()

	res := f.login(t, "alice", "alice-secret")
	if !res.Admin {
		t.Errorf("alice (edge-admins) logged in without the admin role")
	}
	u, err := f.store.GetUser(ctx, res.UserID)
	if err != nil || u.Username != "alice" || u.AccessMethod != AccessLDAP || Role(u.RoleID) != RoleAdmin || u.PasswordHash != "" {
		t.Errorf("alice's gateway user = %+v, %v; want access ldap, role admin, no password", u, err)
	}
	if got := f.audit.sources(); !slices.Contains(got, AuditUserAdded+"/INFORMATION") {
		t.Errorf("audit %v; want USRAD for the user created at the first login", got)
	}
	p, err := f.svc.Session(ctx, res.Token)
	if err != nil || p.Role != RoleAdmin || p.Username != "alice" {
		t.Errorf("session of alice = %+v, %v", p, err)
	}

	t.Run("second login keeps the user", func(t *testing.T) {
		again := f.login(t, "Alice", "alice-secret")
		if again.UserID != res.UserID {
			t.Errorf("second login got user %d, want %d", again.UserID, res.UserID)
		}
	})
	t.Run("role follows the groups at each login", func(t *testing.T) {
		f.ds.GroupRoles = map[string]string{"edge-admins": "view", "operators": "control"}
		f.audit.reset()
		again := f.login(t, "alice", "alice-secret")
		if again.Admin {
			t.Error("alice still admin after edge-admins was mapped to view")
		}
		if u, _ := f.store.GetUser(ctx, res.UserID); Role(u.RoleID) != RoleView {
			t.Errorf("alice's role = %v, want view", Role(u.RoleID))
		}
		if got := f.audit.sources(); !slices.Contains(got, AuditUserChanged+"/INFORMATION") {
			t.Errorf("audit %v; want USRCH for the role change", got)
		}
		f.ds.GroupRoles = map[string]string{"edge-admins": "admin", "operators": "control"}
	})
	t.Run("control from another group", func(t *testing.T) {
		r := f.login(t, "bob", "bob-secret")
		if u, _ := f.store.GetUser(ctx, r.UserID); Role(u.RoleID) != RoleControl {
			t.Errorf("bob's role = %v, want control", Role(u.RoleID))
		}
	})
	t.Run("no mapped group", func(t *testing.T) {
		wantFault(t, f.attempt(t, "carol", "carol-secret"), fault.Unauthorized, "no directory group")
		if _, err := f.store.GetUserByName(ctx, "carol"); err == nil {
			t.Error("a gateway user was created for carol, whose groups map to no role")
		}
	})
	t.Run("wrong password", func(t *testing.T) {
		wantFault(t, f.attempt(t, "bob", "alice-secret"), fault.Unauthorized, MsgNoMatch)
	})
	t.Run("empty password", func(t *testing.T) {
		wantFault(t, f.attempt(t, "bob", ""), fault.Unauthorized, MsgNoMatch)
	})
	t.Run("unknown user", func(t *testing.T) {
		wantFault(t, f.attempt(t, "mallory", "x"), fault.Unauthorized, MsgNoMatch)
	})
	t.Run("local users still log in", func(t *testing.T) {
		f.login(t, "admin", adminPass)
	})
}

// TestLDAPLockout: wrong passwords of a directory user and guesses of a
// name the directory does not know lock the address out like those of a
// local user.
func TestLDAPLockout(t *testing.T) {
	tests := []struct {
		name, user, password string
		firstLogin           bool // log the user in once first, so the gateway has its user
	}{
		{name: "directory user before the first login", user: "alice", password: "wrong"},
		{name: "directory user with a gateway user", user: "bob", password: "wrong", firstLogin: true},
		{name: "unknown user", user: "mallory", password: "guess"},
	}
	f := newLDAPFixture(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.firstLogin {
				f.login(t, tt.user, tt.user+"-secret")
			}
			for i := range LockoutThreshold {
				if err := f.attempt(t, tt.user, tt.password); !errors.Is(err, fault.Unauthorized) {
					t.Fatalf("attempt %d: %v, want 401", i+1, err)
				}
			}
			err := f.attempt(t, tt.user, tt.password)
			wantFault(t, err, fault.TooMany, "locked")
			if tt.user != "mallory" {
				// Locked means locked: the right password is not checked.
				wantFault(t, f.attempt(t, tt.user, tt.user+"-secret"), fault.TooMany, "locked")
				f.clock.Advance(LockDuration(LockoutThreshold) + time.Second)
				f.login(t, tt.user, tt.user+"-secret")
			}
		})
	}
}

// TestLDAPUnavailable stops the directory: its users get the directory's
// unavailability (503), local users and admin log in.
func TestLDAPUnavailable(t *testing.T) {
	f := newLDAPFixture(t)
	f.login(t, "alice", "alice-secret")
	f.create(t, "localop", "Local-Pass-1", RoleUser, AccessAny)
	f.dir.Stop()
	for _, name := range []string{"alice", "bob"} {
		err := f.attempt(t, name, name+"-secret")
		if !errors.Is(err, directory.ErrUnavailable) {
			t.Errorf("login %s with the directory stopped = %v; want the directory unavailable", name, err)
		}
	}
	f.login(t, "admin", adminPass)
	f.login(t, "localop", "Local-Pass-1")
	f.dir.Start()
	f.login(t, "alice", "alice-secret")
}

// TestAuthProviders: rest_api.authProviders decides who checks passwords.
func TestAuthProviders(t *testing.T) {
	f := newLDAPFixture(t)
	f.login(t, "alice", "alice-secret") // alice now has a gateway user
	f.create(t, "localop", "Local-Pass-1", RoleUser, AccessAny)

	t.Run("username only: the directory is not asked", func(t *testing.T) {
		f.providers(true, false)
		defer f.providers(true, true)
		f.dir.Stop()
		defer f.dir.Start()
		wantFault(t, f.attempt(t, "alice", "alice-secret"), fault.Unauthorized, "not enabled")
		wantFault(t, f.attempt(t, "bob", "bob-secret"), fault.Unauthorized, MsgNoMatch)
		f.login(t, "localop", "Local-Pass-1")
	})
	t.Run("ldap only: local users but admin are refused", func(t *testing.T) {
		f.providers(false, true)
		defer f.providers(true, true)
		wantFault(t, f.attempt(t, "localop", "Local-Pass-1"), fault.Unauthorized, `does not name "username"`)
		wantFault(t, f.attempt(t, "localop", "wrong-pass"), fault.Unauthorized, MsgNoMatch)
		f.login(t, "admin", adminPass)
		f.login(t, "alice", "alice-secret")
	})
	t.Run("no directory configured: as before", func(t *testing.T) {
		url := f.ds.URL
		f.ds.URL = ""
		defer func() { f.ds.URL = url }()
		wantFault(t, f.attempt(t, "bob", "bob-secret"), fault.Unauthorized, MsgNoMatch)
		wantFault(t, f.attempt(t, "alice", "alice-secret"), fault.Unauthorized, "not enabled")
	})
}

// TestLDAPPasswordChange: a directory user's password is changed in the
// directory, not through the gateway.
func TestLDAPPasswordChange(t *testing.T) {
	f := newLDAPFixture(t)
	res := f.login(t, "alice", "alice-secret")
	err := f.svc.ChangePassword(t.Context(), res.UserID, "alice-secret", "New-Pass-123", "192.0.2.7:4000")
	wantFault(t, err, fault.Invalid, "kept by the LDAP directory")
	f.login(t, "alice", "alice-secret")
}
