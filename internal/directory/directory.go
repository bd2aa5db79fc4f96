// Package directory checks usernames and passwords against an LDAP
// directory (OpenLDAP, Active Directory and the like) configured in
// category LDAP, and maps the user's directory groups to a gateway role.
//
// A login is two steps so the caller can count the attempt between them:
// Find searches the user as the configured bind DN (nothing about the
// password is known yet, and a directory that cannot be asked is found out
// before anything is counted), then Verify binds as the user with the
// password and reads the user's groups. Each step opens its own
// connection: logins are rare, and a connection is never shared between
// users.
package directory

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-ldap/ldap/v3"

	"github.com/edged/edged/internal/configmgr"
)

// ErrUnavailable is wrapped by every error that means the directory could
// not be asked: unreachable, too slow, its TLS certificate not trusted, or
// refusing the gateway's own bind. The login then fails with 503.
var ErrUnavailable = errors.New("the LDAP directory is unavailable")

// Errors that mean the directory answered and said no.
var (
	// ErrNoSuchUser: the user filter matches no entry.
	ErrNoSuchUser = errors.New("no such user in the directory")
	// ErrInvalidCredentials: the directory refused the user's password.
	ErrInvalidCredentials = errors.New("the directory refused the password")
	// ErrNoRole: the password is right, but none of the user's groups is
	// mapped to a role (LDAP.groupRoles).
	ErrNoRole = errors.New("no group of the user is mapped to a role")
)

// UnavailableError says why the directory could not be asked. It wraps
// ErrUnavailable; Reason is fit for a client, Err (for the log) is not.
type UnavailableError struct {
	Reason string
	Err    error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("%v: %s: %v", ErrUnavailable, e.Reason, e.Err)
}

// Unwrap returns ErrUnavailable and the cause.
func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// Settings are the items of category LDAP.
type Settings struct {
	URL               string // ldap:// or ldaps://; empty: no directory
	StartTLS          bool
	CACertificateName string // in the certificate store; empty: system roots
	BindDN            string // empty: anonymous
	BindPassword      string
	UserBase          string
	UserFilter        string // with {username}
	GroupBase         string // empty: UserBase
	GroupFilter       string // with {dn} and/or {username}
	GroupRoles        map[string]string
	ConnectTimeout    time.Duration
	RequestTimeout    time.Duration
}

// Configured reports whether a directory is set (LDAP.url not empty).
func (s Settings) Configured() bool { return s.URL != "" }

// CertificateAuthorities gives the pool of trusted roots named name (the
// certificate store, see internal/certstore).
type CertificateAuthorities interface {
	Pool(name string) (*x509.CertPool, error)
}

// Entry is a user the directory knows.
type Entry struct {
	// DN is the user's distinguished name.
	DN string
	// Username is the name the user logs in with.
	Username string
	// memberOf holds the groups the entry names itself (the memberOf
	// attribute of Active Directory and of OpenLDAP's memberof overlay).
	memberOf []string
}

// Client asks the directory its settings describe.
type Client struct {
	settings func() Settings
	cas      CertificateAuthorities
}

// NewClient returns a client over the current settings (read at each
// call) and the certificate store cas (nil: only the system's roots).
func NewClient(settings func() Settings, cas CertificateAuthorities) *Client {
	return &Client{settings: settings, cas: cas}
}

// Configured reports whether a directory is configured.
func (c *Client) Configured() bool { return c.settings().Configured() }

// Find searches user username as the bind DN. A username matching no entry
// is ErrNoSuchUser; more than one entry, a directory that cannot be asked
// or a search it refuses wrap ErrUnavailable.
func (c *Client) Find(ctx context.Context, username string) (Entry, error) {
	s := c.settings()
	conn, done, err := c.open(ctx, s)
	if err != nil {
		return Entry{}, err
	}
	defer done()
	if err := c.bindService(conn, s); err != nil {
		return Entry{}, err
	}
	filter := strings.ReplaceAll(s.UserFilter, configmgr.PlaceholderUsername, ldap.EscapeFilter(username))
	res, err := conn.Search(ldap.NewSearchRequest(s.UserBase, ldap.ScopeWholeSubtree, ldap.NeverDerefAliases,
		2, int(s.RequestTimeout/time.Second), false, filter, []string{"memberOf"}, nil))
	switch {
	case ldap.IsErrorWithCode(err, ldap.LDAPResultSizeLimitExceeded) || err == nil && len(res.Entries) > 1:
		return Entry{}, &UnavailableError{Reason: "the user filter matches more than one entry",
			Err: fmt.Errorf("search %q under %q", filter, s.UserBase)}
	case err != nil:
		return Entry{}, failure("the user search failed", err)
	case len(res.Entries) == 0:
		return Entry{}, ErrNoSuchUser
	}
	e := res.Entries[0]
	return Entry{DN: e.DN, Username: username, memberOf: e.GetAttributeValues("memberOf")}, nil
}

// Verify binds as e with password and returns the role (a name of
// configmgr.RoleNames) the most privileged of e's mapped groups gives.
// A refused password (an empty one included: many directories take it for
// an anonymous bind) is ErrInvalidCredentials; no mapped group, ErrNoRole;
// a directory that cannot be asked wraps ErrUnavailable.
func (c *Client) Verify(ctx context.Context, e Entry, password string) (string, error) {
	if password == "" {
		return "", ErrInvalidCredentials
	}
	s := c.settings()
	conn, done, err := c.open(ctx, s)
	if err != nil {
		return "", err
	}
	defer done()
	if err := conn.Bind(e.DN, password); err != nil {
		if ldap.IsErrorWithCode(err, ldap.LDAPResultInvalidCredentials) {
			return "", ErrInvalidCredentials
		}
		return "", failure("the user's bind failed", err)
	}
	// Groups are read with the gateway's own rights, which the directory
	// grants for this, not with the user's.
	if err := c.bindService(conn, s); err != nil {
		return "", err
	}
	groups, err := c.groups(conn, s, e)
	if err != nil {
		return "", err
	}
	role := roleOf(s.GroupRoles, groups)
	if role == "" {
		return "", ErrNoRole
	}
	return role, nil
}

// group is a group of the user: its DN and its common names.
type group struct {
	dn  string
	cns []string
}

// groups returns the groups the group search finds for e, and those e
// names in memberOf.
func (c *Client) groups(conn *ldap.Conn, s Settings, e Entry) ([]group, error) {
	base := s.GroupBase
	if base == "" {
		base = s.UserBase
	}
	filter := strings.ReplaceAll(s.GroupFilter, configmgr.PlaceholderDN, ldap.EscapeFilter(e.DN))
	filter = strings.ReplaceAll(filter, configmgr.PlaceholderUsername, ldap.EscapeFilter(e.Username))
	res, err := conn.Search(ldap.NewSearchRequest(base, ldap.ScopeWholeSubtree, ldap.NeverDerefAliases,
		0, int(s.RequestTimeout/time.Second), false, filter, []string{"cn"}, nil))
	if err != nil {
		return nil, failure("the group search failed", err)
	}
	out := make([]group, 0, len(res.Entries)+len(e.memberOf))
	for _, g := range res.Entries {
		out = append(out, group{dn: g.DN, cns: g.GetAttributeValues("cn")})
	}
	for _, dn := range e.memberOf {
		out = append(out, group{dn: dn})
	}
	return out, nil
}

// roleOf returns the most privileged role mapping (group name in lower
// case → role) gives one of groups, matched by DN or by cn; "" when none.
func roleOf(mapping map[string]string, groups []group) string {
	best := len(configmgr.RoleNames)
	for key, role := range mapping {
		for _, g := range groups {
			if !g.is(key) {
				continue
			}
			if i := slices.Index(configmgr.RoleNames, role); i >= 0 && i < best {
				best = i
			}
		}
	}
	if best == len(configmgr.RoleNames) {
		return ""
	}
	return configmgr.RoleNames[best]
}

// is reports whether name (a DN or a cn) names g, ignoring case; DNs are
// compared as DNs, so spacing after commas does not matter.
func (g group) is(name string) bool {
	if strings.EqualFold(g.dn, name) || slices.ContainsFunc(g.cns, func(cn string) bool { return strings.EqualFold(cn, name) }) {
		return true
	}
	if !strings.Contains(name, "=") {
		return false
	}
	a, errA := ldap.ParseDN(g.dn)
	b, errB := ldap.ParseDN(name)
	return errA == nil && errB == nil && a.EqualFold(b)
}

// open connects to the directory of s (TLS as it says); the connection is
// closed when ctx ends or done is called.
func (c *Client) open(ctx context.Context, s Settings) (conn *ldap.Conn, done func(), err error) {
	if !s.Configured() {
		return nil, nil, &UnavailableError{Reason: "no directory is configured (LDAP.url is empty)", Err: errors.New("no URL")}
	}
	u, err := url.Parse(s.URL)
	if err != nil {
		return nil, nil, &UnavailableError{Reason: "LDAP.url is not a URL", Err: err}
	}
	tlsConf := &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12}
	if s.CACertificateName != "" {
		if c.cas == nil {
			return nil, nil, &UnavailableError{Reason: "no certificate store", Err: errors.New("no certificate store")}
		}
		pool, err := c.cas.Pool(s.CACertificateName)
		if err != nil {
			return nil, nil, &UnavailableError{
				Reason: fmt.Sprintf("the certificate authority %q (LDAP.caCertificateName) is not in the certificate store", s.CACertificateName),
				Err:    err,
			}
		}
		tlsConf.RootCAs = pool
	}
	dialer := &net.Dialer{Timeout: s.ConnectTimeout}
	conn, err = ldap.DialURL(s.URL, ldap.DialWithDialer(dialer), ldap.DialWithTLSConfig(tlsConf))
	if err != nil {
		return nil, nil, failure("it cannot be reached", err)
	}
	stop := context.AfterFunc(ctx, func() { closeConn(conn) })
	done = func() { stop(); closeConn(conn) }
	conn.SetTimeout(s.RequestTimeout)
	if s.StartTLS && u.Scheme == "ldap" {
		if err := conn.StartTLS(tlsConf); err != nil {
			done()
			return nil, nil, failure("StartTLS failed", err)
		}
	}
	return conn, done, nil
}

// bindService binds as the configured bind DN; with none the connection
// stays anonymous.
func (c *Client) bindService(conn *ldap.Conn, s Settings) error {
	if s.BindDN == "" {
		return nil
	}
	if err := conn.Bind(s.BindDN, s.BindPassword); err != nil {
		if ldap.IsErrorWithCode(err, ldap.LDAPResultInvalidCredentials) {
			return &UnavailableError{Reason: "it refused the gateway's bind DN and password (LDAP.bindDN)", Err: err}
		}
		return failure("the gateway's bind failed", err)
	}
	return nil
}

// failure returns the UnavailableError of err: a certificate the
// configured authorities do not trust and an answer that did not come in
// time are named as such, anything else gets reason.
func failure(reason string, err error) error {
	var (
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		netErr   net.Error
	)
	switch {
	case errors.As(err, &verify), errors.As(err, &unknown), errors.As(err, &hostname),
		// StartTLS reports the handshake's failure as text only.
		strings.Contains(err.Error(), "failed to verify certificate"):
		reason = "its TLS certificate is not trusted (LDAP.caCertificateName)"
	case errors.As(err, &netErr) && netErr.Timeout(), ldap.IsErrorWithCode(err, ldap.LDAPResultTimeLimitExceeded),
		strings.Contains(err.Error(), "timed out"):
		reason = "it did not answer in time"
	}
	return &UnavailableError{Reason: reason, Err: err}
}

// closeConn closes conn; a close error changes nothing for a login whose
// answer is already known.
func closeConn(conn *ldap.Conn) { _ = conn.Close() }
