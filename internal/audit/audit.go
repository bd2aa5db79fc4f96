// Package audit records and lists the gateway's audit trail: what the
// system did (START, CONCH, SRVRG, …) and what applications raised through
// the API.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/fault"
)

// Severities of an audit entry, in their canonical (upper-case) form.
const (
	Success     = auditcode.Success
	Failure     = auditcode.Failure
	Warning     = auditcode.Warning
	Information = auditcode.Information
)

var severities = []string{Success, Failure, Warning, Information}

// Code is an audit source code and what it stands for.
type Code struct {
	Code        string
	Description string
}

// Codes lists every audit source code the gateway knows, in the order of
// the API specification followed by the gateway's own additions.
var Codes = []Code{
	{auditcode.Purge, "Data purging process"},
	{auditcode.Logging, "Logging process"},
	{auditcode.Streaming, "Streaming process"},
	{auditcode.SystemPurge, "System purge"},
	{auditcode.Start, "System startup"},
	{auditcode.Shutdown, "System shutdown"},
	{auditcode.ConfigChanged, "Configuration change"},
	{auditcode.ConfigAdded, "Configuration addition"},
	{auditcode.ScheduleChanged, "Schedule change"},
	{auditcode.ScheduleAdded, "Schedule addition"},
	{auditcode.ServiceRegistered, "Service registered"},
	{auditcode.ServiceUnregistered, "Service unregistered"},
	{auditcode.ServiceFailed, "Service fail"},
	{auditcode.NorthComplete, "North process complete"},
	{auditcode.NorthDown, "North destination unavailable"},
	{auditcode.NorthAvailable, "North destination available"},
	{auditcode.UpdateComplete, "Update complete"},
	{auditcode.BackupComplete, "Backup complete"},
	{auditcode.NotificationDeleted, "Notification deleted"},
	{auditcode.NotificationAdded, "Notification added"},
	{auditcode.NotificationSent, "Notification sent"},
	{auditcode.NotificationCleared, "Notification cleared"},
	{auditcode.NotificationStarted, "Notification server startup"},
	{auditcode.NotificationStopped, "Notification server shutdown"},
	{auditcode.PackageInstalled, "Package installation"},
	{auditcode.PackageUpdated, "Package updated"},
	{auditcode.PackageRemoved, "Package purged"},
	{auditcode.DispatcherStarted, "Dispatcher startup"},
	{auditcode.DispatcherStopped, "Dispatcher shutdown"},

	{auditcode.ExternalStarted, "External service startup"},
	{auditcode.ExternalStopped, "External service shutdown"},
	{auditcode.UserAdded, "User added"},
	{auditcode.UserChanged, "User changed"},
	{auditcode.UserDeleted, "User deleted"},
	{auditcode.AssetDeprecated, "Asset tracking event deprecated"},
	{auditcode.LoginFailed, "Failed login"},
	{auditcode.NorthRejected, "North readings set aside"},
	{auditcode.ControlWrite, "Control write"},
	{auditcode.ControlOperation, "Control operation"},
	{auditcode.RestoreRequested, "Restore requested"},
	{auditcode.RestoreComplete, "Restore complete"},
}

// Sources lists the codes of Codes, in the same order.
var Sources = func() []string {
	out := make([]string, len(Codes))
	for i, c := range Codes {
		out[i] = c.Code
	}
	return out
}()

// Severity is an audit severity and its index, the number other gateways
// of this API give it.
type Severity struct {
	Index int
	Name  string
}

// Severities lists the severities with their indexes.
var Severities = []Severity{{0, Success}, {1, Failure}, {2, Warning}, {4, Information}}

// Store is the storage the audit trail needs.
type Store interface {
	InsertAudit(ctx context.Context, e db.AuditEntry) (db.AuditEntry, error)
	ListAudit(ctx context.Context, f db.AuditFilter) ([]db.AuditEntry, int, error)
}

// Filter selects entries for List. Severity is matched case-insensitively.
type Filter struct {
	Source   string
	Severity string
	Limit    int
	Skip     int
}

// Logger writes and reads the audit trail. It is safe for concurrent use.
type Logger struct {
	store Store
	log   *slog.Logger
	// listener is told of every entry stored (the notification rules
	// watch audit codes); set once, before entries are written.
	listener func(source string, at time.Time)
}

// SetListener sets the function told of every entry once it is stored,
// with its source and time. It must return at once. Call it before the
// gateway writes entries.
func (l *Logger) SetListener(fn func(source string, at time.Time)) { l.listener = fn }

// stored tells the listener of e.
func (l *Logger) stored(e db.AuditEntry) {
	if l.listener != nil {
		l.listener(e.Source, e.Timestamp)
	}
}

// New returns a Logger storing entries in store.
func New(store Store, logger *slog.Logger) *Logger {
	return &Logger{store: store, log: logger}
}

// Record writes a system entry. Details are marshalled to a JSON object; nil
// gives {}. An invalid source or severity is a programming error and is
// returned as an ordinary error.
func (l *Logger) Record(ctx context.Context, source, severity string, details any) error {
	raw, err := detailsJSON(details)
	if err != nil {
		return fmt.Errorf("audit %s: %w", source, err)
	}
	sev, err := normalise(source, severity)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	e, err := l.store.InsertAudit(ctx, db.AuditEntry{Source: source, Severity: sev, Details: raw})
	if err != nil {
		return fmt.Errorf("audit %s: %w", source, err)
	}
	l.stored(e)
	return nil
}

// Create validates and writes an entry raised by a client. An unknown source
// code or severity, or details that are not a JSON object, give a
// fault.Invalid naming the offending value.
func (l *Logger) Create(ctx context.Context, source, severity string, details map[string]any) (db.AuditEntry, error) {
	sev, err := normalise(source, severity)
	if err != nil {
		return db.AuditEntry{}, err
	}
	raw, err := detailsJSON(details)
	if err != nil {
		return db.AuditEntry{}, fault.Wrap(fault.Invalid, err, "audit details are not a JSON object")
	}
	e, err := l.store.InsertAudit(ctx, db.AuditEntry{Source: source, Severity: sev, Details: raw})
	if err != nil {
		return db.AuditEntry{}, fmt.Errorf("create audit entry: %w", err)
	}
	l.stored(e)
	return e, nil
}

// List returns the entries matching f, newest first, and the number of all
// entries matching f. An unknown severity or source is a fault.Invalid.
func (l *Logger) List(ctx context.Context, f Filter) ([]db.AuditEntry, int, error) {
	q := db.AuditFilter{Source: f.Source, Limit: f.Limit, Skip: f.Skip}
	if f.Source != "" && !slices.Contains(Sources, f.Source) {
		return nil, 0, fault.New(fault.Invalid, "unknown audit source code %q", f.Source)
	}
	if f.Severity != "" {
		sev, ok := severity(f.Severity)
		if !ok {
			return nil, 0, fault.New(fault.Invalid, "unknown audit severity %q: use one of %s", f.Severity, strings.Join(severities, ", "))
		}
		q.Severity = sev
	}
	entries, total, err := l.store.ListAudit(ctx, q)
	if err != nil {
		return nil, 0, fmt.Errorf("list audit: %w", err)
	}
	return entries, total, nil
}

// normalise checks source and severity and returns the canonical severity.
func normalise(source, sev string) (string, error) {
	if !slices.Contains(Sources, source) {
		return "", fault.New(fault.Invalid, "unknown audit source code %q", source)
	}
	s, ok := severity(sev)
	if !ok {
		return "", fault.New(fault.Invalid, "unknown audit severity %q: use one of %s", sev, strings.Join(severities, ", "))
	}
	return s, nil
}

func severity(s string) (string, bool) {
	up := strings.ToUpper(strings.TrimSpace(s))
	return up, slices.Contains(severities, up)
}

func detailsJSON(details any) (json.RawMessage, error) {
	if details == nil {
		return json.RawMessage(`{}`), nil
	}
	raw, err := json.Marshal(details)
	if err != nil {
		return nil, err
	}
	if string(raw) == "null" {
		return json.RawMessage(`{}`), nil
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("details must be a JSON object, got %s", raw)
	}
	return raw, nil
}
