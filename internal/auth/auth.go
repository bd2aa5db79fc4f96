// Package auth decides who may call which operation of the API. The
// rights of every role are declared once, in the table Rights keyed by
// operationId, and enforced in one place, Authorizer.Authorize, which the
// router calls for every routed operation before validating the request.
//
// Callers present a session token in the authorization header (bare or as
// "Bearer <token>") or in authtoken (an alias; authorization wins when both
// are set). Whether a token is needed at all follows rest_api.authentication
// and rest_api.allowPing, read from the current settings on every request,
// so changes apply without a restart.
package auth

import (
	"context"
	"crypto/x509"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/router"
	"github.com/edged/edged/internal/user"
)

// Sessions resolves session tokens; *user.Service implements it.
type Sessions interface {
	// Session returns the caller a token belongs to; an unknown or
	// expired token is a fault of kind Unauthorized.
	Session(ctx context.Context, token string) (user.Principal, error)
}

// Authorizer enforces Rights. It is safe for concurrent use.
type Authorizer struct {
	sessions Sessions
	settings user.SettingsSource
	rights   map[string]Rule
	log      *slog.Logger
}

// New returns an Authorizer resolving tokens with sessions and reading the
// authentication mode from settings.
func New(sessions Sessions, settings user.SettingsSource, log *slog.Logger) *Authorizer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// The embedded spec the router works from spells operationIds with a
	// capital first letter (Ping for ping), so rules are looked up
	// ignoring case.
	rights := make(map[string]Rule, len(Rights))
	for id, r := range Rights {
		rights[strings.ToLower(id)] = r
	}
	return &Authorizer{sessions: sessions, settings: settings, rights: rights, log: log}
}

// Credentials are what a request presents to authenticate.
type Credentials struct {
	// Token is the session token from the authorization or authtoken
	// header, "" when none.
	Token string
	// PeerCertificates is the TLS client certificate chain, leaf first,
	// as presented: the handshake proved that the client holds the
	// leaf's private key, but the chain is not verified by the TLS layer
	// (certificate logins verify it).
	PeerCertificates []*x509.Certificate
	// RemoteAddr is the client's network address.
	RemoteAddr string
}

type ctxKey int

const (
	credentialsKey ctxKey = iota
	principalKey
)

// CredentialsFrom returns the credentials of the request ctx belongs to.
func CredentialsFrom(ctx context.Context) Credentials {
	c, _ := ctx.Value(credentialsKey).(Credentials)
	return c
}

// PrincipalFrom returns the authenticated caller of the request ctx belongs
// to; false for an anonymous caller.
func PrincipalFrom(ctx context.Context) (user.Principal, bool) {
	p, ok := ctx.Value(principalKey).(user.Principal)
	return p, ok
}

// WithPrincipal returns ctx carrying p as the caller, for tests of
// handlers.
func WithPrincipal(ctx context.Context, p user.Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// TokenOf returns the session token of h: the authorization header's, else
// authtoken's, each bare or as "Bearer <token>"; "" when there is none.
func TokenOf(h http.Header) string {
	for _, name := range []string{"Authorization", "Authtoken"} {
		v := strings.TrimSpace(h.Get(name))
		if scheme, rest, found := strings.Cut(v, " "); found && strings.EqualFold(scheme, "bearer") {
			v = strings.TrimSpace(rest)
		} else if strings.EqualFold(v, "bearer") {
			v = ""
		}
		if v != "" {
			return v
		}
	}
	return ""
}

// credentialsOf reads the credentials of r.
func credentialsOf(r *http.Request) Credentials {
	c := Credentials{Token: TokenOf(r.Header), RemoteAddr: r.RemoteAddr}
	if r.TLS != nil {
		c.PeerCertificates = r.TLS.PeerCertificates
	}
	return c
}

// roleList names roles for a message.
func roleList(roles []user.Role) string {
	out := make([]string, len(roles))
	for i, r := range roles {
		out[i] = r.String()
	}
	return strings.Join(out, ", ")
}

// Messages of refused calls.
const (
	errTokenRequired = "A valid token is required (rest_api.authentication is mandatory); log in with POST /edge/login"
	errNeedsSession  = "This call needs the token of a session; log in with POST /edge/login"
	errAdminOnly     = "Only admin users may perform this operation"
	errAdminToken    = "Only admin users may perform this operation; log in with POST /edge/login"
)

// Authorize decides whether the request r may call op, following the rule
// of op.ID in Rights and the current authentication settings. It returns
// the context the call runs with, carrying the request's Credentials and,
// for a valid token, the caller (PrincipalFrom). A refusal is a fault:
// Unauthorized when a token is needed and missing, or is invalid;
// Forbidden when the caller's role may not make the call. A refusal comes
// with the context too, carrying what was learnt of the caller, so that
// the refusal can be reported (audited) with who was refused.
func (a *Authorizer) Authorize(r *http.Request, op router.Operation) (context.Context, error) {
	creds := credentialsOf(r)
	ctx := context.WithValue(r.Context(), credentialsKey, creds)
	rule, ok := a.rights[strings.ToLower(op.ID)]
	if !ok {
		a.log.ErrorContext(ctx, "operation has no access rule; refused", "operation", op.ID)
		return ctx, fault.New(fault.Forbidden, "operation %s is not allowed to anyone", op.ID)
	}
	set := a.settings.Settings()

	var p *user.Principal
	if creds.Token != "" {
		pr, err := a.sessions.Session(ctx, creds.Token)
		switch {
		case err == nil:
			p = &pr
		case rule.Open || (rule.Ping && (set.AllowPing || !set.Mandatory)):
			// A stale token does not stand in the way of calls that
			// need none.
		default:
			return ctx, err
		}
	}
	if p != nil {
		ctx = context.WithValue(ctx, principalKey, *p)
	}

	switch {
	case rule.Open:
		// No token needed; a caller who sent one is checked below.
	case rule.Ping && (set.AllowPing || !set.Mandatory):
		return ctx, nil
	case p == nil && set.Mandatory:
		return ctx, fault.New(fault.Unauthorized, errTokenRequired)
	case p == nil && rule.Identity:
		return ctx, fault.New(fault.Unauthorized, errNeedsSession)
	case p == nil && !rule.Anonymous:
		// Decisions §2: what anonymous callers never get needs a token
		// in every mode, so the answer says to log in (401), as in the
		// mandatory mode.
		if slices.Equal(rule.Roles, admins) {
			return ctx, fault.New(fault.Unauthorized, errAdminToken)
		}
		return ctx, fault.New(fault.Unauthorized, "A token of the roles %s is required to call %s; log in with POST /edge/login", roleList(rule.Roles), op.ID)
	}

	role := user.RoleNone
	if p != nil {
		role = p.Role
		if !slices.Contains(rule.Roles, role) {
			if slices.Equal(rule.Roles, admins) {
				return ctx, fault.New(fault.Forbidden, errAdminOnly)
			}
			return ctx, fault.New(fault.Forbidden, "The %s role may not call %s", role, op.ID)
		}
	}
	if rule.Self != "" && p != nil && role != user.RoleAdmin {
		if op.PathParams[rule.Self] != strconv.FormatInt(p.UserID, 10) {
			return ctx, fault.New(fault.Forbidden, "User %s may change only their own password", p.Username)
		}
	}
	if rule.Installs != nil && role != user.RoleAdmin && rule.Installs(r, op) {
		if p == nil {
			return ctx, fault.New(fault.Unauthorized, errAdminToken)
		}
		return ctx, fault.New(fault.Forbidden, errAdminOnly)
	}
	if rule.Category != nil && role != user.RoleAdmin {
		key, err := rule.Category(r, op)
		if err != nil {
			return ctx, err
		}
		if c, ok := AdminCategory(key); ok {
			if p == nil {
				return ctx, fault.New(fault.Unauthorized, "Only admin users may change category %q; log in with POST /edge/login", c)
			}
			return ctx, fault.New(fault.Forbidden, "Only admin users may change category %q", c)
		}
	}
	return ctx, nil
}
