package user

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// recordingAudit keeps the entries written.
type recordingAudit struct {
	mu      sync.Mutex
	entries []auditEntry
}

type auditEntry struct {
	source, severity string
	details          any
}

func (a *recordingAudit) Record(_ context.Context, source, severity string, details any) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.entries = append(a.entries, auditEntry{source, severity, details})
	return nil
}

func (a *recordingAudit) sources() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, e := range a.entries {
		out = append(out, e.source+"/"+e.severity)
	}
	return out
}

func (a *recordingAudit) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.entries = nil
}

// settingsVar is a SettingsSource a test may change.
type settingsVar struct {
	mu sync.Mutex
	s  Settings
}

func (v *settingsVar) Settings() Settings {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.s
}

func (v *settingsVar) set(fn func(*Settings)) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fn(&v.s)
}

// fixture is a Service over a fresh SQLite database with the first admin
// (password adminPass) and a settable clock.
type fixture struct {
	svc      *Service
	store    *db.DB
	audit    *recordingAudit
	clock    *clock
	settings *settingsVar
	cas      *fakeCAs
}

const adminPass = "Admin-Pass-1"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	store := dbtest.SQLite(t)
	f := &fixture{
		store:    store,
		audit:    &recordingAudit{},
		clock:    &clock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)},
		settings: &settingsVar{s: DefaultSettings()},
		cas:      &fakeCAs{pools: map[string]*x509.CertPool{}},
	}
	hash, err := hashPassword(adminPass)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.InsertFirstAdmin(t.Context(), hash); err != nil {
		t.Fatal(err)
	}
	// InsertFirstAdmin stamps the wall clock; align the password time
	// with the test clock.
	if err := store.SetPassword(t.Context(), 1, hash, f.clock.Now()); err != nil {
		t.Fatal(err)
	}
	f.svc = NewService(Options{Store: store, Audit: f.audit, Settings: f.settings, CAs: f.cas, Now: f.clock.Now})
	return f
}

func (f *fixture) create(t *testing.T, name, password string, role Role, access string) User {
	t.Helper()
	u, err := f.svc.Create(t.Context(), NewUser{Username: name, Password: password, Role: role, AccessMethod: access})
	if err != nil {
		t.Fatalf("Create(%s): %v", name, err)
	}
	return u
}

func (f *fixture) login(t *testing.T, name, password string) LoginResult {
	t.Helper()
	res, err := f.svc.LoginPassword(t.Context(), name, password, "192.0.2.1:1000")
	if err != nil {
		t.Fatalf("LoginPassword(%s): %v", name, err)
	}
	return res
}

// wantFault fails unless err is a fault of kind k whose message contains
// msg.
func wantFault(t *testing.T, err error, k *fault.Kind, msg string) {
	t.Helper()
	f, ok := fault.As(err)
	if !ok || !errors.Is(err, k) {
		t.Fatalf("err = %v, want a %v fault", err, k)
	}
	if !strings.Contains(f.Message, msg) {
		t.Fatalf("message %q does not contain %q", f.Message, msg)
	}
}

func TestCreate(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	u := f.create(t, "Operator", "secret-pass", RoleNone, "")
	if u.Role != RoleUser || u.AccessMethod != AccessAny || u.ID == 0 || u.Username != "Operator" {
		t.Errorf("defaults: %+v", u)
	}
	if got := f.audit.sources(); !slices.Equal(got, []string{"USRAD/INFORMATION"}) {
		t.Errorf("audit = %v", got)
	}
	tests := []struct {
		name   string
		policy string
		minLen int
		in     NewUser
		kind   *fault.Kind
		msg    string
	}{
		{name: "duplicate in other case", in: NewUser{Username: "OPERATOR", Password: "secret-pass"}, kind: fault.Conflict, msg: "already in use"},
		{name: "admin taken", in: NewUser{Username: "Admin", Password: "secret-pass"}, kind: fault.Conflict, msg: "already in use"},
		{name: "name too short", in: NewUser{Username: "ab", Password: "secret-pass"}, kind: fault.Invalid, msg: "3 to 64"},
		{name: "name with space", in: NewUser{Username: "a b c", Password: "secret-pass"}, kind: fault.Invalid, msg: "3 to 64"},
		{name: "bad role", in: NewUser{Username: "someone", Password: "secret-pass", Role: 7}, kind: fault.Invalid, msg: "role_id 7"},
		{name: "bad access method", in: NewUser{Username: "someone", Password: "secret-pass", AccessMethod: "x"}, kind: fault.Invalid, msg: "access_method"},
		{name: "too short for the default length", in: NewUser{Username: "someone", Password: "short"}, kind: fault.Invalid, msg: "at least 8"},
		{name: "too short for length 12", minLen: 12, in: NewUser{Username: "someone", Password: "elevenchars"}, kind: fault.Invalid, msg: "at least 12"},
		{name: "mixed case missing", policy: configmgr.PolicyMixedCase, in: NewUser{Username: "someone", Password: "alllowercase"}, kind: fault.Invalid, msg: "upper and lower case"},
		{name: "digit missing", policy: configmgr.PolicyMixedCaseNumeric, in: NewUser{Username: "someone", Password: "MixedCaseOnly"}, kind: fault.Invalid, msg: "a digit"},
		{name: "special missing", policy: configmgr.PolicyMixedCaseNumericSpecial, in: NewUser{Username: "someone", Password: "Mixed1Case"}, kind: fault.Invalid, msg: "special character"},
		{name: "all rules met", policy: configmgr.PolicyMixedCaseNumericSpecial, in: NewUser{Username: "someone", Password: "Mixed1Case!", Role: RoleView, AccessMethod: AccessCert}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f.settings.set(func(s *Settings) {
				s.PasswordPolicy = valueOr(tc.policy, configmgr.PolicyAny)
				s.PasswordMinLength = max(tc.minLen, MinPasswordLength)
			})
			f.audit.reset()
			u, err := f.svc.Create(ctx, tc.in)
			if tc.kind == nil {
				if err != nil {
					t.Fatal(err)
				}
				if u.Role != tc.in.Role || u.AccessMethod != tc.in.AccessMethod {
					t.Errorf("created %+v", u)
				}
				return
			}
			wantFault(t, err, tc.kind, tc.msg)
			if len(f.audit.sources()) != 0 {
				t.Errorf("a refused create was audited: %v", f.audit.sources())
			}
		})
	}
}

func valueOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func TestLoginPassword(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.create(t, "certonly", "secret-pass", RoleUser, AccessCert)
	res := f.login(t, "ADMIN", adminPass)
	if res.UserID != 1 || !res.Admin || len(res.Token) < 43 {
		t.Errorf("admin login = %+v", res)
	}
	op := f.create(t, "operator2", "secret-pass", RoleControl, "")
	if res := f.login(t, "operator2", "secret-pass"); res.Admin || res.UserID != op.ID {
		t.Errorf("op login = %+v", res)
	}

	tests := []struct {
		name     string
		setup    func(*Settings)
		user     string
		password string
		msg      string
		reason   string
	}{
		{name: "wrong password", user: "operator2", password: "nope", msg: MsgNoMatch, reason: "wrong password"},
		{name: "unknown user", user: "nobody", password: "secret-pass", msg: MsgNoMatch, reason: "unknown user"},
		{name: "certificate-only user", user: "certonly", password: "secret-pass", msg: "only with a client certificate", reason: "certificate only"},
		{name: "password logins disabled", user: "operator2", password: "secret-pass", msg: "Password login is disabled",
			setup: func(s *Settings) { s.AuthMethod = configmgr.AuthMethodCertificate }, reason: "password login disabled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f.settings.set(func(s *Settings) { *s = DefaultSettings() })
			if tc.setup != nil {
				f.settings.set(tc.setup)
			}
			f.audit.reset()
			_, err := f.svc.LoginPassword(ctx, tc.user, tc.password, "")
			wantFault(t, err, fault.Unauthorized, tc.msg)
			if got := f.audit.sources(); !slices.Equal(got, []string{"LOGFL/FAILURE"}) {
				t.Fatalf("audit = %v, want one LOGFL FAILURE", got)
			}
			if d := f.audit.entries[0].details.(map[string]any); d["reason"] != tc.reason {
				t.Errorf("LOGFL details = %v, want reason %q", d, tc.reason)
			}
		})
	}
}

func TestLockout(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.create(t, "victim", "right-password", RoleUser, "")
	const attacker, operator = "198.51.100.7:40000", "192.0.2.1:1000"
	fail := func(n int, addr string) {
		t.Helper()
		for range n {
			_, err := f.svc.LoginPassword(ctx, "victim", "wrong", addr)
			wantFault(t, err, fault.Unauthorized, MsgNoMatch)
		}
	}
	login := func(addr string) {
		t.Helper()
		if _, err := f.svc.LoginPassword(ctx, "victim", "right-password", addr); err != nil {
			t.Fatalf("login from %s: %v", addr, err)
		}
	}
	locked := func(wantRetry int, addr string) {
		t.Helper()
		_, err := f.svc.LoginPassword(ctx, "victim", "right-password", addr)
		wantFault(t, err, fault.TooMany, "locked")
		if ft, _ := fault.As(err); ft.RetryAfterSeconds != wantRetry {
			t.Errorf("Retry-After = %d, want %d", ft.RetryAfterSeconds, wantRetry)
		}
	}
	fail(4, attacker)
	login(attacker) // success resets the count
	fail(5, attacker)
	locked(60, attacker)
	locked(60, "198.51.100.7:40001") // another connection from the same address
	login(operator)                  // other addresses are not locked out
	fail(4, operator)
	login(operator)
	f.clock.Advance(30 * time.Second)
	locked(30, attacker)
	// The password change is no way around the lock.
	err := f.svc.ChangePassword(ctx, 2, "right-password", "another-password", attacker)
	wantFault(t, err, fault.TooMany, "locked")
	f.clock.Advance(31 * time.Second)
	fail(5, attacker) // failures 6..10: the second round locks for 15 min
	locked(15*60, attacker)
	f.clock.Advance(15*time.Minute + time.Second)
	fail(5, attacker) // failures 11..15: one hour
	locked(3600, attacker)
	f.clock.Advance(time.Hour + time.Second)
	fail(5, attacker) // and one hour for every later round
	locked(3600, attacker)
	f.clock.Advance(time.Hour + time.Second)
	login(attacker)
	fail(4, attacker)
	login(attacker)
	t.Run("forgotten after a quiet day", func(t *testing.T) {
		fail(4, attacker)
		f.clock.Advance(FailureMemory + time.Second)
		fail(4, attacker)
		login(attacker)
	})
	t.Run("audited with the address", func(t *testing.T) {
		f.audit.reset()
		fail(5, attacker)
		locked(60, attacker)
		var reasons []string
		for _, e := range f.audit.entries {
			d := e.details.(map[string]any)
			if d["clientAddress"] != "198.51.100.7" {
				t.Errorf("LOGFL details %v do not name the client address", d)
			}
			reasons = append(reasons, d["reason"].(string))
		}
		if len(reasons) != 6 || reasons[4] != "wrong password" || reasons[5] != "account locked" {
			t.Errorf("LOGFL reasons = %v", reasons)
		}
		if d := f.audit.entries[4].details.(map[string]any); d["lockedUntil"] == nil {
			t.Errorf("the locking failure's details %v have no lockedUntil", d)
		}
	})
}

// TestLockoutConcurrent sends many wrong guesses and the right password at
// once from one address: every attempt is counted before its password is
// compared, so no more guesses are compared than the lockout allows.
func TestLockoutConcurrent(t *testing.T) {
	f := newFixture(t)
	f.create(t, "target", "right-password", RoleUser, "")
	const guesses = 60
	errs := make([]error, guesses+1)
	var wg sync.WaitGroup
	for i := range guesses + 1 {
		password := "wrong"
		if i == guesses/2 {
			password = "right-password"
		}
		wg.Go(func() {
			_, errs[i] = f.svc.LoginPassword(t.Context(), "target", password, "198.51.100.9:1")
		})
	}
	wg.Wait()
	var wrong, locked int
	for i, err := range errs {
		switch {
		case i == guesses/2:
		case errors.Is(err, fault.Unauthorized):
			wrong++
		case errors.Is(err, fault.TooMany):
			locked++
		default:
			t.Fatalf("guess %d: err = %v", i, err)
		}
	}
	right := errs[guesses/2]
	switch {
	case right == nil:
		// The right password cleared the count once: at most the four
		// guesses before it and five after it were compared.
		if wrong > 2*LockoutThreshold-1 {
			t.Errorf("%d wrong guesses compared, want at most %d", wrong, 2*LockoutThreshold-1)
		}
	case errors.Is(right, fault.TooMany):
		if wrong != LockoutThreshold {
			t.Errorf("%d wrong guesses compared, want %d", wrong, LockoutThreshold)
		}
	default:
		t.Fatalf("the right password: err = %v", right)
	}
	if wrong+locked != guesses {
		t.Errorf("%d wrong and %d locked of %d guesses", wrong, locked, guesses)
	}
}

// TestPasswordLength checks bcrypt's 72-byte limit: a longer password is
// refused wherever one is given, never cut to its first 72 bytes.
func TestPasswordLength(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ascii72 := strings.Repeat("Long-Pass-", 7) + "12"
	accented := strings.Repeat("é", 36) // 36 characters, 72 bytes
	u := f.create(t, "longpass", ascii72, RoleUser, "")
	f.create(t, "accented", accented, RoleUser, "")
	f.login(t, "longpass", ascii72)
	f.login(t, "accented", accented)
	tests := []struct {
		name string
		call func() error
	}{
		{name: "login with more after the 72 bytes", call: func() error {
			_, err := f.svc.LoginPassword(ctx, "longpass", ascii72+"anything", "192.0.2.1:1")
			return err
		}},
		{name: "login with 37 two-byte characters", call: func() error {
			_, err := f.svc.LoginPassword(ctx, "accented", accented+"é", "192.0.2.1:1")
			return err
		}},
		{name: "create", call: func() error {
			_, err := f.svc.Create(ctx, NewUser{Username: "toolong", Password: ascii72 + "3"})
			return err
		}},
		{name: "create with 37 two-byte characters", call: func() error {
			_, err := f.svc.Create(ctx, NewUser{Username: "toolong", Password: accented + "é"})
			return err
		}},
		{name: "current password of a change", call: func() error {
			return f.svc.ChangePassword(ctx, u.ID, ascii72+"x", "Next-Pass-1", "192.0.2.1:1")
		}},
		{name: "new password of a change", call: func() error {
			return f.svc.ChangePassword(ctx, u.ID, ascii72, ascii72+"x", "192.0.2.1:1")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantFault(t, tc.call(), fault.Invalid, "72 bytes")
		})
	}
}

func TestLockDuration(t *testing.T) {
	tests := []struct {
		failures int
		want     time.Duration
	}{
		{0, 0}, {1, 0}, {4, 0}, {5, time.Minute}, {6, 0}, {10, 15 * time.Minute}, {15, time.Hour}, {40, time.Hour},
	}
	for _, tc := range tests {
		if got := LockDuration(tc.failures); got != tc.want {
			t.Errorf("LockDuration(%d) = %v, want %v", tc.failures, got, tc.want)
		}
	}
}

func TestPasswordExpiry(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	u := f.create(t, "aging", "first-password", RoleUser, "")
	f.settings.set(func(s *Settings) { s.PasswordMaxAge = 30 * 24 * time.Hour })
	f.clock.Advance(29 * 24 * time.Hour)
	f.login(t, "aging", "first-password")
	f.clock.Advance(2 * 24 * time.Hour)
	_, err := f.svc.LoginPassword(ctx, "aging", "first-password", "")
	wantFault(t, err, fault.Unauthorized, MsgPasswordExpired)
	// A wrong password still says only that it does not match.
	_, err = f.svc.LoginPassword(ctx, "aging", "wrong-password", "")
	wantFault(t, err, fault.Unauthorized, MsgNoMatch)
	if err := f.svc.ChangePassword(ctx, u.ID, "first-password", "second-password", ""); err != nil {
		t.Fatal(err)
	}
	f.login(t, "aging", "second-password")
	f.settings.set(func(s *Settings) { s.PasswordMaxAge = 0 })
	f.clock.Advance(365 * 24 * time.Hour)
	f.login(t, "aging", "second-password")
}

func TestChangePassword(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	u := f.create(t, "changer", "password-0", RoleView, "")
	tok := f.login(t, "changer", "password-0").Token
	for i, next := range []string{"password-1", "password-2"} {
		f.clock.Advance(time.Minute)
		if err := f.svc.ChangePassword(ctx, u.ID, "password-"+string(rune('0'+i)), next, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.svc.Session(ctx, tok); err == nil {
		t.Error("the session survived the password change")
	}
	tests := []struct {
		name    string
		id      int64
		current string
		next    string
		kind    *fault.Kind
		msg     string
	}{
		{name: "wrong current", id: u.ID, current: "password-0", next: "password-9", kind: fault.Unauthorized, msg: "does not match"},
		{name: "unknown user", id: 999, current: "x", next: "password-9", kind: fault.Unauthorized, msg: "the current password of user 999 does not match"},
		{name: "current reused", id: u.ID, current: "password-2", next: "password-2", kind: fault.Invalid, msg: "last 3"},
		{name: "two back reused", id: u.ID, current: "password-2", next: "password-0", kind: fault.Invalid, msg: "last 3"},
		{name: "policy", id: u.ID, current: "password-2", next: "short", kind: fault.Invalid, msg: "at least 8"},
		{name: "new one", id: u.ID, current: "password-2", next: "password-3"},
		{name: "four back is allowed again", id: u.ID, current: "password-3", next: "password-0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f.clock.Advance(time.Minute)
			f.audit.reset()
			err := f.svc.ChangePassword(ctx, tc.id, tc.current, tc.next, "192.0.2.1:1000")
			if tc.kind == nil {
				if err != nil {
					t.Fatal(err)
				}
				if got := f.audit.sources(); !slices.Equal(got, []string{"USRCH/INFORMATION"}) {
					t.Errorf("audit = %v", got)
				}
				f.login(t, "changer", tc.next)
				return
			}
			wantFault(t, err, tc.kind, tc.msg)
		})
	}
	t.Run("an unknown id answers as a wrong password", func(t *testing.T) {
		known := f.svc.ChangePassword(ctx, u.ID, "wrong-current", "password-9", "192.0.2.6:1")
		unknown := f.svc.ChangePassword(ctx, 999, "wrong-current", "password-9", "192.0.2.6:1")
		wantFault(t, unknown, fault.Unauthorized, "does not match")
		same := strings.Replace(unknown.Error(), "999", strconv.FormatInt(u.ID, 10), 1)
		if same != known.Error() {
			t.Errorf("unknown id: %q; known id, wrong password: %q", unknown, known)
		}
	})
	t.Run("a wrong current password counts as a failed login", func(t *testing.T) {
		for range LockoutThreshold {
			err := f.svc.ChangePassword(ctx, u.ID, "wrong-current", "password-9", "192.0.2.5:1")
			wantFault(t, err, fault.Unauthorized, "does not match")
		}
		_, err := f.svc.LoginPassword(ctx, "changer", "password-0", "192.0.2.5:2")
		wantFault(t, err, fault.TooMany, "locked")
	})
}

func TestSessions(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	u := f.create(t, "sess", "session-pass", RoleView, "")
	f.settings.set(func(s *Settings) { s.IdleTimeout = 10 * time.Minute })

	t.Run("valid token gives the caller", func(t *testing.T) {
		tok := f.login(t, "sess", "session-pass").Token
		p, err := f.svc.Session(ctx, tok)
		if err != nil {
			t.Fatal(err)
		}
		if p.UserID != u.ID || p.Role != RoleView || p.Username != "sess" || p.IsAdmin() {
			t.Errorf("principal %+v", p)
		}
		if _, _, err := f.store.SessionUser(ctx, tok); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("the token itself is a stored key (err %v)", err)
		}
		if _, _, err := f.store.SessionUser(ctx, hashToken(tok)); err != nil {
			t.Errorf("the token's SHA-256 is not the stored key: %v", err)
		}
		if h := hashToken(tok); len(h) != 64 {
			t.Errorf("token hash %q is not hex SHA-256", h)
		}
	})
	t.Run("unknown token", func(t *testing.T) {
		_, err := f.svc.Session(ctx, "not-a-token")
		wantFault(t, err, fault.Unauthorized, "invalid")
	})
	t.Run("activity keeps a session alive, idleness ends it", func(t *testing.T) {
		tok := f.login(t, "sess", "session-pass").Token
		for range 5 {
			f.clock.Advance(9 * time.Minute)
			if _, err := f.svc.Session(ctx, tok); err != nil {
				t.Fatalf("after 9 idle minutes: %v", err)
			}
		}
		f.clock.Advance(10*time.Minute + time.Second)
		_, err := f.svc.Session(ctx, tok)
		wantFault(t, err, fault.Unauthorized, "invalid")
		f.clock.Advance(-20 * time.Minute) // the ended session stays ended
		_, err = f.svc.Session(ctx, tok)
		wantFault(t, err, fault.Unauthorized, "invalid")
		f.clock.Advance(20 * time.Minute)
	})
	t.Run("logout ends one session", func(t *testing.T) {
		a := f.login(t, "sess", "session-pass").Token
		b := f.login(t, "sess", "session-pass").Token
		p, err := f.svc.Session(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.svc.Logout(ctx, p); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Session(ctx, a); err == nil {
			t.Error("logged-out token still valid")
		}
		if _, err := f.svc.Session(ctx, b); err != nil {
			t.Errorf("other session ended too: %v", err)
		}
		wantFault(t, f.svc.Logout(ctx, Principal{UserID: 1}), fault.Unauthorized, "token")
	})
	t.Run("admin ends all sessions of a user", func(t *testing.T) {
		a := f.login(t, "sess", "session-pass").Token
		b := f.login(t, "sess", "session-pass").Token
		n, err := f.svc.LogoutUser(ctx, u.ID)
		if err != nil || n < 2 {
			t.Fatalf("LogoutUser = %d, %v", n, err)
		}
		for _, tok := range []string{a, b} {
			if _, err := f.svc.Session(ctx, tok); err == nil {
				t.Error("token survived LogoutUser")
			}
		}
		_, err = f.svc.LogoutUser(ctx, 999)
		wantFault(t, err, fault.NotFound, "user 999")
	})
	t.Run("role change ends sessions, other changes do not", func(t *testing.T) {
		tok := f.login(t, "sess", "session-pass").Token
		name := "Sess Ion"
		if _, err := f.svc.Update(ctx, u.ID, Change{RealName: &name}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Session(ctx, tok); err != nil {
			t.Fatalf("real name change ended the session: %v", err)
		}
		role := RoleUser
		if _, err := f.svc.Update(ctx, u.ID, Change{Role: &role}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Session(ctx, tok); err == nil {
			t.Error("session survived the role change")
		}
	})
	t.Run("deletion ends sessions", func(t *testing.T) {
		tok := f.login(t, "sess", "session-pass").Token
		if err := f.svc.Delete(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Session(ctx, tok); err == nil {
			t.Error("session survived the deletion")
		}
	})
}

func TestUpdateAndDelete(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	u := f.create(t, "editme", "secret-pass", RoleUser, "")
	role := func(r Role) *Role { return &r }
	str := func(s string) *string { return &s }
	tests := []struct {
		name string
		id   int64
		ch   Change
		want User
		kind *fault.Kind
		msg  string
	}{
		{name: "several fields", id: u.ID, ch: Change{Role: role(RoleView), AccessMethod: str(AccessPassword), RealName: str("Ed"), Description: str("d")},
			want: User{ID: u.ID, Username: "editme", Role: RoleView, AccessMethod: AccessPassword, RealName: "Ed", Description: "d"}},
		{name: "one field keeps the others", id: u.ID, ch: Change{Description: str("e")},
			want: User{ID: u.ID, Username: "editme", Role: RoleView, AccessMethod: AccessPassword, RealName: "Ed", Description: "e"}},
		{name: "admin keeps admin role", id: 1, ch: Change{Role: role(RoleAdmin), RealName: str("Root")},
			want: User{ID: 1, Username: "admin", Role: RoleAdmin, AccessMethod: AccessAny, RealName: "Root", Description: "The first administrator, created at first start"}},
		{name: "admin cannot lose the admin role", id: 1, ch: Change{Role: role(RoleUser)}, kind: fault.Invalid, msg: "cannot lose the admin role"},
		{name: "nothing to change", id: u.ID, kind: fault.Invalid, msg: "nothing to change"},
		{name: "bad role", id: u.ID, ch: Change{Role: role(0)}, kind: fault.Invalid, msg: "role_id 0"},
		{name: "bad access method", id: u.ID, ch: Change{AccessMethod: str("both")}, kind: fault.Invalid, msg: "access_method"},
		{name: "unknown user", id: 999, ch: Change{Description: str("x")}, kind: fault.NotFound, msg: "user 999"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f.audit.reset()
			got, err := f.svc.Update(ctx, tc.id, tc.ch)
			if tc.kind != nil {
				wantFault(t, err, tc.kind, tc.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Update = %+v, want %+v", got, tc.want)
			}
			if s := f.audit.sources(); !slices.Equal(s, []string{"USRCH/INFORMATION"}) {
				t.Errorf("audit = %v", s)
			}
		})
	}
	wantFault(t, f.svc.Delete(ctx, 1), fault.Invalid, "cannot be deleted")
	wantFault(t, f.svc.Delete(ctx, 999), fault.NotFound, "user 999")
	f.audit.reset()
	if err := f.svc.Delete(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if s := f.audit.sources(); !slices.Equal(s, []string{"USRDL/INFORMATION"}) {
		t.Errorf("audit = %v", s)
	}
	wantFault(t, f.svc.Delete(ctx, u.ID), fault.NotFound, "not found")
	users, err := f.svc.List(ctx, Filter{})
	if err != nil || len(users) != 1 || users[0].Username != "admin" {
		t.Errorf("List = %+v, %v", users, err)
	}
	roles, err := f.svc.Roles(ctx)
	if err != nil || len(roles) != 5 || roles[3].Name != "data-view" || roles[3].ID != RoleDataView {
		t.Errorf("Roles = %+v, %v", roles, err)
	}
}

// ---- certificates ----

type fakeCAs struct{ pools map[string]*x509.CertPool }

func (c *fakeCAs) Pool(name string) (*x509.CertPool, error) {
	p, ok := c.pools[name]
	if !ok {
		return nil, errors.New("no such certificate")
	}
	return p, nil
}

type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newCA(t *testing.T, name string) testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return testCA{cert: cert, key: key}
}

func (ca testCA) issue(t *testing.T, cn string, notAfter time.Time, usage x509.ExtKeyUsage) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: notAfter,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

func TestListFilter(t *testing.T) {
	f := newFixture(t)
	op := f.create(t, "Operator.One", "Passw0rd-1", RoleUser, "any")
	f.create(t, "viewer", "Passw0rd-2", RoleView, "any")
	tests := []struct {
		name   string
		filter Filter
		want   []string
	}{
		{name: "everyone", want: []string{"admin", "Operator.One", "viewer"}},
		{name: "by id", filter: Filter{ID: op.ID}, want: []string{"Operator.One"}},
		{name: "by name ignoring case", filter: Filter{Username: "operator.one"}, want: []string{"Operator.One"}},
		{name: "id and name agree", filter: Filter{ID: 1, Username: "ADMIN"}, want: []string{"admin"}},
		{name: "id and name disagree", filter: Filter{ID: 1, Username: "viewer"}, want: []string{}},
		{name: "unknown id", filter: Filter{ID: 999}, want: []string{}},
		{name: "unknown name", filter: Filter{Username: "nobody"}, want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			users, err := f.svc.List(t.Context(), tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, u := range users {
				got = append(got, u.Username)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("List(%+v) = %q, want %q", tt.filter, got, tt.want)
			}
		})
	}
}

func TestLoginCertificate(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ca := newCA(t, "Test CA")
	other := newCA(t, "Other CA")
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	f.cas.pools["ca"] = pool
	device := f.create(t, "device-7", "secret-pass", RoleDataView, AccessCert)
	f.create(t, "pwdonly", "secret-pass", RoleUser, AccessPassword)
	valid := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

	deviceCert := ca.issue(t, "DEVICE-7", valid, x509.ExtKeyUsageClientAuth)
	for name, in := range map[string]CertificateLogin{
		"TLS client certificate":                   {Presented: []*x509.Certificate{deviceCert}},
		"TLS client certificate and the same body": {Presented: []*x509.Certificate{deviceCert}, Body: deviceCert},
	} {
		res, err := f.svc.LoginCertificate(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.UserID != device.ID || res.Admin || res.Token == "" {
			t.Errorf("%s: LoginCertificate = %+v", name, res)
		}
		if _, err := f.svc.Session(ctx, res.Token); err != nil {
			t.Errorf("%s: certificate session: %v", name, err)
		}
	}
	adminCert := ca.issue(t, "admin", valid, x509.ExtKeyUsageClientAuth)

	tests := []struct {
		name  string
		cert  *x509.Certificate
		body  *x509.Certificate
		setup func(*Settings)
		msg   string
	}{
		// A certificate is public: without the TLS handshake nothing
		// shows that the caller holds its key.
		{name: "body without a TLS client certificate", body: adminCert, msg: "TLS handshake"},
		{name: "body other than the TLS client certificate", cert: deviceCert, body: adminCert, msg: "not the client certificate"},
		{name: "other authority", cert: other.issue(t, "device-7", valid, x509.ExtKeyUsageClientAuth), msg: "not signed by"},
		{name: "expired", cert: ca.issue(t, "device-7", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), x509.ExtKeyUsageClientAuth), msg: "not valid"},
		{name: "server certificate", cert: ca.issue(t, "device-7", valid, x509.ExtKeyUsageServerAuth), msg: "not valid"},
		{name: "unknown user", cert: ca.issue(t, "ghost", valid, x509.ExtKeyUsageClientAuth), msg: `user "ghost"`},
		{name: "password-only user", cert: ca.issue(t, "pwdonly", valid, x509.ExtKeyUsageClientAuth), msg: "only with a username and password"},
		{name: "certificate logins disabled", cert: ca.issue(t, "device-7", valid, x509.ExtKeyUsageClientAuth),
			setup: func(s *Settings) { s.AuthMethod = configmgr.AuthMethodPassword }, msg: "Certificate login is disabled"},
		{name: "authority not in the store", cert: ca.issue(t, "device-7", valid, x509.ExtKeyUsageClientAuth),
			setup: func(s *Settings) { s.AuthCertificateName = "missing" }, msg: `"missing"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f.settings.set(func(s *Settings) { *s = DefaultSettings() })
			if tc.setup != nil {
				f.settings.set(tc.setup)
			}
			f.audit.reset()
			in := CertificateLogin{Body: tc.body}
			if tc.cert != nil {
				in.Presented = []*x509.Certificate{tc.cert}
			}
			_, err := f.svc.LoginCertificate(ctx, in)
			wantFault(t, err, fault.Unauthorized, tc.msg)
			if got := f.audit.sources(); !slices.Equal(got, []string{"LOGFL/FAILURE"}) {
				t.Errorf("audit = %v", got)
			}
		})
	}
	// The certificate-only user cannot use a password.
	_, err := f.svc.LoginPassword(ctx, "device-7", "secret-pass", "")
	wantFault(t, err, fault.Unauthorized, "only with a client certificate")

	_, err = ParseCertificate("not pem")
	wantFault(t, err, fault.Unauthorized, "not a PEM certificate")
}

// ---- settings from configuration ----

func TestWatchConfig(t *testing.T) {
	store := dbtest.SQLite(t)
	cm := configmgr.New(store, &recordingAudit{}, nil)
	ctx := t.Context()
	if err := cm.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := WatchConfig(ctx, cm)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := c.Settings(); got != DefaultSettings() {
		t.Fatalf("seeded settings = %+v, want %+v", got, DefaultSettings())
	}
	changes := []struct{ category, item, value string }{
		{configmgr.CategoryRESTAPI, configmgr.ItemAuthentication, "mandatory"},
		{configmgr.CategoryRESTAPI, configmgr.ItemAllowPing, "false"},
		{configmgr.CategoryRESTAPI, configmgr.ItemAuthMethod, "certificate"},
		{configmgr.CategoryRESTAPI, configmgr.ItemAuthCertificateName, "plant-ca"},
		{configmgr.CategoryRESTAPI, configmgr.ItemPasswordChange, "30"},
		{configmgr.CategoryRESTAPI, configmgr.ItemDisconnectIdleUserSession, "5"},
		{configmgr.CategoryPassword, configmgr.ItemPasswordPolicy, configmgr.PolicyMixedCaseNumeric},
		{configmgr.CategoryPassword, configmgr.ItemPasswordLength, "12"},
		{configmgr.CategoryRESTAPI, configmgr.ItemAuthProviders, `{"providers": ["ldap"]}`},
	}
	for _, ch := range changes {
		if _, err := cm.SetValue(ctx, ch.category, ch.item, ch.value); err != nil {
			t.Fatal(err)
		}
	}
	want := Settings{Mandatory: true, AllowPing: false, AuthMethod: "certificate", AuthCertificateName: "plant-ca",
		PasswordMaxAge: 30 * 24 * time.Hour, IdleTimeout: 5 * time.Minute, Providers: configmgr.AuthProviders{LDAP: true},
		PasswordPolicy: configmgr.PolicyMixedCaseNumeric, PasswordMinLength: 12}
	if got := c.Settings(); got != want {
		t.Fatalf("after changes: %+v, want %+v", got, want)
	}
	c.Close()
	if _, err := cm.SetValue(ctx, configmgr.CategoryRESTAPI, configmgr.ItemAuthentication, "optional"); err != nil {
		t.Fatal(err)
	}
	if !c.Settings().Mandatory {
		t.Error("a closed Config still follows changes")
	}
}
