package directory

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/edged/edged/internal/configmgr"
)

// ConfigSource is the part of the configuration manager Watch needs.
type ConfigSource = configmgr.Source

// Config holds the current Settings, kept up to date by listening to
// category LDAP: a change applies to the next login. Safe for concurrent
// use.
type Config struct {
	f *configmgr.Followed[Settings]
}

// Watch reads category LDAP from src and follows its changes. Errors are
// those of reading the category. Call Close to stop following.
func Watch(ctx context.Context, src ConfigSource) (*Config, error) {
	f, err := configmgr.Follow(ctx, src, configmgr.CategoryLDAP, SettingsOf)
	if err != nil {
		return nil, fmt.Errorf("directory: read category %s: %w", configmgr.CategoryLDAP, err)
	}
	return &Config{f: f}, nil
}

// Settings returns the current settings.
func (c *Config) Settings() Settings { return c.f.Load() }

// Close stops following the category.
func (c *Config) Close() { c.f.Close() }

// SettingsOf returns the settings category LDAP holds. Values were checked
// when written; one that does not parse (a damaged store) leaves its
// default.
func SettingsOf(cat configmgr.Category) Settings {
	val := func(item string) string { return cat.Items[item].Value }
	seconds := func(item string, def time.Duration) time.Duration {
		if n, err := strconv.Atoi(val(item)); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
		return def
	}
	s := Settings{
		URL:               val(configmgr.ItemLDAPURL),
		StartTLS:          val(configmgr.ItemLDAPStartTLS) == "true",
		CACertificateName: val(configmgr.ItemLDAPCACertificateName),
		BindDN:            val(configmgr.ItemLDAPBindDN),
		BindPassword:      val(configmgr.ItemLDAPBindPassword),
		UserBase:          val(configmgr.ItemLDAPUserBase),
		UserFilter:        val(configmgr.ItemLDAPUserFilter),
		GroupBase:         val(configmgr.ItemLDAPGroupBase),
		GroupFilter:       val(configmgr.ItemLDAPGroupFilter),
		ConnectTimeout:    seconds(configmgr.ItemLDAPConnectTimeout, 5*time.Second),
		RequestTimeout:    seconds(configmgr.ItemLDAPRequestTimeout, 10*time.Second),
	}
	if s.UserFilter == "" {
		s.UserFilter = configmgr.DefaultLDAPUserFilter
	}
	if s.GroupFilter == "" {
		s.GroupFilter = configmgr.DefaultLDAPGroupFilter
	}
	if roles, err := configmgr.ParseGroupRoles(val(configmgr.ItemLDAPGroupRoles)); err == nil {
		s.GroupRoles = roles
	}
	return s
}
