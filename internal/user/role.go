package user

import "fmt"

// Role is one of the fixed roles of spec §2.5; the values are the role ids.
type Role int

// The roles. RoleNone is the anonymous caller of optional authentication,
// never stored.
const (
	RoleNone     Role = 0
	RoleAdmin    Role = 1
	RoleUser     Role = 2
	RoleView     Role = 3
	RoleDataView Role = 4
	RoleControl  Role = 5
)

// Roles lists the stored roles in id order.
var Roles = []Role{RoleAdmin, RoleUser, RoleView, RoleDataView, RoleControl}

// String returns the role's name: admin, user, view, data-view, control, or
// anonymous for RoleNone.
func (r Role) String() string {
	switch r {
	case RoleNone:
		return "anonymous"
	case RoleAdmin:
		return "admin"
	case RoleUser:
		return "user"
	case RoleView:
		return "view"
	case RoleDataView:
		return "data-view"
	case RoleControl:
		return "control"
	}
	return fmt.Sprintf("role %d", int(r))
}

// Principal is an authenticated caller: the user a valid session token
// belongs to.
type Principal struct {
	UserID   int64
	Username string
	Role     Role
	// tokenHash identifies the session, so Logout ends exactly it.
	tokenHash string
}

// IsAdmin reports whether the caller has the admin role.
func (p Principal) IsAdmin() bool { return p.Role == RoleAdmin }
