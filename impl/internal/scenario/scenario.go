// Package scenario runs API calls against a whole gateway in process: the
// gateway is assembled by app.New exactly as edged assembles it (storage,
// seeding, runtime, router, validation, authorisation, the impl handlers),
// on a throwaway SQLite database and, when EDGE_TEST_PG is set, on a
// throwaway PostgreSQL database too, and each call goes through its
// http.Handler without a network. Tests describe calls as tables of
// Scenario (PocketBase's ApiScenario is the model) so that each handler's
// validation, error mapping and rights are checked in milliseconds.
//
// Gateways are shared by the tests of one test binary (one per store,
// created on first use, released by Main), so scenarios use names made by
// Env.Unique and never assume an empty gateway. A test that changes what
// others rely on (authentication mode, a restore, a shutdown request) takes
// a gateway of its own with EachFresh.
package scenario

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/app"
	"github.com/edged/edged/internal/logging"
	"github.com/edged/edged/internal/system"
)

// Caller is who makes a call: anonymous, or a user of one role holding a
// token from POST /edge/login.
type Caller string

// The callers every Env has a token for (the user named admin, and one
// user of each other role).
const (
	Anonymous Caller = ""
	Admin     Caller = "admin"
	User      Caller = "user"
	View      Caller = "view"
	DataView  Caller = "data-view"
	Control   Caller = "control"
)

// roleIDs are the role ids of the callers but admin (user 1).
var roleIDs = map[Caller]int{User: 2, View: 3, DataView: 4, Control: 5}

// Password is the password of every user of an Env; it satisfies the
// strictest password policy.
const Password = "Scenario-Pass-1!"

// Stores are the stores an Env runs on.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Env is one gateway assembled by app.New and started (services and
// scheduler running), answering calls in process.
type Env struct {
	// Store is SQLite or Postgres.
	Store string
	// DataDir is the gateway's data directory.
	DataDir string
	// Gateway is the assembled gateway; Gateway.Store() seeds storage.
	Gateway *app.Gateway
	// Control receives the shutdown and restart requests of the API;
	// nothing acts on them, so a test reads them with Requested.
	Control *system.Control
	// Journal keeps the gateway's log lines (GET /edge/syslog).
	Journal *logging.Journal

	tokens  map[Caller]string
	userIDs map[Caller]int
	seq     atomic.Int64
	release func()
}

// Token returns c's token ("" for Anonymous).
func (e *Env) Token(c Caller) string { return e.tokens[c] }

// UserID returns the user id of c.
func (e *Env) UserID(c Caller) int { return e.userIDs[c] }

// Unique returns prefix followed by a suffix no other call of this Env
// returns, so scenarios sharing a gateway never collide.
func (e *Env) Unique(prefix string) string {
	return prefix + "-" + strconv.FormatInt(time.Now().UnixNano()%1e9, 36) + strconv.FormatInt(e.seq.Add(1), 10)
}

// Do makes one call as c and returns the recorded answer. body is sent
// verbatim when it is a string or []byte, JSON-encoded otherwise, and not
// at all when nil; headers are added to the request.
func (e *Env) Do(t testing.TB, method, url string, body any, c Caller, headers map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	return e.do(t, method, url, body, c, headers, nil)
}

// do is Do over a connection in the TLS state tlsState (nil: plain HTTP).
func (e *Env) do(t testing.TB, method, url string, body any, c Caller, headers map[string]string,
	tlsState *tls.ConnectionState) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("encode the body of %s %s: %v", method, url, err)
		}
		r = bytes.NewReader(j)
	}
	// Not t.Context(): cleanups make calls too, after it ended.
	req := httptest.NewRequestWithContext(context.Background(), method, url, r)
	if r != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if tok := e.tokens[c]; tok != "" {
		req.Header.Set("Authorization", tok)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.RemoteAddr = "192.0.2.1:4711"
	req.TLS = tlsState
	rec := httptest.NewRecorder()
	e.Gateway.Handler().ServeHTTP(rec, req)
	return rec
}

// Call makes one call as c, fails the test unless it answers want, and
// decodes the JSON answer into out (when not nil).
func (e *Env) Call(t testing.TB, method, url string, body any, c Caller, want int, out any) {
	t.Helper()
	rec := e.Do(t, method, url, body, c, nil)
	if rec.Code != want {
		t.Fatalf("%s %s as %q: status %d, want %d: %s%s", method, url, c, rec.Code, want, rec.Body.String(), e.recentErrors())
	}
	if out != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			t.Fatalf("%s %s: decode %s: %v", method, url, rec.Body.String(), err)
		}
	}
}

// recentErrors returns the gateway's recent error lines, to explain an
// unexpected answer.
func (e *Env) recentErrors() string {
	if e.Journal == nil {
		return ""
	}
	lines, _, err := e.Journal.Query(logging.Query{Level: slog.LevelError, Limit: 5})
	if err != nil || len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nrecent error lines of the gateway:")
	for _, l := range lines {
		fmt.Fprintf(&b, "\n  %s %v", l.Message, l.Attrs)
	}
	return b.String()
}

// InsertReadings stores readings of asset code as the ingest path does,
// one per value map, a second apart ending now.
func (e *Env) InsertReadings(t testing.TB, code string, values ...map[string]any) {
	t.Helper()
	now := time.Now().UTC()
	rs := make([]db.Reading, len(values))
	for i, v := range values {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		ts := now.Add(time.Duration(i-len(values)+1) * time.Second)
		rs[i] = db.Reading{AssetCode: code, Reading: j, UserTS: ts, TS: ts}
	}
	if err := e.Gateway.Store().InsertReadings(t.Context(), rs); err != nil {
		t.Fatalf("insert readings of %s: %v", code, err)
	}
}

// Scenario is one API call and what its answer must be.
type Scenario struct {
	Name   string
	Method string
	URL    string
	// Body is sent verbatim when a string or []byte, JSON-encoded
	// otherwise, not at all when nil.
	Body    any
	Headers map[string]string
	// TLS, when set, is the state of the connection the call comes over
	// (its client certificates, for a certificate login).
	TLS *tls.ConnectionState
	// As is the caller; Anonymous sends no token.
	As Caller
	// ExpectedStatus is the status the answer must have.
	ExpectedStatus int
	// ExpectedContent are substrings the answer's body must contain;
	// NotExpectedContent substrings it must not.
	ExpectedContent    []string
	NotExpectedContent []string
	// BeforeTestFunc runs before the call (to set up what it needs);
	// AfterTestFunc after it, with the answer (to check its effect).
	BeforeTestFunc func(t *testing.T, e *Env)
	AfterTestFunc  func(t *testing.T, e *Env, res *httptest.ResponseRecorder)
	// ContractGap, when set, says why openapi.yaml does not list
	// ExpectedStatus for the operation yet: the runner then logs the gap
	// instead of failing. Each one is a change the contract owes.
	ContractGap string

	// generated marks a scenario Refused made: Run tells it from another
	// of the same operation and caller by its request.
	generated bool
}

// Test makes the scenario's call on e and checks the answer: its status,
// its content, and, for every error, a JSON body {"message": "..."} with a
// message and the X-Request-Id header (decisions §1).
func (s Scenario) Test(t *testing.T, e *Env) {
	t.Helper()
	if s.BeforeTestFunc != nil {
		s.BeforeTestFunc(t, e)
	}
	res := e.do(t, s.Method, s.URL, s.Body, s.As, s.Headers, s.TLS)
	body := res.Body.String()
	if res.Code != s.ExpectedStatus {
		t.Fatalf("%s %s as %q: status %d, want %d; body %s%s", s.Method, s.URL, s.As, res.Code, s.ExpectedStatus, body, e.recentErrors())
	}
	for _, want := range s.ExpectedContent {
		if !strings.Contains(body, want) {
			t.Errorf("%s %s: body %s lacks %q", s.Method, s.URL, body, want)
		}
	}
	for _, unwanted := range s.NotExpectedContent {
		if strings.Contains(body, unwanted) {
			t.Errorf("%s %s: body %s contains %q", s.Method, s.URL, body, unwanted)
		}
	}
	probe := httptest.NewRequestWithContext(context.Background(), s.Method, s.URL, nil)
	cover(probe)
	if op, ok := contractStatus(probe, res.Code); !ok && s.ContractGap != "" {
		t.Logf("contract gap: openapi.yaml does not list %d for %s: %s", res.Code, op, s.ContractGap)
	} else if ok && s.ContractGap != "" {
		t.Errorf("%s %s: openapi.yaml now lists %d for %s; remove the scenario's ContractGap", s.Method, s.URL, res.Code, op)
	} else if !ok {
		t.Errorf("%s %s: status %d is not among the answers openapi.yaml lists for %s", s.Method, s.URL, res.Code, op)
	}
	if res.Header().Get("X-Request-Id") == "" {
		t.Errorf("%s %s: no X-Request-Id", s.Method, s.URL)
	}
	if res.Code >= 400 {
		var msg struct {
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(res.Body.Bytes(), &msg); err != nil || msg.Message == nil || *msg.Message == "" {
			t.Errorf("%s %s: error body %s is not {\"message\": \"...\"}", s.Method, s.URL, body)
		}
		if ct := res.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s %s: error Content-Type %q", s.Method, s.URL, ct)
		}
	}
	if s.AfterTestFunc != nil {
		s.AfterTestFunc(t, e, res)
	}
}

// Run runs each scenario on e as a subtest named after it, in order.
func Run(t *testing.T, e *Env, scenarios []Scenario) {
	t.Helper()
	seen := map[string]bool{}
	for _, s := range scenarios {
		if s.generated && seen[s.Name] {
			s.Name += " (" + s.Method + " " + s.URL + ")"
		}
		if s.Name == "" || seen[s.Name] {
			t.Fatalf("scenario %q: every scenario needs a name of its own", s.Name)
		}
		seen[s.Name] = true
		t.Run(s.Name, func(t *testing.T) { s.Test(t, e) })
	}
}

// Each runs fn as the subtest "sqlite" with the shared SQLite gateway and
// as "postgres" with the shared PostgreSQL one (skipped when EDGE_TEST_PG
// is unset).
func Each(t *testing.T, fn func(t *testing.T, e *Env)) {
	t.Helper()
	for _, store := range []string{SQLite, Postgres} {
		t.Run(store, func(t *testing.T) {
			e, err := shared(store)
			if err != nil {
				t.Fatal(err)
			}
			if e == nil {
				t.Skip(dbtest.EnvPostgres + " is unset; skipping PostgreSQL (run under scripts/with-postgres.sh)")
			}
			fn(t, e)
		})
	}
}

// EachFresh is Each with a gateway of the subtest's own, released when it
// ends: for tests that change what other tests rely on.
func EachFresh(t *testing.T, fn func(t *testing.T, e *Env)) {
	t.Helper()
	for _, store := range []string{SQLite, Postgres} {
		t.Run(store, func(t *testing.T) {
			dsn := ""
			if store == Postgres {
				dsn = dbtest.PostgresDSN(t)
			}
			e, err := newEnv(store, dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(e.release)
			fn(t, e)
		})
	}
}

// The shared gateways, one per store, made on first use.
var (
	sharedMu   sync.Mutex
	sharedEnvs = map[string]*Env{}
	sharedErrs = map[string]error{}
	releases   []func()
)

// shared returns the shared gateway of store, nil for Postgres when
// EDGE_TEST_PG is unset.
func shared(store string) (*Env, error) {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if e, ok := sharedEnvs[store]; ok {
		return e, sharedErrs[store]
	}
	dsn := ""
	if store == Postgres {
		admin := os.Getenv(dbtest.EnvPostgres)
		if admin == "" {
			sharedEnvs[store] = nil
			return nil, nil
		}
		d, drop, err := dbtest.CreatePostgres(admin)
		if err != nil {
			sharedEnvs[store], sharedErrs[store] = nil, err
			return nil, err
		}
		dsn = d
		releases = append(releases, func() {
			if err := drop(); err != nil {
				fmt.Fprintln(os.Stderr, "scenario:", err)
			}
		})
	}
	e, err := newEnv(store, dsn)
	sharedEnvs[store], sharedErrs[store] = e, err
	if e != nil {
		releases = append(releases, e.release)
	}
	return e, err
}

// Main runs the tests of m and then releases the shared gateways; call it
// from TestMain: os.Exit(scenario.Main(m)). When every test ran (no -run,
// -skip or -short) and passed, it fails the run if an operation of
// openapi.yaml was called by no scenario, so that every operation keeps
// its scenarios.
func Main(m *testing.M) int {
	code := m.Run()
	if code == 0 && wholeRun() {
		if missing := uncovered(); len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "scenario: no scenario calls these operations of openapi.yaml: %s\n", strings.Join(missing, ", "))
			code = 1
		}
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	for i := len(releases) - 1; i >= 0; i-- {
		releases[i]()
	}
	releases = nil
	return code
}

// wholeRun reports whether the test binary runs all its tests.
func wholeRun() bool {
	for _, name := range []string{"test.run", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return !testing.Short()
}

// setupTimeout bounds assembling a gateway and logging its users in.
const setupTimeout = 2 * time.Minute

// newEnv assembles and starts a gateway on dsn ("" for SQLite in its data
// directory) and logs in one user of each role.
func newEnv(store, dsn string) (_ *Env, err error) {
	dir, err := os.MkdirTemp("", "edged-scenario-")
	if err != nil {
		return nil, err
	}
	journal := logging.NewJournal()
	log := slog.New(journal.Handler(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})))
	control := system.NewControl()
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	g, err := app.New(ctx, app.Config{DataDir: dir, DB: dsn, Durability: db.Process, AdminPassword: Password,
		Version: "scenario", Logger: log, Journal: journal}, control)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("assemble a gateway on %s: %w", store, err)
	}
	// The services and scheduler run on a context of their own: a test's
	// context ends before the shared gateway does.
	g.Start(context.Background())
	e := &Env{Store: store, DataDir: dir, Gateway: g, Control: control, Journal: journal,
		tokens: map[Caller]string{}, userIDs: map[Caller]int{Admin: 1}}
	e.release = func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), setupTimeout)
		defer cancel()
		g.Stop(stopCtx)
		g.Close()
		_ = os.RemoveAll(dir)
	}
	defer func() {
		if err != nil {
			e.release()
		}
	}()
	if e.tokens[Admin], err = e.login(ctx, "admin"); err != nil {
		return nil, err
	}
	for _, c := range []Caller{User, View, DataView, Control} {
		name := "scenario-" + string(c)
		var created struct {
			UserID int `json:"userId"`
		}
		if err := e.setupCall(ctx, "POST", "/edge/admin/user",
			map[string]any{"username": name, "password": Password, "role_id": roleIDs[c]}, Admin, &created); err != nil {
			return nil, err
		}
		e.userIDs[c] = created.UserID
		if e.tokens[c], err = e.login(ctx, name); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// login logs name in and returns the token.
func (e *Env) login(ctx context.Context, name string) (string, error) {
	var res struct {
		Token string `json:"token"`
	}
	if err := e.setupCall(ctx, "POST", "/edge/login", map[string]any{"username": name, "password": Password}, Anonymous, &res); err != nil {
		return "", err
	}
	if res.Token == "" {
		return "", fmt.Errorf("login of %s gave no token", name)
	}
	return res.Token, nil
}

// setupCall makes a call of the setup, which must answer 200.
func (e *Env) setupCall(ctx context.Context, method, url string, body any, c Caller, out any) error {
	j, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req := httptest.NewRequestWithContext(ctx, method, url, bytes.NewReader(j))
	req.Header.Set("Content-Type", "application/json")
	if tok := e.tokens[c]; tok != "" {
		req.Header.Set("Authorization", tok)
	}
	rec := httptest.NewRecorder()
	e.Gateway.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return fmt.Errorf("setup %s %s: %d %s", method, url, rec.Code, rec.Body.String())
	}
	return json.Unmarshal(rec.Body.Bytes(), out)
}

// Refused returns, for each caller, a scenario of the call that the
// caller may not make: 401 for Anonymous (no token), 403 for a role.
func Refused(method, url string, body any, callers ...Caller) []Scenario {
	out := make([]Scenario, 0, len(callers))
	op := method + " " + url
	if o, ok := operationOf(method, escapedPath(url)); ok {
		op = o.id
	}
	for _, c := range callers {
		s := Scenario{Method: method, URL: url, Body: body, As: c, ExpectedStatus: http.StatusForbidden,
			Name: op + " refused to " + string(c), generated: true}
		if c == Anonymous {
			s.ExpectedStatus, s.Name = http.StatusUnauthorized, op+" refused anonymously"
		}
		out = append(out, s)
	}
	return out
}

// escapedPath returns the escaped path of url (a path with an optional
// query).
func escapedPath(url string) string {
	if i := strings.IndexByte(url, '?'); i >= 0 {
		return url[:i]
	}
	return url
}

// Concat joins scenario lists into one table.
func Concat(lists ...[]Scenario) []Scenario {
	var out []Scenario
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Decode returns an AfterTestFunc that decodes the answer
// into a value of T and runs check on it.
func Decode[T any](check func(t *testing.T, e *Env, v T)) func(t *testing.T, e *Env, res *httptest.ResponseRecorder) {
	return func(t *testing.T, e *Env, res *httptest.ResponseRecorder) {
		t.Helper()
		var v T
		if err := json.Unmarshal(res.Body.Bytes(), &v); err != nil {
			t.Fatalf("decode %s: %v", res.Body.String(), err)
		}
		check(t, e, v)
	}
}
