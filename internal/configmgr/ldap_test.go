package configmgr

import (
	"strings"
	"testing"

	"github.com/edged/edged/internal/fault"
)

func TestParseAuthProviders(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		want    AuthProviders
		wantErr string
	}{
		{name: "the default", value: DefaultAuthProviders, want: AuthProviders{Username: true, LDAP: true}},
		{name: "username only", value: `{"providers": ["username"]}`, want: AuthProviders{Username: true}},
		{name: "ldap only", value: `{"providers": ["ldap"]}`, want: AuthProviders{LDAP: true}},
		{name: "none", value: `{"providers": []}`, wantErr: "at least one"},
		{name: "missing", value: `{}`, wantErr: "at least one"},
		{name: "unknown provider", value: `{"providers": ["kerberos"]}`, wantErr: `unknown provider "kerberos"`},
		{name: "twice", value: `{"providers": ["ldap", "ldap"]}`, wantErr: "named twice"},
		{name: "not an object", value: `["username"]`, wantErr: "want"},
		{name: "unknown field", value: `{"providers": ["username"], "x": 1}`, wantErr: "want"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAuthProviders(tt.value)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseAuthProviders(%s) = %v, %v; want an error containing %q", tt.value, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseAuthProviders(%s) = %+v, %v; want %+v", tt.value, got, err, tt.want)
			}
		})
	}
}

// TestGatewayItemRules writes values to the seeded items with rules beyond
// their type: a broken one is a 400 naming the item, a good one is stored.
func TestGatewayItemRules(t *testing.T) {
	tests := []struct {
		name, category, item, value string
		ok                          bool
	}{
		{name: "providers ldap only", category: CategoryRESTAPI, item: ItemAuthProviders, value: `{"providers": ["ldap"]}`, ok: true},
		{name: "providers empty list", category: CategoryRESTAPI, item: ItemAuthProviders, value: `{"providers": []}`},
		{name: "providers unknown", category: CategoryRESTAPI, item: ItemAuthProviders, value: `{"providers": ["oauth"]}`},
		{name: "providers empty value", category: CategoryRESTAPI, item: ItemAuthProviders, value: ``},
		{name: "ldap url", category: CategoryLDAP, item: ItemLDAPURL, value: "ldap://127.0.0.1:389", ok: true},
		{name: "ldaps url", category: CategoryLDAP, item: ItemLDAPURL, value: "ldaps://directory.example.org", ok: true},
		{name: "url unset", category: CategoryLDAP, item: ItemLDAPURL, value: "", ok: true},
		{name: "http url", category: CategoryLDAP, item: ItemLDAPURL, value: "http://directory.example.org"},
		{name: "url with a path", category: CategoryLDAP, item: ItemLDAPURL, value: "ldap://directory.example.org/dc=example"},
		{name: "user filter", category: CategoryLDAP, item: ItemLDAPUserFilter, value: "(&(objectClass=person)(cn={username}))", ok: true},
		{name: "user filter without placeholder", category: CategoryLDAP, item: ItemLDAPUserFilter, value: "(uid=alice)"},
		{name: "user filter unbalanced", category: CategoryLDAP, item: ItemLDAPUserFilter, value: "(uid={username}"},
		{name: "group filter", category: CategoryLDAP, item: ItemLDAPGroupFilter, value: "(member={dn})", ok: true},
		{name: "group filter without parentheses", category: CategoryLDAP, item: ItemLDAPGroupFilter, value: "member={dn}"},
		{name: "group roles", category: CategoryLDAP, item: ItemLDAPGroupRoles, value: `{"cn=ops,dc=x": "control", "viewers": "view"}`, ok: true},
		{name: "group roles unknown role", category: CategoryLDAP, item: ItemLDAPGroupRoles, value: `{"ops": "root"}`},
		{name: "group roles not an object", category: CategoryLDAP, item: ItemLDAPGroupRoles, value: `["ops"]`},
		{name: "group roles empty group", category: CategoryLDAP, item: ItemLDAPGroupRoles, value: `{" ": "view"}`},
		{name: "trusted keys two", category: CategoryInstallation, item: ItemTrustedKeys,
			value: "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=, Ax2vxHCakt0ykBe7LRJUQ8QiG8qO1dY3ETBtbNA0zrw=", ok: true},
		{name: "trusted keys unset", category: CategoryInstallation, item: ItemTrustedKeys, value: "", ok: true},
		{name: "trusted key not base64", category: CategoryInstallation, item: ItemTrustedKeys, value: "not-a-key"},
		{name: "trusted key too short", category: CategoryInstallation, item: ItemTrustedKeys, value: "AAAA"},
		{name: "trusted keys one bad", category: CategoryInstallation, item: ItemTrustedKeys,
			value: "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo= oops"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			mustSeed(t, f)
			_, err := f.m.SetValue(t.Context(), tt.category, tt.item, tt.value)
			if tt.ok {
				if err != nil {
					t.Fatalf("SetValue(%s) = %v; want it stored", tt.value, err)
				}
				return
			}
			if !errorsIsInvalid(err) || !strings.Contains(err.Error(), tt.item) {
				t.Fatalf("SetValue(%s) = %v; want an Invalid fault naming %s", tt.value, err, tt.item)
			}
		})
	}
}

func errorsIsInvalid(err error) bool {
	f, ok := fault.As(err)
	return ok && f.Kind == fault.Invalid
}
