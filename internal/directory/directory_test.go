package directory

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/simtest"
)

// fakeCAs is a certificate store holding named pools.
type fakeCAs map[string]*x509.CertPool

func (f fakeCAs) Pool(name string) (*x509.CertPool, error) {
	if p, ok := f[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("no certificate %q", name)
}

// testDirectory starts slapd with alice (group edge-admins), bob (groups
// operators and viewers) and carol (no group), and returns it with
// settings that reach it over plain LDAP as its root DN.
func testDirectory(t *testing.T) (*simtest.Directory, Settings, fakeCAs) {
	t.Helper()
	d := simtest.Slapd(t)
	d.AddUser("alice", "alice-secret")
	d.AddUser("bob", "bob-secret")
	d.AddUser("carol", "carol-secret")
	d.AddGroup("edge-admins", "alice")
	d.AddGroup("operators", "bob")
	d.AddGroup("viewers", "bob", "carol-not-there")
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(d.CA.CAPEM)) {
		t.Fatal("the test authority does not parse")
	}
	s := Settings{
		URL: d.URL, BindDN: d.AdminDN, BindPassword: d.AdminPassword,
		UserBase: d.People, UserFilter: "(uid={username})", GroupBase: d.Groups,
		GroupFilter: "(|(member={dn})(memberUid={username}))",
		GroupRoles: map[string]string{
			strings.ToLower(d.GroupDN("edge-admins")): "admin", // by DN
			"operators": "control", "viewers": "view", // by cn
		},
		ConnectTimeout: 5 * time.Second, RequestTimeout: 5 * time.Second,
	}
	return d, s, fakeCAs{"directory-ca": pool}
}

// login runs Find and Verify as the gateway does.
func login(t *testing.T, c *Client, user, password string) (string, error) {
	t.Helper()
	e, err := c.Find(t.Context(), user)
	if err != nil {
		return "", err
	}
	return c.Verify(t.Context(), e, password)
}

func TestLogin(t *testing.T) {
	d, base, cas := testDirectory(t)
	tlsWith := func(url string, startTLS bool, ca string) Settings {
		s := base
		s.URL, s.StartTLS, s.CACertificateName = url, startTLS, ca
		return s
	}
	tests := []struct {
		name       string
		settings   Settings
		user, pass string
		wantRole   string
		wantErr    error
		wantReason string // of an UnavailableError
	}{
		{name: "admin group by DN", settings: base, user: "alice", pass: "alice-secret", wantRole: "admin"},
		{name: "most privileged of two groups", settings: base, user: "bob", pass: "bob-secret", wantRole: "control"},
		{name: "login name case", settings: base, user: "ALICE", pass: "alice-secret", wantRole: "admin"},
		{name: "no mapped group", settings: base, user: "carol", pass: "carol-secret", wantErr: ErrNoRole},
		{name: "wrong password", settings: base, user: "alice", pass: "bob-secret", wantErr: ErrInvalidCredentials},
		{name: "empty password is no anonymous bind", settings: base, user: "alice", pass: "", wantErr: ErrInvalidCredentials},
		{name: "unknown user", settings: base, user: "mallory", pass: "x", wantErr: ErrNoSuchUser},
		{name: "filter metacharacters are escaped", settings: base, user: "*", pass: "alice-secret", wantErr: ErrNoSuchUser},
		{name: "ldaps verified against the test authority", settings: tlsWith(d.TLSURL, false, "directory-ca"),
			user: "alice", pass: "alice-secret", wantRole: "admin"},
		{name: "StartTLS verified against the test authority", settings: tlsWith(d.URL, true, "directory-ca"),
			user: "bob", pass: "bob-secret", wantRole: "control"},
		{name: "ldaps with an authority that did not sign", settings: tlsWith(d.TLSURL, false, ""),
			user: "alice", pass: "alice-secret", wantErr: ErrUnavailable, wantReason: "TLS certificate is not trusted"},
		{name: "StartTLS with an authority that did not sign", settings: tlsWith(d.URL, true, ""),
			user: "alice", pass: "alice-secret", wantErr: ErrUnavailable, wantReason: "TLS certificate is not trusted"},
		{name: "authority missing from the store", settings: tlsWith(d.TLSURL, false, "nope"),
			user: "alice", pass: "alice-secret", wantErr: ErrUnavailable, wantReason: "not in the certificate store"},
		{name: "gateway bind refused", settings: func() Settings { s := base; s.BindPassword = "wrong"; return s }(),
			user: "alice", pass: "alice-secret", wantErr: ErrUnavailable, wantReason: "refused the gateway's bind"},
		{name: "not configured", settings: Settings{}, user: "alice", pass: "alice-secret", wantErr: ErrUnavailable,
			wantReason: "no directory is configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewClient(func() Settings { return tt.settings }, cas)
			role, err := login(t, c, tt.user, tt.pass)
			if tt.wantErr == nil {
				if err != nil || role != tt.wantRole {
					t.Fatalf("login %s = %q, %v; want role %q", tt.user, role, err, tt.wantRole)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("login %s = %q, %v; want %v", tt.user, role, err, tt.wantErr)
			}
			var u *UnavailableError
			if tt.wantReason != "" && (!errors.As(err, &u) || !strings.Contains(u.Reason, tt.wantReason)) {
				t.Fatalf("login %s = %v; want the reason to say %q", tt.user, err, tt.wantReason)
			}
		})
	}
}

// TestStopped stops the directory: Find and Verify say it is unavailable,
// and find it again once it is back.
func TestStopped(t *testing.T) {
	d, s, cas := testDirectory(t)
	c := NewClient(func() Settings { return s }, cas)
	e, err := c.Find(t.Context(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	d.Stop()
	if _, err := c.Find(t.Context(), "alice"); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("Find with the directory stopped = %v; want it unavailable, cannot be reached", err)
	}
	if _, err := c.Verify(t.Context(), e, "alice-secret"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Verify with the directory stopped = %v; want it unavailable", err)
	}
	d.Start()
	if role, err := login(t, c, "alice", "alice-secret"); err != nil || role != "admin" {
		t.Errorf("login after the directory is back = %q, %v; want admin", role, err)
	}
}

// TestTimeout points the client at a listener that accepts and never
// answers: the login gives up after the request timeout, unavailable.
func TestTimeout(t *testing.T) {
	_, s, cas := testDirectory(t)
	s.URL = "ldap://" + silentListener(t)
	s.RequestTimeout = 300 * time.Millisecond
	c := NewClient(func() Settings { return s }, cas)
	start := time.Now()
	_, err := c.Find(t.Context(), "alice")
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "did not answer in time") {
		t.Errorf("Find against a silent server = %v; want unavailable, did not answer in time", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Find took %v; want about the request timeout", d)
	}
}

// silentListener accepts connections on a loopback port and never answers;
// it returns host:port.
func silentListener(t *testing.T) string {
	t.Helper()
	var lc net.ListenConfig
	l, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				_ = c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	return l.Addr().String()
}

func TestSettingsOf(t *testing.T) {
	item := func(v string) configmgr.Item { return configmgr.Item{Value: v} }
	s := SettingsOf(configmgr.Category{Key: configmgr.CategoryLDAP, Items: map[string]configmgr.Item{
		configmgr.ItemLDAPURL:            item("ldaps://directory.example.org:636"),
		configmgr.ItemLDAPStartTLS:       item("false"),
		configmgr.ItemLDAPUserFilter:     item(""),
		configmgr.ItemLDAPGroupRoles:     item(`{"CN=Ops,DC=example": "control"}`),
		configmgr.ItemLDAPConnectTimeout: item("7"),
		configmgr.ItemLDAPRequestTimeout: item("bad"),
	}})
	want := Settings{URL: "ldaps://directory.example.org:636", UserFilter: configmgr.DefaultLDAPUserFilter,
		GroupFilter: configmgr.DefaultLDAPGroupFilter, ConnectTimeout: 7 * time.Second, RequestTimeout: 10 * time.Second}
	if s.URL != want.URL || s.StartTLS || s.UserFilter != want.UserFilter || s.GroupFilter != want.GroupFilter ||
		s.ConnectTimeout != want.ConnectTimeout || s.RequestTimeout != want.RequestTimeout || s.GroupRoles["cn=ops,dc=example"] != "control" {
		t.Errorf("SettingsOf = %+v; want %+v with group cn=ops,dc=example → control", s, want)
	}
}
