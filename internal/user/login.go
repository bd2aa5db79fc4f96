package user

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net"
	"sync"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/certstore"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// Messages of failed logins (decisions §2).
const (
	MsgNoMatch         = "Username or password do not match"
	MsgPasswordExpired = "Your password has expired"
	MsgInvalidToken    = "The token is invalid or has expired; log in again"
)

// Lockout: after LockoutThreshold consecutive failed password checks from
// one client address, that address is locked out of the account, for a
// longer time at each further round of failures. Other addresses are not
// affected, so no client can lock a user out from everywhere.
const LockoutThreshold = 5

// FailureMemory is how long the failures of a client address on an account
// are remembered after its last attempt.
const FailureMemory = 24 * time.Hour

// lockoutSteps are the lock durations of the first, second and every later
// round of LockoutThreshold failures.
var lockoutSteps = []time.Duration{time.Minute, 15 * time.Minute, time.Hour}

// LockDuration returns how long an address is locked out of an account
// after its failures-th consecutive failure: 0 unless failures is a
// multiple of LockoutThreshold, then 1 min, 15 min and 1 h for every later
// round.
func LockDuration(failures int) time.Duration {
	if failures <= 0 || failures%LockoutThreshold != 0 {
		return 0
	}
	round := failures/LockoutThreshold - 1
	return lockoutSteps[min(round, len(lockoutSteps)-1)]
}

// loginPolicy is the lockout rule as storage applies it.
var loginPolicy = db.LoginPolicy{LockFor: LockDuration, ForgetAfter: FailureMemory}

// tokenBytes is the entropy of a session token: 256 bits.
const tokenBytes = 32

// dummyHash is compared against when the user does not exist, so that an
// unknown name costs as much time as a wrong password.
var dummyHash = sync.OnceValue(func() string {
	h, _ := hashPassword("not the password of anyone")
	return h
})

// LoginResult is a new session.
type LoginResult struct {
	UserID int64
	Token  string
	Admin  bool
}

// newToken returns a random token and its hash.
func newToken() (token, hash string) {
	b := make([]byte, tokenBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

// hashToken returns the stored form of token.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// clientHost returns the host part of a client's network address
// ("192.0.2.1:5000" → "192.0.2.1"): failures are counted per address, not
// per connection. An address without a port is returned as it is.
func clientHost(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// lockedFault returns the TooMany fault of user name locked out until
// until.
func lockedFault(name string, until, now time.Time) error {
	secs := max(int(math.Ceil(until.Sub(now).Seconds())), 1)
	return &fault.Fault{
		Kind: fault.TooMany,
		Message: fmt.Sprintf("Account %s is locked for this client address after repeated failed logins; retry in %d seconds",
			name, secs),
		RetryAfterSeconds: secs,
	}
}

// failureKey names the record a login attempt is counted in: the user's
// when the gateway has one, else the name's (a directory name without a
// user yet).
type failureKey struct {
	userID int64  // 0: none
	name   string // used when userID is 0
}

// count counts an attempt in k's record (see db.CountLoginAttempt).
func (s *Service) count(ctx context.Context, k failureKey, host string, now time.Time) (db.LoginAttempt, error) {
	if k.userID != 0 {
		return s.store.CountLoginAttempt(ctx, k.userID, host, now, loginPolicy)
	}
	return s.store.CountNameLoginAttempt(ctx, k.name, host, now, loginPolicy)
}

// clear forgets k's failures from host: the password was right.
func (s *Service) clear(ctx context.Context, k failureKey, host string) error {
	if k.userID != 0 {
		return s.store.ClearLoginFailures(ctx, k.userID, host)
	}
	return s.store.ClearNameLoginFailures(ctx, k.name, host)
}

// checkPassword checks password against u's for a caller at clientAddress
// (see checkAttempt). A directory user's password is the directory's: the
// gateway holds none to check, so asking (a password change) is a fault of
// kind Invalid saying where to change it.
func (s *Service) checkPassword(ctx context.Context, u db.User, password, clientAddress string, now time.Time, mismatch error) error {
	if u.AccessMethod == AccessLDAP {
		return fault.New(fault.Invalid, "the password of user %s is kept by the LDAP directory; change it there", u.Username)
	}
	return s.checkAttempt(ctx, failureKey{userID: u.ID}, u.Username, clientAddress, now, "wrong password",
		func() (bool, error) { return matches(u.PasswordHash, password), nil }, mismatch)
}

// checkAttempt runs verify, the check of a password of account name (its
// failures counted in k's record), for a caller at clientAddress. The
// attempt is counted as a failure before verify runs, in one step with the
// check of the lock, so that concurrent guesses cannot outrun the lockout:
// a locked address gets the TooMany fault without verify running; a right
// password (verify true) then clears the count. A wrong one writes LOGFL
// with reason and returns mismatch. An error of verify (a directory that
// cannot be asked) is returned as it is, the attempt counted.
func (s *Service) checkAttempt(ctx context.Context, k failureKey, name, clientAddress string, now time.Time,
	reason string, verify func() (bool, error), mismatch error) error {
	host := clientHost(clientAddress)
	a, err := s.count(ctx, k, host, now)
	if err != nil {
		return fmt.Errorf("user: %w", err)
	}
	if a.Refused {
		s.record(ctx, AuditLoginFailed, auditcode.Failure, map[string]any{
			"userName": name, "reason": "account locked", "clientAddress": host,
		})
		// The retry time counts from now, not from when the attempt
		// began: a concurrent attempt may have set the lock meanwhile.
		return lockedFault(name, a.LockedUntil, s.now())
	}
	ok, err := verify()
	if err != nil {
		return err
	}
	if ok {
		if err := s.clear(ctx, k, host); err != nil {
			return fmt.Errorf("user: %w", err)
		}
		return nil
	}
	details := map[string]any{"userName": name, "reason": reason, "failures": a.Failures, "clientAddress": host}
	if !a.LockedUntil.IsZero() { // this failure locked the address
		details["lockedUntil"] = a.LockedUntil.UTC().Format(time.RFC3339)
		s.log.WarnContext(ctx, "client address locked out of an account after failed logins",
			"user", name, "client", host, "failures", a.Failures, "until", a.LockedUntil)
	}
	s.record(ctx, AuditLoginFailed, auditcode.Failure, details)
	return mismatch
}

// refuse audits a failed login and returns the Unauthorized fault msg.
func (s *Service) refuse(ctx context.Context, name, reason, msg string) error {
	s.record(ctx, AuditLoginFailed, auditcode.Failure, map[string]any{"userName": name, "reason": reason})
	return fault.New(fault.Unauthorized, "%s", msg)
}

// LoginPassword checks username (case-insensitive) and password, sent from
// clientAddress, and starts a session. Failures are faults: Invalid for a
// password longer than MaxPasswordBytes (it cannot be anyone's);
// Unauthorized with MsgNoMatch for an unknown user or a wrong password,
// MsgPasswordExpired when the password is older than rest_api.passwordChange
// days, another message when password logins are disabled (authMethod
// certificate) or the user may log in only with a certificate; TooMany
// with a retry time when the client address is locked out of the account.
// Every failure but Invalid writes LOGFL.
//
// rest_api.authProviders decides who checks the password: a user of the
// gateway with access method ldap, and, with no user of that name, any
// name, are checked by the directory when "ldap" is a provider and a
// directory is configured (see loginDirectory); the gateway's other users
// log in only while "username" is a provider, except the built-in admin,
// who always can, so that a gateway whose directory is lost stays
// manageable.
func (s *Service) LoginPassword(ctx context.Context, username, password, clientAddress string) (LoginResult, error) {
	ctx = db.OnFullDisk(ctx) // an operator must be able to log in to free room
	if len(password) > MaxPasswordBytes {
		return LoginResult{}, errPasswordTooLong("the password")
	}
	set := s.settings.Settings()
	if set.AuthMethod == configmgr.AuthMethodCertificate {
		return LoginResult{}, s.refuse(ctx, username, "password login disabled",
			"Password login is disabled (rest_api.authMethod is certificate); log in with a client certificate")
	}
	u, err := s.store.GetUserByName(ctx, username)
	if errors.Is(err, db.ErrNotFound) {
		if s.askDirectory(set) {
			return s.loginDirectory(ctx, nil, username, password, clientAddress)
		}
		matches(dummyHash(), password)
		return LoginResult{}, s.refuse(ctx, username, "unknown user", MsgNoMatch)
	}
	if err != nil {
		return LoginResult{}, fmt.Errorf("user: %w", err)
	}
	if u.AccessMethod == AccessLDAP {
		if !s.askDirectory(set) {
			return LoginResult{}, s.refuse(ctx, u.Username, "directory login disabled",
				fmt.Sprintf("User %s logs in through the LDAP directory, which is not enabled (rest_api.authProviders, LDAP.url)", u.Username))
		}
		return s.loginDirectory(ctx, &u, u.Username, password, clientAddress)
	}
	now := s.now()
	if err := s.checkPassword(ctx, u, password, clientAddress, now, fault.New(fault.Unauthorized, MsgNoMatch)); err != nil {
		return LoginResult{}, err
	}
	if !set.Providers.Username && !isFirstAdmin(u) {
		return LoginResult{}, s.refuse(ctx, u.Username, "username provider disabled",
			`Login with the gateway's own users is disabled (rest_api.authProviders does not name "username"); log in through the directory`)
	}
	if u.AccessMethod == AccessCert {
		return LoginResult{}, s.refuse(ctx, u.Username, "certificate only",
			fmt.Sprintf("User %s may log in only with a client certificate", u.Username))
	}
	if set.PasswordMaxAge > 0 {
		changed := u.PasswordChangedAt
		if changed.IsZero() {
			changed = u.CreatedAt
		}
		if now.Sub(changed) > set.PasswordMaxAge {
			return LoginResult{}, s.refuse(ctx, u.Username, "password expired", MsgPasswordExpired)
		}
	}
	return s.startSession(ctx, u, now, clientAddress)
}

// ParseCertificate returns the first certificate of a PEM body. Anything
// else is a fault of kind Invalid.
func ParseCertificate(pemText string) (*x509.Certificate, error) {
	certs, err := certstore.ParsePEM([]byte(pemText))
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, "the request body is not a PEM certificate: %v", err)
	}
	return certs[0], nil
}

// CertificateLogin is what a caller presents to log in with a certificate.
type CertificateLogin struct {
	// Presented is the certificate chain the client presented in the TLS
	// handshake of the request's connection, leaf first: the handshake
	// proved that the client holds the leaf's private key. Empty over
	// plain HTTP or when the client sent no certificate.
	Presented []*x509.Certificate
	// Body is the certificate sent in the request body; nil when none.
	Body *x509.Certificate
	// ClientAddress is the network address of the client.
	ClientAddress string
}

// LoginCertificate starts a session for the user named by the common name
// of the client certificate the request's TLS handshake presented. A
// certificate is public, so holding a copy proves nothing: one sent in the
// body logs in only when it is that same certificate. The certificate must
// be signed by the certificate authority named by
// rest_api.authCertificateName in the certificate store, intermediates of
// the presented chain may complete the chain, and it must be valid now and
// allow client authentication. Failures are Unauthorized faults with a
// message saying why: certificate logins disabled (authMethod password), no
// TLS client certificate, a body certificate other than the presented one,
// no such authority, a certificate it did not sign or that is not valid
// now, no user of that name, or a user who may log in only with a
// password. Every failure writes LOGFL.
func (s *Service) LoginCertificate(ctx context.Context, in CertificateLogin) (LoginResult, error) {
	ctx = db.OnFullDisk(ctx) // an operator must be able to log in to free room
	cert := in.Body
	if len(in.Presented) > 0 {
		cert = in.Presented[0]
	}
	var name string
	if cert != nil {
		name = cert.Subject.CommonName
	}
	set := s.settings.Settings()
	if set.AuthMethod == configmgr.AuthMethodPassword {
		return LoginResult{}, s.refuse(ctx, name, "certificate login disabled",
			"Certificate login is disabled (rest_api.authMethod is password); log in with a username and password")
	}
	if len(in.Presented) == 0 {
		return LoginResult{}, s.refuse(ctx, name, "no TLS client certificate",
			"Certificate login needs the client certificate in the TLS handshake (HTTPS with a client certificate): "+
				"a certificate in the request body alone proves nothing, since certificates are public")
	}
	if in.Body != nil && !in.Body.Equal(cert) {
		return LoginResult{}, s.refuse(ctx, name, "body certificate differs from the TLS client certificate",
			"The certificate in the request body is not the client certificate this connection presented in its TLS handshake")
	}
	if s.cas == nil {
		return LoginResult{}, s.refuse(ctx, name, "no certificate store", "Certificate login is not available")
	}
	roots, err := s.cas.Pool(set.AuthCertificateName)
	if err != nil {
		s.log.WarnContext(ctx, "certificate login: no certificate authority", "name", set.AuthCertificateName, "error", err)
		return LoginResult{}, s.refuse(ctx, name, "no certificate authority",
			fmt.Sprintf("Certificate login is not available: the certificate authority %q (rest_api.authCertificateName) is not in the certificate store", set.AuthCertificateName))
	}
	opts := x509.VerifyOptions{
		Roots:         roots,
		Intermediates: x509.NewCertPool(),
		CurrentTime:   s.now(),
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	for _, c := range in.Presented[1:] {
		opts.Intermediates.AddCert(c)
	}
	if _, err := cert.Verify(opts); err != nil {
		return LoginResult{}, s.refuse(ctx, name, "certificate not trusted: "+err.Error(),
			fmt.Sprintf("The certificate is not valid or not signed by the certificate authority %q", set.AuthCertificateName))
	}
	if name == "" {
		return LoginResult{}, s.refuse(ctx, name, "certificate without common name", "The certificate names no user (its common name is empty)")
	}
	u, err := s.store.GetUserByName(ctx, name)
	if errors.Is(err, db.ErrNotFound) {
		return LoginResult{}, s.refuse(ctx, name, "unknown user", fmt.Sprintf("The certificate names user %q, who does not exist", name))
	}
	if err != nil {
		return LoginResult{}, fmt.Errorf("user: %w", err)
	}
	if u.AccessMethod == AccessPassword || u.AccessMethod == AccessLDAP {
		return LoginResult{}, s.refuse(ctx, u.Username, "password only",
			fmt.Sprintf("User %s may log in only with a username and password", u.Username))
	}
	return s.startSession(ctx, u, s.now(), in.ClientAddress)
}

// startSession creates a session for u. Sessions idle past the timeout are
// removed on the way.
func (s *Service) startSession(ctx context.Context, u db.User, now time.Time, clientAddress string) (LoginResult, error) {
	if _, err := s.store.DeleteIdleSessions(ctx, now.Add(-s.settings.Settings().IdleTimeout)); err != nil {
		s.log.WarnContext(ctx, "remove idle sessions", "error", err)
	}
	token, hash := newToken()
	if err := s.store.StartSession(ctx, db.Session{TokenHash: hash, UserID: u.ID, CreatedAt: now, LastSeenAt: now,
		ClientAddress: clientAddress}); err != nil {
		return LoginResult{}, fmt.Errorf("user: %w", err)
	}
	return LoginResult{UserID: u.ID, Token: token, Admin: Role(u.RoleID) == RoleAdmin}, nil
}

// Session returns the caller a token belongs to and records its activity.
// An unknown token, or one idle for longer than
// rest_api.disconnectIdleUserSession (its session then ends), is a fault of
// kind Unauthorized.
func (s *Service) Session(ctx context.Context, token string) (Principal, error) {
	hash := hashToken(token)
	sess, u, err := s.store.SessionUser(ctx, hash)
	if errors.Is(err, db.ErrNotFound) {
		return Principal{}, fault.New(fault.Unauthorized, MsgInvalidToken)
	}
	if err != nil {
		return Principal{}, fmt.Errorf("user: %w", err)
	}
	now := s.now()
	idle := s.settings.Settings().IdleTimeout
	elapsed := now.Sub(sess.LastSeenAt)
	if elapsed > idle {
		if _, err := s.store.DeleteSession(ctx, hash); err != nil {
			s.log.WarnContext(ctx, "end idle session", "error", err)
		}
		return Principal{}, fault.New(fault.Unauthorized, MsgInvalidToken)
	}
	// Activity is recorded at most every tenth of the idle timeout, not
	// on every request: the idle time is then exact to within 10%.
	if elapsed >= idle/10 {
		if err := s.store.TouchSession(db.OnFullDisk(ctx), hash, now); err != nil {
			return Principal{}, fmt.Errorf("user: %w", err)
		}
	}
	return Principal{UserID: u.ID, Username: u.Username, Role: Role(u.RoleID), tokenHash: hash}, nil
}

// Logout ends the caller's session.
func (s *Service) Logout(ctx context.Context, p Principal) error {
	if p.tokenHash == "" {
		return fault.New(fault.Unauthorized, "log out needs the token of a session")
	}
	if _, err := s.store.DeleteSession(ctx, p.tokenHash); err != nil {
		return fmt.Errorf("user: %w", err)
	}
	return nil
}

// LogoutUser ends every session of user id and returns how many there
// were. An unknown user is a fault of kind NotFound.
func (s *Service) LogoutUser(ctx context.Context, id int64) (int, error) {
	if _, err := s.store.GetUser(ctx, id); err != nil {
		return 0, notFound(err, id)
	}
	n, err := s.store.DeleteUserSessions(ctx, id)
	if err != nil {
		return 0, fmt.Errorf("user: %w", err)
	}
	return n, nil
}
