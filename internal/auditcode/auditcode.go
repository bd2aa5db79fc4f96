// Package auditcode holds the audit trail's vocabulary as constants: the
// severities of an entry and the source codes the gateway and its service
// processes write. It imports nothing, so a service process (the
// notification and dispatcher services) uses the same constants as the
// gateway without linking its storage.
package auditcode

// Severity is the severity of an audit entry, in its canonical
// (upper-case) form.
type Severity = string

// The severities.
const (
	Success     Severity = "SUCCESS"
	Failure     Severity = "FAILURE"
	Warning     Severity = "WARNING"
	Information Severity = "INFORMATION"
)

// Source is the source code of an audit entry: what wrote it.
type Source = string

// The sources the gateway knows; package audit's Codes describes each.
const (
	Purge               Source = "PURGE" // Data purging process
	Logging             Source = "LOGGN" // Logging process
	Streaming           Source = "STRMN" // Streaming process
	SystemPurge         Source = "SYPRG" // System purge
	Start               Source = "START" // System startup
	Shutdown            Source = "FSTOP" // System shutdown
	ConfigChanged       Source = "CONCH" // Configuration change
	ConfigAdded         Source = "CONAD" // Configuration addition
	ScheduleChanged     Source = "SCHCH" // Schedule change
	ScheduleAdded       Source = "SCHAD" // Schedule addition
	ServiceRegistered   Source = "SRVRG" // Service registered
	ServiceUnregistered Source = "SRVUN" // Service unregistered
	ServiceFailed       Source = "SRVFL" // Service fail
	NorthComplete       Source = "NHCOM" // North process complete
	NorthDown           Source = "NHDWN" // North destination unavailable
	NorthAvailable      Source = "NHAVL" // North destination available
	UpdateComplete      Source = "UPEXC" // Update complete
	BackupComplete      Source = "BKEXC" // Backup complete
	NotificationDeleted Source = "NTFDL" // Notification deleted
	NotificationAdded   Source = "NTFAD" // Notification added
	NotificationSent    Source = "NTFSN" // Notification sent
	NotificationCleared Source = "NTFCL" // Notification cleared
	NotificationStarted Source = "NTFST" // Notification server startup
	NotificationStopped Source = "NTFSD" // Notification server shutdown
	PackageInstalled    Source = "PKGIN" // Package installation
	PackageUpdated      Source = "PKGUP" // Package updated
	PackageRemoved      Source = "PKGRM" // Package purged
	DispatcherStarted   Source = "DSPST" // Dispatcher startup
	DispatcherStopped   Source = "DSPSD" // Dispatcher shutdown
	ExternalStarted     Source = "ESSRT" // External service startup
	ExternalStopped     Source = "ESSTP" // External service shutdown
	UserAdded           Source = "USRAD" // User added
	UserChanged         Source = "USRCH" // User changed
	UserDeleted         Source = "USRDL" // User deleted
	AssetDeprecated     Source = "ASTDP" // Asset tracking event deprecated
	LoginFailed         Source = "LOGFL" // Failed login
	NorthRejected       Source = "NHREJ" // North readings set aside
	ControlWrite        Source = "CTLWR" // Control write
	ControlOperation    Source = "CTLOP" // Control operation
	RestoreRequested    Source = "BKRST" // Restore requested
	RestoreComplete     Source = "BKRSC" // Restore complete
)
