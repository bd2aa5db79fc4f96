package user

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/edged/edged/internal/configmgr"
)

// Settings are the configuration items that govern authentication and
// passwords, from the categories rest_api and password.
type Settings struct {
	// Mandatory is rest_api.authentication == "mandatory".
	Mandatory bool
	// AllowPing is rest_api.allowPing: ping needs no token.
	AllowPing bool
	// AuthMethod is rest_api.authMethod: any, password or certificate.
	AuthMethod string
	// AuthCertificateName is rest_api.authCertificateName: the certificate
	// authority in the certificate store that signs user certificates.
	AuthCertificateName string
	// PasswordMaxAge is rest_api.passwordChange days; 0 means passwords
	// never expire.
	PasswordMaxAge time.Duration
	// IdleTimeout is rest_api.disconnectIdleUserSession minutes.
	IdleTimeout time.Duration
	// Providers is rest_api.authProviders: who checks a username and
	// password.
	Providers configmgr.AuthProviders
	// PasswordPolicy is password.policy.
	PasswordPolicy string
	// PasswordMinLength is password.length.
	PasswordMinLength int
}

// DefaultSettings are the settings of a freshly seeded gateway.
func DefaultSettings() Settings {
	return Settings{
		AllowPing:           true,
		AuthMethod:          configmgr.AuthMethodAny,
		AuthCertificateName: "ca",
		Providers:           configmgr.AuthProviders{Username: true, LDAP: true},
		IdleTimeout:         60 * time.Minute,
		PasswordPolicy:      configmgr.PolicyAny,
		PasswordMinLength:   MinPasswordLength,
	}
}

// SettingsSource gives the current settings.
type SettingsSource interface {
	Settings() Settings
}

// StaticSettings is a SettingsSource that never changes, for tests and
// tools.
type StaticSettings Settings

// Settings returns s.
func (s StaticSettings) Settings() Settings { return Settings(s) }

// ConfigSource is the part of the configuration manager Config needs.
type ConfigSource = configmgr.Source

// Config holds the current Settings, kept up to date by following the
// rest_api and password categories: a change takes effect for the next
// request, without a restart. Safe for concurrent use.
type Config struct {
	rest, password *configmgr.Followed[Settings]
}

// WatchConfig reads the settings from src and follows their categories.
// Errors are those of reading the categories. Call Close to stop
// following.
func WatchConfig(ctx context.Context, src ConfigSource) (*Config, error) {
	parse := func(cat configmgr.Category) Settings {
		s := DefaultSettings()
		apply(&s, cat)
		return s
	}
	rest, err := configmgr.Follow(ctx, src, configmgr.CategoryRESTAPI, parse)
	if err != nil {
		return nil, fmt.Errorf("user: read category %s: %w", configmgr.CategoryRESTAPI, err)
	}
	password, err := configmgr.Follow(ctx, src, configmgr.CategoryPassword, parse)
	if err != nil {
		rest.Close()
		return nil, fmt.Errorf("user: read category %s: %w", configmgr.CategoryPassword, err)
	}
	return &Config{rest: rest, password: password}, nil
}

// Settings returns the current settings: those of rest_api with the
// password category's two.
func (c *Config) Settings() Settings {
	s := c.rest.Load()
	pw := c.password.Load()
	s.PasswordPolicy, s.PasswordMinLength = pw.PasswordPolicy, pw.PasswordMinLength
	return s
}

// Close stops following the categories.
func (c *Config) Close() {
	c.rest.Close()
	c.password.Close()
}

// apply copies the items of category cat that Settings holds into s. A
// missing or unparsable value leaves the current one (values were
// validated when written, so this only happens with a damaged store).
func apply(s *Settings, cat configmgr.Category) {
	val := func(item string) (string, bool) {
		it, ok := cat.Items[item]
		return it.Value, ok
	}
	integer := func(item string) (int, bool) {
		v, ok := val(item)
		if !ok {
			return 0, false
		}
		n, err := strconv.Atoi(v)
		return n, err == nil
	}
	switch cat.Key {
	case configmgr.CategoryRESTAPI:
		if v, ok := val(configmgr.ItemAuthentication); ok {
			s.Mandatory = v == configmgr.AuthenticationMandatory
		}
		if v, ok := val(configmgr.ItemAllowPing); ok {
			if b, err := strconv.ParseBool(v); err == nil {
				s.AllowPing = b
			}
		}
		if v, ok := val(configmgr.ItemAuthMethod); ok && v != "" {
			s.AuthMethod = v
		}
		if v, ok := val(configmgr.ItemAuthCertificateName); ok {
			s.AuthCertificateName = v
		}
		if n, ok := integer(configmgr.ItemPasswordChange); ok && n >= 0 {
			s.PasswordMaxAge = time.Duration(n) * 24 * time.Hour
		}
		if v, ok := val(configmgr.ItemAuthProviders); ok {
			if p, err := configmgr.ParseAuthProviders(v); err == nil {
				s.Providers = p
			}
		}
		if n, ok := integer(configmgr.ItemDisconnectIdleUserSession); ok && n > 0 {
			s.IdleTimeout = time.Duration(n) * time.Minute
		}
	case configmgr.CategoryPassword:
		if v, ok := val(configmgr.ItemPasswordPolicy); ok && v != "" {
			s.PasswordPolicy = v
		}
		if n, ok := integer(configmgr.ItemPasswordLength); ok && n > 0 {
			s.PasswordMinLength = n
		}
	}
}
