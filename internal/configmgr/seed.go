package configmgr

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
)

// Keys of the categories seeded by Seed.
const (
	CategoryRESTAPI        = "rest_api"
	CategoryPassword       = "password"
	CategoryService        = "service"
	CategoryScheduler      = "SCHEDULER"
	CategoryServiceMonitor = "SMNTR"
	CategoryPurge          = "PURGE_READ"
	CategoryBackup         = "BACKUP"
	CategoryStatistics     = "STATISTICS"
	CategoryLogging        = "LOGGING"
	CategoryGeneral        = "General"
	CategoryAdvanced       = "Advanced"
	CategoryUtilities      = "Utilities"
)

// Items of category rest_api.
const (
	ItemEnableHTTP                = "enableHttp"
	ItemHTTPPort                  = "httpPort"
	ItemHTTPSPort                 = "httpsPort"
	ItemCertificateName           = "certificateName"
	ItemAuthentication            = "authentication"
	ItemAuthMethod                = "authMethod"
	ItemAuthCertificateName       = "authCertificateName"
	ItemAllowPing                 = "allowPing"
	ItemPasswordChange            = "passwordChange"
	ItemDisconnectIdleUserSession = "disconnectIdleUserSession"
	ItemAllowedOrigins            = "allowedOrigins"
	ItemAuthProviders             = "authProviders"
)

// Authentication providers of rest_api.authProviders, and the item's
// default, the specification's.
const (
	ProviderUsername     = "username" // the gateway's own users and their passwords
	ProviderLDAP         = "ldap"     // users of the directory of category LDAP
	DefaultAuthProviders = `{"providers": ["username", "ldap"]}`
)

// Values of rest_api items.
const (
	AuthenticationMandatory = "mandatory"
	AuthenticationOptional  = "optional"
	AuthMethodAny           = "any"
	AuthMethodPassword      = "password"
	AuthMethodCertificate   = "certificate"
)

// Items of category password, and the values of its policy item.
const (
	ItemPasswordPolicy = "policy"
	ItemPasswordLength = "length" // minimum password length

	PolicyAny                     = "any"
	PolicyMixedCase               = "mixed case"
	PolicyMixedCaseNumeric        = "mixed case and numeric"
	PolicyMixedCaseNumericSpecial = "mixed case, numeric and special"
)

// Items of category service.
const (
	ItemServiceName        = "name" // the instance name
	ItemServiceDescription = "description"
)

// Items of category SCHEDULER.
const (
	ItemMaxRunningTasks         = "max_running_tasks"
	ItemMaxCompletedTaskAgeDays = "max_completed_task_age_days"
)

// Items of category SMNTR (service monitor), and the values of
// restart_failed.
const (
	ItemSleepInterval = "sleep_interval"
	ItemPingTimeout   = "ping_timeout"
	ItemMaxAttempts   = "max_attempts"
	ItemRestartFailed = "restart_failed"

	RestartAuto   = "auto"
	RestartManual = "manual"
)

// Items of category PURGE_READ, and the values of retainUnsent.
const (
	ItemPurgeAge           = "age"
	ItemPurgeSize          = "size"
	ItemRetainUnsent       = "retainUnsent"
	ItemRetainStatsHistory = "retainStatsHistory"
	ItemRetainAuditLog     = "retainAuditLog"

	RetainUnsentPurge = "purge unsent"
	RetainUnsentAny   = "retain unsent to any destination"
	RetainUnsentAll   = "retain unsent to all destinations"
)

// Items of category BACKUP (internal/backup reads them).
const (
	ItemBackupRetainCount     = "retainCount"
	ItemBackupIncludeReadings = "includeReadings"
)

// Item of category STATISTICS.
const ItemStatisticsInterval = "interval"

// Item of category LOGGING, and its values.
const (
	ItemLogLevel = "logLevel"
	// ItemLogFileSize is the size in MiB at which the log file is
	// rotated; 0 writes no log file.
	ItemLogFileSize = "logFileSize"
	// ItemLogFileCount is the number of rotated log files kept.
	ItemLogFileCount = "logFileCount"

	LogLevelDebug   = "debug"
	LogLevelInfo    = "info"
	LogLevelWarning = "warning"
	LogLevelError   = "error"
)

// Category Installation holds the package repository's settings, which
// internal/packages reads.
const CategoryInstallation = "Installation"

// ItemTrustedKeys is the Installation item listing the public keys whose
// signature of a package repository's index is trusted.
const ItemTrustedKeys = "trustedKeys"

// ProtectedCategories are the categories only admins may write (enforced
// by internal/auth): the API's own settings, the password policy and the
// package repository with its trusted keys. A new category whose key
// differs from one of them only by case or surrounding space is refused
// (see Lookalike), so that no copy can pass for the real one.
var ProtectedCategories = []string{CategoryRESTAPI, CategoryPassword, CategoryInstallation}

// SameKey reports whether category keys a and b are equal ignoring case
// and surrounding space.
func SameKey(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// Lookalike returns the protected category key differs from only by case
// or surrounding space, and true; false when key is a protected key itself
// or like none.
func Lookalike(key string) (string, bool) {
	for _, c := range ProtectedCategories {
		if key != c && SameKey(key, c) {
			return c, true
		}
	}
	return "", false
}

// ItemPluginEnvironment of category Installation lists the variables of
// the gateway's environment a plugin process sees (internal/plugin/external
// reads it at every start of one); DefaultPluginEnvironment is its
// default: what a shell and go-plugin need, the Python that runs Python
// plugins and where it finds the SDK's packages, and the trusted
// certificates of TLS clients.
const (
	ItemPluginEnvironment    = "pluginEnvironment"
	DefaultPluginEnvironment = "PATH,HOME,LANG,LC_*,TZ,TMPDIR,EDGED_PLUGIN_PYTHON,PYTHONPATH,SSL_CERT_FILE,SSL_CERT_DIR"
)

// seedParents are the parent categories and their children, in seeding
// order.
var seedParents = []struct {
	in       CategoryInput
	children []string
}{
	{CategoryInput{Key: CategoryGeneral, Description: "General", DisplayName: "General"},
		[]string{CategoryService, CategoryRESTAPI, CategoryPassword, CategoryLDAP, CategoryInstallation}},
	{CategoryInput{Key: CategoryAdvanced, Description: "Advanced", DisplayName: "Advanced"},
		[]string{CategoryScheduler, CategoryServiceMonitor, CategoryLogging, CategoryStatistics}},
	{CategoryInput{Key: CategoryUtilities, Description: "Utilities", DisplayName: "Utilities"},
		[]string{CategoryPurge, CategoryBackup}},
}

// seedCategories returns the definitions of the seeded categories with
// items, in seeding order.
func seedCategories() []CategoryInput {
	return []CategoryInput{
		{
			Key: CategoryInstallation, Description: "Package installation", DisplayName: "Installation",
			Items: map[string]Item{
				"repositoryURL": {Description: "Base URL of the package repository (POST /edge/repository sets it)", Type: TypeString,
					Default: "", DisplayName: "Repository URL", Order: "1", Length: "2048"},
				"repositoryVersion": {Description: "The release installs and updates follow: latest, or a version to pin", Type: TypeString,
					Default: "latest", DisplayName: "Repository Version", Order: "2", Length: "64"},
				ItemTrustedKeys: {Description: "Public ed25519 keys (base64, comma-separated) whose signature of the repository index is trusted", Type: TypeString,
					Default: "", DisplayName: "Trusted Keys", Order: "3", Length: "4096"},
				"maxUpdate": {Description: "The maximum number of package updates started per 24 hours", Type: TypeInteger,
					Default: "1", DisplayName: "Maximum Updates Per Day", Order: "4", Minimum: "1"},
				ItemPluginEnvironment: {Description: "The variables of the gateway's environment a plugin process sees " +
					"(comma-separated names, NAME* for a prefix); never those of the gateway's own settings (EDGE_*)", Type: TypeString,
					Default: DefaultPluginEnvironment, DisplayName: "Plugin Environment", Order: "5", Length: "1024"},
			},
		},
		{
			Key: CategoryService, Description: "The gateway instance", DisplayName: "Service",
			Items: map[string]Item{
				ItemServiceName: {Description: "The name of this gateway instance", Type: TypeString,
					Default: "Edge Gateway", DisplayName: "Name", Order: "1", Length: "255", Mandatory: "true"},
				ItemServiceDescription: {Description: "A description of this gateway instance, reported by ping", Type: TypeString,
					Default: "Edge data gateway", DisplayName: "Description", Order: "2", Length: "1024"},
			},
		},
		{
			Key: CategoryRESTAPI, Description: "The administration REST API", DisplayName: "Admin API",
			Items: map[string]Item{
				ItemEnableHTTP: {Description: "Serve plain HTTP; when false, HTTPS is served", Type: TypeBoolean,
					Default: "true", DisplayName: "Enable HTTP", Order: "1"},
				ItemHTTPPort: {Description: "The port to accept HTTP connections on", Type: TypeInteger,
					Default: "8081", DisplayName: "HTTP Port", Order: "2", Minimum: "1", Maximum: "65535"},
				ItemHTTPSPort: {Description: "The port to accept HTTPS connections on", Type: TypeInteger,
					Default: "1995", DisplayName: "HTTPS Port", Order: "3", Minimum: "1", Maximum: "65535",
					Validity: ItemEnableHTTP + ` == "false"`},
				ItemCertificateName: {Description: "The name of the certificate in the certificate store used for HTTPS",
					Type: TypeString, Default: "edged", DisplayName: "Certificate Name", Order: "4",
					Validity: ItemEnableHTTP + ` == "false"`},
				ItemAuthentication: {Description: "Whether every call needs an authenticated user", Type: TypeEnumeration,
					Default: AuthenticationOptional, DisplayName: "Authentication", Order: "5",
					Options: []string{AuthenticationMandatory, AuthenticationOptional}},
				ItemAuthMethod: {Description: "How users may authenticate", Type: TypeEnumeration,
					Default: AuthMethodAny, DisplayName: "Authentication Method", Order: "6",
					Options: []string{AuthMethodAny, AuthMethodPassword, AuthMethodCertificate}},
				ItemAuthCertificateName: {Description: "The name of the certificate authority that signs user certificates",
					Type: TypeString, Default: "ca", DisplayName: "Auth Certificate", Order: "7"},
				ItemAllowPing: {Description: "Allow the ping call without authentication", Type: TypeBoolean,
					Default: "true", DisplayName: "Allow Ping", Order: "8"},
				ItemPasswordChange: {Description: "Days after which a password must be changed; 0 means never",
					Type: TypeInteger, Default: "0", DisplayName: "Password Expiry Days", Order: "9", Minimum: "0"},
				ItemDisconnectIdleUserSession: {Description: "Minutes of inactivity after which a user session ends",
					Type: TypeInteger, Default: "60", DisplayName: "Idle Session Timeout", Order: "10", Minimum: "1"},
				ItemAllowedOrigins: {Description: "Origins whose browser pages may call the API (CORS): comma-separated, " +
					"such as https://hmi.example.com, or * for any; empty allows none",
					Type: TypeString, DisplayName: "Allowed Origins", Order: "11"},
				ItemAuthProviders: {Description: `Who checks a username and password: {"providers": [...]} with ` +
					`"username" (the gateway's own users) and "ldap" (the directory of category LDAP); ` +
					`the built-in admin always logs in with its password`,
					Type: TypeJSON, Default: DefaultAuthProviders, DisplayName: "Authentication Providers", Order: "12"},
			},
		},
		ldapCategory(),
		{
			Key: CategoryPassword, Description: "The password policy", DisplayName: "Password Policy",
			Items: map[string]Item{
				ItemPasswordPolicy: {Description: "The characters a password must contain", Type: TypeEnumeration,
					Default: PolicyAny, DisplayName: "Policy", Order: "1",
					Options: []string{PolicyAny, PolicyMixedCase, PolicyMixedCaseNumeric, PolicyMixedCaseNumericSpecial}},
				ItemPasswordLength: {Description: "The minimum length of a password", Type: TypeInteger,
					Default: "8", DisplayName: "Minimum Length", Order: "2", Minimum: "8", Maximum: "72"},
			},
		},
		{
			Key: CategoryScheduler, Description: "The scheduler", DisplayName: "Scheduler",
			Items: map[string]Item{
				ItemMaxRunningTasks: {Description: "The maximum number of tasks running at once", Type: TypeInteger,
					Default: "15", DisplayName: "Maximum Running Tasks", Order: "1", Minimum: "1"},
				ItemMaxCompletedTaskAgeDays: {Description: "Days a finished task is kept in the task list; older ones are removed by the purge system task",
					Type: TypeInteger, Default: "30", DisplayName: "Finished Task Age (days)", Order: "2", Minimum: "1"},
			},
		},
		{
			Key: CategoryServiceMonitor, Description: "The service monitor", DisplayName: "Service Monitor",
			Items: map[string]Item{
				ItemSleepInterval: {Description: "Seconds between two health checks of the services", Type: TypeInteger,
					Default: "5", DisplayName: "Health Check Interval (seconds)", Order: "1", Minimum: "1"},
				ItemPingTimeout: {Description: "Seconds to wait for a service to answer a health check",
					Type: TypeInteger, Default: "1", DisplayName: "Ping Timeout (seconds)", Order: "2", Minimum: "1"},
				ItemMaxAttempts: {Description: "Failed health checks after which a service is considered failed",
					Type: TypeInteger, Default: "15", DisplayName: "Maximum Attempts", Order: "3", Minimum: "1"},
				ItemRestartFailed: {Description: "Whether a failed service is restarted automatically",
					Type: TypeEnumeration, Default: RestartAuto, DisplayName: "Restart Failed", Order: "4",
					Options: []string{RestartAuto, RestartManual}},
			},
		},
		{
			Key: CategoryLogging, Description: "Logging", DisplayName: "Logging",
			Items: map[string]Item{
				ItemLogLevel: {Description: "The lowest level of messages logged; a change applies at once", Type: TypeEnumeration,
					Default: LogLevelInfo, DisplayName: "Log Level", Order: "1",
					Options: []string{LogLevelDebug, LogLevelInfo, LogLevelWarning, LogLevelError}},
				ItemLogFileSize: {Description: "Size in MiB at which the log file (logs/edged.log in the data directory) is rotated; 0 writes no log file. " +
					"GET /edge/syslog reads it for the lines older than those kept in memory; a change applies at once",
					Type: TypeInteger, Default: "10", DisplayName: "Log File Size (MiB)", Order: "2", Minimum: "0", Maximum: "1024"},
				ItemLogFileCount: {Description: "Rotated log files kept besides the current one (edged.log.1 the newest); a change applies at the next rotation",
					Type: TypeInteger, Default: "2", DisplayName: "Rotated Log Files", Order: "3", Minimum: "0", Maximum: "20"},
			},
		},
		{
			Key: CategoryStatistics, Description: "Statistics collection", DisplayName: "Statistics",
			Items: map[string]Item{
				ItemStatisticsInterval: {Description: "Seconds between two statistics history entries",
					Type: TypeInteger, Default: "15", DisplayName: "Collection Interval (seconds)", Order: "1", Minimum: "1"},
			},
		},
		{
			Key: CategoryPurge, Description: "Purging of readings and history", DisplayName: "Purge",
			Items: map[string]Item{
				ItemPurgeAge: {Description: "Hours readings are kept; older readings are purged; 0 means no purging by age",
					Type: TypeInteger, Default: "72", DisplayName: "Age Of Data To Be Retained (hours)", Order: "1", Minimum: "0"},
				ItemPurgeSize: {Description: "Maximum number of readings kept; 0 means no purging by size",
					Type: TypeInteger, Default: "1000000", DisplayName: "Maximum Rows Of Data To Be Retained", Order: "2", Minimum: "0"},
				ItemRetainUnsent: {Description: "Whether readings not yet sent north are kept", Type: TypeEnumeration,
					Default: RetainUnsentPurge, DisplayName: "Retain Unsent Data", Order: "3",
					Options: []string{RetainUnsentPurge, RetainUnsentAny, RetainUnsentAll}},
				ItemRetainStatsHistory: {Description: "Days statistics history is kept", Type: TypeInteger,
					Default: "7", DisplayName: "Statistics History Retention (days)", Order: "4", Minimum: "1"},
				ItemRetainAuditLog: {Description: "Days audit log entries are kept", Type: TypeInteger,
					Default: "30", DisplayName: "Audit Log Retention (days)", Order: "5", Minimum: "1"},
			},
		},
		{
			Key: CategoryBackup, Description: "Backups of the gateway", DisplayName: "Backup",
			Items: map[string]Item{
				ItemBackupRetainCount: {Description: "Number of complete backups kept; after each backup the oldest beyond it are deleted",
					Type: TypeInteger, Default: "5", DisplayName: "Backups Retained", Order: "1", Minimum: "1", Maximum: "1000"},
				ItemBackupIncludeReadings: {Description: "Whether backups hold the buffered readings (with the north positions in them)",
					Type: TypeBoolean, Default: "false", DisplayName: "Include Readings", Order: "2"},
			},
		},
	}
}

// itemRef names an item of a category.
type itemRef struct{ category, item string }

// retiredItems are items that earlier versions seeded and nothing reads any
// more. Seeding only ever adds and merges definitions, so Seed removes
// these explicitly from a store an earlier version seeded. An item with a
// successor hands its value on: a value the operator changed from the
// retired item's default is copied to the successor while the successor
// still holds its own default, so the setting survives the upgrade.
var retiredItems = []struct {
	itemRef
	successor *itemRef
}{
	// Finished tasks are kept for SCHEDULER.max_completed_task_age_days.
	{itemRef: itemRef{CategoryPurge, "retainTaskHistory"},
		successor: &itemRef{CategoryScheduler, ItemMaxCompletedTaskAgeDays}},
	// Packages are installed and updated, never upgraded apart.
	{itemRef: itemRef{CategoryInstallation, "maxUpgrade"}},
}

// retiredCategories are categories that earlier versions seeded and
// nothing reads any more; Seed deletes them with their parent links.
var retiredCategories = []string{}

// Seed creates the gateway's own categories at first start and merges
// their definitions on every later start, each through Create: a CONAD
// audit entry is written only for a category that is new, and values set
// earlier are kept. It then retires the items and categories earlier
// versions seeded and this one does not (see retiredItems), and attaches the
// seeded categories to their parents General, Advanced and Utilities: a
// category is attached when it or its parent was created by this call and
// it has no parent yet, so a tree that clients rearranged stays as they
// left it, while a category added in a later version finds its place.
// Errors are those of Create and of storage; it stops at the first. Safe
// for concurrent use, and idempotent.
func (m *Manager) Seed(ctx context.Context) error {
	created := map[string]bool{}
	seed := func(in CategoryInput) error {
		_, err := m.store.GetCategory(ctx, in.Key)
		switch {
		case errors.Is(err, db.ErrNotFound):
			created[in.Key] = true
		case err != nil:
			return fmt.Errorf("configmgr: seed category %q: %w", in.Key, err)
		}
		if _, err := m.Create(ctx, in); err != nil {
			return fmt.Errorf("configmgr: seed category %q: %w", in.Key, err)
		}
		return nil
	}
	for _, in := range seedCategories() {
		if err := seed(in); err != nil {
			return err
		}
	}
	for _, r := range retiredItems {
		if err := m.retireItem(ctx, r.itemRef, r.successor); err != nil {
			return fmt.Errorf("configmgr: retire item %s.%s: %w", r.category, r.item, err)
		}
	}
	for _, key := range retiredCategories {
		existed, err := m.store.DeleteCategory(ctx, key)
		if err != nil {
			return fmt.Errorf("configmgr: retire category %q: %w", key, err)
		}
		if existed {
			m.log.InfoContext(ctx, "retired configuration category removed", "category", key)
		}
	}
	for _, p := range seedParents {
		if err := seed(p.in); err != nil {
			return err
		}
		var attach []string
		for _, c := range p.children {
			if !created[c] && !created[p.in.Key] {
				continue
			}
			_, hasParent, err := m.store.CategoryParent(ctx, c)
			if err != nil {
				return fmt.Errorf("configmgr: seed parent of category %q: %w", c, err)
			}
			if !hasParent {
				attach = append(attach, c)
			}
		}
		if err := m.store.AddCategoryChildren(ctx, p.in.Key, attach...); err != nil {
			return fmt.Errorf("configmgr: seed children of category %q: %w", p.in.Key, err)
		}
	}
	return nil
}

// retireItem removes the item ref from storage if it is there, handing a
// changed value on to successor (nil: none) first. Listeners of the
// category are notified of the removal.
func (m *Manager) retireItem(ctx context.Context, ref itemRef, successor *itemRef) error {
	c, err := m.category(ctx, ref.category)
	if errors.Is(err, fault.NotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	old, ok := c.Items[ref.item]
	if !ok {
		return nil
	}
	if successor != nil && old.Value != old.Default {
		if err := m.handOn(ctx, ref, old.Value, *successor); err != nil {
			return err
		}
	}
	var seq uint64
	row, err := m.store.UpdateCategory(ctx, ref.category, func(cur *db.Category) error {
		c, err := decodeCategory(*cur)
		if err != nil {
			return err
		}
		delete(c.Items, ref.item)
		enc, err := encodeCategory(c)
		if err != nil {
			return err
		}
		cur.Items = enc.Items
		seq = m.seq.Add(1)
		return nil
	})
	if err != nil {
		return translate(err, fmt.Sprintf("retire %s/%s", ref.category, ref.item), categoryName(ref.category))
	}
	stored, err := decodeCategory(row)
	if err != nil {
		return err
	}
	m.log.InfoContext(ctx, "retired configuration item removed", "category", ref.category, "item", ref.item,
		"value", maskValue(old.Type, old.Value))
	m.notify(ctx, stored, seq)
	return nil
}

// handOn sets successor to value, the value of the retired item ref, while
// successor holds its default. A value the successor's rules refuse is
// logged and dropped: the successor keeps its default.
func (m *Manager) handOn(ctx context.Context, ref itemRef, value string, successor itemRef) error {
	c, err := m.category(ctx, successor.category)
	if err != nil {
		return err
	}
	it, err := lookup(c, successor.item)
	if err != nil {
		return err
	}
	if it.Value != it.Default {
		return nil // set on its own: the newer setting wins
	}
	_, err = m.SetValue(ctx, successor.category, successor.item, value)
	if _, isFault := fault.As(err); isFault {
		m.log.WarnContext(ctx, "value of a retired configuration item not carried over",
			"from", ref.category+"."+ref.item, "to", successor.category+"."+successor.item, "value", value, "error", err)
		return nil
	}
	return err
}

// SeededKeys returns the keys of the categories the gateway seeds at
// start, parents included.
func SeededKeys() []string {
	var out []string
	for _, p := range seedParents {
		out = append(out, p.in.Key)
	}
	for _, c := range seedCategories() {
		out = append(out, c.Key)
	}
	return out
}
