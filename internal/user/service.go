package user

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/fault"
)

// Audit source codes written by the service.
const (
	AuditUserAdded   = auditcode.UserAdded
	AuditUserChanged = auditcode.UserChanged
	AuditUserDeleted = auditcode.UserDeleted
	AuditLoginFailed = auditcode.LoginFailed
)

// Audit severities used by the service.
const ()

// Access methods of a user (db column users.access_method).
const (
	AccessAny      = "any"
	AccessPassword = "pwd"
	AccessCert     = "cert"
	AccessLDAP     = "ldap" // checked by the LDAP directory; created at the first login
)

// Store is the storage the service needs; *db.DB implements it.
type Store interface {
	AdminStore
	InsertUser(ctx context.Context, u db.NewUser) (db.User, error)
	ListUsers(ctx context.Context) ([]db.User, error)
	GetUser(ctx context.Context, id int64) (db.User, error)
	GetUserByName(ctx context.Context, name string) (db.User, error)
	UpdateUser(ctx context.Context, id int64, fn func(cur db.User) (db.UserChange, error)) (before, after db.User, err error)
	DeleteUser(ctx context.Context, id int64) error
	RecentPasswordHashes(ctx context.Context, userID int64, n int) ([]string, error)
	SetPassword(ctx context.Context, id int64, hash string, at time.Time) error
	CountLoginAttempt(ctx context.Context, userID int64, clientAddress string, at time.Time, p db.LoginPolicy) (db.LoginAttempt, error)
	ClearLoginFailures(ctx context.Context, userID int64, clientAddress string) error
	CountNameLoginAttempt(ctx context.Context, name, clientAddress string, at time.Time, p db.LoginPolicy) (db.LoginAttempt, error)
	ClearNameLoginFailures(ctx context.Context, name, clientAddress string) error
	ListRoles(ctx context.Context) ([]db.Role, error)

	StartSession(ctx context.Context, s db.Session) error
	SessionUser(ctx context.Context, tokenHash string) (db.Session, db.User, error)
	TouchSession(ctx context.Context, tokenHash string, at time.Time) error
	DeleteSession(ctx context.Context, tokenHash string) (bool, error)
	DeleteUserSessions(ctx context.Context, userID int64) (int, error)
	DeleteIdleSessions(ctx context.Context, before time.Time) (int, error)
}

// CertificateAuthorities gives the pool of trusted roots named name (the
// certificate store, see internal/certstore).
type CertificateAuthorities interface {
	Pool(name string) (*x509.CertPool, error)
}

// Options are the collaborators of a Service. Store, Audit and Settings are
// required.
type Options struct {
	Store    Store
	Audit    Auditor
	Settings SettingsSource
	// CAs verifies certificate logins; nil refuses them.
	CAs CertificateAuthorities
	// Directory checks the passwords of directory users (the ldap
	// provider); nil: no directory.
	Directory Directory
	Logger    *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service manages users, their passwords and their sessions. It is safe
// for concurrent use. Errors a client may see are *fault.Fault values; any
// other error is a storage failure, returned wrapped.
type Service struct {
	store    Store
	audit    Auditor
	settings SettingsSource
	cas      CertificateAuthorities
	dir      Directory
	log      *slog.Logger
	now      func() time.Time
}

// NewService returns a Service over o.
func NewService(o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{store: o.Store, audit: o.Audit, settings: o.Settings, cas: o.CAs, dir: o.Directory, log: o.Logger, now: o.Now}
}

// User is a user as clients see it; the password is never part of it.
type User struct {
	ID           int64
	Username     string
	Role         Role
	AccessMethod string
	RealName     string
	Description  string
}

func userOf(u db.User) User {
	return User{ID: u.ID, Username: u.Username, Role: Role(u.RoleID), AccessMethod: u.AccessMethod,
		RealName: u.RealName, Description: u.Description}
}

// isFirstAdmin reports whether u is the user created at first start, which
// can be neither deleted nor demoted.
func isFirstAdmin(u db.User) bool { return strings.EqualFold(u.Username, db.AdminUsername) }

// record writes an audit entry, logging a failure: the audited action has
// already happened and stands.
func (s *Service) record(ctx context.Context, source, severity string, details map[string]any) {
	if err := s.audit.Record(ctx, source, severity, details); err != nil {
		s.log.ErrorContext(ctx, "audit "+source, "error", err)
	}
}

// notFound turns db.ErrNotFound into the NotFound fault for user id.
func notFound(err error, id int64) error {
	if errors.Is(err, db.ErrNotFound) {
		return fault.New(fault.NotFound, "user %d not found", id)
	}
	return fmt.Errorf("user: %w", err)
}

// Filter selects users for List; zero fields select everyone.
type Filter struct {
	// ID, when not 0, keeps only the user with this id.
	ID int64
	// Username, when not empty, keeps only the user of this name,
	// compared ignoring case as user names are unique ignoring case.
	Username string
}

// List returns the users f selects, ordered by id; none is an empty list.
func (s *Service) List(ctx context.Context, f Filter) ([]User, error) {
	rows, err := s.store.ListUsers(ctx)
	if err != nil {
		return nil, fmt.Errorf("user: %w", err)
	}
	out := make([]User, 0, len(rows))
	for _, r := range rows {
		u := userOf(r)
		if f.ID != 0 && u.ID != f.ID || f.Username != "" && !strings.EqualFold(u.Username, f.Username) {
			continue
		}
		out = append(out, u)
	}
	return out, nil
}

// RoleInfo is a role with its name and description.
type RoleInfo struct {
	ID          Role
	Name        string
	Description string
}

// Roles returns the roles ordered by id.
func (s *Service) Roles(ctx context.Context) ([]RoleInfo, error) {
	rows, err := s.store.ListRoles(ctx)
	if err != nil {
		return nil, fmt.Errorf("user: %w", err)
	}
	out := make([]RoleInfo, 0, len(rows))
	for _, r := range rows {
		out = append(out, RoleInfo{ID: Role(r.ID), Name: r.Name, Description: r.Description})
	}
	return out, nil
}

// NewUser is a user to create.
type NewUser struct {
	Username     string
	Password     string
	Role         Role   // RoleNone means RoleUser
	AccessMethod string // "" means any
	RealName     string
	Description  string
}

// validUsername reports whether name has 3..64 letters, digits, '.', '_'
// or '-' (decisions §2).
func validUsername(name string) bool {
	if len(name) < 3 || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !usernameRune(r) {
			return false
		}
	}
	return true
}

// usernameRune reports whether r may appear in a username.
func usernameRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return r == '.' || r == '_' || r == '-'
}

func validRole(r Role) bool { return r >= RoleAdmin && r <= RoleControl }

func validAccessMethod(m string) bool {
	return m == AccessAny || m == AccessPassword || m == AccessCert || m == AccessLDAP
}

// Create creates a user and writes USRAD. An invalid name, role, access
// method or a password breaking the policy is a fault of kind Invalid; a
// name already taken, compared case-insensitively, of kind Conflict.
func (s *Service) Create(ctx context.Context, in NewUser) (User, error) {
	if in.Role == RoleNone {
		in.Role = RoleUser
	}
	if in.AccessMethod == "" {
		in.AccessMethod = AccessAny
	}
	switch {
	case !validUsername(in.Username):
		return User{}, fault.New(fault.Invalid, "username %q must be 3 to 64 letters, digits, '.', '_' or '-'", in.Username)
	case !validRole(in.Role):
		return User{}, fault.New(fault.Invalid, "role_id %d is not a role (1 to 5)", int(in.Role))
	case !validAccessMethod(in.AccessMethod):
		return User{}, fault.New(fault.Invalid, "access_method %q must be any, pwd, cert or ldap", in.AccessMethod)
	}
	if err := CheckPolicy(s.settings.Settings(), in.Password); err != nil {
		return User{}, err
	}
	hash, err := hashPassword(in.Password)
	if err != nil {
		return User{}, fmt.Errorf("user: hash password: %w", err)
	}
	u, err := s.store.InsertUser(ctx, db.NewUser{
		Username: in.Username, PasswordHash: hash, RoleID: int(in.Role), AccessMethod: in.AccessMethod,
		RealName: in.RealName, Description: in.Description, At: s.now(),
	})
	if errors.Is(err, db.ErrConflict) {
		return User{}, fault.New(fault.Conflict, "username %q is already in use", in.Username)
	}
	if err != nil {
		return User{}, fmt.Errorf("user: %w", err)
	}
	s.record(ctx, AuditUserAdded, auditcode.Information, map[string]any{
		"userId": u.ID, "userName": u.Username, "roleId": u.RoleID, "accessMethod": u.AccessMethod,
	})
	return userOf(u), nil
}

// Change is an administrator's change to a user; nil fields stay.
type Change struct {
	Role         *Role
	AccessMethod *string
	RealName     *string
	Description  *string
}

// Update applies ch to user id and writes USRCH naming the changed fields.
// A role change ends the user's sessions. An unknown user is a fault of
// kind NotFound; an invalid role or access method, an empty change, or
// taking the admin role from the first admin, of kind Invalid.
func (s *Service) Update(ctx context.Context, id int64, ch Change) (User, error) {
	if ch.Role == nil && ch.AccessMethod == nil && ch.RealName == nil && ch.Description == nil {
		return User{}, fault.New(fault.Invalid, "nothing to change: give description, access_method, real_name or role_id")
	}
	if ch.Role != nil && !validRole(*ch.Role) {
		return User{}, fault.New(fault.Invalid, "role_id %d is not a role (1 to 5)", int(*ch.Role))
	}
	if ch.AccessMethod != nil && !validAccessMethod(*ch.AccessMethod) {
		return User{}, fault.New(fault.Invalid, "access_method %q must be any, pwd, cert or ldap", *ch.AccessMethod)
	}
	before, after, err := s.store.UpdateUser(ctx, id, func(cur db.User) (db.UserChange, error) {
		next := db.UserChange{RoleID: cur.RoleID, AccessMethod: cur.AccessMethod, RealName: cur.RealName, Description: cur.Description}
		if ch.Role != nil {
			if isFirstAdmin(cur) && *ch.Role != RoleAdmin {
				return next, fault.New(fault.Invalid, "user %q cannot lose the admin role", cur.Username)
			}
			next.RoleID = int(*ch.Role)
		}
		if ch.AccessMethod != nil {
			next.AccessMethod = *ch.AccessMethod
		}
		if ch.RealName != nil {
			next.RealName = *ch.RealName
		}
		if ch.Description != nil {
			next.Description = *ch.Description
		}
		return next, nil
	})
	if f, ok := fault.As(err); ok {
		return User{}, f
	}
	if err != nil {
		return User{}, notFound(err, id)
	}
	s.record(ctx, AuditUserChanged, auditcode.Information, changeDetails(before, after))
	return userOf(after), nil
}

// changeDetails describes a change for USRCH: the user and, per changed
// field, its old and new value.
func changeDetails(before, after db.User) map[string]any {
	changed := map[string]any{}
	add := func(name string, old, cur any) {
		if old != cur {
			changed[name] = map[string]any{"old": old, "new": cur}
		}
	}
	add("roleId", before.RoleID, after.RoleID)
	add("accessMethod", before.AccessMethod, after.AccessMethod)
	add("realName", before.RealName, after.RealName)
	add("description", before.Description, after.Description)
	return map[string]any{"userId": after.ID, "userName": after.Username, "changed": changed}
}

// UpdateOwn sets the real name of the caller p and writes USRCH.
func (s *Service) UpdateOwn(ctx context.Context, p Principal, realName string) error {
	_, err := s.Update(ctx, p.UserID, Change{RealName: &realName})
	return err
}

// Delete deletes user id, ending their sessions, and writes USRDL. The
// first admin cannot be deleted (fault of kind Invalid); an unknown user is
// a fault of kind NotFound.
func (s *Service) Delete(ctx context.Context, id int64) error {
	u, err := s.store.GetUser(ctx, id)
	if err != nil {
		return notFound(err, id)
	}
	if isFirstAdmin(u) {
		return fault.New(fault.Invalid, "user %q cannot be deleted", u.Username)
	}
	if err := s.store.DeleteUser(ctx, id); err != nil {
		return notFound(err, id)
	}
	s.record(ctx, AuditUserDeleted, auditcode.Information, map[string]any{"userId": u.ID, "userName": u.Username})
	return nil
}

// ChangePassword replaces the password of user id after checking current,
// sent from clientAddress. It needs no session, so an expired password can
// be replaced. A wrong current password is a fault of kind Unauthorized
// (and counts as a failed login of that address); a current password
// longer than MaxPasswordBytes, a new password breaking the policy or
// equal to one of the last PasswordHistory passwords, of kind Invalid; an
// unknown user is the same Unauthorized fault as a wrong password (the
// call needs no token, so it must not reveal which ids exist); an address
// locked out of the account, of kind TooMany. Every session of the user ends; USRCH is written.
func (s *Service) ChangePassword(ctx context.Context, id int64, current, next, clientAddress string) error {
	if len(current) > MaxPasswordBytes {
		return errPasswordTooLong("current_password")
	}
	mismatch := fault.New(fault.Unauthorized, "the current password of user %d does not match", id)
	u, err := s.store.GetUser(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		// The call needs no token, so an unknown id answers as a wrong
		// password does, after as long a comparison: it must not tell
		// which user ids exist.
		matches(dummyHash(), current)
		return mismatch
	}
	if err != nil {
		return fmt.Errorf("user: %w", err)
	}
	now := s.now()
	if err := s.checkPassword(ctx, u, current, clientAddress, now, mismatch); err != nil {
		return err
	}
	if err := CheckPolicy(s.settings.Settings(), next); err != nil {
		return err
	}
	recent, err := s.store.RecentPasswordHashes(ctx, id, PasswordHistory)
	if err != nil {
		return fmt.Errorf("user: %w", err)
	}
	for _, h := range recent {
		if matches(h, next) {
			return fault.New(fault.Invalid, "the new password must differ from the last %d passwords", PasswordHistory)
		}
	}
	hash, err := hashPassword(next)
	if err != nil {
		return fmt.Errorf("user: hash password: %w", err)
	}
	if err := s.store.SetPassword(ctx, id, hash, now); err != nil {
		return notFound(err, id)
	}
	s.record(ctx, AuditUserChanged, auditcode.Information, map[string]any{
		"userId": u.ID, "userName": u.Username, "changed": map[string]any{"password": "changed"},
	})
	return nil
}
