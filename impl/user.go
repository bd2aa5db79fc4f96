package impl

import (
	"context"
	"fmt"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/auth"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/user"
)

// loginMessage is the message of a successful login.
const loginMessage = "Logged in successfully"

// Login exchanges a user name and password, or the connection's TLS
// client certificate (optionally repeated as a PEM body), for a session
// token.
func (s *Server) Login(ctx context.Context, req gen.LoginRequestObject) (gen.LoginResponseObject, error) {
	creds := auth.CredentialsFrom(ctx)
	var (
		res user.LoginResult
		err error
	)
	switch {
	case req.JSONBody != nil:
		res, err = s.users.LoginPassword(ctx, req.JSONBody.Username, req.JSONBody.Password, creds.RemoteAddr)
	case req.TextBody != nil:
		res, err = s.certificateLogin(ctx, *req.TextBody, creds)
	default:
		res, err = s.certificateLogin(ctx, "", creds)
	}
	if err != nil {
		return nil, err
	}
	return gen.Login200JSONResponse(loginResult(res)), nil
}

// Authenticate logs in with the connection's TLS client certificate,
// optionally repeated as a PEM body, bare (text/plain) or as JSON
// {"certificate": PEM}.
func (s *Server) Authenticate(ctx context.Context, req gen.AuthenticateRequestObject) (gen.AuthenticateResponseObject, error) {
	body := ""
	switch {
	case req.JSONBody != nil:
		body = req.JSONBody.Certificate
	case req.TextBody != nil:
		body = *req.TextBody
	}
	res, err := s.certificateLogin(ctx, body, auth.CredentialsFrom(ctx))
	if err != nil {
		return nil, err
	}
	return gen.Authenticate200JSONResponse(loginResult(res)), nil
}

// certificateLogin logs in with the TLS client certificate of the
// connection; pemText, when not empty, must be that same certificate.
func (s *Server) certificateLogin(ctx context.Context, pemText string, creds auth.Credentials) (user.LoginResult, error) {
	in := user.CertificateLogin{Presented: creds.PeerCertificates, ClientAddress: creds.RemoteAddr}
	if pemText != "" {
		cert, err := user.ParseCertificate(pemText)
		if err != nil {
			return user.LoginResult{}, err
		}
		in.Body = cert
	}
	if in.Body == nil && len(in.Presented) == 0 {
		return user.LoginResult{}, fault.New(fault.Unauthorized,
			"No credentials: send {username, password} as JSON, or log in over HTTPS with a TLS client certificate")
	}
	return s.users.LoginCertificate(ctx, in)
}

func loginResult(r user.LoginResult) gen.LoginResult {
	return gen.LoginResult{Message: loginMessage, Uid: int(r.UserID), Token: r.Token, Admin: r.Admin}
}

// caller returns the authenticated caller, or an Unauthorized fault.
func caller(ctx context.Context) (user.Principal, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return user.Principal{}, fault.New(fault.Unauthorized, "This call needs the token of a session; log in with POST /edge/login")
	}
	return p, nil
}

// Logout ends the caller's session.
func (s *Server) Logout(ctx context.Context, _ gen.LogoutRequestObject) (gen.LogoutResponseObject, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.users.Logout(ctx, p); err != nil {
		return nil, err
	}
	return gen.Logout200JSONResponse{Message: "Logged out successfully"}, nil
}

// LogoutUserSessions ends every session of a user.
func (s *Server) LogoutUserSessions(ctx context.Context, req gen.LogoutUserSessionsRequestObject) (gen.LogoutUserSessionsResponseObject, error) {
	n, err := s.users.LogoutUser(ctx, int64(req.UserId))
	if err != nil {
		return nil, err
	}
	return gen.LogoutUserSessions200JSONResponse{
		Message: fmt.Sprintf("All sessions of user %d logged out (%d ended)", req.UserId, n),
	}, nil
}

// ListUsers lists every user, or the one matching the id and username
// filters.
func (s *Server) ListUsers(ctx context.Context, req gen.ListUsersRequestObject) (gen.ListUsersResponseObject, error) {
	users, err := s.users.List(ctx, user.Filter{ID: valueOr(req.Params.Id, 0), Username: valueOr(req.Params.Username, "")})
	if err != nil {
		return nil, err
	}
	out := gen.ListUsers200JSONResponse{Users: make([]gen.User, 0, len(users))}
	for _, u := range users {
		out.Users = append(out.Users, userOut(u))
	}
	return out, nil
}

func userOut(u user.User) gen.User {
	return gen.User{
		UserId: int(u.ID), UserName: u.Username, RoleId: int(u.Role),
		AccessMethod: gen.AccessMethod(u.AccessMethod), RealName: u.RealName, Description: u.Description,
	}
}

// UpdateOwnUser sets the caller's real name.
func (s *Server) UpdateOwnUser(ctx context.Context, req gen.UpdateOwnUserRequestObject) (gen.UpdateOwnUserResponseObject, error) {
	p, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.users.UpdateOwn(ctx, p, req.Body.RealName); err != nil {
		return nil, err
	}
	return gen.UpdateOwnUser200JSONResponse{Message: "Real name updated successfully"}, nil
}

// ChangePassword replaces a user's password after checking the current one.
func (s *Server) ChangePassword(ctx context.Context, req gen.ChangePasswordRequestObject) (gen.ChangePasswordResponseObject, error) {
	if err := s.users.ChangePassword(ctx, int64(req.UserId), req.Body.CurrentPassword, req.Body.NewPassword,
		auth.CredentialsFrom(ctx).RemoteAddr); err != nil {
		return nil, err
	}
	return gen.ChangePassword200JSONResponse{
		Message: fmt.Sprintf("Password has been updated successfully for user %d", req.UserId),
	}, nil
}

// ListRoles lists the roles.
func (s *Server) ListRoles(ctx context.Context, _ gen.ListRolesRequestObject) (gen.ListRolesResponseObject, error) {
	roles, err := s.users.Roles(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.ListRoles200JSONResponse{Roles: make([]gen.Role, 0, len(roles))}
	for _, r := range roles {
		out.Roles = append(out.Roles, gen.Role{Id: int(r.ID), Name: r.Name, Description: r.Description})
	}
	return out, nil
}

// CreateUser creates a user.
func (s *Server) CreateUser(ctx context.Context, req gen.CreateUserRequestObject) (gen.CreateUserResponseObject, error) {
	b := req.Body
	in := user.NewUser{
		Username:    b.Username,
		Password:    b.Password,
		Role:        user.Role(valueOr(b.RoleId, int(user.RoleUser))),
		RealName:    valueOr(b.RealName, ""),
		Description: valueOr(b.Description, ""),
	}
	if b.AccessMethod != nil {
		in.AccessMethod = string(*b.AccessMethod)
	}
	u, err := s.users.Create(ctx, in)
	if err != nil {
		return nil, err
	}
	return gen.CreateUser200JSONResponse(userOut(u)), nil
}

// AdminUpdateUser changes the user named in the body.
func (s *Server) AdminUpdateUser(ctx context.Context, req gen.AdminUpdateUserRequestObject) (gen.AdminUpdateUserResponseObject, error) {
	b := req.Body
	u, err := s.users.Update(ctx, int64(b.UserId), userChange(b.RoleId, b.AccessMethod, b.RealName, b.Description))
	if err != nil {
		return nil, err
	}
	return gen.AdminUpdateUser200JSONResponse(userOut(u)), nil
}

// AdminUpdateUserById changes the user named in the path.
func (s *Server) AdminUpdateUserById(ctx context.Context, req gen.AdminUpdateUserByIdRequestObject) (gen.AdminUpdateUserByIdResponseObject, error) {
	b := req.Body
	u, err := s.users.Update(ctx, int64(req.UserId), userChange(b.RoleId, b.AccessMethod, b.RealName, b.Description))
	if err != nil {
		return nil, err
	}
	return gen.AdminUpdateUserById200JSONResponse(userOut(u)), nil
}

func userChange(role *int, access *gen.AccessMethod, realName, description *string) user.Change {
	ch := user.Change{RealName: realName, Description: description}
	if role != nil {
		r := user.Role(*role)
		ch.Role = &r
	}
	if access != nil {
		a := string(*access)
		ch.AccessMethod = &a
	}
	return ch
}

// DeleteUser deletes a user.
func (s *Server) DeleteUser(ctx context.Context, req gen.DeleteUserRequestObject) (gen.DeleteUserResponseObject, error) {
	if err := s.users.Delete(ctx, int64(req.UserId)); err != nil {
		return nil, err
	}
	return gen.DeleteUser200JSONResponse{Message: fmt.Sprintf("User %d deleted successfully", req.UserId)}, nil
}

// DeleteUserById deletes a user (the short path).
func (s *Server) DeleteUserById(ctx context.Context, req gen.DeleteUserByIdRequestObject) (gen.DeleteUserByIdResponseObject, error) {
	if err := s.users.Delete(ctx, int64(req.UserId)); err != nil {
		return nil, err
	}
	return gen.DeleteUserById200JSONResponse{Message: fmt.Sprintf("User %d deleted successfully", req.UserId)}, nil
}
