package supervisor

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/edged/edged/internal/configmgr"
)

// Settings are the service monitor's settings, the items of the SMNTR
// category.
type Settings struct {
	// Interval is sleep_interval: the time between two health checks of a
	// running service, and between two attempts to start a service that
	// could not run because storage was unavailable.
	Interval time.Duration
	// Timeout is ping_timeout: how long a health check may take; one that
	// fails or takes longer makes the service unresponsive until a check
	// passes again.
	Timeout time.Duration
	// MaxAttempts is max_attempts: how many times in a row a failed
	// service is restarted; after that it stays failed. A run that lasts
	// the backoff's ResetAfter starts the count afresh.
	MaxAttempts int
	// RestartFailed is restart_failed == auto: a failed service is
	// restarted (with backoff); manual leaves it failed until it is
	// disabled and enabled again, or the gateway restarts.
	RestartFailed bool
}

// DefaultSettings are the SMNTR defaults.
var DefaultSettings = Settings{Interval: 5 * time.Second, Timeout: time.Second, MaxAttempts: 15, RestartFailed: true}

// Source gives the current settings; *Config and Static implement it.
type Source interface {
	Settings() Settings
}

// Static is a Source that never changes.
type Static Settings

// Settings returns s.
func (s Static) Settings() Settings { return Settings(s) }

// ConfigSource is the part of the configuration manager Config needs;
// *configmgr.Manager implements it.
type ConfigSource = configmgr.Source

// Config holds the settings of the SMNTR category, following its changes
// from the next check or restart on. Safe for concurrent use.
type Config struct {
	f *configmgr.Followed[Settings]
}

// WatchConfig reads the SMNTR category of src and follows its changes.
// Call Close to stop following.
func WatchConfig(ctx context.Context, src ConfigSource) (*Config, error) {
	f, err := configmgr.Follow(ctx, src, configmgr.CategoryServiceMonitor, Parse)
	if err != nil {
		return nil, fmt.Errorf("supervisor: read %s: %w", configmgr.CategoryServiceMonitor, err)
	}
	return &Config{f: f}, nil
}

// Settings returns the settings in force.
func (c *Config) Settings() Settings { return c.f.Load() }

// Close stops following changes.
func (c *Config) Close() { c.f.Close() }

// Parse reads the settings from the SMNTR category; an item missing or out
// of range keeps its default (the configuration manager validates values
// before they are stored, so that happens only for a category written by
// other means).
func Parse(c configmgr.Category) Settings {
	s := DefaultSettings
	seconds := func(item string, into *time.Duration) {
		if n, err := strconv.Atoi(c.Items[item].Value); err == nil && n >= 1 {
			*into = time.Duration(n) * time.Second
		}
	}
	seconds(configmgr.ItemSleepInterval, &s.Interval)
	seconds(configmgr.ItemPingTimeout, &s.Timeout)
	if n, err := strconv.Atoi(c.Items[configmgr.ItemMaxAttempts].Value); err == nil && n >= 1 {
		s.MaxAttempts = n
	}
	if v, ok := c.Items[configmgr.ItemRestartFailed]; ok && v.Value != "" {
		s.RestartFailed = v.Value != configmgr.RestartManual
	}
	return s
}
