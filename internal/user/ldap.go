package user

import (
	"context"
	"errors"
	"fmt"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/directory"
	"github.com/edged/edged/internal/fault"
)

// Directory is the LDAP directory of the ldap provider;
// *directory.Client implements it.
type Directory interface {
	// Configured reports whether a directory is set.
	Configured() bool
	// Find searches a user; directory.ErrNoSuchUser when there is none.
	Find(ctx context.Context, username string) (directory.Entry, error)
	// Verify checks the user's password and returns the role name its
	// groups map to (directory.ErrInvalidCredentials, ErrNoRole).
	Verify(ctx context.Context, e directory.Entry, password string) (string, error)
}

// askDirectory reports whether passwords may be checked by the directory:
// "ldap" is a provider and a directory is configured.
func (s *Service) askDirectory(set Settings) bool {
	return set.Providers.LDAP && s.dir != nil && s.dir.Configured()
}

// roleNamed returns the role of a name of configmgr.RoleNames.
func roleNamed(name string) (Role, bool) {
	for _, r := range Roles {
		if r.String() == name {
			return r, true
		}
	}
	return RoleNone, false
}

// loginDirectory logs name in through the directory with password: u is
// the gateway's user of that name (access method ldap), nil when there is
// none yet. The directory finds the user first; a name it does not know
// and a password it refuses are the failures of a wrong password
// (Unauthorized with MsgNoMatch, counted toward the lockout: in u's
// record, or in the name's while there is no user). A user whose groups map
// to no role is refused (Unauthorized). A directory that cannot be asked is
// an error wrapping directory.ErrUnavailable (503), before the attempt is
// counted when the search already fails.
//
// On success the gateway's user is created at the first login (access
// method ldap, no password of its own; USRAD) and given, at every login,
// the role its groups map to (a change is an ordinary update: USRCH, its
// other sessions end).
func (s *Service) loginDirectory(ctx context.Context, u *db.User, name, password, clientAddress string) (LoginResult, error) {
	key := failureKey{name: name}
	if u != nil {
		key = failureKey{userID: u.ID}
	}
	noMatch := fault.New(fault.Unauthorized, MsgNoMatch)
	now := s.now()
	// A name the gateway could not store is nobody's: it is not asked.
	var entry directory.Entry
	var err error
	if validUsername(name) {
		entry, err = s.dir.Find(ctx, name)
	} else {
		err = directory.ErrNoSuchUser
	}
	if errors.Is(err, directory.ErrNoSuchUser) {
		return LoginResult{}, s.checkAttempt(ctx, key, name, clientAddress, now, "unknown user",
			func() (bool, error) { return false, nil }, noMatch)
	}
	if err != nil {
		return LoginResult{}, s.unavailable(ctx, name, err)
	}
	var roleName string
	err = s.checkAttempt(ctx, key, name, clientAddress, now, "wrong password", func() (bool, error) {
		roleName, err = s.dir.Verify(ctx, entry, password)
		switch {
		case errors.Is(err, directory.ErrInvalidCredentials):
			return false, nil
		case errors.Is(err, directory.ErrNoRole):
			return true, nil // the password is right; the role is refused below
		case err != nil:
			return false, s.unavailable(ctx, name, err)
		}
		return true, nil
	}, noMatch)
	if err != nil {
		return LoginResult{}, err
	}
	role, ok := roleNamed(roleName)
	if !ok {
		return LoginResult{}, s.refuse(ctx, name, "no mapped group",
			fmt.Sprintf("User %s is in no directory group that LDAP.groupRoles maps to a gateway role", name))
	}
	user, err := s.directoryUser(ctx, u, name, entry.DN, role)
	if err != nil {
		return LoginResult{}, err
	}
	return s.startSession(ctx, user, now, clientAddress)
}

// unavailable audits a login the directory could not answer and returns
// err, which wraps directory.ErrUnavailable.
func (s *Service) unavailable(ctx context.Context, name string, err error) error {
	s.log.WarnContext(ctx, "LDAP login: the directory is unavailable", "user", name, "error", err)
	s.record(ctx, AuditLoginFailed, auditcode.Failure, map[string]any{"userName": name, "reason": "directory unavailable"})
	return fmt.Errorf("user: %w", err)
}

// directoryUser returns the gateway's user of directory user name (DN dn)
// with role: u updated when its role changed, or a user created when u is
// nil.
func (s *Service) directoryUser(ctx context.Context, u *db.User, name, dn string, role Role) (db.User, error) {
	if u == nil {
		created, err := s.store.InsertUser(ctx, db.NewUser{
			Username: name, RoleID: int(role), AccessMethod: AccessLDAP,
			Description: "LDAP user " + dn, At: s.now(),
		})
		switch {
		case err == nil:
			s.record(ctx, AuditUserAdded, auditcode.Information, map[string]any{
				"userId": created.ID, "userName": created.Username, "roleId": created.RoleID, "accessMethod": created.AccessMethod,
			})
			return created, nil
		case !errors.Is(err, db.ErrConflict):
			return db.User{}, fmt.Errorf("user: %w", err)
		}
		// A concurrent first login (or an administrator) created it.
		existing, err := s.store.GetUserByName(ctx, name)
		if err != nil {
			return db.User{}, fmt.Errorf("user: %w", err)
		}
		if existing.AccessMethod != AccessLDAP {
			return db.User{}, s.refuse(ctx, name, "name taken by a local user",
				fmt.Sprintf("User %s is a user of the gateway, not of the directory", name))
		}
		u = &existing
	}
	if Role(u.RoleID) == role {
		return *u, nil
	}
	if _, err := s.Update(ctx, u.ID, Change{Role: &role}); err != nil {
		return db.User{}, err
	}
	updated, err := s.store.GetUser(ctx, u.ID)
	if err != nil {
		return db.User{}, fmt.Errorf("user: %w", err)
	}
	return updated, nil
}
