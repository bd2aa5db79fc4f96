package configmgr

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// seededKeys are every category Seed creates, sorted.
var seededKeys = []string{
	CategoryAdvanced, CategoryBackup, CategoryGeneral, CategoryInstallation, CategoryLDAP, CategoryLogging, CategoryPurge,
	CategoryScheduler, CategoryServiceMonitor, CategoryStatistics, CategoryUtilities,
	CategoryPassword, CategoryRESTAPI, CategoryService,
}

// mustSeed runs Seed.
func mustSeed(t *testing.T, f *fixture) {
	t.Helper()
	if err := f.m.Seed(t.Context()); err != nil {
		t.Fatalf("Seed: %v", err)
	}
}

func TestSeedCategories(t *testing.T) {
	f := newFixture(t)
	mustSeed(t, f)
	cs, err := f.m.Categories(t.Context())
	if err != nil {
		t.Fatalf("Categories: %v", err)
	}
	var keys []string
	for _, c := range cs {
		keys = append(keys, c.Key)
		if c.Description == "" || c.DisplayName == "" {
			t.Errorf("category %q lacks a description or display name", c.Key)
		}
		for name, it := range c.Items {
			if it.Description == "" || it.DisplayName == "" || it.Order == "" {
				t.Errorf("item %q of %q lacks a description, display name or order: %+v", name, c.Key, it)
			}
			if it.Value != it.Default {
				t.Errorf("item %q of %q: value %q, want its default %q", name, c.Key, it.Value, it.Default)
			}
		}
	}
	if !slices.Equal(keys, seededKeys) {
		t.Errorf("categories %q, want %q", keys, seededKeys)
	}

	var conad []string
	for _, e := range f.audit.bySource("CONAD") {
		var d struct{ Name string }
		if err := json.Unmarshal([]byte(e.Details), &d); err != nil {
			t.Fatalf("CONAD details %s: %v", e.Details, err)
		}
		conad = append(conad, d.Name)
	}
	slices.Sort(conad)
	if !slices.Equal(conad, seededKeys) {
		t.Errorf("CONAD written for %q, want one per seeded category", conad)
	}

	wantChildren := map[string][]string{
		CategoryGeneral:   {CategoryService, CategoryRESTAPI, CategoryPassword, CategoryLDAP, CategoryInstallation},
		CategoryAdvanced:  {CategoryScheduler, CategoryServiceMonitor, CategoryLogging, CategoryStatistics},
		CategoryUtilities: {CategoryPurge, CategoryBackup},
	}
	for parent, want := range wantChildren {
		if got := f.store.children[parent]; !slices.Equal(got, want) {
			t.Errorf("children of %q: %q, want %q", parent, got, want)
		}
		if c, _ := f.store.row(t, parent); len(c.Items) != 0 {
			t.Errorf("parent %q has items", parent)
		}
	}
}

func TestSeedItems(t *testing.T) {
	f := newFixture(t)
	mustSeed(t, f)
	tests := []struct {
		name     string
		category string
		item     string
		want     Item // compared on type, default, options, bounds, validity
	}{
		{name: "enableHttp", category: CategoryRESTAPI, item: ItemEnableHTTP, want: Item{Type: TypeBoolean, Default: "true"}},
		{name: "httpPort", category: CategoryRESTAPI, item: ItemHTTPPort, want: Item{Type: TypeInteger, Default: "8081", Minimum: "1", Maximum: "65535"}},
		{name: "httpsPort", category: CategoryRESTAPI, item: ItemHTTPSPort, want: Item{Type: TypeInteger, Default: "1995", Minimum: "1", Maximum: "65535", Validity: `enableHttp == "false"`}},
		{name: "certificateName", category: CategoryRESTAPI, item: ItemCertificateName, want: Item{Type: TypeString, Default: "edged", Validity: `enableHttp == "false"`}},
		{name: "authentication", category: CategoryRESTAPI, item: ItemAuthentication, want: Item{Type: TypeEnumeration, Default: "optional", Options: []string{"mandatory", "optional"}}},
		{name: "authMethod", category: CategoryRESTAPI, item: ItemAuthMethod, want: Item{Type: TypeEnumeration, Default: "any", Options: []string{"any", "password", "certificate"}}},
		{name: "authCertificateName", category: CategoryRESTAPI, item: ItemAuthCertificateName, want: Item{Type: TypeString, Default: "ca"}},
		{name: "allowPing", category: CategoryRESTAPI, item: ItemAllowPing, want: Item{Type: TypeBoolean, Default: "true"}},
		{name: "passwordChange", category: CategoryRESTAPI, item: ItemPasswordChange, want: Item{Type: TypeInteger, Default: "0", Minimum: "0"}},
		{name: "disconnectIdleUserSession", category: CategoryRESTAPI, item: ItemDisconnectIdleUserSession, want: Item{Type: TypeInteger, Default: "60", Minimum: "1"}},
		{name: "allowedOrigins", category: CategoryRESTAPI, item: ItemAllowedOrigins, want: Item{Type: TypeString}},
		{name: "authProviders", category: CategoryRESTAPI, item: ItemAuthProviders, want: Item{Type: TypeJSON, Default: `{"providers": ["username", "ldap"]}`}},
		{name: "ldap url", category: CategoryLDAP, item: ItemLDAPURL, want: Item{Type: TypeURL}},
		{name: "ldap startTLS", category: CategoryLDAP, item: ItemLDAPStartTLS, want: Item{Type: TypeBoolean, Default: "false"}},
		{name: "ldap bind password", category: CategoryLDAP, item: ItemLDAPBindPassword, want: Item{Type: TypePassword}},
		{name: "ldap user filter", category: CategoryLDAP, item: ItemLDAPUserFilter, want: Item{Type: TypeString, Default: "(uid={username})"}},
		{name: "ldap group roles", category: CategoryLDAP, item: ItemLDAPGroupRoles, want: Item{Type: TypeJSON, Default: "{}"}},
		{name: "ldap connect timeout", category: CategoryLDAP, item: ItemLDAPConnectTimeout, want: Item{Type: TypeInteger, Default: "5", Minimum: "1", Maximum: "300"}},
		{name: "ldap request timeout", category: CategoryLDAP, item: ItemLDAPRequestTimeout, want: Item{Type: TypeInteger, Default: "10", Minimum: "1", Maximum: "300"}},
		{name: "password policy", category: CategoryPassword, item: ItemPasswordPolicy, want: Item{Type: TypeEnumeration, Default: "any",
			Options: []string{"any", "mixed case", "mixed case and numeric", "mixed case, numeric and special"}}},
		{name: "password length", category: CategoryPassword, item: ItemPasswordLength, want: Item{Type: TypeInteger, Default: "8", Minimum: "8", Maximum: "72"}},
		{name: "service name", category: CategoryService, item: ItemServiceName, want: Item{Type: TypeString, Default: "Edge Gateway"}},
		{name: "service description", category: CategoryService, item: ItemServiceDescription, want: Item{Type: TypeString, Default: "Edge data gateway"}},
		{name: "max running tasks", category: CategoryScheduler, item: ItemMaxRunningTasks, want: Item{Type: TypeInteger, Default: "15", Minimum: "1"}},
		{name: "completed task age", category: CategoryScheduler, item: ItemMaxCompletedTaskAgeDays, want: Item{Type: TypeInteger, Default: "30", Minimum: "1"}},
		{name: "sleep interval", category: CategoryServiceMonitor, item: ItemSleepInterval, want: Item{Type: TypeInteger, Default: "5", Minimum: "1"}},
		{name: "ping timeout", category: CategoryServiceMonitor, item: ItemPingTimeout, want: Item{Type: TypeInteger, Default: "1", Minimum: "1"}},
		{name: "max attempts", category: CategoryServiceMonitor, item: ItemMaxAttempts, want: Item{Type: TypeInteger, Default: "15", Minimum: "1"}},
		{name: "restart failed", category: CategoryServiceMonitor, item: ItemRestartFailed, want: Item{Type: TypeEnumeration, Default: "auto", Options: []string{"auto", "manual"}}},
		{name: "purge age", category: CategoryPurge, item: ItemPurgeAge, want: Item{Type: TypeInteger, Default: "72", Minimum: "0"}},
		{name: "purge size", category: CategoryPurge, item: ItemPurgeSize, want: Item{Type: TypeInteger, Default: "1000000", Minimum: "0"}},
		{name: "retain unsent", category: CategoryPurge, item: ItemRetainUnsent, want: Item{Type: TypeEnumeration, Default: "purge unsent",
			Options: []string{"purge unsent", "retain unsent to any destination", "retain unsent to all destinations"}}},
		{name: "retain stats history", category: CategoryPurge, item: ItemRetainStatsHistory, want: Item{Type: TypeInteger, Default: "7", Minimum: "1"}},
		{name: "retain audit log", category: CategoryPurge, item: ItemRetainAuditLog, want: Item{Type: TypeInteger, Default: "30", Minimum: "1"}},
		{name: "statistics interval", category: CategoryStatistics, item: ItemStatisticsInterval, want: Item{Type: TypeInteger, Default: "15", Minimum: "1"}},
		{name: "log level", category: CategoryLogging, item: ItemLogLevel, want: Item{Type: TypeEnumeration, Default: "info", Options: []string{"debug", "info", "warning", "error"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.m.Item(t.Context(), tt.category, tt.item)
			if err != nil {
				t.Fatalf("Item: %v", err)
			}
			if got.Type != tt.want.Type || got.Default != tt.want.Default || !slices.Equal(got.Options, tt.want.Options) ||
				got.Minimum != tt.want.Minimum || got.Maximum != tt.want.Maximum || got.Validity != tt.want.Validity {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}

	t.Run("rest_api has the spec items that do something", func(t *testing.T) {
		c, err := f.m.Category(t.Context(), CategoryRESTAPI)
		if err != nil {
			t.Fatalf("Category: %v", err)
		}
		var names []string
		for name := range c.Items {
			names = append(names, name)
		}
		slices.Sort(names)
		want := []string{"allowPing", "allowedOrigins", "authCertificateName", "authMethod", "authProviders", "authentication",
			"certificateName", "disconnectIdleUserSession", "enableHttp", "httpPort", "httpsPort", "passwordChange"}
		if !slices.Equal(names, want) {
			t.Errorf("items %q, want %q", names, want)
		}
	})
}

func TestSeedIdempotent(t *testing.T) {
	f := newFixture(t)
	mustSeed(t, f)
	if _, err := f.m.SetValue(t.Context(), CategoryRESTAPI, ItemHTTPPort, "9090"); err != nil {
		t.Fatalf("SetValue: %v", err)
	}
	if _, err := f.m.SetValue(t.Context(), CategoryService, ItemServiceName, "Line 4"); err != nil {
		t.Fatalf("SetValue: %v", err)
	}
	f.audit.reset()
	var notes int
	for _, key := range seededKeys {
		f.m.Subscribe(key, func(_ context.Context, _ Category) error { notes++; return nil })
	}

	mustSeed(t, f)

	if len(f.audit.entries) != 0 {
		t.Errorf("second seed wrote audit entries %+v", f.audit.entries)
	}
	if notes != 0 {
		t.Errorf("second seed notified listeners %d times", notes)
	}
	tests := []struct {
		name     string
		category string
		item     string
		want     string
	}{
		{name: "changed port kept", category: CategoryRESTAPI, item: ItemHTTPPort, want: "9090"},
		{name: "changed name kept", category: CategoryService, item: ItemServiceName, want: "Line 4"},
		{name: "untouched default", category: CategoryRESTAPI, item: ItemEnableHTTP, want: "true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := f.m.Value(t.Context(), tt.category, tt.item)
			if err != nil || v != tt.want {
				t.Errorf("Value = %q, %v; want %q", v, err, tt.want)
			}
		})
	}
}

// seedAsEarlierVersion stores what earlier versions seeded: a version
// retired rest_api.authProviders and this one seeds it again, others
// retired PURGE_READ.retainTaskHistory (set to
// retainTask, "" leaves its default) and Installation.maxUpgrade.
func seedAsEarlierVersion(t *testing.T, f *fixture, retainTask string) {
	t.Helper()
	ctx := t.Context()
	earlier := []CategoryInput{
		{Key: CategoryRESTAPI, Description: "The administration REST API", Items: map[string]Item{
			"authProviders": {Description: "The authentication providers", Type: TypeJSON, Default: `{"providers": ["username", "ldap"]}`},
		}},
		{Key: CategoryPurge, Description: "Purging of readings and history", Items: map[string]Item{
			"retainTaskHistory": {Description: "Days finished tasks are kept", Type: TypeInteger, Default: "30", Minimum: "1"},
		}},
		{Key: CategoryInstallation, Description: "Package installation", Items: map[string]Item{
			"maxUpdate":  {Description: "The maximum number of updates per day", Type: TypeInteger, Default: "1", Minimum: "1"},
			"maxUpgrade": {Description: "The maximum number of upgrades per day", Type: TypeInteger, Default: "1", Minimum: "1"},
		}},
		{Key: CategoryGeneral, Description: "General"},
	}
	for _, in := range earlier {
		if _, err := f.m.Create(ctx, in); err != nil {
			t.Fatalf("Create %s: %v", in.Key, err)
		}
	}
	if retainTask != "" {
		if _, err := f.m.SetValue(ctx, CategoryPurge, "retainTaskHistory", retainTask); err != nil {
			t.Fatalf("SetValue: %v", err)
		}
	}
	if _, err := f.m.SetValue(ctx, CategoryInstallation, "maxUpdate", "3"); err != nil {
		t.Fatalf("SetValue: %v", err)
	}
}

func TestSeedRetires(t *testing.T) {
	tests := []struct {
		name        string
		retainTask  string // the earlier retainTaskHistory; "" its default
		taskAgeDays string // SCHEDULER.max_completed_task_age_days set before the upgrade; "" its default
		wantAge     string
	}{
		{name: "default value is not carried over", wantAge: "30"},
		{name: "changed value is carried over", retainTask: "90", wantAge: "90"},
		{name: "successor set on its own wins", retainTask: "90", taskAgeDays: "7", wantAge: "7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			ctx := t.Context()
			seedAsEarlierVersion(t, f, tt.retainTask)
			if tt.taskAgeDays != "" {
				if _, err := f.m.Create(ctx, CategoryInput{Key: CategoryScheduler, Description: "The scheduler", Items: map[string]Item{
					ItemMaxCompletedTaskAgeDays: {Description: "d", Type: TypeInteger, Default: "30", Minimum: "1"},
				}}); err != nil {
					t.Fatalf("Create: %v", err)
				}
				if _, err := f.m.SetValue(ctx, CategoryScheduler, ItemMaxCompletedTaskAgeDays, tt.taskAgeDays); err != nil {
					t.Fatalf("SetValue: %v", err)
				}
			}
			var purgeNotes []Category
			f.m.Subscribe(CategoryPurge, func(_ context.Context, c Category) error { purgeNotes = append(purgeNotes, c); return nil })

			mustSeed(t, f)

			if v, err := f.m.Value(ctx, CategoryRESTAPI, ItemAuthProviders); err != nil || v != DefaultAuthProviders {
				t.Errorf("rest_api.authProviders = %q, %v; want the specification's default %s", v, err, DefaultAuthProviders)
			}
			for _, ref := range []itemRef{{CategoryPurge, "retainTaskHistory"}, {CategoryInstallation, "maxUpgrade"}} {
				if _, err := f.m.Item(ctx, ref.category, ref.item); err == nil {
					t.Errorf("retired item %s.%s is still stored", ref.category, ref.item)
				}
			}
			if v, err := f.m.Value(ctx, CategoryInstallation, "maxUpdate"); err != nil || v != "3" {
				t.Errorf("Installation.maxUpdate = %q, %v; want the value set earlier, 3", v, err)
			}
			if v, err := f.m.Value(ctx, CategoryScheduler, ItemMaxCompletedTaskAgeDays); err != nil || v != tt.wantAge {
				t.Errorf("max_completed_task_age_days = %q, %v; want %q", v, err, tt.wantAge)
			}
			if n := len(purgeNotes); n == 0 {
				t.Error("listeners of PURGE_READ were not told of the retired item")
			} else if _, ok := purgeNotes[n-1].Items["retainTaskHistory"]; ok {
				t.Error("the last PURGE_READ state listeners saw still holds the retired item")
			}

			// Seeding again finds nothing to retire and changes nothing.
			retired := strings.Count(f.logs.String(), "retired configuration")
			if retired != 2 {
				t.Errorf("%d retirements logged, want 2 (retainTaskHistory, maxUpgrade):\n%s", retired, f.logs.String())
			}
			f.audit.reset()
			mustSeed(t, f)
			if got := strings.Count(f.logs.String(), "retired configuration"); got != retired {
				t.Errorf("a second seed retired %d more", got-retired)
			}
			if len(f.audit.entries) != 0 {
				t.Errorf("a second seed wrote audit entries %+v", f.audit.entries)
			}
		})
	}
}

func TestSeededKeys(t *testing.T) {
	keys := SeededKeys()
	for _, want := range []string{CategoryGeneral, CategoryRESTAPI, CategoryPurge, CategoryInstallation} {
		if !slices.Contains(keys, want) {
			t.Errorf("SeededKeys() = %v, lacks %s", keys, want)
		}
	}
	if len(keys) != len(seedParents)+len(seedCategories()) {
		t.Errorf("SeededKeys() has %d keys, want every parent and seeded category", len(keys))
	}
}
