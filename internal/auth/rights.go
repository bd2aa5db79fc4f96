package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/router"
	"github.com/edged/edged/internal/user"
)

// Rule says who may call one operation (decisions §2). Authorizer.Authorize
// is the one place that enforces it.
type Rule struct {
	// Roles may call the operation with a valid token.
	Roles []user.Role
	// Anonymous: with authentication=optional a caller without a token
	// may call it (with the user role's rights).
	Anonymous bool
	// Open: no token is needed in either mode, and an invalid one is
	// ignored (login, authenticate, the password change).
	Open bool
	// Ping: no token is needed while rest_api.allowPing is true.
	Ping bool
	// Identity: the call acts on the caller's own session or profile, so
	// a caller without a token gets 401 even in optional mode.
	Identity bool
	// Self names the path parameter holding a user id that a caller other
	// than an admin must own.
	Self string
	// Category, when set, returns the configuration category the call
	// writes; the categories in AdminCategories need the admin role.
	Category func(r *http.Request, op router.Operation) (string, error)
	// Installs, when set, reports whether this request installs code
	// (a package); such a request needs the admin role, whatever Roles
	// and Anonymous allow otherwise.
	Installs func(r *http.Request, op router.Operation) bool
}

// AdminCategories are the configuration categories only admins may write.
// Installation is among them: its repository and trusted keys decide whose
// code the gateway runs.
var AdminCategories = configmgr.ProtectedCategories

// AdminCategory returns the admin category key names and true when key is
// one of AdminCategories, compared as configmgr.SameKey does (ignoring
// case and surrounding space), so that "REST_API" or "rest_api " is
// protected as rest_api is.
func AdminCategory(key string) (string, bool) {
	for _, c := range AdminCategories {
		if configmgr.SameKey(key, c) {
			return c, true
		}
	}
	return "", false
}

// Role sets of the rules.
var (
	everyone    = []user.Role{user.RoleAdmin, user.RoleUser, user.RoleView, user.RoleDataView, user.RoleControl}
	viewers     = []user.Role{user.RoleAdmin, user.RoleUser, user.RoleView, user.RoleControl}
	dataReaders = []user.Role{user.RoleAdmin, user.RoleUser, user.RoleDataView, user.RoleControl}
	editors     = []user.Role{user.RoleAdmin, user.RoleUser, user.RoleControl}
	admins      = []user.Role{user.RoleAdmin}
	controllers = []user.Role{user.RoleAdmin, user.RoleControl}
)

// The kinds of rule the table is made of.
var (
	// read: every GET but buffered readings; not data-view.
	read = Rule{Roles: viewers, Anonymous: true}
	// readData: GET /edge/asset…; not view.
	readData = Rule{Roles: dataReaders, Anonymous: true}
	// readStats: ping and statistics; every role.
	readStats = Rule{Roles: everyone, Anonymous: true}
	// write: every change but user management, packages and the process.
	write = Rule{Roles: editors, Anonymous: true}
	// process: what stops or restarts the gateway; editors with a token,
	// never anonymously.
	process = Rule{Roles: editors}
	// readUsers: the user list; every role but data-view, with a token.
	readUsers = Rule{Roles: viewers}
	// writeItem: a change to the item of the category in the path.
	writeItem = Rule{Roles: editors, Anonymous: true, Category: pathCategory}
	// writeCategory: a category created or merged from the body.
	writeCategory = Rule{Roles: editors, Anonymous: true, Category: bodyCategory}
	// admin: user management and the roles list.
	admin = Rule{Roles: admins}
	// code: what changes the code the gateway runs or where it is fetched
	// from: the package repository, install, update and removal. Admins
	// only, in every mode.
	code = Rule{Roles: admins}
	// createService creates a service (an editor's write), or installs a
	// service package with ?action=… (code).
	createService = Rule{Roles: editors, Anonymous: true, Installs: hasAction}
	// control: the calls that act on the plant, for admins and the
	// control role only (spec §2.5), never anonymously.
	control = Rule{Roles: controllers}
	// open: the calls that give or renew credentials.
	open = Rule{Roles: everyone, Open: true}
	// scrape: ping and the Prometheus metrics; every role, and no token
	// while rest_api.allowPing is true, so monitoring needs no session.
	scrape = Rule{Roles: everyone, Anonymous: true, Ping: true}
)

// Rights is the access rule of every operation of openapi.yaml, by
// operationId. An operation missing here is refused (403); a test fails
// when the table and the contract differ.
var Rights = map[string]Rule{
	// Audit
	"listAuditEntries":    read,
	"createAuditEntry":    write,
	"listAuditLogCodes":   read,
	"listAuditSeverities": read,
	// Configuration
	"listCategories":    read,
	"createCategory":    writeCategory,
	"getCategory":       read,
	"getCategoryItem":   read,
	"setCategoryItem":   writeItem,
	"resetCategoryItem": writeItem,
	"setCategoryItems":  writeItem,
	// The category tree groups categories for display; changing it
	// writes no item, so it is an editor's right even for rest_api.
	"listCategoryChildren": read,
	"addCategoryChildren":  write,
	"removeCategoryChild":  write,
	"getCategoryParent":    read,
	// Tasks and schedules
	"listTasks":             read,
	"listLatestTasks":       read,
	"getTask":               read,
	"cancelTask":            write,
	"listSchedules":         read,
	"getSchedule":           read,
	"enableScheduleByName":  write,
	"disableScheduleByName": write,
	"enableSchedule":        write,
	"disableSchedule":       write,
	// System
	"ping":       scrape,
	"getMetrics": scrape,
	"shutdown":   process,
	"restart":    process,
	// the gateway's log names addresses, users and devices: for those
	// who run the plant, never anonymously
	"listLogEntries": control,
	// Statistics
	"listStatistics":       readStats,
	"getStatisticsHistory": readStats,
	"getStatisticsRate":    readStats,
	// Assets and readings
	"listAssets":             readData,
	"listAssetTimespans":     readData,
	"getAssetReadings":       readData,
	"getAssetTimespan":       readData,
	"getAssetReadingValues":  readData,
	"getAssetReadingSummary": readData,
	"getAssetReadingSeries":  readData,
	"getAssetSummary":        readData,
	"purgeAllReadings":       write,
	"purgeAssetReadings":     write,
	// Services and plugins
	"listServices":          read,
	"createService":         createService,
	"listInstalledServices": read,
	"listInstalledPlugins":  read,
	"listAvailablePackages": read,
	"deleteService":         write,
	"listSouthServices":     read,
	"listNorthServices":     read,
	"createNorthTask":       write,
	// the readings a north destination refused, kept for resending: a GET
	// outside /edge/asset…, as decisions §2 reads
	"listSetAsideReadings":   read,
	"resendSetAsideReadings": write,
	"deleteSetAsideReadings": write,
	"listPersistentPlugins":  read,
	"getPluginData":          read,
	"setPluginData":          write,
	"deletePluginData":       write,
	// Filters: writes need an editor (admin, user or control)
	"listFilters":  read,
	"createFilter": write,
	"getFilter":    read,
	"deleteFilter": write,
	"getPipeline":  read,
	"setPipeline":  write,
	// Notifications
	"listNotificationPlugins":   read,
	"listNotificationTypes":     read,
	"listNotifications":         read,
	"createNotification":        write,
	"getNotification":           read,
	"updateNotification":        write,
	"deleteNotification":        write,
	"listNotificationChannels":  read,
	"addNotificationChannel":    write,
	"getNotificationChannel":    read,
	"deleteNotificationChannel": write,
	// Control through the dispatcher
	"controlWrite":     control,
	"controlOperation": control,
	// Asset tracking and packages
	"listTrackingEvents":     read,
	"deprecateTrackingEvent": write,
	"setRepository":          code,
	"updatePackages":         code,
	"listPackages":           read,
	"removePackage":          code,
	"getPackageLog":          read,
	"listAvailablePlugins":   read,
	"installPlugin":          code,
	// Users
	"login":               open,
	"authenticate":        open,
	"changePassword":      {Roles: everyone, Open: true, Self: "user_id"},
	"logout":              {Roles: everyone, Identity: true},
	"updateOwnUser":       {Roles: viewers, Identity: true},
	"listUsers":           readUsers,
	"logoutUserSessions":  admin,
	"listRoles":           admin,
	"createUser":          admin,
	"adminUpdateUser":     admin,
	"adminUpdateUserById": admin,
	"deleteUser":          admin,
	"deleteUserById":      admin,

	// Fleet configuration: the document holds the users, so admin only.
	"exportConfig": admin,
	"planConfig":   admin,
	"applyConfig":  admin,

	// Backups hold the users' password hashes and the certificates' keys,
	// and a restore replaces the whole configuration: admin only, every
	// call that touches one. The list of statuses reveals nothing.
	"listBackups":        admin,
	"createBackup":       admin,
	"listBackupStatuses": read,
	"getBackup":          admin,
	"deleteBackup":       admin,
	"downloadBackup":     admin,
	"restoreBackup":      admin,
	"uploadBackup":       admin,
}

// hasAction reports whether the request carries the query parameter
// action: createService installs a service package with action=install.
// Any action counts, so that no spelling the validator might refuse later
// slips past the admin check first.
func hasAction(r *http.Request, _ router.Operation) bool {
	return r.URL.Query().Has("action")
}

// pathCategory is the category named by the path parameter "name".
func pathCategory(_ *http.Request, op router.Operation) (string, error) {
	return op.PathParams["name"], nil
}

// bodyCategory is the category key of a JSON body {"key": …}. The body is
// read and put back for the validator and the handler. A body that is not
// such JSON names no category: the validator refuses it next.
func bodyCategory(r *http.Request, _ router.Operation) (string, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return "", nil
	}
	b, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return "", router.TooLarge(tooLarge.Limit)
		}
		return "", fault.Wrap(fault.Invalid, err, "the request body could not be read")
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	var body struct {
		Key string `json:"key"`
	}
	// Malformed JSON leaves Key empty; a body whose other fields have the
	// wrong types still yields its key. The validator reports either.
	_ = json.Unmarshal(b, &body)
	return body.Key, nil
}
