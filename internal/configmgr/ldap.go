package configmgr

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/edged/edged/pkg/pkgindex"
)

// CategoryLDAP holds the directory the ldap authentication provider asks
// (see rest_api.authProviders and internal/directory).
const CategoryLDAP = "LDAP"

// Items of category LDAP.
const (
	ItemLDAPURL               = "url"
	ItemLDAPStartTLS          = "startTLS"
	ItemLDAPCACertificateName = "caCertificateName"
	ItemLDAPBindDN            = "bindDN"
	ItemLDAPBindPassword      = "bindPassword"
	ItemLDAPUserBase          = "userBase"
	ItemLDAPUserFilter        = "userFilter"
	ItemLDAPGroupBase         = "groupBase"
	ItemLDAPGroupFilter       = "groupFilter"
	ItemLDAPGroupRoles        = "groupRoles"
	ItemLDAPConnectTimeout    = "connectTimeout"
	ItemLDAPRequestTimeout    = "requestTimeout"
)

// Placeholders of the LDAP filters: the name the user logs in with and the
// distinguished name the user search found, both escaped for a filter.
const (
	PlaceholderUsername = "{username}"
	PlaceholderDN       = "{dn}"
)

// Defaults of the LDAP filters.
const (
	DefaultLDAPUserFilter  = "(uid={username})"
	DefaultLDAPGroupFilter = "(|(member={dn})(uniqueMember={dn})(memberUid={username}))"
)

// RoleNames are the names of the gateway's roles, which groupRoles maps
// directory groups to, from the most to the least privileged.
var RoleNames = []string{"admin", "control", "user", "view", "data-view"}

// ldapCategory returns the definition of category LDAP.
func ldapCategory() CategoryInput {
	return CategoryInput{
		Key: CategoryLDAP, Description: "The LDAP directory users may log in through (rest_api.authProviders ldap)",
		DisplayName: "LDAP Directory",
		Items: map[string]Item{
			ItemLDAPURL: {Description: "The directory: ldap://host:port or ldaps://host:port; empty: no directory is asked",
				Type: TypeURL, DisplayName: "Directory URL", Order: "1", Length: "2048"},
			ItemLDAPStartTLS: {Description: "Upgrade an ldap:// connection to TLS with StartTLS before binding (ldaps:// is TLS from the start)",
				Type: TypeBoolean, Default: "false", DisplayName: "StartTLS", Order: "2"},
			ItemLDAPCACertificateName: {Description: "The certificate authority in the certificate store that the directory's TLS certificate must be signed by; " +
				"empty: the system's trusted authorities",
				Type: TypeString, DisplayName: "Directory CA Certificate", Order: "3", Length: "255"},
			ItemLDAPBindDN: {Description: "The distinguished name the gateway binds as to search users and groups; empty: an anonymous bind",
				Type: TypeString, DisplayName: "Bind DN", Order: "4", Length: "1024"},
			ItemLDAPBindPassword: {Description: "The password of the bind DN", Type: TypePassword,
				DisplayName: "Bind Password", Order: "5", Length: "1024"},
			ItemLDAPUserBase: {Description: "Where users are searched (subtree), such as ou=people,dc=example,dc=org",
				Type: TypeString, DisplayName: "User Search Base", Order: "6", Length: "1024"},
			ItemLDAPUserFilter: {Description: "The filter that finds the user logging in; {username} is the name given at login",
				Type: TypeString, Default: DefaultLDAPUserFilter, DisplayName: "User Search Filter", Order: "7", Length: "1024"},
			ItemLDAPGroupBase: {Description: "Where groups are searched (subtree); empty: the user search base",
				Type: TypeString, DisplayName: "Group Search Base", Order: "8", Length: "1024"},
			ItemLDAPGroupFilter: {Description: "The filter that finds the groups of the user; {dn} is the user's distinguished name, {username} the name given at login",
				Type: TypeString, Default: DefaultLDAPGroupFilter, DisplayName: "Group Search Filter", Order: "9", Length: "1024"},
			ItemLDAPGroupRoles: {Description: `Directory groups and the gateway role their members get, such as {"cn=edge-admins,ou=groups,dc=example,dc=org": "admin", "operators": "control"}: ` +
				`a group is named by its DN or its cn; a member of several gets the most privileged role; a user of no mapped group cannot log in`,
				Type: TypeJSON, Default: "{}", DisplayName: "Group To Role Mapping", Order: "10"},
			ItemLDAPConnectTimeout: {Description: "Seconds to wait for a connection to the directory (TLS handshake included)",
				Type: TypeInteger, Default: "5", DisplayName: "Connect Timeout (seconds)", Order: "11", Minimum: "1", Maximum: "300"},
			ItemLDAPRequestTimeout: {Description: "Seconds to wait for each answer of the directory",
				Type: TypeInteger, Default: "10", DisplayName: "Request Timeout (seconds)", Order: "12", Minimum: "1", Maximum: "300"},
		},
	}
}

// itemRules are the rules of the gateway's own items beyond their type,
// checked on every write (and on their defaults); an empty value is not
// checked (see checkValue).
var itemRules = map[where]func(v string) error{
	{CategoryRESTAPI, ItemAuthProviders}: func(v string) error { _, err := ParseAuthProviders(v); return err },
	{CategoryLDAP, ItemLDAPURL}:          checkLDAPURL,
	{CategoryLDAP, ItemLDAPUserFilter}: func(v string) error {
		return checkFilter(v, PlaceholderUsername)
	},
	{CategoryLDAP, ItemLDAPGroupFilter}: func(v string) error { return checkFilter(v) },
	{CategoryLDAP, ItemLDAPGroupRoles}:  func(v string) error { _, err := ParseGroupRoles(v); return err },
	// A key that is not one would otherwise surface only at the next
	// package call.
	{CategoryInstallation, ItemTrustedKeys}: func(v string) error { _, err := pkgindex.ParseKeys(v); return err },
}

// AuthProviders are the providers rest_api.authProviders enables.
type AuthProviders struct {
	Username bool // the gateway's own users log in with their passwords
	LDAP     bool // directory users log in through category LDAP
}

// ParseAuthProviders parses a value of rest_api.authProviders:
// {"providers": [...]} naming at least one of "username" and "ldap", each
// at most once.
func ParseAuthProviders(v string) (AuthProviders, error) {
	var doc struct {
		Providers *[]string `json:"providers"`
	}
	dec := json.NewDecoder(strings.NewReader(v))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return AuthProviders{}, fmt.Errorf(`want {"providers": [...]} with "username" and/or "ldap": %w`, err)
	}
	if doc.Providers == nil || len(*doc.Providers) == 0 {
		return AuthProviders{}, errors.New(`"providers" must name at least one of "username" and "ldap"`)
	}
	var p AuthProviders
	for _, name := range *doc.Providers {
		var on *bool
		switch name {
		case ProviderUsername:
			on = &p.Username
		case ProviderLDAP:
			on = &p.LDAP
		default:
			return AuthProviders{}, fmt.Errorf(`unknown provider %q: the providers are "username" and "ldap"`, name)
		}
		if *on {
			return AuthProviders{}, fmt.Errorf("provider %q is named twice", name)
		}
		*on = true
	}
	return p, nil
}

// ParseGroupRoles parses a value of LDAP.groupRoles: a JSON object mapping
// group names (a DN or a cn, compared ignoring case) to role names. Keys
// are returned in lower case.
func ParseGroupRoles(v string) (map[string]string, error) {
	var m map[string]string
	if err := json.Unmarshal([]byte(v), &m); err != nil || m == nil {
		return nil, errors.New(`want an object mapping group names to role names, such as {"cn=admins,dc=example,dc=org": "admin"}`)
	}
	out := make(map[string]string, len(m))
	for group, role := range m {
		if strings.TrimSpace(group) == "" {
			return nil, errors.New("a group name is empty")
		}
		if !slices.Contains(RoleNames, role) {
			return nil, fmt.Errorf("group %q maps to %q, which is not a role (%s)", group, role, strings.Join(RoleNames, ", "))
		}
		out[strings.ToLower(group)] = role
	}
	return out, nil
}

// checkLDAPURL accepts ldap:// and ldaps:// URLs with a host and nothing
// but an optional port and "/".
func checkLDAPURL(v string) error {
	u, err := url.Parse(v)
	if err != nil {
		return err
	}
	if u.Scheme != "ldap" && u.Scheme != "ldaps" {
		return errors.New("the scheme must be ldap or ldaps")
	}
	if u.Hostname() == "" {
		return errors.New("the URL names no host")
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return errors.New("the URL must be only ldap[s]://host[:port]")
	}
	return nil
}

// checkFilter accepts a parenthesised filter with balanced parentheses
// that contains each of the placeholders must.
func checkFilter(v string, must ...string) error {
	if !strings.HasPrefix(v, "(") || !strings.HasSuffix(v, ")") {
		return errors.New("a filter is enclosed in parentheses")
	}
	depth := 0
	for _, r := range v {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth < 0 {
			break
		}
	}
	if depth != 0 {
		return errors.New("the parentheses are not balanced")
	}
	for _, p := range must {
		if !strings.Contains(v, p) {
			return fmt.Errorf("the filter must contain %s", p)
		}
	}
	return nil
}
